// Mandates and saved payment methods in MongoDB (issue 22). Both are projections of the payment that set them up
// (its `mandate` part and setup_future_usage), written by the payment store's row projections once the payment is
// authorized, like refunds: insert-if-absent, so a projection written twice (a replay, a crash before the write)
// gives one document, and a later projection never undoes a revocation. Only a revocation changes a mandate after
// it exists (active -> revoked, conditional, once).
import type { Collection, Db } from 'mongodb';
import { withSpan, SpanKind } from '../lib/telemetry.ts';
import { CustomerPaymentMethod, MandateResource } from '../lib/schemas/mandate.ts';

export type MandateDoc = MandateResource;
export type PaymentMethodDoc = CustomerPaymentMethod & { merchant_id: string };

/**
 * A stored document read back as its resource: every field of the schema, one the store left out as null (FerretDB
 * drops null fields written by $setOnInsert), parsed. Only the schema's fields: no _id.
 */
function withNulls(shape: object, doc: object): Record<string, unknown> {
  const stored = new Map(Object.entries(doc));
  return Object.fromEntries(Object.keys(shape).map((k) => [k, stored.get(k) ?? null]));
}
const mandateOf = (doc: object): MandateDoc => MandateResource.parse(withNulls(MandateResource.shape, doc));
const paymentMethodOf = (merchantId: string, doc: object): PaymentMethodDoc => ({
  ...CustomerPaymentMethod.parse(withNulls(CustomerPaymentMethod.shape, doc)),
  merchant_id: merchantId,
});

/** A mandate is expired once past its single_use end_date (read time decides; nothing sweeps). */
export function effectiveStatus(m: MandateDoc, now: Date = new Date()): MandateDoc['status'] {
  if (m.status !== 'active') return m.status;
  const end = m.mandate_type?.single_use?.end_date;
  return end && Date.parse(end) < now.getTime() ? 'expired' : 'active';
}

export class MandateStore {
  readonly mandates: Collection<MandateDoc>;
  readonly paymentMethods: Collection<PaymentMethodDoc>;

  constructor(db: Db) {
    this.mandates = db.collection<MandateDoc>('mandates');
    this.paymentMethods = db.collection<PaymentMethodDoc>('payment_methods');
  }

  private span<T>(op: string, collection: string, fn: () => Promise<T>): Promise<T> {
    return withSpan(
      `mongodb ${op} ${collection}`,
      { kind: SpanKind.CLIENT, attributes: { 'db.system.name': 'mongodb', 'db.operation.name': op, 'db.collection.name': collection } },
      fn,
    );
  }

  /** Writes the mandate once (insert if absent): true when this call created it. */
  async insertMandate(m: MandateDoc): Promise<boolean> {
    const r = await this.span('update', 'mandates', () =>
      this.mandates.updateOne({ merchant_id: m.merchant_id, mandate_id: m.mandate_id }, { $setOnInsert: m }, { upsert: true }),
    );
    return r.upsertedCount === 1;
  }

  /** The mandate with its status as of now (expired past its end date); null when this merchant has none by that id. */
  async getMandate(merchantId: string, mandateId: string): Promise<MandateDoc | null> {
    const doc = await this.span('find', 'mandates', () =>
      this.mandates.findOne({ merchant_id: merchantId, mandate_id: mandateId }, { projection: { _id: 0 } }),
    );
    const m = doc && mandateOf(doc);
    return m ? { ...m, status: effectiveStatus(m) } : null;
  }

  /** A customer's mandates, newest first. */
  async listMandates(merchantId: string, customerId: string, limit = 100): Promise<MandateDoc[]> {
    const list = await this.span('find', 'mandates', () =>
      this.mandates
        .find({ merchant_id: merchantId, customer_id: customerId }, { projection: { _id: 0 } })
        .sort({ created_at: -1, mandate_id: -1 })
        .limit(limit)
        .toArray(),
    );
    return list.map(mandateOf).map((m) => ({ ...m, status: effectiveStatus(m) }));
  }

  /** active -> revoked, once; returns the mandate after the call (null: no such mandate). */
  async revokeMandate(merchantId: string, mandateId: string, at: string): Promise<{ mandate: MandateDoc; changed: boolean } | null> {
    const r = await this.span('update', 'mandates', () =>
      this.mandates.updateOne({ merchant_id: merchantId, mandate_id: mandateId, status: 'active' }, { $set: { status: 'revoked', revoked_at: at } }),
    );
    const mandate = await this.getMandate(merchantId, mandateId);
    return mandate ? { mandate, changed: r.modifiedCount === 1 } : null;
  }

  /** Writes the saved payment method once (insert if absent): true when this call created it. */
  async insertPaymentMethod(pm: PaymentMethodDoc): Promise<boolean> {
    const r = await this.span('update', 'payment_methods', () =>
      this.paymentMethods.updateOne({ merchant_id: pm.merchant_id, payment_token: pm.payment_token }, { $setOnInsert: pm }, { upsert: true }),
    );
    return r.upsertedCount === 1;
  }

  async getPaymentMethod(merchantId: string, paymentToken: string): Promise<PaymentMethodDoc | null> {
    const doc = await this.span('find', 'payment_methods', () =>
      this.paymentMethods.findOne({ merchant_id: merchantId, payment_token: paymentToken }, { projection: { _id: 0 } }),
    );
    return doc && paymentMethodOf(merchantId, doc);
  }

  /** A customer's saved payment methods, newest first. */
  async listPaymentMethods(merchantId: string, customerId: string, limit = 100): Promise<PaymentMethodDoc[]> {
    const list = await this.span('find', 'payment_methods', () =>
      this.paymentMethods
        .find({ merchant_id: merchantId, customer_id: customerId }, { projection: { _id: 0 } })
        .sort({ created_at: -1, payment_token: -1 })
        .limit(limit)
        .toArray(),
    );
    return list.map((doc) => paymentMethodOf(merchantId, doc));
  }

  async touchPaymentMethod(merchantId: string, paymentToken: string, at: string): Promise<void> {
    await this.span('update', 'payment_methods', () =>
      this.paymentMethods.updateOne({ merchant_id: merchantId, payment_token: paymentToken }, { $set: { last_used_at: at } }),
    );
  }

  /** A customer's saved payment methods removed (DELETE /customers/{id}); returns how many. */
  async deletePaymentMethods(merchantId: string, customerId: string): Promise<number> {
    const r = await this.span('delete', 'payment_methods', () => this.paymentMethods.deleteMany({ merchant_id: merchantId, customer_id: customerId }));
    return r.deletedCount;
  }
}
