import { BSON } from 'mongodb';
import { describe, expect, it } from 'vitest';
import { beginConfirm } from '../domain/begin.ts';
import { createIntent, toResource } from '../domain/intent.ts';
import { applyOutcome } from '../domain/outcomes.ts';
import { beginRefund } from '../domain/refunds.ts';
import type { StoredPayment } from '../domain/payment.ts';
import { Attempt, PAYMENT_FIELDS } from '../lib/schemas/payment.ts';
import { paymentDoc, paymentResourceDoc, restorePayment, restorePaymentResource } from './payment-doc.ts';

const now = '2026-11-27T10:00:00.000Z';
const created = createIntent('mer_1', { amount: 10_000, currency: 'EUR', customer: { email: 'a@example.com' } } as never, {
  now: new Date(now),
  paymentId: 'pay_00000000000000000000000001',
  clientSecret: (id) => `${id}_secret_x`,
  newCustomerId: () => 'cus_1',
  ephemeralSecret: () => 'epk_1',
});
function succeeded(): StoredPayment {
  const begun = beginConfirm(created, { payment_method: 'pay_later' }, { now, operationId: 'op_a', connector: 'service_test' });
  if (begun.kind !== 'apply') throw new Error(begun.kind);
  const done = applyOutcome(begun.payment, 'op_a', { kind: 'CAPTURED', connector_transaction_id: 'stp_1' }, now);
  if (done.kind !== 'apply') throw new Error(done.kind);
  return done.payment;
}
function refunded(): StoredPayment {
  const paid = succeeded();
  const begun = beginRefund(paid, { payment_id: paid.payment_id, refund_id: 'ref_1', amount: 4_000 }, { now, operationId: 'op_r', requestHash: 'h' });
  if (begun.kind !== 'apply') throw new Error(begun.kind);
  const done = applyOutcome(begun.payment, 'op_r', { kind: 'REFUNDED', connector_transaction_id: 'stp_r' }, now);
  if (done.kind !== 'apply') throw new Error(done.kind);
  return done.payment;
}
/** The document as MongoDB stores and returns it (BSON both ways). */
const throughBson = <T extends object>(doc: T): T => BSON.deserialize(BSON.serialize(doc)) as T;

describe('payment documents', () => {
  it.each([
    ['created', created],
    ['succeeded', succeeded()],
    ['refunded', refunded()],
  ])('a %s payment reads back equal to what was written, its null fields included', (_, p) => {
    expect(Object.values(p).filter((v) => v === null).length).toBeGreaterThan(30);
    expect(restorePayment(throughBson(paymentDoc(p)))).toEqual(p);
  });

  it('leaves out the null fields of the payment and of its attempts and captures, and nothing else', () => {
    const p = succeeded();
    const doc = paymentDoc(p);
    const nullsOf = (o: object) =>
      Object.entries(o)
        .filter(([, v]) => v === null)
        .map(([k]) => k);
    for (const k of nullsOf(doc)) expect(['three_ds', 'mandate', 'request_extras', 'review_hold']).toContain(k);
    expect(p.attempts?.length).toBe(1);
    // What is left null in a row is a field its schema also allows to be absent (z.unknown()): kept as it is.
    for (const row of doc.attempts ?? [])
      for (const k of nullsOf(row)) expect(Attempt.shape[k as keyof typeof Attempt.shape].safeParse(undefined).success).toBe(true);
    expect(nullsOf(doc.attempts?.[0] ?? {}).length).toBeLessThan(3);
    expect(doc.attempts?.[0]).toMatchObject({ status: 'charged', connector: 'service_test', connector_transaction_id: 'stp_1' });
    expect(doc.amount).toBe(10_000);
    expect(BSON.calculateObjectSize(doc)).toBeLessThan(0.7 * BSON.calculateObjectSize(p));
    // The payment given is not changed.
    expect(p.description).toBeNull();
    expect(nullsOf(p.attempts?.[0] ?? {})).toContain('error_code');
  });

  it.each([
    ['succeeded', succeeded()],
    ['refunded', refunded()],
  ])('a %s payment read back answers the same resource, as the same JSON text', (_, p) => {
    if (p.refunds?.length) {
      expect(p.refunds[0]).toHaveProperty('reason', null);
      expect(paymentDoc(p).refunds?.[0]).not.toHaveProperty('reason');
    }
    expect(JSON.stringify(toResource(restorePayment(throughBson(paymentDoc(p)))))).toBe(JSON.stringify(toResource(p)));
  });

  it('keeps optional fields as they are: a null three_ds is stored as null', () => {
    const p: StoredPayment = { ...created, three_ds: null, mandate: null };
    expect(paymentDoc(p)).toMatchObject({ three_ds: null, mandate: null });
  });

  it('reads documents written with their nulls (before this layout) the same', () => {
    const p = succeeded();
    expect(restorePayment(throughBson(p))).toEqual(p);
  });

  it("restores a list projection's fields only", () => {
    const listed = restorePayment(throughBson({ payment_id: 'pay_1', amount: 1 }), PAYMENT_FIELDS);
    expect(listed).toMatchObject({ payment_id: 'pay_1', description: null, customer_id: null });
    expect(listed).not.toHaveProperty('in_flight_since');
  });

  it("an event's payment resource reads back as the same JSON text: every field, in the resource's order", () => {
    const resource = toResource(refunded());
    expect(resource.refunds).toHaveLength(1);
    const doc = paymentResourceDoc(resource);
    expect(BSON.calculateObjectSize(doc)).toBeLessThan(0.8 * BSON.calculateObjectSize(resource));
    expect(JSON.stringify(restorePaymentResource(throughBson(doc)))).toBe(JSON.stringify(resource));
    // Stored before this layout, with its nulls: the same.
    expect(JSON.stringify(restorePaymentResource(throughBson(resource)))).toBe(JSON.stringify(resource));
  });
});
