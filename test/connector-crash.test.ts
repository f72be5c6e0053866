// A connector's worker killed in the middle of a provider call (issue 12): ratepay (OAuth2, decimals). The capture is
// running at the imitation when the worker dies; the job runs again with the same idempotency key, the payment ends
// captured, and the imitation holds exactly one capture.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Stack, operationIds, sleep } from './support/stack.ts';

let stack: Stack;
let key: string;
let merchantId: string;
beforeAll(async () => {
  ({ stack, api_key: key, merchant_id: merchantId } = await Stack.withMerchant({ CONFIRM_WAIT_MS: '1000', SANDBOX_SLOW_MS: '3000' }));
  const a = await stack.api(
    'POST',
    `/account/${merchantId}/connectors`,
    {
      connector_name: 'ratepay',
      connector_account_details: {
        auth_type: 'BodyKey',
        api_key: 'ratepay_sandbox_client',
        key1: 'ratepay_sandbox_client_secret',
        key2: 'INTEGRATION_TE_DACH',
      },
    },
    stack.adminKey,
  );
  expect(a.status, JSON.stringify(a.body)).toBe(200);
});
afterAll(async () => stack?.stop());

describe("kill -9 of a connector's worker mid-capture", () => {
  it('ratepay: captured once at the imitation, the payment succeeded', async () => {
    const created = await stack.api(
      'POST',
      '/payments',
      {
        amount: 10_000,
        currency: 'EUR',
        confirm: true,
        connector: ['ratepay'],
        payment_method: 'pay_later',
        payment_method_type: 'invoice',
        capture_method: 'manual',
        customer: { id: 'cus_crash', email: 'hanna+slow@example.com', name: 'Hanna Schmidt' },
        billing: { address: { line1: 'Allee 84', zip: '10439', city: 'Berlin', country: 'DE', first_name: 'Hanna', last_name: 'Schmidt' } },
        order_details: [{ product_name: 'Jacket', quantity: 1, amount: 10_000, tax_percentage: 19 }],
        metadata: { birth_date: '1985-02-11', buyer_type: 'private' },
        browser_info: { ip_address: '203.0.113.7', user_agent: 'Mozilla/5.0', device_fingerprint: { ratepay: 'rp-dfp-crash' } },
      },
      key,
    );
    expect(created.status, JSON.stringify(created.body)).toBe(200);
    const held = await stack.poll(created.body.payment_id, key, (p) => p.status === 'requires_capture', 30_000);
    // The imitation takes 3 s to capture; the request answers after 1 s, while the worker still waits for it.
    const c = await stack.api('POST', `/payments/${held.payment_id}/capture`, {}, key);
    expect(c.body.status).toBe('processing');
    await stack.kill('worker');
    try {
      const op = (await operationIds(stack, merchantId, held.payment_id)).find((o) => o.kind === 'capture')!;
      expect((await stack.sandboxCalls({ idempotency_key: op.operation_id })).map((x) => x.answered)).toEqual([false]);
    } finally {
      await stack.startPart('worker');
    }
    const done = await stack.poll(held.payment_id, key, (p) => p.status !== 'processing', 60_000);
    expect(done).toMatchObject({ status: 'succeeded', amount_received: 10_000 });
    await sleep(500);
    const transactions = (await (await stack.sandbox(`/__sandbox/ratepay/transactions`)).json()) as any[];
    const t = transactions.find((x) => x.ratepay_transaction_id === held.connector_transaction_id);
    expect(t.captures).toHaveLength(1);
    expect(t.captures[0].gross).toBe(10_000);
  });
});
