// The inbox of provider notifications (collection provider_notifications): the gateway records each verified
// notification once, keyed by (merchant_id, merchant_connector_id, sha256 of the raw body), before it answers the
// provider; the connector's worker reads it (a NotificationJob) and writes down what came of it. The record of what
// was applied about each provider object, with the provider's updated_at, is what keeps an older notification from
// being applied after a newer one.
import type { Collection, Db } from 'mongodb';
import type { ConnectorName } from './schemas/common.ts';
import { isDuplicateKey } from './mongo.ts';

export const NOTIFICATIONS = 'provider_notifications';

/** What came of a notification: applied (payment-state changed something), unchanged (it had, or nothing was open),
 * stale (a newer one about the same object was applied first), ignored (not an object or shape we know, or no payment of this account). */
/** synced: an unsigned hint, or a notice that would raise money, on which the payment's open operations were synced
 * with the provider (its word is what applies). refused: what it says cannot be about the payment (a dispute above
 * what was captured or in another currency); logged. */
export type NotificationResult = 'applied' | 'unchanged' | 'stale' | 'ignored' | 'synced' | 'refused';

export interface NotificationDoc {
  merchant_id: string;
  merchant_connector_id: string;
  connector: ConnectorName;
  body_sha256: string;
  body: string;
  /** The URL's query, kept for an unsigned scheme (NotificationJob.query). */
  query?: Record<string, string>;
  received_at: string;
  /** Set by the worker. */
  result?: NotificationResult;
  /** `${object}:${the provider's id}`, e.g. payment:stp_…; what ordering is judged per. */
  object_key?: string;
  provider_updated_at?: string;
  note?: string;
  processed_at?: string;
}

export class NotificationInbox {
  readonly coll: Collection<NotificationDoc>;
  constructor(db: Db) {
    this.coll = db.collection<NotificationDoc>(NOTIFICATIONS);
  }

  /** Records a notification; false if the same one (same account, same bytes) was recorded before. */
  async record(doc: NotificationDoc): Promise<boolean> {
    try {
      await this.coll.insertOne({ ...doc });
      return true;
    } catch (err) {
      if (isDuplicateKey(err)) return false;
      throw err;
    }
  }

  async find(key: Pick<NotificationDoc, 'merchant_id' | 'merchant_connector_id' | 'body_sha256'>): Promise<NotificationDoc | null> {
    return this.coll.findOne(
      { merchant_id: key.merchant_id, merchant_connector_id: key.merchant_connector_id, body_sha256: key.body_sha256 },
      { projection: { _id: 0 } },
    );
  }

  /** A notification about the same object, newer by the provider's clock, that was already acted on. */
  async newerProcessed(
    key: Pick<NotificationDoc, 'merchant_id' | 'merchant_connector_id'>,
    objectKey: string,
    providerUpdatedAt: string,
  ): Promise<NotificationDoc | null> {
    return this.coll.findOne(
      {
        merchant_id: key.merchant_id,
        merchant_connector_id: key.merchant_connector_id,
        object_key: objectKey,
        provider_updated_at: { $gt: providerUpdatedAt },
        result: { $in: ['applied', 'unchanged'] },
      },
      { projection: { _id: 0, body: 0 } },
    );
  }

  async done(
    key: Pick<NotificationDoc, 'merchant_id' | 'merchant_connector_id' | 'body_sha256'>,
    what: Pick<NotificationDoc, 'result' | 'object_key' | 'provider_updated_at' | 'note'>,
  ): Promise<void> {
    const set = Object.fromEntries(Object.entries({ ...what, processed_at: new Date().toISOString() }).filter(([, v]) => v !== undefined));
    await this.coll.updateOne({ merchant_id: key.merchant_id, merchant_connector_id: key.merchant_connector_id, body_sha256: key.body_sha256 }, { $set: set });
  }
}
