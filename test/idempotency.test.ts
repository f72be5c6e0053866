// The Idempotency-Key header on POSTs: replay, conflict, concurrency.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Stack } from './support/stack.ts';

let stack: Stack;
let key: string;
beforeAll(async () => ({ stack, api_key: key } = await Stack.withMerchant({ CONFIRM_WAIT_MS: '1000', SANDBOX_SLOW_MS: '2500' })));
afterAll(async () => stack?.stop());

const post = (path: string, body: unknown, idem: string) => stack.api('POST', path, body, key, { 'idempotency-key': idem });
const countPayments = async () => (await stack.db()).collection('payments').countDocuments({});

describe('Idempotency-Key', () => {
  it('the same key and body replays the first answer and creates nothing more', async () => {
    const body = { amount: 500, currency: 'EUR', confirm: true, payment_method: 'pay_later' };
    const first = await post('/payments', body, 'order-1001');
    expect(first.body.status).toBe('succeeded');
    const n = await countPayments();
    const again = await post('/payments', body, 'order-1001');
    expect(again.status).toBe(200);
    expect(again.body).toEqual(first.body);
    expect(again.headers.get('idempotent-replayed')).toBe('true');
    expect(await countPayments()).toBe(n);
  });

  it('the same key with a different body -> 409 HE_01, nothing created', async () => {
    await post('/payments', { amount: 500, currency: 'EUR' }, 'order-1002');
    const n = await countPayments();
    const other = await post('/payments', { amount: 501, currency: 'EUR' }, 'order-1002');
    expect(other.status).toBe(409);
    expect(other.body.error).toMatchObject({ code: 'HE_01', param: 'Idempotency-Key' });
    expect(await countPayments()).toBe(n);
  });

  it('the same key while the first request is still running -> 409; afterwards the answer replays', async () => {
    const body = { amount: 500, currency: 'EUR', confirm: true, payment_method: 'pay_later', customer: { email: 's+slow@example.com' } };
    const slow = post('/payments', body, 'order-1003');
    await new Promise((r) => setTimeout(r, 300));
    const during = await post('/payments', body, 'order-1003');
    expect(during.status).toBe(409);
    const first = await slow;
    expect(first.status).toBe(200);
    expect((await post('/payments', body, 'order-1003')).body).toEqual(first.body);
  });

  it('10 concurrent captures with one key: one capture, every other answer a replay or a 409', async () => {
    const { body: p } = await stack.api(
      'POST',
      '/payments',
      { amount: 900, currency: 'EUR', confirm: true, payment_method: 'pay_later', capture_method: 'manual_multiple' },
      key,
    );
    const results = await Promise.all(Array.from({ length: 10 }, () => post(`/payments/${p.payment_id}/capture`, { amount_to_capture: 100 }, 'cap-1')));
    expect(results.every((r) => r.status === 200 || r.status === 409)).toBe(true);
    const final = await stack.api('GET', `/payments/${p.payment_id}`, undefined, key);
    expect(final.body.captures).toHaveLength(1);
    expect(final.body.amount_received).toBe(100);
  });

  it('keys are per merchant, and per endpoint', async () => {
    const other = await stack.merchant();
    const a = await post('/payments', { amount: 1, currency: 'EUR' }, 'shared-key');
    const b = await stack.api('POST', '/payments', { amount: 1, currency: 'EUR' }, other.api_key, { 'idempotency-key': 'shared-key' });
    expect(b.status).toBe(200);
    expect(b.body.payment_id).not.toBe(a.body.payment_id);
    const c = await post(`/payments/${a.body.payment_id}/cancel`, { amount: 1, currency: 'EUR' }, 'shared-key');
    expect(c.status).toBe(409);
  });

  it('a key is bound to its endpoint (issue 19 item 9): POST /payments/list then POST /refunds/list is 409 naming the first, never its answer', async () => {
    // POST /payments/list then POST /refunds/list: the refunds list is not answered with the payments list.
    const payments = await post('/payments/list', { limit: 5 }, 'cross-list');
    expect(payments.status).toBe(200);
    expect(payments.body.data).toEqual(expect.any(Array));
    const refunds = await post('/refunds/list', { limit: 5 }, 'cross-list');
    expect(refunds.status, JSON.stringify(refunds.body)).toBe(409);
    expect(refunds.headers.get('idempotent-replayed')).toBeNull();
    expect(refunds.body.error).toMatchObject({
      type: 'invalid_request',
      code: 'HE_01',
      param: 'Idempotency-Key',
      message: expect.stringContaining('another endpoint (POST /payments/list)'),
    });
    expect(refunds.body.error.message).toContain('POST /refunds/list');
    // The query string is no part of the endpoint: the same path with one replays.
    const withQuery = await stack.api('POST', '/payments/list?x=1', { limit: 5 }, key, { 'idempotency-key': 'cross-list' });
    expect(withQuery.headers.get('idempotent-replayed')).toBe('true');
  });

  it('a key is bound to its endpoint (issue 19 item 9): POST /customers then POST /payments is 409, no customer answered, nothing created', async () => {
    const customer = await post('/customers', { name: 'Rita', email: 'rita@example.com' }, 'cross-create');
    expect(customer.status).toBe(200);
    expect(customer.body.customer_id).toEqual(expect.any(String));
    const n = await countPayments();
    const payment = await post('/payments', { name: 'Rita', email: 'rita@example.com' }, 'cross-create');
    expect(payment.status, JSON.stringify(payment.body)).toBe(409);
    expect(payment.body).not.toHaveProperty('customer_id');
    expect(payment.body.error).toMatchObject({ code: 'HE_01', param: 'Idempotency-Key', message: expect.stringContaining('POST /customers') });
    expect(await countPayments()).toBe(n);
    // The refusal leaves the key with its endpoint: the first request still replays there.
    const again = await post('/customers', { name: 'Rita', email: 'rita@example.com' }, 'cross-create');
    expect(again.headers.get('idempotent-replayed')).toBe('true');
    expect(again.body).toEqual(customer.body);
  });

  it('a key over 255 characters -> 400 naming the header; an unauthenticated request claims nothing', async () => {
    const long = await post('/payments', { amount: 1, currency: 'EUR' }, 'k'.repeat(256));
    expect(long.status).toBe(400);
    expect(long.body.error.param).toBe('Idempotency-Key');
    const anon = await stack.api('POST', '/accounts', { merchant_id: 'idem_shop' }, undefined, { 'idempotency-key': 'acct-1' });
    expect(anon.status).toBe(401);
    const real = await stack.api('POST', '/accounts', { merchant_id: 'idem_shop' }, stack.adminKey, { 'idempotency-key': 'acct-1' });
    expect(real.status).toBe(200);
  });
});
