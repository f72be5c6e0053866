// billie through the real processes: the worker fetches an OAuth2 token (client credentials) once and the runtime
// caches it for every job, the order is created directly (Billie decides at once, or reviews it: its order_approved
// webhook tells the decision, authenticated by the static secret agreed with the merchant in X-Api-Key), captures are
// invoices, a void cancels the order, refunds are credit notes. Sync delays: two quick rounds, then a long pause, so
// a review is decided by the webhook.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { merchantWithAccount } from '../support/connectors.ts';
import { Stack } from '../support/stack.ts';

let stack: Stack;
const HOOK_SECRET = 'billie-hook-secret-agreed-with-the-merchant';
let M: { merchant_id: string; api_key: string; mca: string };
let bad: { merchant_id: string; api_key: string };

beforeAll(async () => {
  stack = await Stack.start({ SYNC_DELAYS_MS: '300,300,30000', SANDBOX_REVIEW_MS: '1500' });
  M = await merchantWithAccount(stack, 'billie', undefined, HOOK_SECRET);
  // Billie's team sets up the merchant's webhook: our address for the account, and the secret it sends.
  const hook = await stack.sandbox(`/sandbox/billie/webhooks`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ client_id: 'billie_sandbox_client_id', url: `${stack.gatewayUrl}/webhooks/${M.merchant_id}/${M.mca}`, secret: HOOK_SECRET }),
  });
  expect(hook.status).toBe(201);
  bad = await merchantWithAccount(stack, 'billie', { auth_type: 'BodyKey', api_key: 'billie_sandbox_client_id', key1: 'not_the_secret' });
}, 60_000);
afterAll(async () => stack?.stop());

let n = 0;
/** A B2B BNPL payment to billie: EUR, billing in DE, order lines with tax, spec 2.5 metadata, a device fingerprint. */
async function pay(email: string, extra: Record<string, unknown> = {}, key = M.api_key) {
  n += 1;
  const r = await stack.api(
    'POST',
    '/payments',
    {
      amount: 11_900,
      currency: 'EUR',
      confirm: true,
      capture_method: 'manual',
      payment_method: 'pay_later',
      payment_method_type: 'invoice',
      connector: ['billie'],
      merchant_order_reference_id: `order-${n}-${Date.now()}`,
      return_url: 'https://shop.example/return',
      customer: { name: 'Jane Roe', email },
      billing: { address: { line1: 'Hauptstr. 1a', city: 'Berlin', zip: '10115', country: 'DE', first_name: 'Jane', last_name: 'Roe' }, email },
      order_details: [{ product_name: 'Desk', quantity: 2, amount: 11_900, total_tax_amount: 1_900, product_id: 'sku-desk' }],
      order_tax_amount: 1_900,
      metadata: {
        buyer_type: 'business',
        company_name: 'ACME GmbH',
        legal_form: 'GmbH',
        company_vat_id: 'DE123456789',
        net_term: 60,
        invoice_url: 'https://shop.example/invoices/default.pdf',
      },
      browser_info: { user_agent: 'Mozilla/5.0', ip_address: '203.0.113.7', device_fingerprint: { ratepay: 'rp-1', payla: 'pl-1', unzer: 'uz-1' } },
      ...extra,
    },
    key,
  );
  expect(r.status, JSON.stringify(r.body)).toBe(200);
  return r.body;
}
const until = (p: any, status: string, key = M.api_key) => (p.status === status ? p : stack.poll(p.payment_id, key, (x) => x.status === status));
const sandbox = async (view: string, q: Record<string, string> = {}) =>
  (await stack.sandbox(`/__sandbox/billie/${view}?${new URLSearchParams(q)}`)).json() as Promise<any>;
const capture = (id: string, body: Record<string, unknown>) => stack.api('POST', `/payments/${id}/capture`, body, M.api_key);
async function refundEnd(id: string) {
  for (let i = 0; i < 100; i++) {
    const r = await stack.api('GET', `/refunds/${id}`, undefined, M.api_key);
    if (r.body.status !== 'pending') return r.body;
    await new Promise((x) => setTimeout(x, 200));
  }
  throw new Error('refund still pending');
}

describe('billie through the stack', () => {
  it("manual capture of the whole amount: the order in decimals, one invoice with the merchant's number and URL", async () => {
    const p = await until(await pay('jane@acme.example'), 'requires_capture');
    const [order] = await sandbox('orders', { uuid: p.connector_transaction_id });
    expect(order).toMatchObject({
      state: 'created',
      amount: { net: 100, gross: 119, tax: 19 },
      duration: 60,
      external_code: p.merchant_order_reference_id,
      debtor: {
        // issue 21: Billie requires merchant_customer_id: our customer id (the gateway's customer for this buyer).
        merchant_customer_id: expect.stringMatching(/^cus_/),
        name: 'ACME GmbH',
        legal_form: 'GmbH',
        tax_id: 'DE123456789',
        company_address: { street: 'Hauptstr.', house_number: '1a', postal_code: '10115', country: 'DE' },
      },
      debtor_person: { email: 'jane@acme.example', first_name: 'Jane', last_name: 'Roe' },
    });
    expect((await capture(p.payment_id, { capture_metadata: { invoice_data: { merchant_invoice_ref: `INV-${p.payment_id}` } } })).status).toBe(200);
    const s = await until(p, 'succeeded');
    const invs = await sandbox('invoices', { order_uuid: p.connector_transaction_id });
    expect(invs).toMatchObject([
      { invoice_number: `INV-${p.payment_id}`, invoice_url: 'https://shop.example/invoices/default.pdf', amount: { net: 100, gross: 119, tax: 19 } },
    ]);
    expect(s.captures[0].connector_capture_id).toBe(invs[0].uuid);
  });

  it('automatic capture: Billie creates the order, our invoice call follows; the confirm answers succeeded', async () => {
    const p = await pay('jane@acme.example', { capture_method: 'automatic' });
    const s = await until(p, 'succeeded');
    expect(s).toMatchObject({ amount_received: 11_900, captures: [{ status: 'charged', amount: 11_900 }] });
    const invs = await sandbox('invoices', { order_uuid: s.connector_transaction_id });
    expect(invs).toMatchObject([{ amount: { net: 100, gross: 119, tax: 19 } }]);
    expect(s.captures[0].connector_capture_id).toBe(invs[0].uuid);
  });

  it('partial and multiple captures: two invoices, the order shipped', async () => {
    const p = await until(await pay('jane@acme.example', { capture_method: 'manual_multiple' }), 'requires_capture');
    expect((await capture(p.payment_id, { amount_to_capture: 5_950 })).status).toBe(200);
    await until(p, 'partially_captured_and_capturable');
    expect((await capture(p.payment_id, { amount_to_capture: 5_950 })).status).toBe(200);
    await until(p, 'succeeded');
    const invs = await sandbox('invoices', { order_uuid: p.connector_transaction_id });
    expect(invs.map((i: any) => i.amount)).toEqual([
      { net: 50, gross: 59.5, tax: 9.5 },
      { net: 50, gross: 59.5, tax: 9.5 },
    ]);
    expect((await sandbox('orders', { uuid: p.connector_transaction_id }))[0].state).toBe('shipped');
  });

  it('void: the order is cancelled at Billie -> cancelled', async () => {
    const p = await until(await pay('jane@acme.example'), 'requires_capture');
    expect((await stack.api('POST', `/payments/${p.payment_id}/cancel`, {}, M.api_key)).status).toBe(200);
    await until(p, 'cancelled');
    expect((await sandbox('orders', { uuid: p.connector_transaction_id }))[0].state).toBe('canceled');
  });

  it("refund and partial refund: credit notes on the invoice; a refused one (+refund_fail) fails with Billie's code", async () => {
    const p = await until(await pay('jane@acme.example'), 'requires_capture');
    await capture(p.payment_id, {});
    const s = await until(p, 'succeeded');
    const r1 = await stack.api('POST', '/refunds', { payment_id: p.payment_id, amount: 2_000, reason: 'damaged' }, M.api_key);
    expect(await refundEnd(r1.body.refund_id)).toMatchObject({ status: 'succeeded' });
    const r2 = await stack.api('POST', '/refunds', { payment_id: p.payment_id, amount: 9_900 }, M.api_key);
    expect(await refundEnd(r2.body.refund_id)).toMatchObject({ status: 'succeeded' });
    expect(await sandbox('credit_notes', { invoice_uuid: s.captures[0].connector_capture_id })).toMatchObject([
      { external_code: r1.body.refund_id, amount: { net: 16.81, gross: 20, tax: 3.19 }, comment: 'damaged' },
      { external_code: r2.body.refund_id, amount: { gross: 99 } },
    ]);
    const q = await until(await pay('jane+refund_fail@acme.example'), 'requires_capture');
    await capture(q.payment_id, {});
    await until(q, 'succeeded');
    const r3 = await stack.api('POST', '/refunds', { payment_id: q.payment_id, amount: 1_000 }, M.api_key);
    expect(await refundEnd(r3.body.refund_id)).toMatchObject({ status: 'failed', error_code: 'invoice_not_creditable', unified_code: 'UE_6000' });
  });

  it('decline (+decline): HTTP 200 with state declined -> failed with the decline_reason', async () => {
    const f = await until(await pay('jane+decline@acme.example'), 'failed');
    expect(f).toMatchObject({ error_code: 'risk_policy', unified_code: 'UE_1000' });
  });

  it("review (+review): waiting -> processing, decided by Billie's order_approved webhook -> requires_capture", async () => {
    const p = await pay('jane+review@acme.example');
    expect(p.status).toBe('processing');
    const done = await until(p, 'requires_capture');
    expect(await sandbox('notifications', { order_uuid: done.connector_transaction_id, event: 'order_approved' })).toMatchObject([
      { delivered: true, last_status: 200 },
    ]);
    // The webhook decided it, before the status sync's schedule: being an approval (it raises money), it asked for a
    // read at Billie at once, which applied the outcome (issue 19).
    const inbox = await (await stack.db()).collection('provider_notifications').find({ merchant_id: M.merchant_id, result: 'synced' }).toArray();
    expect(inbox.map((d) => JSON.parse(d.body).order_uuid)).toContain(done.connector_transaction_id);
  });

  it('a webhook without the agreed secret in X-Api-Key is refused (401) and recorded nowhere', async () => {
    const p = await pay('jane+review@acme.example');
    const body = JSON.stringify({
      event: 'order_approved',
      created_at: '2026-11-23 10:00:00',
      order_id: p.merchant_order_reference_id,
      order_uuid: p.connector_transaction_id,
    });
    const before = await (await stack.db()).collection('provider_notifications').countDocuments({ merchant_id: M.merchant_id });
    for (const headers of [{}, { 'x-api-key': 'not-the-secret' }, { 'x-api-key': `${HOOK_SECRET}x` }] as Record<string, string>[]) {
      const r = await stack.api('POST', `/webhooks/${M.merchant_id}/${M.mca}`, body, undefined, { 'content-type': 'application/json', ...headers });
      expect(r.status).toBe(401);
    }
    expect(await (await stack.db()).collection('provider_notifications').countDocuments({ merchant_id: M.merchant_id })).toBe(before);
    await until(p, 'requires_capture');
  });

  it('Billie answers 500 twice (+flaky), then creates the order: one order at Billie', async () => {
    const p = await until(await pay('jane+flaky@acme.example'), 'requires_capture');
    const orders = await sandbox('orders', { external_code: p.merchant_order_reference_id });
    expect(orders).toHaveLength(1);
    const calls = await stack.sandboxCalls({ provider: 'billie', path: '/billie/api/v2/orders' });
    expect(calls.filter((c) => c.idempotency_key === orders[0].idempotency_key).map((c) => c.status)).toEqual([500, 500, 200]);
  });

  it("one token for every call of the account (cached in Redis); wrong client credentials -> failed with Billie's code", async () => {
    expect((await sandbox('tokens')).issued).toBe(1);
    const f = await until(await pay('jane@acme.example', {}, bad.api_key), 'failed', bad.api_key);
    expect(f).toMatchObject({ error_code: 'invalid_client', error_message: 'Client authentication failed', unified_code: 'UE_4000' });
  });
});
