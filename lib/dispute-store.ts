// Disputes in MongoDB: `disputes` is a projection of the disputes each payment's transitions hold (one document per
// dispute: the Dispute resource, merchant_id and the payment seq it was taken from), written by payment-state after
// the payment's projection, read by the gateway's /disputes routes.
import type { Collection, Db, Filter } from 'mongodb';
import { canExist } from './ids.ts';
import { isDuplicateKey } from './mongo.ts';
import type { DisputeResource } from './schemas/dispute.ts';

export type DisputeDoc = DisputeResource & { merchant_id: string; payment_seq: number };

const HIDDEN = { _id: 0, merchant_id: 0, payment_seq: 0 } as const;

export class DisputeStore {
  readonly disputes: Collection<DisputeDoc>;

  constructor(db: Db) {
    this.disputes = db.collection<DisputeDoc>('disputes');
  }

  /**
   * Move the dispute's document to what the payment's transition `paymentSeq` says; a document already taken from
   * that transition or a newer one stays (a late writer never moves it back).
   */
  async project(merchantId: string, dispute: DisputeResource, paymentSeq: number): Promise<void> {
    const doc: DisputeDoc = { ...dispute, merchant_id: merchantId, payment_seq: paymentSeq };
    const key = { dispute_id: dispute.dispute_id, merchant_id: merchantId };
    const r = await this.disputes.replaceOne({ ...key, payment_seq: { $lt: paymentSeq } }, doc);
    if (r.matchedCount === 1) return;
    await this.disputes.insertOne({ ...doc }).catch((err) => {
      // Present already, at this seq or a newer one.
      if (!isDuplicateKey(err)) throw err;
    });
  }

  async find(merchantId: string, disputeId: string): Promise<DisputeResource | null> {
    if (!canExist('dispute', disputeId) || !canExist('merchant', merchantId)) return null;
    return this.disputes.findOne({ dispute_id: disputeId, merchant_id: merchantId }, { projection: HIDDEN });
  }

  /** A merchant's disputes matching `filter`, newest received first; `skip` of them first (the dashboard's pages). */
  async list(merchantId: string, filter: Filter<DisputeDoc>, limit: number, skip = 0): Promise<DisputeResource[]> {
    return this.disputes
      .find({ ...filter, merchant_id: merchantId } as Filter<DisputeDoc>, { projection: HIDDEN })
      .sort({ created_at: -1, dispute_id: -1 })
      .skip(skip)
      .limit(limit)
      .toArray();
  }
}
