// Refund decisions: which refund may start, for how much, and where the provider's answer leads; a random sequence
// of captures, refunds and outcomes keeps refunded <= captured <= authorized.
import { describe, expect, it } from 'vitest';
import { beginCancel, beginCapture, beginConfirm } from './begin.ts';
import { createIntent } from './intent.ts';
import { jobFor } from './job.ts';
import { applyOutcome } from './outcomes.ts';
import type { Decision, OutcomeKind, StoredPayment } from './payment.ts';
import { beginRefund, beginRefundUpdate, refundable, refundView } from './refunds.ts';

const now = '2026-11-23T10:00:00.000Z';
let n = 0;
const PAYMENT_ID = (i: number) => `pay_${String(i).padStart(26, '0')}`;
function apply(d: Decision) {
  if (d.kind !== 'apply') throw new Error(`expected apply, got ${JSON.stringify(d)}`);
  return d;
}
function paid(capture_method = 'automatic', amount = 10_000): StoredPayment {
  const p = createIntent('m1', { amount, currency: 'EUR', capture_method } as never, {
    now: new Date(now),
    paymentId: PAYMENT_ID(++n),
    clientSecret: (id) => `${id}_secret_x`,
    newCustomerId: () => 'cus_1',
    ephemeralSecret: () => 'epk_1',
  });
  const c = apply(beginConfirm(p, { payment_method: 'pay_later' }, { now, operationId: 'op_a', connector: 'service_test' }));
  const kind: OutcomeKind = capture_method === 'automatic' ? 'CAPTURED' : 'AUTHORIZED';
  return apply(applyOutcome(c.payment, 'op_a', { kind, connector_transaction_id: 'stp_1' }, now)).payment;
}
const refund = (p: StoredPayment, body: { amount?: number; refund_id?: string; capture_id?: string; reason?: string }, op = 'op_r', hash = 'h1') =>
  beginRefund(p, { payment_id: p.payment_id, refund_id: body.refund_id ?? 'ref_1', ...body }, { now, operationId: op, requestHash: hash });

describe('beginRefund', () => {
  it('a succeeded payment: the default amount is what is captured; the row is pending and the payment keeps its status', () => {
    const p = paid();
    const d = apply(refund(p, {}));
    expect(d.operation).toMatchObject({ kind: 'refund', ref: 'ref_1', amount: 10_000, open: true });
    expect(d.payment.status).toBe('succeeded');
    expect(d.payment.refunds).toHaveLength(1);
    expect(refundView(d.payment.refunds![0]!)).toMatchObject({
      refund_id: 'ref_1',
      amount: 10_000,
      status: 'pending',
      currency: 'EUR',
      connector: 'service_test',
    });
    expect(refundView(d.payment.refunds![0]!)).not.toHaveProperty('request_hash');
    expect(jobFor(d.payment, d.operation!)).toMatchObject({ kind: 'refund', refund_id: 'ref_1', amount: 10_000, connector_transaction_id: 'stp_1' });
  });
  it('refused outside succeeded / partially captured (IR_14), over the refundable amount (IR_13), nothing left (IR_13)', () => {
    expect(refund(paid('manual'), {})).toMatchObject({ kind: 'refused', code: 'IR_14' });
    const p = paid();
    expect(refund(p, { amount: 10_001 })).toMatchObject({ kind: 'refused', code: 'IR_13', param: 'amount' });
    const after = apply(refund(p, { amount: 6_000 })).payment;
    expect(refund(after, { amount: 4_001, refund_id: 'ref_2' }, 'op_2')).toMatchObject({ kind: 'refused', code: 'IR_13' });
    const full = apply(refund(after, { refund_id: 'ref_2' }, 'op_2')).payment;
    expect(full.refunds![1]!.amount).toBe(4_000);
    expect(refund(full, { refund_id: 'ref_3' }, 'op_3')).toMatchObject({ kind: 'refused', code: 'IR_13' });
  });
  it('a failed refund gives its amount back; a succeeded one keeps it', () => {
    const p = apply(refund(paid(), { amount: 7_000 })).payment;
    const failed = apply(applyOutcome(p, 'op_r', { kind: 'DECLINED', error_code: 'refund_declined', error_message: 'no' }, now)).payment;
    expect(failed.refunds![0]).toMatchObject({ status: 'failed', error_code: 'refund_declined', error_message: 'no' });
    expect(failed.in_flight).toBe(false);
    expect(refundable(failed)).toBe(10_000);
    const ok = apply(applyOutcome(p, 'op_r', { kind: 'REFUNDED', connector_transaction_id: 'str_1' }, now)).payment;
    expect(ok.refunds![0]).toMatchObject({ status: 'succeeded', connector_refund_id: 'str_1', error_code: null });
    expect(ok.status).toBe('succeeded');
    expect(refundable(ok)).toBe(3_000);
  });
  it('pending keeps the operation open for status syncs and remembers the provider id', () => {
    const p = apply(refund(paid(), {})).payment;
    const pending = apply(applyOutcome(p, 'op_r', { kind: 'PENDING', connector_transaction_id: 'str_9' }, now)).payment;
    expect(pending.operations.find((o) => o.operation_id === 'op_r')!.open).toBe(true);
    expect(jobFor(pending, pending.operations.at(-1)!, 'sync')).toMatchObject({ connector_refund_id: 'str_9', mode: 'sync' });
    expect(applyOutcome(pending, 'op_r', { kind: 'PENDING' }, now)).toEqual({ kind: 'noop' });
    expect(applyOutcome(pending, 'op_r', { kind: 'CAPTURED' }, now)).toMatchObject({ kind: 'refused' });
  });
  it('the same refund_id: the same body replays, another body is a conflict (HE_01)', () => {
    const p = apply(refund(paid(), { amount: 100 })).payment;
    expect(refund(p, { amount: 100 })).toMatchObject({ kind: 'replay', operation: { operation_id: 'op_r' } });
    expect(refund(p, { amount: 200 }, 'op_x', 'h2')).toMatchObject({ kind: 'refused', code: 'HE_01', param: 'refund_id' });
  });
  it("within one capture: at most that capture's remainder; an unknown capture is refused naming capture_id", () => {
    let p = paid('manual_multiple');
    p = apply(beginCapture(p, { amount_to_capture: 3_000 }, { now, operationId: 'op_c1', captureId: 'cap_1' })).payment;
    p = apply(applyOutcome(p, 'op_c1', { kind: 'CAPTURED' }, now)).payment;
    expect(p.status).toBe('partially_captured_and_capturable');
    expect(refund(p, { capture_id: 'cap_1', amount: 3_001 })).toMatchObject({ kind: 'refused', code: 'IR_13' });
    expect(refund(p, { capture_id: 'cap_x' })).toMatchObject({ kind: 'refused', code: 'IR_05', param: 'capture_id' });
    const d = apply(refund(p, { capture_id: 'cap_1' }));
    expect(d.operation!.amount).toBe(3_000);
    // A second capture in flight: what was captured before stays refundable.
    const capturing = apply(beginCapture(p, { amount_to_capture: 2_000 }, { now, operationId: 'op_c2', captureId: 'cap_2' })).payment;
    expect(capturing.status).toBe('processing');
    expect(apply(refund(capturing, { amount: 1_000 })).operation!.amount).toBe(1_000);
  });
  it("within one capture: also within the payment's remainder (issue 19 item 1: refunds that named no capture count too)", () => {
    // The sequence: capture 1000, refund 1000 naming no capture, then 1000 naming the capture.
    let p = paid('manual', 1_000);
    p = apply(beginCapture(p, {}, { now, operationId: 'op_c1', captureId: 'cap_1' })).payment;
    p = apply(applyOutcome(p, 'op_c1', { kind: 'CAPTURED' }, now)).payment;
    p = apply(refund(p, { amount: 1_000 })).payment;
    expect(refundable(p, 'cap_1')).toBe(0);
    expect(refund(p, { refund_id: 'ref_2', capture_id: 'cap_1', amount: 1_000 }, 'op_2', 'h2')).toMatchObject({
      kind: 'refused',
      code: 'IR_13',
      param: 'amount',
    });
    expect(refund(p, { refund_id: 'ref_2', capture_id: 'cap_1' }, 'op_2', 'h2')).toMatchObject({ kind: 'refused', code: 'IR_13', param: 'amount' });
    // Two captures (3000 + 2000), 4000 refunded naming none: cap_1 has 3000 of its own left, the payment only 1000.
    let q = paid('manual_multiple');
    q = apply(beginCapture(q, { amount_to_capture: 3_000 }, { now, operationId: 'op_c1', captureId: 'cap_1' })).payment;
    q = apply(applyOutcome(q, 'op_c1', { kind: 'CAPTURED' }, now)).payment;
    q = apply(beginCapture(q, { amount_to_capture: 2_000 }, { now, operationId: 'op_c2', captureId: 'cap_2' })).payment;
    q = apply(applyOutcome(q, 'op_c2', { kind: 'CAPTURED' }, now)).payment;
    q = apply(refund(q, { amount: 4_000 })).payment;
    expect(refundable(q, 'cap_1')).toBe(1_000);
    expect(refund(q, { refund_id: 'ref_2', capture_id: 'cap_1', amount: 1_001 }, 'op_2', 'h2')).toMatchObject({
      kind: 'refused',
      code: 'IR_13',
      param: 'amount',
    });
    expect(apply(refund(q, { refund_id: 'ref_2', capture_id: 'cap_1' }, 'op_2', 'h2')).operation!.amount).toBe(1_000);
    // And the capture's remainder binds when it is the smaller: 2500 of cap_2 refunded through it, 500 is its limit.
    let r = paid('manual_multiple');
    r = apply(beginCapture(r, { amount_to_capture: 3_000 }, { now, operationId: 'op_c1', captureId: 'cap_1' })).payment;
    r = apply(applyOutcome(r, 'op_c1', { kind: 'CAPTURED' }, now)).payment;
    r = apply(refund(r, { capture_id: 'cap_1', amount: 2_500 })).payment;
    expect(refundable(r)).toBe(500);
    expect(refundable(r, 'cap_1')).toBe(500);
  });
  it('a failed refund naming a capture gives its amount back to the capture and the payment', () => {
    let p = paid('manual', 1_000);
    p = apply(beginCapture(p, {}, { now, operationId: 'op_c1', captureId: 'cap_1' })).payment;
    p = apply(applyOutcome(p, 'op_c1', { kind: 'CAPTURED' }, now)).payment;
    p = apply(refund(p, { capture_id: 'cap_1', amount: 1_000 })).payment;
    p = apply(applyOutcome(p, 'op_r', { kind: 'DECLINED', error_code: 'refund_declined', error_message: 'no' }, now)).payment;
    expect(refundable(p)).toBe(1_000);
    expect(refundable(p, 'cap_1')).toBe(1_000);
  });
});

describe('beginRefundUpdate', () => {
  it('changes reason and metadata only; an unknown refund is HE_02', () => {
    const p = apply(refund(paid(), { reason: 'a' })).payment;
    const u = apply(beginRefundUpdate(p, { refund_id: 'ref_1', reason: 'b', metadata: { k: 'v' } }, { now: '2026-11-23T11:00:00.000Z' })).payment;
    expect(u.refunds![0]).toMatchObject({ reason: 'b', metadata: { k: 'v' }, amount: 10_000, status: 'pending', updated_at: '2026-11-23T11:00:00.000Z' });
    expect(beginRefundUpdate(u, { refund_id: 'ref_1', reason: 'b' }, { now })).toEqual({ kind: 'noop' });
    expect(beginRefundUpdate(p, { refund_id: 'ref_9', reason: 'x' }, { now })).toMatchObject({ kind: 'refused', code: 'HE_02' });
  });
});

describe('property: random captures, refunds, cancels and outcomes', () => {
  it('keep refunded (not failed) <= captured <= authorized', () => {
    let seed = 42;
    const rnd = () => (seed = (seed * 1_103_515_245 + 12_345) % 2 ** 31) / 2 ** 31;
    const pick = <T>(xs: readonly T[]) => xs[Math.floor(rnd() * xs.length)]!;
    for (let run = 0; run < 300; run++) {
      let p = paid(pick(['automatic', 'manual', 'manual_multiple'] as const), 1 + Math.floor(rnd() * 20_000));
      for (let step = 0; step < 25; step++) {
        const open = p.operations.filter((o) => o.open);
        const id = `op_${run}_${step}`;
        let d: Decision;
        const r = rnd();
        if (open.length && r < 0.4) {
          const op = pick(open);
          const kinds: Record<string, OutcomeKind[]> = {
            capture: ['CAPTURED', 'FAILED', 'PENDING'],
            refund: ['REFUNDED', 'DECLINED', 'FAILED', 'PENDING'],
            void: ['VOIDED', 'FAILED'],
          };
          d = applyOutcome(p, op.operation_id, { kind: pick(kinds[op.kind] ?? ['FAILED']) }, now);
        } else if (r < 0.5) {
          d = beginCancel(p, {}, { now, operationId: id });
        } else if (r < 0.75) {
          d = refund(p, { refund_id: `ref_${run}_${step}`, ...(rnd() < 0.7 ? { amount: 1 + Math.floor(rnd() * 8_000) } : {}) }, id, id);
        } else {
          d = beginCapture(p, rnd() < 0.5 ? {} : { amount_to_capture: 1 + Math.floor(rnd() * 8_000) }, { now, operationId: id, captureId: `cap_${id}` });
        }
        if (d.kind === 'apply') p = d.payment;
        const refunded = (p.refunds ?? []).filter((x) => x.status !== 'failed').reduce((t, x) => t + x.amount, 0);
        const captured = p.amount_received ?? 0;
        expect(refunded).toBeLessThanOrEqual(captured);
        expect(captured).toBeLessThanOrEqual(p.amount);
      }
    }
  });
});
