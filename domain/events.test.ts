// The event table: which transition gives which merchant event, with deterministic ids, walked through real decisions.
import { describe, expect, it } from 'vitest';
import { beginCancel, beginCapture, beginConfirm, beginIncrementalAuthorization } from './begin.ts';
import { disputeOutcome } from './disputes.ts';
import { deriveEvents, EVENT_TYPES, EVENT_TYPE_NAMES, eventHeads, eventId, mandateRevokedEvent, materializeEvents, webhookPayload } from './events.ts';
import { createIntent } from './intent.ts';
import { applyOutcome } from './outcomes.ts';
import type { Decision, Outcome, StoredPayment } from './payment.ts';
import { beginRefund } from './refunds.ts';
import { DISPUTE_STATUSES } from '../lib/schemas/dispute.ts';

const now = '2026-11-23T10:00:00.000Z';
let n = 0;
/** A payment with its transitions' seq, as payment-state appends them. */
function step(prev: StoredPayment, d: Decision | { kind: 'apply'; payment: StoredPayment }): StoredPayment {
  if (d.kind !== 'apply') throw new Error(`expected apply, got ${JSON.stringify(d)}`);
  return { ...d.payment, seq: prev.seq + 1 };
}
function intent(capture_method = 'automatic', extra: Record<string, unknown> = {}): StoredPayment {
  return createIntent('m1', { amount: 10_000, currency: 'EUR', capture_method, ...extra } as never, {
    now: new Date(now),
    paymentId: `pay_${String(++n).padStart(26, '0')}`,
    clientSecret: (id) => `${id}_secret_x`,
    newCustomerId: () => 'cus_1',
    ephemeralSecret: () => 'epk_1',
  });
}
const confirm = (p: StoredPayment) => step(p, beginConfirm(p, { payment_method: 'pay_later' }, { now, operationId: 'op_a', connector: 'service_test' }));
const outcome = (p: StoredPayment, op: string, o: Outcome) => step(p, applyOutcome(p, op, { connector_transaction_id: 'stp_1', ...o }, now));
const types = (prev: StoredPayment | null, next: StoredPayment) => deriveEvents(prev, next).map((e) => e.event_type);
/** A captured payment, its refund of 4,000 begun (ref_1), then succeeded. */
function refundOf4000() {
  const paid = outcome(confirm(intent()), 'op_a', { kind: 'CAPTURED' });
  const refunding = step(
    paid,
    beginRefund(paid, { payment_id: paid.payment_id, refund_id: 'ref_1', amount: 4_000 }, { now, operationId: 'op_r', requestHash: 'h' }),
  );
  return { paid, refunding, refunded: outcome(refunding, 'op_r', { kind: 'REFUNDED' }) };
}

describe('the event table', () => {
  it("lists the reference switch's events and ours, each with what it is about", () => {
    for (const t of [
      'payment_succeeded',
      'payment_failed',
      'payment_processing',
      'payment_cancelled',
      'payment_authorized',
      'payment_captured',
      'action_required',
      'refund_succeeded',
      'refund_failed',
      ...DISPUTE_STATUSES,
    ]) {
      expect(EVENT_TYPES).toHaveProperty(t);
      expect(EVENT_TYPES[t as keyof typeof EVENT_TYPES].reference).toBe(true);
    }
    expect(Object.keys(EVENT_TYPES).sort()).toEqual([...EVENT_TYPE_NAMES].sort());
    expect(EVENT_TYPES.payment_partially_captured.reference).toBe(false);
    expect(EVENT_TYPES.refund_failed.object_type).toBe('refund_details');
    expect(EVENT_TYPES.dispute_won.object_type).toBe('dispute_details');
  });
});

describe('deriveEvents', () => {
  it('create gives nothing; confirm: processing; automatic capture: succeeded, with the payment as GET shows it', () => {
    const created = intent();
    expect(types(null, created)).toEqual([]);
    const confirming = confirm(created);
    expect(types(created, confirming)).toEqual(['payment_processing']);
    const paid = outcome(confirming, 'op_a', { kind: 'CAPTURED' });
    const events = deriveEvents(confirming, paid);
    expect(events.map((e) => [e.event_type, e.order])).toEqual([['payment_succeeded', 0]]);
    expect(events[0]!.object).toMatchObject({ payment_id: paid.payment_id, status: 'succeeded', amount_received: 10_000 });
    expect(events[0]!.object).not.toHaveProperty('operations');
    expect(events[0]!.object_id).toBe(paid.payment_id);
  });

  it('the same transition always gives the same events and ids; another seq or type another id', () => {
    const confirming = confirm(intent('manual'));
    const authorized = outcome(confirming, 'op_a', { kind: 'AUTHORIZED' });
    const capturing = step(authorized, beginCapture(authorized, {}, { now, operationId: 'op_c', captureId: 'cap_1' }));
    const paid = outcome(capturing, 'op_c', { kind: 'CAPTURED' });
    expect(deriveEvents(capturing, paid)).toEqual(deriveEvents(capturing, paid));
    const [a, b] = deriveEvents(capturing, paid);
    expect([a!.event_type, b!.event_type]).toEqual(['payment_captured', 'payment_succeeded']);
    expect(a!.event_id).toMatch(/^evt_[0-9a-f]{32}$/);
    expect(a!.event_id).not.toBe(b!.event_id);
    expect(eventId('m1', paid.payment_id, paid.seq, 'payment_succeeded', paid.payment_id)).toBe(b!.event_id);
    expect(eventId('m1', paid.payment_id, paid.seq + 1, 'payment_succeeded', paid.payment_id)).not.toBe(b!.event_id);
  });

  it('a decline: payment_failed; a redirect: action_required', () => {
    const c1 = confirm(intent());
    expect(types(c1, outcome(c1, 'op_a', { kind: 'DECLINED', error_code: 'declined' }))).toEqual(['payment_failed']);
    const c2 = confirm(intent());
    expect(types(c2, outcome(c2, 'op_a', { kind: 'CUSTOMER_ACTION', redirect_url: 'https://provider.example/pay' }))).toEqual(['action_required']);
  });

  it('manual capture: authorized; a partial capture (manual_multiple): captured and partially_captured; the rest: captured and succeeded', () => {
    const confirming = confirm(intent('manual_multiple'));
    const authorized = outcome(confirming, 'op_a', { kind: 'AUTHORIZED' });
    expect(types(confirming, authorized)).toEqual(['payment_authorized']);
    const capturing = step(authorized, beginCapture(authorized, { amount_to_capture: 3_000 }, { now, operationId: 'op_1', captureId: 'cap_1' }));
    expect(types(authorized, capturing)).toEqual(['payment_processing']);
    const part = outcome(capturing, 'op_1', { kind: 'CAPTURED' });
    expect(part.status).toBe('partially_captured_and_capturable');
    expect(types(capturing, part)).toEqual(['payment_captured', 'payment_partially_captured']);
    const capturing2 = step(part, beginCapture(part, {}, { now, operationId: 'op_2', captureId: 'cap_2' }));
    const full = outcome(capturing2, 'op_2', { kind: 'CAPTURED' });
    expect(types(capturing2, full)).toEqual(['payment_captured', 'payment_succeeded']);
  });

  it('a refused capture: payment_capture_failed, and no payment_authorized for the return', () => {
    const confirming = confirm(intent('manual'));
    const authorized = outcome(confirming, 'op_a', { kind: 'AUTHORIZED' });
    const capturing = step(authorized, beginCapture(authorized, {}, { now, operationId: 'op_c', captureId: 'cap_1' }));
    const failed = outcome(capturing, 'op_c', { kind: 'FAILED', error_code: 'not_capturable' });
    expect(failed.status).toBe('requires_capture');
    expect(types(capturing, failed)).toEqual(['payment_capture_failed']);
  });

  it('a follow-up automatic capture the provider refuses (billie): payment_capture_failed, the payment requires_capture with the error', () => {
    // Issue 19 item 3: the merchant is told, by the event and by the payment's error, and may capture it again.
    const created = intent('automatic', {
      customer: { email: 'a@acme.example' },
      billing: { address: { line1: 'Hauptstr. 1', city: 'Berlin', zip: '10115', country: 'DE' } },
      metadata: { buyer_type: 'business', company_name: 'ACME GmbH', legal_form: 'GmbH', invoice_url: 'https://shop.example/i.pdf' },
    });
    const confirming = step(created, beginConfirm(created, { payment_method: 'pay_later' }, { now, operationId: 'op_a', connector: 'billie' }));
    const capturing = outcome(confirming, 'op_a', { kind: 'AUTHORIZED' });
    expect(capturing).toMatchObject({ status: 'processing', captures: [{ status: 'started', amount: 10_000 }] });
    expect(types(confirming, capturing)).toEqual([]);
    const failed = outcome(capturing, 'op_a-capture', {
      kind: 'FAILED',
      error_code: 'request_validation_error',
      error_message: 'invoice_url: blank',
      unified_code: 'UE_2000',
    });
    expect(failed).toMatchObject({
      status: 'requires_capture',
      error_code: 'request_validation_error',
      unified_code: 'UE_2000',
      captures: [{ status: 'failed', error_code: 'request_validation_error' }],
    });
    const events = deriveEvents(capturing, failed);
    expect(events.map((e) => e.event_type)).toEqual(['payment_capture_failed']);
    expect(events[0]!.object).toMatchObject({ status: 'requires_capture', error_code: 'request_validation_error', captures: [{ status: 'failed' }] });
    expect(beginCapture(failed, {}, { now, operationId: 'op_c', captureId: 'cap_2' })).toMatchObject({ kind: 'apply' });
  });

  it('cancel: cancelled; a refused void: payment_cancel_failed', () => {
    const confirming = confirm(intent('manual'));
    const authorized = outcome(confirming, 'op_a', { kind: 'AUTHORIZED' });
    const voiding = step(authorized, beginCancel(authorized, {}, { now, operationId: 'op_v' }));
    expect(types(voiding, outcome(voiding, 'op_v', { kind: 'VOIDED' }))).toEqual(['payment_cancelled']);
    const refused = outcome(voiding, 'op_v', { kind: 'FAILED', error_code: 'void_refused' });
    expect(refused.status).toBe('requires_capture');
    expect(types(voiding, refused)).toEqual(['payment_cancel_failed']);
  });

  it('an incremental authorization: payment_incremental_authorization (success or failure)', () => {
    const confirming = confirm(intent('manual', { request_incremental_authorization: true }));
    const authorized = { ...outcome(confirming, 'op_a', { kind: 'AUTHORIZED' }), incremental_authorization_allowed: true };
    const raising = step(
      authorized,
      beginIncrementalAuthorization(authorized, { amount: 12_000 } as never, { now, operationId: 'op_i', authorizationId: 'auth_1' }),
    );
    const raised = outcome(raising, 'op_i', { kind: 'AUTHORIZED' });
    expect(raised.amount).toBe(12_000);
    expect(types(raising, raised)).toContain('payment_incremental_authorization');
    expect(types(raising, raised)).not.toContain('payment_authorized');
  });

  it('refunds: succeeded and failed, about the refund resource; a pending one gives nothing', () => {
    const { paid, refunding, refunded } = refundOf4000();
    expect(types(paid, refunding)).toEqual([]);
    const [e] = deriveEvents(refunding, refunded);
    expect(e).toMatchObject({
      event_type: 'refund_succeeded',
      object_type: 'refund_details',
      object_id: 'ref_1',
      object: { refund_id: 'ref_1', status: 'succeeded', amount: 4_000 },
    });
    expect(e!.object).not.toHaveProperty('request_hash');
    expect(types(refunding, outcome(refunding, 'op_r', { kind: 'FAILED', error_code: 'refund_declined' }))).toEqual(['refund_failed']);
  });

  it("disputes: the dispute's new status is the event; a report that moves nothing gives none", () => {
    const confirming = confirm(intent());
    const paid = outcome(confirming, 'op_a', { kind: 'CAPTURED' });
    const report = (status: string, at: string) => ({
      connector_dispute_id: 'dp_1',
      amount: 10_000,
      currency: 'EUR',
      dispute_stage: 'dispute',
      dispute_status: status,
      connector_status: null,
      connector_reason: 'fraud',
      connector_reason_code: null,
      challenge_required_by: null,
      connector_created_at: null,
      connector_updated_at: at,
    });
    const opened = step(paid, disputeOutcome(paid, report('dispute_opened', '2026-11-24T00:00:00Z'), { now, disputeId: `dp_${'D'.repeat(26)}` }) as Decision);
    const [e] = deriveEvents(paid, opened);
    expect(e).toMatchObject({
      event_type: 'dispute_opened',
      object_type: 'dispute_details',
      object_id: `dp_${'D'.repeat(26)}`,
      object: { dispute_status: 'dispute_opened', connector_dispute_id: 'dp_1' },
    });
    const won = step(opened, disputeOutcome(opened, report('dispute_won', '2026-11-25T00:00:00Z'), { now, disputeId: 'x' }) as Decision);
    expect(types(opened, won)).toEqual(['dispute_won']);
    expect(types(won, { ...won, seq: won.seq + 1 })).toEqual([]);
  });

  it('heads, as an append stores them (JSON), name the events; the transition alone then gives them whole', () => {
    const { paid, refunding, refunded } = refundOf4000();
    const heads = eventHeads(refunding, refunded);
    expect(heads).toEqual([{ event_type: 'refund_succeeded', object_id: 'ref_1' }]);
    expect(materializeEvents(refunded, JSON.parse(JSON.stringify(heads)))).toEqual(deriveEvents(refunding, refunded));
    // A head whose object the transition does not hold is a broken log, not an event without its object.
    expect(() => materializeEvents(paid, heads)).toThrow(/no refund_details ref_1/);
  });

  it("the payload: exactly the five fields, content {type, object}, the transition's time as timestamp", () => {
    const confirming = confirm(intent());
    const paid = outcome(confirming, 'op_a', { kind: 'CAPTURED' });
    const e = deriveEvents(confirming, paid)[0]!;
    const p = webhookPayload({
      merchant_id: 'm1',
      event_id: e.event_id,
      event_type: e.event_type,
      object_type: e.object_type,
      object: e.object,
      created_at: now,
    });
    expect(Object.keys(p)).toEqual(['merchant_id', 'event_id', 'event_type', 'content', 'timestamp']);
    expect(p.content).toEqual({ type: 'payment_details', object: e.object });
    expect(p.timestamp).toBe(now);
  });
});

// Issue 22. The payment's mandate part is set by hand here (domain/mandates.test.ts tests the decisions that set it);
// begin and outcome keep it.
describe('mandate events', () => {
  const withMandate = (p: StoredPayment, kind: 'new' | 'setup' | 'recurring'): StoredPayment => ({
    ...p,
    mandate: {
      kind,
      mandate_id: 'man_0001',
      customer_acceptance: { acceptance_type: 'online', accepted_at: now, online: { ip_address: '192.0.2.1', user_agent: 'test' } },
      mandate_type: { single_use: { amount: 10_000, currency: 'EUR' } },
      connector_mandate_id: null,
    },
  });
  const subscription = (capture_method: string, kind: 'new' | 'setup' | 'recurring' = 'new') =>
    withMandate(intent(capture_method, { customer: { id: 'cus_sub' }, setup_future_usage: 'off_session' }), kind);

  it('mandate_active once the payment that sets it up is authorized, with the mandate as GET shows it; not again at capture', () => {
    const confirming = confirm(subscription('manual'));
    expect(types(subscription('manual'), confirming)).toEqual(['payment_processing']);
    const authorized = outcome(confirming, 'op_a', { kind: 'AUTHORIZED', connector_mandate_id: 'prov_ref_1' });
    const events = deriveEvents(confirming, authorized);
    expect(events.map((e) => e.event_type)).toEqual(['payment_authorized', 'mandate_active']);
    const active = events[1]!;
    expect(active).toMatchObject({ object_type: 'mandate_details', object_id: 'man_0001', order: 1 });
    expect(active.object).toMatchObject({
      mandate_id: 'man_0001',
      merchant_id: 'm1',
      customer_id: 'cus_sub',
      status: 'active',
      connector: 'service_test',
      original_payment_id: authorized.payment_id,
      mandate_type: { single_use: { amount: 10_000, currency: 'EUR' } },
      revoked_at: null,
    });
    expect(active.event_id).toBe(eventId('m1', authorized.payment_id, authorized.seq, 'mandate_active', 'man_0001'));
    const capturing = step(authorized, beginCapture(authorized, {}, { now, operationId: 'op_c', captureId: 'cap_1' }));
    const paid = outcome(capturing, 'op_c', { kind: 'CAPTURED' });
    expect(types(capturing, paid)).toEqual(['payment_captured', 'payment_succeeded']);
  });

  it('an automatic capture: mandate_active with payment_succeeded; setup: the same; a decline or a recurring charge: none', () => {
    const c1 = confirm(subscription('automatic'));
    expect(types(c1, outcome(c1, 'op_a', { kind: 'CAPTURED' }))).toEqual(['payment_succeeded', 'mandate_active']);
    const c2 = confirm(subscription('automatic', 'setup'));
    expect(types(c2, outcome(c2, 'op_a', { kind: 'CAPTURED' }))).toEqual(['payment_succeeded', 'mandate_active']);
    const c3 = confirm(subscription('automatic'));
    expect(types(c3, outcome(c3, 'op_a', { kind: 'DECLINED', error_code: 'declined' }))).toEqual(['payment_failed']);
    // A recurring charge (its mandate part set after the confirm: beginConfirm asks for the mandate it charges on).
    const c4 = withMandate(confirm(subscription('automatic')), 'recurring');
    expect(types(c4, outcome(c4, 'op_a', { kind: 'CAPTURED' }))).toEqual(['payment_succeeded']);
    // No mandate part: nothing about mandates.
    const c5 = confirm(intent('automatic', { customer: { id: 'cus_sub' } }));
    expect(types(c5, outcome(c5, 'op_a', { kind: 'CAPTURED' }))).toEqual(['payment_succeeded']);
  });

  it('an authorization followed by our own capture (processing -> processing): mandate_active then; held in our review: at approval', () => {
    const confirming = confirm(subscription('automatic'));
    const authorized = outcome(confirming, 'op_a', { kind: 'AUTHORIZED' });
    const capturing = { ...authorized, status: 'processing' as const };
    expect(types(confirming, capturing)).toContain('mandate_active');
    expect(types(capturing, { ...capturing, status: 'succeeded', seq: capturing.seq + 1 })).not.toContain('mandate_active');
    const held = { ...authorized, status: 'requires_merchant_action' as const };
    expect(types(confirming, held)).not.toContain('mandate_active');
    expect(types(held, { ...authorized, seq: held.seq + 1 })).toContain('mandate_active');
    expect(types(held, { ...held, status: 'cancelled', seq: held.seq + 1 })).not.toContain('mandate_active');
  });

  it('mandate_revoked: one id per mandate whenever it is derived, in the table, about the mandate', () => {
    const m = {
      mandate_id: 'man_0001',
      merchant_id: 'm1',
      customer_id: 'cus_sub',
      status: 'revoked' as const,
      payment_method: 'pay_later',
      payment_method_type: 'subscription_invoice',
      payment_token: null,
      connector: 'service_test',
      merchant_connector_id: null,
      connector_mandate_id: null,
      customer_acceptance: null,
      mandate_type: null,
      original_payment_id: 'pay_1',
      created_at: now,
      revoked_at: now,
    };
    const e = mandateRevokedEvent(m);
    expect(e).toMatchObject({ event_type: 'mandate_revoked', object_type: 'mandate_details', object_id: 'man_0001', object: m });
    expect(mandateRevokedEvent({ ...m, revoked_at: '2026-12-01T00:00:00.000Z' }).event_id).toBe(e.event_id);
    expect(mandateRevokedEvent({ ...m, mandate_id: 'man_0002' }).event_id).not.toBe(e.event_id);
    expect(EVENT_TYPES.mandate_active.object_type).toBe('mandate_details');
    expect(EVENT_TYPES.mandate_revoked.object_type).toBe('mandate_details');
  });
});
