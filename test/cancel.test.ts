// Cancel (spec 4.4) through the real processes: local before confirmation, through the provider after.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Stack } from './support/stack.ts';

let stack: Stack;
let key: string;
beforeAll(async () => ({ stack, api_key: key } = await Stack.withMerchant()));
afterAll(async () => stack?.stop());

const create = (body: Record<string, unknown>) =>
  stack.api('POST', '/payments', { amount: 10_000, currency: 'EUR', payment_method: 'pay_later', ...body }, key);
const cancel = (id: string, body: Record<string, unknown> = {}) => stack.api('POST', `/payments/${id}/cancel`, body, key);
const voidCalls = async (txn: string) => (await stack.sandboxCalls()).filter((c) => c.path === `/service_test/v1/payments/${txn}/void`);

describe('cancel', () => {
  it('from requires_confirmation: cancelled locally, no provider call', async () => {
    const before = (await stack.sandboxCalls()).length;
    const { body: p } = await create({});
    const c = await cancel(p.payment_id, { cancellation_reason: 'requested_by_customer' });
    expect(c.status).toBe(200);
    expect(c.body).toMatchObject({ status: 'cancelled', cancellation_reason: 'requested_by_customer', amount_capturable: 0 });
    expect((await stack.sandboxCalls()).length).toBe(before);
  });

  it('from requires_capture: the provider voids the authorization -> cancelled', async () => {
    const { body: p } = await create({ confirm: true, capture_method: 'manual' });
    expect(p.status).toBe('requires_capture');
    const c = await cancel(p.payment_id, { cancellation_reason: 'out of stock' });
    expect(c.body).toMatchObject({ status: 'cancelled', cancellation_reason: 'out of stock', amount_capturable: 0, amount_cancelled: 10_000 });
    expect(c.body.attempts.at(-1).status).toBe('voided');
    expect(await voidCalls(p.connector_transaction_id)).toHaveLength(1);
    expect((await stack.sandboxPayments()).find((x) => x.id === p.connector_transaction_id)!.status).toBe('voided');
  });

  it('from requires_customer_action: voided at the provider; the customer can no longer complete it', async () => {
    const { body: p } = await create({ confirm: true, customer: { email: 'c+redirect@example.com' } });
    expect(p.status).toBe('requires_customer_action');
    const c = await cancel(p.payment_id);
    expect(c.body).toMatchObject({ status: 'cancelled', next_action: null });
    const approve = await fetch(`${p.next_action.redirect_to_url}/approve`, { method: 'POST', redirect: 'manual' });
    expect(approve.status).toBe(404);
  });

  it('from partially_captured_and_capturable: the rest is released -> partially_captured', async () => {
    const { body: p } = await create({ confirm: true, capture_method: 'manual_multiple' });
    const cap = await stack.api('POST', `/payments/${p.payment_id}/capture`, { amount_to_capture: 4_000 }, key);
    expect(cap.body.status).toBe('partially_captured_and_capturable');
    const c = await cancel(p.payment_id);
    expect(c.body).toMatchObject({ status: 'partially_captured', amount_received: 4_000, amount_cancelled: 6_000, amount_capturable: 0 });
  });

  it('refused from succeeded, cancelled and failed with IR_16, and nothing changes', async () => {
    const { body: done } = await create({ confirm: true });
    const { body: failed } = await create({ confirm: true, customer: { email: 'c+decline@example.com' } });
    const { body: fresh } = await create({});
    await cancel(fresh.payment_id);
    for (const p of [done, failed, fresh]) {
      const before = await stack.api('GET', `/payments/${p.payment_id}`, undefined, key);
      const c = await cancel(p.payment_id);
      expect(c.status).toBe(400);
      expect(c.body.error.code).toBe('IR_16');
      expect((await stack.api('GET', `/payments/${p.payment_id}`, undefined, key)).body).toEqual(before.body);
    }
  });

  it('bad bodies -> 400 naming the field; an unknown payment -> 404', async () => {
    const { body: p } = await create({ confirm: true, capture_method: 'manual' });
    expect((await cancel(p.payment_id, { amount_to_cancel: 0 })).body.error.param).toBe('amount_to_cancel');
    expect((await cancel(p.payment_id, { amount_to_cancel: 10_001 })).body.error).toMatchObject({ code: 'IR_06', param: 'amount_to_cancel' });
    expect((await cancel(p.payment_id, { cancellation_reason: 'x'.repeat(256) })).body.error.param).toBe('cancellation_reason');
    expect((await cancel(p.payment_id, { reason: 'x' })).body.error).toMatchObject({ code: 'IR_07', param: 'reason' });
    expect((await stack.api('GET', `/payments/${p.payment_id}`, undefined, key)).body.status).toBe('requires_capture');
    expect((await cancel('pay_unknown000000000000000000000')).status).toBe(404);
  });
});
