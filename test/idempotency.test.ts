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
    const { body: p } = await stack.api('POST', '/payments', { amount: 900, currency: 'EUR', confirm: true, payment_method: 'pay_later', capture_method: 'manual_multiple' }, key);
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
