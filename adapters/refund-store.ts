// Refunds in MongoDB. A refund lives in its payment (the payment's transitions are the truth, and what keeps
// concurrent refunds within the captured amount); the `refunds` collection is a projection of those rows for
// lookups by refund_id and for POST /refunds/list, written beside the payment's projection. The gateway first
// claims the refund_id there (a unique key per merchant), so one refund_id names one refund across all payments.
import type { Collection, Db, Filter } from 'mongodb';
import { isDuplicateKey } from '../lib/mongo.ts';
import { totalFromPage } from '../lib/list-total.ts';
import { withSpan, SpanKind } from '../lib/telemetry.ts';
import { REFUND_FIELDS, type RefundResource } from '../lib/schemas/refund.ts';
import { refundView } from '../domain/refunds.ts';
import type { StoredPayment } from '../domain/payment.ts';

/** A claim (before the refund exists: no status) or the projected refund. */
export type RefundDoc = Partial<RefundResource> & {
  merchant_id: string;
  refund_id: string;
  payment_id: string;
  /** The create request's hash: the same refund_id with another body is a conflict. */
  request_hash: string;
  claimed_at: string;
  /** The payment transition this projection was written from. */
  payment_seq?: number;
};

/** What a list reads of a refund: its resource's fields. */
export type ListedRefund = Pick<RefundDoc, keyof RefundResource>;
const LISTED_PROJECTION = { _id: 0, ...Object.fromEntries(REFUND_FIELDS.map((k) => [k, 1])) };

export class RefundStore {
  readonly refunds: Collection<RefundDoc>;

  constructor(db: Db) {
    this.refunds = db.collection<RefundDoc>('refunds');
  }

  private span<T>(op: string, fn: () => Promise<T>): Promise<T> {
    return withSpan(
      `mongodb ${op} refunds`,
      { kind: SpanKind.CLIENT, attributes: { 'db.system.name': 'mongodb', 'db.operation.name': op, 'db.collection.name': 'refunds' } },
      fn,
    );
  }

  /** Claims refund_id for this payment and request; returns null when claimed now, else the earlier claim. */
  async claim(merchantId: string, refundId: string, paymentId: string, requestHash: string): Promise<RefundDoc | null> {
    try {
      await this.span('insert', () =>
        this.refunds.insertOne({
          merchant_id: merchantId,
          refund_id: refundId,
          payment_id: paymentId,
          request_hash: requestHash,
          claimed_at: new Date().toISOString(),
        }),
      );
      return null;
    } catch (err) {
      if (!isDuplicateKey(err)) throw err;
      return this.find(merchantId, refundId);
    }
  }

  /** Gives a claim back (its refund was refused): only a claim, never a refund that exists. */
  async release(merchantId: string, refundId: string): Promise<void> {
    await this.span('delete', () => this.refunds.deleteOne({ merchant_id: merchantId, refund_id: refundId, payment_seq: { $exists: false } }));
  }

  async find(merchantId: string, refundId: string): Promise<RefundDoc | null> {
    return this.span('find', () => this.refunds.findOne({ merchant_id: merchantId, refund_id: refundId }, { projection: { _id: 0 } }));
  }

  /**
   * Writes the payment's refunds as this transition shows them. A row moves only forward (an older transition's
   * write matches nothing and its upsert meets the unique key), so a slow writer never lands over a newer one.
   */
  async project(p: StoredPayment): Promise<void> {
    if (!p.refunds?.length) return;
    await Promise.all(
      p.refunds.map((r) =>
        this.span('update', () =>
          this.refunds.updateOne(
            { merchant_id: p.merchant_id, refund_id: r.refund_id, $or: [{ payment_seq: { $exists: false } }, { payment_seq: { $lt: p.seq } }] },
            {
              $set: { ...refundView(r), merchant_id: p.merchant_id, request_hash: r.request_hash, payment_seq: p.seq },
              $setOnInsert: { claimed_at: r.created_at },
            },
            { upsert: true },
          ),
        ).catch((err) => {
          if (!isDuplicateKey(err)) throw err;
        }),
      ),
    );
  }

  /**
   * A merchant's refunds (never bare claims) matching `filter`, newest first, with only their resource's fields; how
   * many match when asked (POST /refunds/list), counted only when the page does not tell it.
   */
  async list(
    merchantId: string,
    filter: Filter<RefundDoc>,
    opts: { limit: number; skip: number; count?: boolean },
  ): Promise<{ data: ListedRefund[]; total: number | null }> {
    const query = { ...filter, merchant_id: merchantId, payment_seq: { $exists: true } } as Filter<RefundDoc>;
    const data: ListedRefund[] = await this.span('find', () =>
      this.refunds.find(query, { projection: LISTED_PROJECTION }).sort({ created_at: -1, refund_id: -1 }).skip(opts.skip).limit(opts.limit).toArray(),
    );
    if (!opts.count) return { data, total: null };
    const total = totalFromPage(opts.skip, opts.limit, data.length) ?? (await this.span('count', () => this.refunds.countDocuments(query)));
    return { data, total };
  }
}
