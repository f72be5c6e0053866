// service_test's flows, pure: our jobs -> the provider's requests, and recorded provider answers
// (fixtures/answers.json) -> outcomes. No stack.
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import type { ConnectorJob } from '../../../domain/job.ts';
import { FLOWS } from '../manifest.ts';
import { flowFor, UnexpectedAnswer } from '../types.ts';
import { connector as serviceTest } from './index.ts';

const answers: Record<string, { status: number; body: unknown }> = JSON.parse(readFileSync(new URL('./fixtures/answers.json', import.meta.url), 'utf8'));
const creds = { api_key: 'sk_test' };
/** What the runtime hands every call (workers/runtime.ts callFor): here, our notification address for the job's account. */
const session = { notification_url: 'https://gateway.example/webhooks/mer_1/mca_0123456789abcdefghij' };
const job = (over: Partial<ConnectorJob> = {}): ConnectorJob => ({
  merchant_id: 'mer_1',
  payment_id: 'pay_000000000000000000000000001',
  operation_id: 'op_1',
  kind: 'authorize',
  connector: 'service_test',
  amount: 10000,
  currency: 'EUR',
  capture_method: 'manual',
  connector_transaction_id: null,
  customer_email: 'jane@example.com',
  return_url: 'https://shop.example/return',
  merchant_order_reference_id: 'order-1',
  mode: 'execute',
  sync_round: 0,
  ...over,
});
const { authorize, sync, capture, void: voidFlow, incrementalAuthorization, refund, refundSync } = serviceTest;
const flow = <T>(f: T | undefined): T => {
  if (!f) throw new Error('flow absent');
  return f;
};

describe('service_test manifest', () => {
  it('lists exactly the flows the connector implements', () => {
    const present = FLOWS.filter((f) => serviceTest[f] !== undefined);
    expect(present).toEqual([...serviceTest.manifest.flows]);
    expect(serviceTest.notification).toBeDefined();
    expect(serviceTest.manifest.webhook).toEqual({
      scheme: 'hmac',
      signature_header: 'x-webhook-signature-512',
      algorithm: 'sha512',
      encoding: 'hex',
      generated_secret: true,
    });
  });
  it('takes the HeaderKey credentials of a connector account', () => {
    expect(serviceTest.manifest.credentials.safeParse({ auth_type: 'HeaderKey', api_key: 'k' }).success).toBe(true);
    expect(serviceTest.manifest.credentials.safeParse({ auth_type: 'HeaderKey' }).success).toBe(false);
  });
});

describe('service_test requests', () => {
  it('authorize: POST /v1/payments with the operation id as idempotency key, manual capture for manual and manual_multiple', () => {
    expect(flow(authorize).request(job(), creds, session)).toEqual({
      method: 'POST',
      path: '/service_test/v1/payments',
      idempotencyKey: 'op_1',
      headers: { authorization: 'Bearer sk_test' },
      body: {
        amount: 10000,
        currency: 'EUR',
        reference: 'order-1',
        capture: 'manual',
        customer: { email: 'jane@example.com' },
        return_url: 'https://shop.example/return',
        // Where the provider sends its notifications about the payment: the address the runtime gives.
        webhook_url: 'https://gateway.example/webhooks/mer_1/mca_0123456789abcdefghij',
      },
    });
    // Without the runtime's session there is no notification address: refused, not guessed.
    expect(() => flow(authorize).request(job(), creds)).toThrow('notification_url');
    // The account's notification secret, when the worker has it, goes to the provider with the payment.
    expect((flow(authorize).request(job(), creds, { ...session, webhook_secret: 'whsec_x' }).body as { webhook_secret: string }).webhook_secret).toBe(
      'whsec_x',
    );
    expect((flow(authorize).request(job({ capture_method: 'manual_multiple' }), creds, session).body as { capture: string }).capture).toBe('manual');
    expect(flow(authorize).request(job({ capture_method: 'automatic', merchant_order_reference_id: null }), creds, session).body as object).toMatchObject({
      capture: 'automatic',
      reference: 'pay_000000000000000000000000001',
    });
  });
  it('a status sync of an authorization reads the payment; of anything else repeats it with the same key', () => {
    const synced = job({ mode: 'sync', connector_transaction_id: 'stp_1' });
    expect(flowFor(synced)).toBe('sync');
    expect(flow(sync).request(synced, creds)).toEqual({ method: 'GET', path: '/service_test/v1/payments/stp_1', headers: { authorization: 'Bearer sk_test' } });
    expect(flowFor(job({ mode: 'sync' }))).toBe('authorize');
    expect(flowFor(job({ kind: 'capture', mode: 'sync', connector_transaction_id: 'stp_1' }))).toBe('capture');
  });
  it('capture, void and increment go to the payment', () => {
    const j = job({ connector_transaction_id: 'stp_1', amount: 4000, operation_id: 'op_2' });
    expect(flow(capture).request({ ...j, kind: 'capture' }, creds)).toMatchObject({
      method: 'POST',
      path: '/service_test/v1/payments/stp_1/captures',
      idempotencyKey: 'op_2',
      body: { amount: 4000 },
    });
    expect(flow(voidFlow).request({ ...j, kind: 'void' }, creds)).toMatchObject({
      method: 'POST',
      path: '/service_test/v1/payments/stp_1/void',
      idempotencyKey: 'op_2',
      body: {},
    });
    expect(flow(incrementalAuthorization).request({ ...j, kind: 'incremental_authorization' }, creds)).toMatchObject({
      method: 'POST',
      path: '/service_test/v1/payments/stp_1/increments',
      idempotencyKey: 'op_2',
      body: { amount: 4000 },
    });
  });
});

describe('service_test answers -> outcomes', () => {
  const a = (name: string) => answers[name]!;
  it('authorize and sync: each payment status', () => {
    const read = (name: string) => flow(authorize).response(a(name), job());
    expect(read('authorized')).toEqual({
      kind: 'AUTHORIZED',
      connector_transaction_id: 'stp_5f1c2a9be07d43a1c8e2f0a7',
      connector_reference_id: 'order-1',
      redirect_url: undefined,
    });
    expect(read('captured')).toMatchObject({ kind: 'CAPTURED', connector_reference_id: undefined });
    expect(read('declined')).toMatchObject({
      kind: 'DECLINED',
      error_code: 'credit_declined',
      error_message: 'The customer did not pass the credit check',
      unified_code: 'UE_1000',
    });
    expect(read('requires_action')).toMatchObject({
      kind: 'CUSTOMER_ACTION',
      redirect_url: 'http://127.0.0.1:8090/service_test/checkout/stp_1a2b3c4d5e6f7a8b9c0d1e2f',
    });
    expect(flow(sync).response(a('pending'), job())).toMatchObject({ kind: 'PENDING', connector_transaction_id: 'stp_2b3c4d5e6f7a8b9c0d1e2f3a' });
  });
  it('errors: a decline for authorize and increments, a failure for capture and void, with unified codes', () => {
    expect(flow(authorize).response(a('invalid_currency'), job())).toEqual({
      kind: 'DECLINED',
      error_code: 'invalid_request',
      error_message: 'currency is invalid',
      unified_code: 'UE_2000',
      unified_message: 'The provider rejected the request data',
    });
    expect(flow(authorize).response(a('unauthorized'), job())).toMatchObject({ kind: 'DECLINED', unified_code: 'UE_4000' });
    expect(flow(incrementalAuthorization).response(a('increment_over_limit'), job())).toMatchObject({
      kind: 'DECLINED',
      error_code: 'credit_limit_exceeded',
      unified_code: 'UE_1000',
    });
    expect(flow(capture).response(a('capture_too_much'), job())).toMatchObject({
      kind: 'FAILED',
      error_code: 'amount_exceeds_authorization',
      unified_code: 'UE_2000',
    });
    expect(flow(voidFlow).response(a('void_not_capturable'), job())).toMatchObject({ kind: 'FAILED', error_code: 'not_capturable', unified_code: 'UE_3000' });
    expect(flow(sync).response(a('not_found'), job())).toMatchObject({ kind: 'DECLINED', error_code: 'not_found' });
    // An error body that is not the provider's shape still names the HTTP status.
    expect(flow(capture).response({ status: 400, body: 'nope' }, job())).toMatchObject({ kind: 'FAILED', error_code: 'http_400', unified_code: 'UE_9000' });
  });
  it('capture, void, increment', () => {
    expect(flow(capture).response(a('capture_succeeded'), job())).toEqual({ kind: 'CAPTURED', connector_transaction_id: 'stc_3c4d5e6f7a8b9c0d1e2f3a4b' });
    expect(flow(voidFlow).response(a('voided'), job())).toEqual({ kind: 'VOIDED' });
    expect(flow(voidFlow).response({ status: 200, body: { ...(a('voided').body as object), status: 'authorized' } }, job())).toEqual({ kind: 'FAILED' });
    expect(flow(incrementalAuthorization).response(a('incremented'), job())).toEqual({
      kind: 'AUTHORIZED',
      connector_transaction_id: 'stp_5f1c2a9be07d43a1c8e2f0a7',
    });
  });
  it("an answer that is not the provider's shape is refused, never cast", () => {
    expect(() => flow(authorize).response({ status: 201, body: { id: 'stp_1', status: 'approved' } }, job())).toThrow(UnexpectedAnswer);
    expect(() => flow(capture).response({ status: 201, body: null }, job())).toThrow(UnexpectedAnswer);
  });
});

describe('service_test refunds', () => {
  const a = (name: string) => answers[name]!;
  const refundJob = job({ kind: 'refund', operation_id: 'op_9', connector_transaction_id: 'stp_1', amount: 4000, refund_id: 'ref_1', reason: 'damaged' });
  it('refund: POST /payments/{id}/refunds with the operation id as idempotency key and our refund id as reference', () => {
    expect(flowFor(refundJob)).toBe('refund');
    expect(flow(refund).request(refundJob, creds)).toEqual({
      method: 'POST',
      path: '/service_test/v1/payments/stp_1/refunds',
      idempotencyKey: 'op_9',
      headers: { authorization: 'Bearer sk_test' },
      body: { amount: 4000, reference: 'ref_1', reason: 'damaged' },
    });
  });
  it('a status sync reads the refund once the provider named it, else repeats the refund with the same key', () => {
    expect(flowFor({ ...refundJob, mode: 'sync' })).toBe('refund');
    const named = { ...refundJob, mode: 'sync' as const, connector_refund_id: 'str_1' };
    expect(flowFor(named)).toBe('refundSync');
    expect(flow(refundSync).request(named, creds)).toEqual({
      method: 'GET',
      path: '/service_test/v1/refunds/str_1',
      headers: { authorization: 'Bearer sk_test' },
    });
  });
  it('answers: succeeded, pending, failed with its code, refused', () => {
    expect(flow(refund).response(a('refund_succeeded'), refundJob)).toEqual({ kind: 'REFUNDED', connector_transaction_id: 'str_1a2b3c4d5e6f7a8b9c0d1e2f' });
    expect(flow(refundSync).response(a('refund_pending'), refundJob)).toEqual({ kind: 'PENDING', connector_transaction_id: 'str_2b3c4d5e6f7a8b9c0d1e2f3a' });
    expect(flow(refund).response(a('refund_failed'), refundJob)).toMatchObject({ kind: 'DECLINED', error_code: 'refund_declined', unified_code: 'UE_6000' });
    expect(flow(refund).response(a('refund_too_much'), refundJob)).toMatchObject({
      kind: 'FAILED',
      error_code: 'amount_exceeds_captured',
      unified_code: 'UE_2000',
    });
    expect(() => flow(refund).response({ status: 201, body: { id: 'str_1', status: 'done' } }, refundJob)).toThrow(UnexpectedAnswer);
  });
});

describe('service_test notifications -> what they say', () => {
  const bodies: Record<string, unknown> = JSON.parse(readFileSync(new URL('./fixtures/notifications.json', import.meta.url), 'utf8'));
  const parse = (name: string) => flow(serviceTest.notification).parse(JSON.stringify(bodies[name]));
  it("payment.updated: the payment's status as an outcome, with the provider's updated_at", () => {
    expect(parse('payment_captured')).toEqual({
      object: 'payment',
      connector_transaction_id: 'stp_2b3c4d5e6f7a8b9c0d1e2f3a',
      object_id: 'stp_2b3c4d5e6f7a8b9c0d1e2f3a',
      provider_updated_at: '2026-11-23T10:01:00.000Z',
      outcome: { kind: 'CAPTURED', connector_transaction_id: 'stp_2b3c4d5e6f7a8b9c0d1e2f3a', connector_reference_id: 'order-4', redirect_url: undefined },
    });
    expect(parse('payment_authorized')).toMatchObject({ object: 'payment', outcome: { kind: 'AUTHORIZED' } });
    expect(parse('payment_declined')).toMatchObject({ outcome: { kind: 'DECLINED', error_code: 'credit_declined', unified_code: 'UE_1000' } });
  });
  it("refund.updated: ours by reference, the provider's id, succeeded / failed with its failure", () => {
    expect(parse('refund_succeeded')).toEqual({
      object: 'refund',
      connector_transaction_id: 'stp_2b3c4d5e6f7a8b9c0d1e2f3a',
      object_id: 'str_4d5e6f7a8b9c0d1e2f3a4b5c',
      provider_updated_at: '2026-11-23T11:00:05.000Z',
      refund_reference: 'ref_0123456789ABCDEFGHIJKLMNOP',
      connector_refund_id: 'str_4d5e6f7a8b9c0d1e2f3a4b5c',
      outcome: { kind: 'REFUNDED', connector_transaction_id: 'str_4d5e6f7a8b9c0d1e2f3a4b5c' },
    });
    expect(parse('refund_failed')).toMatchObject({ outcome: { kind: 'FAILED', error_code: 'refund_declined', error_message: 'The refund was declined' } });
  });
  it("dispute.created / dispute.updated: the DisputeReport fields, statuses in the spec's names", () => {
    expect(parse('dispute_created')).toEqual({
      object: 'dispute',
      connector_transaction_id: 'stp_2b3c4d5e6f7a8b9c0d1e2f3a',
      object_id: 'dp_5e6f7a8b9c0d1e2f3a4b5c6d',
      provider_updated_at: '2026-11-24T09:00:00.000Z',
      dispute: {
        connector_dispute_id: 'dp_5e6f7a8b9c0d1e2f3a4b5c6d',
        amount: 10000,
        currency: 'EUR',
        dispute_stage: 'dispute',
        dispute_status: 'dispute_opened',
        connector_status: 'opened',
        connector_reason: 'Goods not received',
        connector_reason_code: '13.1',
        challenge_required_by: '2026-12-08T09:00:00.000Z',
        connector_created_at: '2026-11-24T09:00:00.000Z',
        connector_updated_at: '2026-11-24T09:00:00.000Z',
      },
    });
    expect(parse('dispute_won')).toMatchObject({
      dispute: { dispute_status: 'dispute_won', challenge_required_by: '' },
      provider_updated_at: '2026-11-30T09:00:00.000Z',
    });
  });
  it('what it cannot read is unknown, never thrown: other event types, other shapes, not JSON', () => {
    expect(parse('unknown_type')).toMatchObject({ object: 'unknown', reason: expect.stringContaining('payout.paid') });
    expect(parse('payment_bad_status')).toMatchObject({ object: 'unknown' });
    expect(flow(serviceTest.notification).parse('not json')).toEqual({ object: 'unknown', reason: 'the body is not JSON' });
    expect(flow(serviceTest.notification).parse('{"type":"refund.updated","id":"evt_1","data":{"id":"str_1"}}')).toMatchObject({ object: 'unknown' });
  });
});

describe('service_test mandates (issue 22)', () => {
  const body = (j: ConnectorJob) => flow(authorize).request(j, creds, session).body as Record<string, unknown>;
  it('a new or setup mandate asks for a reusable reference; a recurring charge is off-session on the reference', () => {
    expect(body(job({ mandate: { kind: 'new', mandate_id: 'man_1', connector_mandate_id: null } }))).toMatchObject({ setup_mandate: true });
    expect(body(job({ amount: 0, mandate: { kind: 'setup', mandate_id: 'man_1', connector_mandate_id: null } }))).toMatchObject({
      setup_mandate: true,
      amount: 0,
    });
    const recurring = body(job({ mandate: { kind: 'recurring', mandate_id: 'man_1', connector_mandate_id: 'stm_1' } }));
    expect(recurring).toMatchObject({ mandate: 'stm_1', off_session: true });
    expect(recurring.setup_mandate).toBeUndefined();
    expect(body(job())).not.toHaveProperty('mandate');
  });
  it("the answer's mandate is the connector_mandate_id; a revoked mandate is UE_7000", () => {
    const answer = { status: 201, body: { id: 'stp_1', status: 'captured', reference: 'order-1', mandate: { id: 'stm_9', status: 'active' } } };
    expect(flow(authorize).response(answer, job())).toMatchObject({ kind: 'CAPTURED', connector_mandate_id: 'stm_9' });
    const revoked = { status: 422, body: { error: { code: 'mandate_revoked', message: 'The customer revoked this mandate' } } };
    expect(flow(authorize).response(revoked, job())).toMatchObject({ kind: 'DECLINED', error_code: 'mandate_revoked', unified_code: 'UE_7000' });
    const declined = { status: 201, body: { id: 'stp_2', status: 'declined', decline: { code: 'recurring_declined', message: 'no' } } };
    expect(flow(authorize).response(declined, job())).toMatchObject({ kind: 'DECLINED', unified_code: 'UE_1000' });
  });
});
