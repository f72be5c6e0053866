// GET /payments/{id}?force_sync=true asks the provider about operations in flight instead of waiting for the
// scheduled status sync.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Stack, sleep } from './support/stack.ts';

let stack: Stack;
let key: string;
// The scheduled sync is a minute away and the provider's notifications go to a closed port (PUBLIC_BASE_URL), so only
// force_sync can learn the provider's decision in this test.
beforeAll(
  async () =>
    ({ stack, api_key: key } = await Stack.withMerchant({ SYNC_DELAYS_MS: '60000', SANDBOX_REVIEW_MS: '500', PUBLIC_BASE_URL: 'http://127.0.0.1:9' })),
);
afterAll(async () => stack?.stop());

describe('force_sync', () => {
  it('learns a decision the provider made since, which a plain GET does not show yet', async () => {
    const c = await stack.api(
      'POST',
      '/payments',
      {
        amount: 2_000,
        currency: 'EUR',
        confirm: true,
        payment_method: 'pay_later',
        capture_method: 'manual',
        customer: { email: 'fs+review@example.com' },
      },
      key,
    );
    expect(c.body.status).toBe('processing');
    await sleep(800);
    expect((await stack.api('GET', `/payments/${c.body.payment_id}`, undefined, key)).body.status).toBe('processing');
    const synced = await stack.api('GET', `/payments/${c.body.payment_id}?force_sync=true`, undefined, key);
    expect(synced.status).toBe(200);
    expect(synced.body).toMatchObject({ status: 'requires_capture', amount_capturable: 2_000 });
    expect((await stack.api('GET', `/payments/${c.body.payment_id}`, undefined, key)).body.status).toBe('requires_capture');
  });

  it('while the provider still decides, answers at once with the payment unchanged', async () => {
    const slowReview = await stack.api(
      'POST',
      '/payments',
      {
        amount: 2_000,
        currency: 'EUR',
        confirm: true,
        payment_method: 'pay_later',
        customer: { email: 'fs+review@example.com' },
      },
      key,
    );
    const started = Date.now();
    const r = await stack.api('GET', `/payments/${slowReview.body.payment_id}?force_sync=true`, undefined, key);
    expect(r.body.status).toBe('processing');
    expect(Date.now() - started).toBeLessThan(3_000);
  });

  it('for a payment with nothing in flight it is a plain read; a bad value -> 400 naming force_sync', async () => {
    const { body: p } = await stack.api('POST', '/payments', { amount: 100, currency: 'EUR' }, key);
    expect((await stack.api('GET', `/payments/${p.payment_id}?force_sync=true`, undefined, key)).body).toEqual(p);
    const bad = await stack.api('GET', `/payments/${p.payment_id}?force_sync=maybe`, undefined, key);
    expect(bad.status).toBe(400);
    expect(bad.body.error.param).toBe('force_sync');
  });
});
