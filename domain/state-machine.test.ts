// The state machine, exhaustively: every status x every action, and where each connector outcome leads.
import { describe, expect, it } from 'vitest';
import { PAYMENT_STATUSES } from '../lib/schemas/common.ts';
import type { PaymentStatusName } from '../lib/schemas/common.ts';
import { createIntent } from './intent.ts';
import { jobFor } from './job.ts';
import { beginApprove, beginCancel, beginCapture, beginConfirm, beginIncrementalAuthorization, beginReject } from './begin.ts';
import { applyOutcome } from './outcomes.ts';
import type { AuthenticationResult, OutcomeKind, StoredPayment } from './payment.ts';
import { authenticationAnswer, beginAuthenticate } from './three-ds.ts';
import { ACTIONS, ACTION_RULES, canStart, type Action } from './transitions.ts';

const now = '2026-11-22T10:00:00.000Z';
let n = 0;
function intent(body: Record<string, unknown> = {}): StoredPayment {
  return createIntent('m1', { amount: 10_000, currency: 'EUR', ...body } as never, {
    now: new Date(now),
    paymentId: `pay_${String(++n).padStart(26, '0')}`,
    clientSecret: (id) => `${id}_secret_x`,
    newCustomerId: () => 'cus_1',
    ephemeralSecret: () => 'epk_1',
  });
}
const apply = (d: ReturnType<typeof beginConfirm>) => {
  if (d.kind !== 'apply') throw new Error(`expected apply, got ${JSON.stringify(d)}`);
  return d;
};
function confirmed(capture_method: string, outcome: OutcomeKind = 'AUTHORIZED', extra: Record<string, unknown> = {}) {
  const d = apply(beginConfirm(intent({ capture_method, ...extra }), { payment_method: 'pay_later' }, { now, operationId: 'op_a', connector: 'service_test' }));
  return apply(applyOutcome(d.payment, 'op_a', { kind: outcome, connector_transaction_id: 'stp_1' }, now)).payment;
}

// Spec section 3 and the reference's lists, written out independently of ACTION_RULES.
const EXPECTED: Record<Action, { allowed: PaymentStatusName[]; code: string }> = {
  confirm: { allowed: ['requires_confirmation', 'requires_payment_method'], code: 'IR_16' },
  capture: { allowed: ['requires_capture', 'partially_captured_and_capturable'], code: 'IR_14' },
  // Section 3's four, plus partially_captured_and_capturable as ARCHITECTURE.md decides (the rest is released).
  cancel: {
    allowed: ['requires_payment_method', 'requires_capture', 'requires_confirmation', 'requires_customer_action', 'partially_captured_and_capturable'],
    code: 'IR_16',
  },
  incremental_authorization: { allowed: ['requires_capture'], code: 'IR_16' },
  refund: { allowed: ['succeeded', 'partially_captured', 'partially_captured_and_capturable'], code: 'IR_14' },
  approve: { allowed: ['requires_merchant_action'], code: 'IR_16' },
  reject: { allowed: ['requires_merchant_action'], code: 'IR_16' },
  update: { allowed: ['requires_confirmation', 'requires_payment_method'], code: 'IR_16' },
  // Spec 4.6, for a payment confirmed with authentication_type three_ds (further checked by beginAuthenticate).
  authenticate: { allowed: ['requires_customer_action'], code: 'IR_16' },
};

describe('every status x every action', () => {
  const cases = PAYMENT_STATUSES.flatMap((status) => ACTIONS.map((action) => [status, action] as const));
  it('covers all 11 statuses and 9 actions', () => {
    expect(cases).toHaveLength(99);
    expect(Object.keys(ACTION_RULES).sort()).toEqual([...ACTIONS].sort());
  });
  it.each(cases)('%s + %s', (status, action) => {
    const refusal = canStart({ status, manual_retry_allowed: false }, action);
    if (EXPECTED[action].allowed.includes(status)) expect(refusal).toBeNull();
    else {
      expect(refusal).not.toBeNull();
      expect(refusal!.code).toBe(EXPECTED[action].code);
      expect(refusal!.message).toContain(status);
    }
  });
  it('confirm from failed only as a manual retry', () => {
    expect(canStart({ status: 'failed', manual_retry_allowed: false }, 'confirm')?.code).toBe('IR_16');
    expect(canStart({ status: 'failed', manual_retry_allowed: true }, 'confirm')).toBeNull();
  });
});

describe('confirm', () => {
  it('moves to processing with a started attempt and an open authorize operation', () => {
    const d = apply(beginConfirm(intent(), { payment_method: 'pay_later' }, { now, operationId: 'op_a', connector: 'service_test' }));
    expect(d.payment.status).toBe('processing');
    expect(d.payment.attempts).toHaveLength(1);
    expect(d.payment.attempts![0]).toMatchObject({ status: 'started', attempt_id: `${d.payment.payment_id}_1` });
    expect(d.operation).toMatchObject({ kind: 'authorize', open: true, amount: 10_000 });
    expect(d.payment.in_flight).toBe(true);
    expect(d.needsConnector).toBe(true);
  });
  it('needs a payment_method', () => {
    expect(beginConfirm(intent(), {}, { now, operationId: 'op', connector: 'service_test' })).toMatchObject({ kind: 'refused', param: 'payment_method' });
  });
  it('refuses a payment_id in the body that differs from the path', () => {
    expect(
      beginConfirm(intent(), { payment_method: 'pay_later', payment_id: 'x'.repeat(30) }, { now, operationId: 'op', connector: 'service_test' }),
    ).toMatchObject({ kind: 'refused', param: 'payment_id' });
  });

  const outcomes: [string, OutcomeKind, PaymentStatusName, string, number, number | null][] = [
    ['manual', 'AUTHORIZED', 'requires_capture', 'authorized', 10_000, null],
    ['manual_multiple', 'AUTHORIZED', 'requires_capture', 'authorized', 10_000, null],
    ['automatic', 'CAPTURED', 'succeeded', 'charged', 0, 10_000],
    ['automatic', 'DECLINED', 'failed', 'failure', 0, null],
    ['automatic', 'FAILED', 'failed', 'failure', 0, null],
    ['automatic', 'CUSTOMER_ACTION', 'requires_customer_action', 'authentication_pending', 10_000, null],
    ['automatic', 'PENDING', 'processing', 'pending', 10_000, null],
    ['automatic', 'VOIDED', 'cancelled', 'voided', 0, null],
  ];
  it.each(outcomes)('%s + %s -> %s', (method, kind, status, attemptStatus, capturable, received) => {
    const p = confirmed(method, kind);
    expect(p.status).toBe(status);
    expect(p.attempts![0].status).toBe(attemptStatus);
    expect(p.amount_capturable).toBe(capturable);
    expect(p.amount_received).toBe(received);
    expect(p.in_flight).toBe(kind === 'PENDING' || kind === 'CUSTOMER_ACTION');
    // Only payments in flight carry the sweeper's key.
    expect(p.sweep_key).toBe(p.in_flight ? 'in_flight' : undefined);
  });

  it('a decline sets the four error fields and allows a manual retry', () => {
    const d = apply(beginConfirm(intent(), { payment_method: 'pay_later' }, { now, operationId: 'op_a', connector: 'service_test' }));
    const p = apply(
      applyOutcome(d.payment, 'op_a', { kind: 'DECLINED', error_code: 'c', error_message: 'm', unified_code: 'UE_1000', unified_message: 'u' }, now),
    ).payment;
    expect(p).toMatchObject({
      status: 'failed',
      error_code: 'c',
      error_message: 'm',
      unified_code: 'UE_1000',
      unified_message: 'u',
      manual_retry_allowed: true,
    });
    const retry = apply(beginConfirm(p, {}, { now, operationId: 'op_b', connector: 'service_test' }));
    expect(retry.payment).toMatchObject({ status: 'processing', attempt_count: 2, error_code: null, manual_retry_allowed: false });
  });

  it('an outcome is applied once: the same report again, or any report after the final one, changes nothing', () => {
    const d = apply(beginConfirm(intent(), { payment_method: 'pay_later' }, { now, operationId: 'op_a', connector: 'service_test' }));
    const pending = apply(applyOutcome(d.payment, 'op_a', { kind: 'PENDING' }, now)).payment;
    expect(applyOutcome(pending, 'op_a', { kind: 'PENDING' }, now).kind).toBe('noop');
    const done = apply(applyOutcome(pending, 'op_a', { kind: 'CAPTURED' }, now)).payment;
    expect(applyOutcome(done, 'op_a', { kind: 'CAPTURED' }, now).kind).toBe('noop');
    expect(applyOutcome(done, 'op_a', { kind: 'DECLINED' }, now).kind).toBe('noop');
    expect(applyOutcome(done, 'op_unknown', { kind: 'CAPTURED' }, now)).toMatchObject({ kind: 'refused', code: 'HE_02' });
  });
});

describe('outcomes that do not fit the operation', () => {
  it('are refused and change nothing', () => {
    const d = apply(beginCapture(confirmed('manual'), {}, { now, operationId: 'op_c', captureId: 'cap_1' }));
    for (const kind of ['AUTHORIZED', 'CUSTOMER_ACTION', 'VOIDED'] as OutcomeKind[]) {
      expect(applyOutcome(d.payment, 'op_c', { kind }, now)).toMatchObject({ kind: 'refused', code: 'IR_05' });
    }
  });
});

describe('capture', () => {
  const begin = (p: StoredPayment, body: Record<string, unknown>, op = 'op_c', cap = `cap_${'1'.repeat(26)}`) =>
    beginCapture(p, body, { now, operationId: op, captureId: cap });

  it('manual: the full amount -> succeeded; less -> partially_captured (terminal, nothing left to capture)', () => {
    const full = apply(begin(confirmed('manual'), {}));
    expect(full.payment).toMatchObject({ status: 'processing', amount_capturable: 0 });
    expect(apply(applyOutcome(full.payment, 'op_c', { kind: 'CAPTURED' }, now)).payment).toMatchObject({
      status: 'succeeded',
      amount_received: 10_000,
      amount_capturable: 0,
    });
    const part = apply(begin(confirmed('manual'), { amount_to_capture: 4_000 }));
    const after = apply(applyOutcome(part.payment, 'op_c', { kind: 'CAPTURED' }, now)).payment;
    expect(after).toMatchObject({ status: 'partially_captured', amount_received: 4_000, amount_capturable: 0 });
    expect(after.captures![0]).toMatchObject({ status: 'charged', amount: 4_000, capture_sequence: 1 });
    expect(canStart(after, 'capture')?.code).toBe('IR_14');
  });

  it('manual_multiple: partially_captured_and_capturable until the total is captured -> succeeded', () => {
    let p = confirmed('manual_multiple');
    p = apply(applyOutcome(apply(begin(p, { amount_to_capture: 3_000 }, 'op_1', 'cap_1')).payment, 'op_1', { kind: 'CAPTURED' }, now)).payment;
    expect(p).toMatchObject({ status: 'partially_captured_and_capturable', amount_received: 3_000, amount_capturable: 7_000 });
    p = apply(applyOutcome(apply(begin(p, {}, 'op_2', 'cap_2')).payment, 'op_2', { kind: 'CAPTURED' }, now)).payment;
    expect(p).toMatchObject({ status: 'succeeded', amount_received: 10_000, amount_capturable: 0 });
    expect(p.captures!.map((c) => c.capture_sequence)).toEqual([1, 2]);
  });

  it('a failed capture returns the payment to where it was, with the error, and the amount capturable again', () => {
    const d = apply(begin(confirmed('manual'), { amount_to_capture: 4_000 }));
    const p = apply(applyOutcome(d.payment, 'op_c', { kind: 'FAILED', error_code: 'not_capturable', error_message: 'no' }, now)).payment;
    expect(p).toMatchObject({ status: 'requires_capture', amount_capturable: 10_000, error_code: 'not_capturable' });
    expect(p.captures![0].status).toBe('failed');
  });

  it('refuses amounts <= 0 (IR_05) and above amount_capturable (IR_06), and automatic payments (IR_14)', () => {
    expect(begin(confirmed('manual'), { amount_to_capture: 0 })).toMatchObject({ kind: 'refused', code: 'IR_05', param: 'amount_to_capture' });
    expect(begin(confirmed('manual'), { amount_to_capture: 10_001 })).toMatchObject({ kind: 'refused', code: 'IR_06', param: 'amount_to_capture' });
    const auto = { ...confirmed('automatic', 'AUTHORIZED') };
    expect(begin(auto, {})).toMatchObject({ kind: 'refused', code: 'IR_14' });
  });

  it('a repeated capture_id returns the same capture instead of capturing twice', () => {
    const first = apply(begin(confirmed('manual_multiple'), { capture_id: 'c'.repeat(30), amount_to_capture: 1_000 }, 'op_1', 'c'.repeat(30)));
    const again = begin(first.payment, { capture_id: 'c'.repeat(30), amount_to_capture: 1_000 }, 'op_2', 'c'.repeat(30));
    expect(again).toMatchObject({ kind: 'replay', operation: { operation_id: 'op_1' } });
  });
});

describe('cancel', () => {
  it('before confirmation: cancelled at once, locally, with the reason', () => {
    const d = apply(beginCancel(intent(), { cancellation_reason: 'customer left' }, { now, operationId: 'op_v' }));
    expect(d.needsConnector).toBe(false);
    expect(d.operation).toBeUndefined();
    expect(d.payment).toMatchObject({
      status: 'cancelled',
      cancellation_reason: 'customer left',
      amount_capturable: 0,
      amount_cancelled: 10_000,
      in_flight: false,
    });
  });

  it('from requires_capture: a void at the provider; VOIDED -> cancelled; a failed void -> back to requires_capture with the error', () => {
    const d = apply(beginCancel(confirmed('manual'), {}, { now, operationId: 'op_v' }));
    expect(d.needsConnector).toBe(true);
    expect(d.operation).toMatchObject({ kind: 'void', amount: 10_000 });
    expect(d.payment.status).toBe('processing');
    expect(apply(applyOutcome(d.payment, 'op_v', { kind: 'VOIDED' }, now)).payment).toMatchObject({
      status: 'cancelled',
      amount_capturable: 0,
      amount_cancelled: 10_000,
    });
    const failed = apply(applyOutcome(d.payment, 'op_v', { kind: 'FAILED', error_code: 'not_capturable', error_message: 'no' }, now)).payment;
    expect(failed).toMatchObject({ status: 'requires_capture', error_code: 'not_capturable', amount_capturable: 10_000 });
    expect(failed.attempts!.at(-1)!.status).toBe('void_failed');
  });

  it('from requires_customer_action: the void also ends the authorization waiting for the customer', () => {
    const p = confirmed('automatic', 'CUSTOMER_ACTION');
    expect(p.operations.find((o) => o.kind === 'authorize')!.open).toBe(true);
    const d = apply(beginCancel(p, {}, { now, operationId: 'op_v' }));
    const after = apply(applyOutcome(d.payment, 'op_v', { kind: 'VOIDED' }, now)).payment;
    expect(after).toMatchObject({ status: 'cancelled', next_action: null, in_flight: false });
    expect(applyOutcome(after, 'op_a', { kind: 'CAPTURED' }, now).kind).toBe('noop');
  });

  it('after a partial capture (manual_multiple) the rest is released -> partially_captured', () => {
    let p = confirmed('manual_multiple');
    p = apply(
      applyOutcome(
        apply(beginCapture(p, { amount_to_capture: 3_000 }, { now, operationId: 'op_1', captureId: 'cap_1' })).payment,
        'op_1',
        { kind: 'CAPTURED' },
        now,
      ),
    ).payment;
    const d = apply(beginCancel(p, {}, { now, operationId: 'op_v' }));
    expect(apply(applyOutcome(d.payment, 'op_v', { kind: 'VOIDED' }, now)).payment).toMatchObject({
      status: 'partially_captured',
      amount_received: 3_000,
      amount_cancelled: 7_000,
      amount_capturable: 0,
    });
  });

  it('refuses amount_to_cancel above what is not captured (IR_06)', () => {
    expect(beginCancel(confirmed('manual'), { amount_to_cancel: 10_001 }, { now, operationId: 'op_v' })).toMatchObject({
      kind: 'refused',
      code: 'IR_06',
      param: 'amount_to_cancel',
    });
  });
});

describe('incremental authorization', () => {
  const begin = (p: StoredPayment, amount: number) => beginIncrementalAuthorization(p, { amount }, { now, operationId: 'op_i', authorizationId: 'auth_1' });

  it('is allowed only when asked for on create and the connector supports it', () => {
    expect(confirmed('manual').incremental_authorization_allowed).toBe(false);
    expect(begin(confirmed('manual'), 12_000)).toMatchObject({ kind: 'refused', code: 'IR_16' });
    expect(confirmed('manual', 'AUTHORIZED', { request_incremental_authorization: true }).incremental_authorization_allowed).toBe(true);
  });

  it('success: amount, net_amount and amount_capturable grow, a success row, authorization_count + 1', () => {
    const p = confirmed('manual', 'AUTHORIZED', { request_incremental_authorization: true, order_tax_amount: 100 });
    const d = apply(begin(p, 15_000));
    expect(d.payment.status).toBe('processing');
    const after = apply(applyOutcome(d.payment, 'op_i', { kind: 'AUTHORIZED' }, now)).payment;
    expect(after).toMatchObject({ status: 'requires_capture', amount: 15_000, net_amount: 15_100, amount_capturable: 15_000, authorization_count: 1 });
    expect(after.incremental_authorizations).toEqual([
      { authorization_id: 'auth_1', amount: 15_000, status: 'success', previously_authorized_amount: 10_000, error_code: null, error_message: null },
    ]);
  });

  it('failure: the row records it with the error; the payment and its amounts are unchanged', () => {
    const p = confirmed('manual', 'AUTHORIZED', { request_incremental_authorization: true });
    const d = apply(begin(p, 30_000));
    const after = apply(applyOutcome(d.payment, 'op_i', { kind: 'DECLINED', error_code: 'credit_limit_exceeded', error_message: 'no' }, now)).payment;
    expect(after).toMatchObject({ status: 'requires_capture', amount: 10_000, amount_capturable: 10_000, authorization_count: 0 });
    expect(after.incremental_authorizations![0]).toMatchObject({ status: 'failure', error_code: 'credit_limit_exceeded', amount: 30_000 });
  });

  it('amount must exceed the current amount (IR_05)', () => {
    const p = confirmed('manual', 'AUTHORIZED', { request_incremental_authorization: true });
    expect(begin(p, 10_000)).toMatchObject({ kind: 'refused', code: 'IR_05', param: 'amount' });
  });
});

describe('our manual review (approve / reject)', () => {
  const policy = { manual_review: true, manual_review_amount_at_least: 10_000 };
  function held(capture_method: string, amount = 10_000) {
    const d = apply(
      beginConfirm(intent({ capture_method, amount }), { payment_method: 'pay_later' }, { now, operationId: 'op_a', connector: 'service_test', policy }),
    );
    return apply(applyOutcome(d.payment, 'op_a', { kind: 'AUTHORIZED', connector_transaction_id: 'stp_1' }, now)).payment;
  }

  it('at or above the threshold the confirm only authorizes, and the payment waits for the merchant', () => {
    const d = apply(
      beginConfirm(intent({ capture_method: 'automatic' }), { payment_method: 'pay_later' }, { now, operationId: 'op_a', connector: 'service_test', policy }),
    );
    expect(jobFor(d.payment, d.operation!).capture_method).toBe('manual');
    expect(held('automatic')).toMatchObject({ status: 'requires_merchant_action', amount_capturable: 10_000, merchant_decision: null });
    const below = apply(
      beginConfirm(
        intent({ capture_method: 'automatic', amount: 9_999 }),
        { payment_method: 'pay_later' },
        { now, operationId: 'op_a', connector: 'service_test', policy },
      ),
    );
    expect(below.payment.review_hold).toBe(false);
    expect(jobFor(below.payment, below.operation!).capture_method).toBe('automatic');
  });

  it('approve: manual capture -> requires_capture locally; automatic -> a capture of the amount -> succeeded', () => {
    const manual = apply(beginApprove(held('manual'), { now, operationId: 'op_p', captureId: 'cap_p' }));
    expect(manual.needsConnector).toBe(false);
    expect(manual.payment).toMatchObject({ status: 'requires_capture', merchant_decision: 'approve', review_hold: false });
    const auto = apply(beginApprove(held('automatic'), { now, operationId: 'op_p', captureId: 'cap_p' }));
    expect(auto.operation).toMatchObject({ kind: 'capture', amount: 10_000, ref: 'cap_p' });
    expect(apply(applyOutcome(auto.payment, 'op_p', { kind: 'CAPTURED' }, now)).payment).toMatchObject({
      status: 'succeeded',
      merchant_decision: 'approve',
      amount_received: 10_000,
      amount_capturable: 0,
    });
  });

  it('reject: a void at the provider -> failed; a failed void -> back to requires_merchant_action, undecided', () => {
    const d = apply(beginReject(held('manual'), { now, operationId: 'op_r' }));
    expect(d.operation).toMatchObject({ kind: 'void', amount: 10_000 });
    expect(d.payment).toMatchObject({ status: 'processing', merchant_decision: 'reject' });
    expect(apply(applyOutcome(d.payment, 'op_r', { kind: 'VOIDED' }, now)).payment).toMatchObject({
      status: 'failed',
      merchant_decision: 'reject',
      amount_capturable: 0,
      manual_retry_allowed: false,
      amount_cancelled: null,
    });
    expect(apply(applyOutcome(d.payment, 'op_r', { kind: 'FAILED', error_code: 'e', error_message: 'm' }, now)).payment).toMatchObject({
      status: 'requires_merchant_action',
      merchant_decision: null,
      review_hold: true,
      error_code: 'e',
    });
  });

  it('both refused in any other status with IR_16', () => {
    expect(beginApprove(confirmed('manual'), { now, operationId: 'op_p', captureId: 'cap_p' })).toMatchObject({ kind: 'refused', code: 'IR_16' });
    expect(beginReject(intent(), { now, operationId: 'op_r' })).toMatchObject({ kind: 'refused', code: 'IR_16' });
  });
});

describe('create', () => {
  it('requires_confirmation with net_amount = amount + surcharge + tax + order tax, and the customer mirrored', () => {
    const p = intent({ order_tax_amount: 100, surcharge_details: { surcharge_amount: 50, tax_amount: 5 }, customer: { email: 'a@b.co', name: 'A' } });
    expect(p).toMatchObject({
      status: 'requires_confirmation',
      net_amount: 10_155,
      amount_capturable: 10_000,
      email: 'a@b.co',
      name: 'A',
      customer_id: 'cus_1',
    });
    expect(p.ephemeral_key).toMatchObject({ customer_id: 'cus_1', secret: 'epk_1' });
    expect(p.expires_on).toBe('2026-11-22T10:15:00.000Z');
  });
});

describe('external 3DS authentication (spec 4.6)', () => {
  const ctx = { now, operationId: 'op_c', connector: 'service_test' as const, publicBaseUrl: 'https://pay.example' };
  const brw = { device_channel: 'BRW' as const, threeds_method_comp_ind: 'N' as const, browser_info: { user_agent: 'Mozilla/5.0' } };
  const answer = (trans_status: AuthenticationResult['trans_status'], extra: Partial<AuthenticationResult> = {}): AuthenticationResult => ({
    trans_status,
    trans_status_reason: null,
    three_dsserver_trans_id: 'tds_1',
    acs_trans_id: 'acs_1',
    acs_reference_number: 'ref',
    acs_url: null,
    challenge_request: null,
    acs_signed_content: null,
    three_ds_requestor_url: 'https://pay.example',
    ds_trans_id: 'ds_1',
    eci: '05',
    message_version: '2.2.0',
    ...extra,
  });
  const awaiting = (body: Record<string, unknown> = {}) =>
    apply(beginConfirm(intent({ capture_method: 'manual', authentication_type: 'three_ds', ...body }), { payment_method: 'pay_later' }, ctx)).payment;
  const authenticating = () => apply(beginAuthenticate(awaiting(), brw, { now, operationId: 'op_t' }));

  it('a three_ds confirm asks the customer first: requires_customer_action, next_action three_ds_invoke, nothing for the provider', () => {
    const d = apply(beginConfirm(intent({ authentication_type: 'three_ds' }), { payment_method: 'pay_later' }, ctx));
    expect(d.needsConnector).toBe(false);
    expect(d.operation).toBeUndefined();
    expect(d.payment.operations).toEqual([]);
    expect(d.payment).toMatchObject({
      status: 'requires_customer_action',
      in_flight: false,
      external_3ds_authentication_attempted: false,
      next_action: {
        type: 'three_ds_invoke',
        redirect_to_url: null,
        three_ds_data: { three_ds_authentication_url: `https://pay.example/payments/${d.payment.payment_id}/3ds/authentication` },
      },
    });
    expect(d.payment.attempts![0].status).toBe('authentication_pending');
  });

  it('starts an authenticate operation; the payment waits in processing; an open one is returned again, not doubled', () => {
    const d = authenticating();
    expect(d.needsConnector).toBe(true);
    expect(d.operation).toMatchObject({ kind: 'authenticate', open: true, ref: 'authn_t' });
    expect(d.payment).toMatchObject({
      status: 'processing',
      external_3ds_authentication_attempted: true,
      external_authentication_details: { status: 'started' },
    });
    expect(d.payment.three_ds!.request).toEqual(brw);
    expect(beginAuthenticate(d.payment, brw, { now, operationId: 'op_u' })).toMatchObject({ kind: 'replay', operation: { operation_id: 'op_t' } });
  });

  it('is refused unless the payment waits for it: other statuses, a provider redirect, BRW without browser data', () => {
    expect(beginAuthenticate(intent(), brw, { now, operationId: 'op' })).toMatchObject({ kind: 'refused', code: 'IR_16' });
    const redirected = confirmed('manual', 'CUSTOMER_ACTION');
    expect(redirected.status).toBe('requires_customer_action');
    expect(beginAuthenticate(redirected, brw, { now, operationId: 'op' })).toMatchObject({ kind: 'refused', code: 'IR_16' });
    expect(beginAuthenticate(awaiting(), { device_channel: 'BRW', threeds_method_comp_ind: 'Y' }, { now, operationId: 'op' })).toMatchObject({
      kind: 'refused',
      code: 'IR_04',
      param: 'browser_info',
    });
    // The payment's own browser_info serves the BRW channel.
    expect(
      beginAuthenticate(awaiting({ browser_info: { user_agent: 'UA' } }), { device_channel: 'BRW', threeds_method_comp_ind: 'Y' }, { now, operationId: 'op' })
        .kind,
    ).toBe('apply');
  });

  it.each(['Y', 'A'] as const)('%s: authenticated; the authorization at the provider starts in the same transition, once', (status) => {
    const d = authenticating();
    const out = applyOutcome(d.payment, 'op_t', { kind: 'AUTHENTICATED', authentication: answer(status) }, now);
    if (out.kind !== 'apply') throw new Error(out.kind);
    expect(out.followUp).toMatchObject({
      operation_id: 'op_t-authorize',
      kind: 'authorize',
      open: true,
      amount: 10_000,
      ref: d.payment.attempts![0].attempt_id,
    });
    expect(out.payment).toMatchObject({
      status: 'processing',
      in_flight: true,
      external_authentication_details: {
        status: 'success',
        authentication_flow: 'frictionless',
        electronic_commerce_indicator: '05',
        ds_transaction_id: 'ds_1',
        version: '2.2.0',
      },
    });
    expect(out.payment.attempts![0].status).toBe('authentication_successful');
    expect(authenticationAnswer(out.payment)).toMatchObject({ trans_status: status, three_dsserver_trans_id: 'tds_1', acs_trans_id: 'acs_1' });
    // Reported again: nothing new starts. Asked again by the device: the same authentication.
    expect(applyOutcome(out.payment, 'op_t', { kind: 'AUTHENTICATED', authentication: answer(status) }, now).kind).toBe('noop');
    expect(beginAuthenticate(out.payment, brw, { now, operationId: 'op_v' })).toMatchObject({ kind: 'replay', operation: { operation_id: 'op_t' } });
    const authorized = apply(applyOutcome(out.payment, 'op_t-authorize', { kind: 'AUTHORIZED', connector_transaction_id: 'stp_1' }, now)).payment;
    expect(authorized).toMatchObject({ status: 'requires_capture', amount_capturable: 10_000, in_flight: false });
  });

  it('C: a challenge; the customer is sent to the ACS; its result (Y) then authorizes, flow challenge', () => {
    const d = authenticating();
    const c = answer('C', { acs_url: 'https://acs.example/challenge', challenge_request: 'eyJh' });
    const challenged = apply(applyOutcome(d.payment, 'op_t', { kind: 'CUSTOMER_ACTION', authentication: c }, now)).payment;
    expect(challenged).toMatchObject({
      status: 'requires_customer_action',
      in_flight: true,
      next_action: { type: 'redirect_to_url', redirect_to_url: 'https://acs.example/challenge?creq=eyJh' },
      external_authentication_details: { status: 'pending', authentication_flow: 'challenge' },
    });
    expect(authenticationAnswer(challenged)).toMatchObject({ trans_status: 'C', acs_url: 'https://acs.example/challenge', challenge_request: 'eyJh' });
    // The device asking again gets the same authentication back.
    expect(beginAuthenticate(challenged, brw, { now, operationId: 'op_v' })).toMatchObject({ kind: 'replay', operation: { operation_id: 'op_t' } });
    const done = applyOutcome(challenged, 'op_t', { kind: 'AUTHENTICATED', authentication: answer('Y') }, now);
    expect(done).toMatchObject({
      kind: 'apply',
      followUp: { kind: 'authorize' },
      payment: { status: 'processing', external_authentication_details: { status: 'success', authentication_flow: 'challenge' } },
    });
  });

  it.each(['N', 'R', 'U', 'I'] as const)('%s: failed with the error fields; a manual retry asks for a new authentication', (status) => {
    const d = authenticating();
    const failed = apply(
      applyOutcome(
        d.payment,
        'op_t',
        {
          kind: 'DECLINED',
          authentication: answer(status),
          error_code: 'authentication_failed',
          error_message: 'no',
          unified_code: 'UE_5000',
          unified_message: 'u',
        },
        now,
      ),
    ).payment;
    expect(failed).toMatchObject({
      status: 'failed',
      error_code: 'authentication_failed',
      unified_code: 'UE_5000',
      manual_retry_allowed: true,
      in_flight: false,
      amount_capturable: 0,
      external_authentication_details: { status: 'failed', error_code: 'authentication_failed' },
    });
    expect(failed.attempts![0].status).toBe('authentication_failed');
    // The device asking again learns the same answer; it does not authenticate twice.
    expect(beginAuthenticate(failed, brw, { now, operationId: 'op_v' })).toMatchObject({ kind: 'replay', operation: { operation_id: 'op_t', open: false } });
    const retry = apply(beginConfirm(failed, {}, { ...ctx, operationId: 'op_r' }));
    expect(retry.payment).toMatchObject({ status: 'requires_customer_action', attempt_count: 2, next_action: { type: 'three_ds_invoke' }, three_ds: null });
    expect(apply(beginAuthenticate(retry.payment, brw, { now, operationId: 'op_w' })).operation).toMatchObject({ operation_id: 'op_w' });
  });

  it('a cancel while the customer is to authenticate (or in a challenge) is local: cancelled, the challenge closed', () => {
    const p = awaiting();
    expect(apply(beginCancel(p, {}, { now, operationId: 'op_x' }))).toMatchObject({
      needsConnector: false,
      payment: { status: 'cancelled', amount_cancelled: 10_000, next_action: null },
    });
    const challenged = apply(
      applyOutcome(authenticating().payment, 'op_t', { kind: 'CUSTOMER_ACTION', authentication: answer('C', { acs_url: 'https://acs.example/c' }) }, now),
    ).payment;
    const cancelled = apply(beginCancel(challenged, { cancellation_reason: 'gone' }, { now, operationId: 'op_x' }));
    expect(cancelled.needsConnector).toBe(false);
    expect(cancelled.payment).toMatchObject({ status: 'cancelled', in_flight: false, cancellation_reason: 'gone' });
    // The challenge's result arriving later changes nothing; the device asking again is refused.
    expect(applyOutcome(cancelled.payment, 'op_t', { kind: 'AUTHENTICATED', authentication: answer('Y') }, now).kind).toBe('noop');
    expect(beginAuthenticate(cancelled.payment, brw, { now, operationId: 'op_v' })).toMatchObject({ kind: 'refused', code: 'IR_16' });
  });

  it('the job for an authentication carries the device data and, once known, the 3DS server transaction', () => {
    const d = authenticating();
    expect(jobFor(d.payment, d.operation!)).toMatchObject({
      kind: 'authenticate',
      connector_transaction_id: null,
      authentication: { authentication_id: 'authn_t', ...brw },
    });
    const challenged = apply(applyOutcome(d.payment, 'op_t', { kind: 'CUSTOMER_ACTION', authentication: answer('C') }, now)).payment;
    expect(jobFor(challenged, d.operation!, 'sync')).toMatchObject({ mode: 'sync', connector_transaction_id: 'tds_1' });
  });
});

describe('automatic capture where the provider only authorizes (manifest automatic_capture: follow_up, e.g. mondu)', () => {
  const b2b = {
    customer: { email: 'jane@acme.example' },
    return_url: 'https://shop.example/r',
    order_details: [{ product_name: 'Desk', quantity: 1, amount: 10_000 }],
    metadata: { buyer_type: 'business', company_name: 'ACME GmbH', invoice_url: 'https://shop.example/i.pdf' },
    billing: { address: { first_name: 'Jane', last_name: 'Roe', line1: 'Hauptstr. 1', city: 'Berlin', zip: '10115', country: 'DE' } },
  };
  const confirmMondu = (capture_method: string) =>
    apply(beginConfirm(intent({ capture_method, ...b2b }), { payment_method: 'pay_later' }, { now, operationId: 'op_m', connector: 'mondu' }));

  it('the provider is asked to authorize only; AUTHORIZED starts the capture of the whole amount, derived from the authorization', () => {
    const d = confirmMondu('automatic');
    expect(jobFor(d.payment, d.operation!).capture_method).toBe('manual');
    const out = apply(applyOutcome(d.payment, 'op_m', { kind: 'AUTHORIZED', connector_transaction_id: 'ord_1' }, now));
    expect(out.followUp).toMatchObject({ operation_id: 'op_m-capture', kind: 'capture', amount: 10_000, open: true, status_before: 'requires_capture' });
    expect(out.payment).toMatchObject({
      status: 'processing',
      amount_capturable: 0,
      connector_transaction_id: 'ord_1',
      captures: [{ capture_id: 'cap_m', status: 'started', amount: 10_000 }],
    });
    expect(jobFor(out.payment, out.followUp!).kind).toBe('capture');
    // A repeated report starts nothing more.
    expect(applyOutcome(out.payment, 'op_m', { kind: 'AUTHORIZED', connector_transaction_id: 'ord_1' }, now).kind).toBe('noop');
    expect(apply(applyOutcome(out.payment, 'op_m-capture', { kind: 'CAPTURED', connector_transaction_id: 'inv_1' }, now)).payment).toMatchObject({
      status: 'succeeded',
      amount_received: 10_000,
      captures: [{ status: 'charged', connector_capture_id: 'inv_1' }],
    });
  });

  it('a failed follow-up capture leaves the authorization capturable, and the merchant may capture it', () => {
    const out = apply(applyOutcome(confirmMondu('automatic').payment, 'op_m', { kind: 'AUTHORIZED', connector_transaction_id: 'ord_1' }, now));
    const failed = apply(applyOutcome(out.payment, 'op_m-capture', { kind: 'FAILED', error_code: 'e', error_message: 'm' }, now)).payment;
    expect(failed).toMatchObject({ status: 'requires_capture', amount_capturable: 10_000 });
    expect(beginCapture(failed, {}, { now, operationId: 'op_c2', captureId: 'cap_2' })).toMatchObject({ kind: 'apply', operation: { amount: 10_000 } });
  });

  it('manual capture, a decline or a review start nothing; service_test captures by itself', () => {
    const manual = confirmMondu('manual');
    expect(jobFor(manual.payment, manual.operation!).capture_method).toBe('manual');
    expect(apply(applyOutcome(manual.payment, 'op_m', { kind: 'AUTHORIZED' }, now))).toMatchObject({ payment: { status: 'requires_capture' } });
    expect(apply(applyOutcome(manual.payment, 'op_m', { kind: 'AUTHORIZED' }, now)).followUp).toBeUndefined();
    expect(apply(applyOutcome(confirmMondu('automatic').payment, 'op_m', { kind: 'DECLINED' }, now)).followUp).toBeUndefined();
    expect(apply(applyOutcome(confirmMondu('automatic').payment, 'op_m', { kind: 'PENDING' }, now)).followUp).toBeUndefined();
    const st = apply(
      beginConfirm(intent({ capture_method: 'automatic' }), { payment_method: 'pay_later' }, { now, operationId: 'op_a', connector: 'service_test' }),
    );
    expect(jobFor(st.payment, st.operation!).capture_method).toBe('automatic');
    expect(beginCapture(confirmed('automatic'), {}, { now, operationId: 'op_c', captureId: 'cap_c' })).toMatchObject({ kind: 'refused', code: 'IR_14' });
  });
});
