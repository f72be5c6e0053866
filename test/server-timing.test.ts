// Issue 24: every payment and refund answer says where its time went (Server-Timing), the provider's time as the
// worker measured it, so a merchant sees our overhead apart from the provider's.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseServerTiming } from '../bench/measure.ts';
import { Stack, type ApiResponse } from './support/stack.ts';

// The sandbox's `+slow` customers answer after this long: long enough to stand out from everything else.
const SLOW_MS = 1_500;

let stack: Stack;
let key: string;
beforeAll(async () => ({ stack, api_key: key } = await Stack.withMerchant({ SANDBOX_SLOW_MS: String(SLOW_MS) })));
afterAll(async () => stack?.stop());

const timingOf = (res: ApiResponse) => {
  expect(res.status).toBe(200);
  return parseServerTiming(res.headers.get('server-timing') ?? undefined);
};
const create = (body: Record<string, unknown> = {}) =>
  stack.api('POST', '/payments', { amount: 10_000, currency: 'EUR', customer: { email: 'jane@example.com' }, ...body }, key);
const confirm = (id: string) => stack.api('POST', `/payments/${id}/confirm`, { payment_method: 'pay_later', payment_method_type: 'invoice' }, key);

describe('Server-Timing', () => {
  it('a confirm through service_test: total, payment-state, queue, provider (> 0, within total) and overhead = total - provider', async () => {
    const created = await create({ capture_method: 'manual' });
    const t = timingOf(await confirm(created.body.payment_id));
    expect(Object.keys(t)).toEqual(expect.arrayContaining(['total', 'payment-state', 'queue', 'provider', 'overhead']));
    expect(t.provider).toBeGreaterThan(0);
    expect(t.total).toBeGreaterThanOrEqual(t.provider!);
    expect(t.total).toBeGreaterThanOrEqual(t['payment-state']!);
    // Rounded to 0.1 ms each.
    expect(Math.abs(t.overhead! - (t.total! - t.provider!))).toBeLessThanOrEqual(0.2);
  });

  it('create, capture, refund, retrieve and the lists answer it too', async () => {
    const created = await create({ capture_method: 'manual' });
    expect(timingOf(created).total).toBeGreaterThan(0);
    const id = created.body.payment_id;
    await confirm(id);
    const captured = timingOf(await stack.api('POST', `/payments/${id}/capture`, { amount_to_capture: 10_000 }, key));
    expect(captured.provider).toBeGreaterThan(0);
    expect(captured.total).toBeGreaterThanOrEqual(captured.provider!);
    const refunded = await stack.api('POST', '/refunds', { payment_id: id, amount: 1_000 }, key);
    const r = timingOf(refunded);
    expect(r.provider).toBeGreaterThan(0);
    expect(r.total).toBeGreaterThanOrEqual(r.provider!);
    // From storage only: the whole handling and the store's part, no provider.
    for (const res of [
      await stack.api('GET', `/payments/${id}`, undefined, key),
      await stack.api('GET', `/refunds/${refunded.body.refund_id}`, undefined, key),
      await stack.api('GET', '/payments/list', undefined, key),
      await stack.api('POST', '/payments/list', {}, key),
      await stack.api('POST', '/refunds/list', {}, key),
    ]) {
      const t = timingOf(res);
      expect(t.total).toBeGreaterThan(0);
      expect(t.store).toBeLessThanOrEqual(t.total!);
      expect(t.provider).toBeUndefined();
    }
  });

  it('a slow provider shows in provider, not in overhead', async () => {
    const created = await create({ capture_method: 'manual', customer: { email: 'jane+slow@example.com' } });
    const t = timingOf(await confirm(created.body.payment_id));
    expect(t.provider).toBeGreaterThanOrEqual(SLOW_MS);
    expect(t.overhead).toBeLessThan(SLOW_MS);
    expect(t.total).toBeGreaterThanOrEqual(t.provider!);
  });
});
