// Unzer Invoice through the real processes: a merchant's unzer connector account (the manifest's sandbox account
// details), BNPL payments routed to it, the sandbox's Unzer imitation answering in Unzer's dialect. The matrix:
// automatic capture, manual + full, partial and multiple captures, void, refund and partial refund, decline, review
// and the customer step and a pending refund (decided by Unzer, which notifies the merchant's registered webhook:
// unsigned, so each notification is a hint on which the worker syncs the payment), a provider 5xx then success,
// wrong credentials, B2B, refund refused. Sync delays: two quick rounds, then a long pause, so what Unzer decides
// later reaches us by its webhook.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { manifest } from '../../workers/connectors/unzer/manifest.ts';
import { merchantWithAccount } from '../support/connectors.ts';
import { Stack, sleep } from '../support/stack.ts';

let stack: Stack;
let key: string;
let merchantId: string;
let mca: string;
beforeAll(async () => {
  stack = await Stack.start({ SYNC_DELAYS_MS: '300,300,30000', SANDBOX_REVIEW_MS: '1500' });
  ({ api_key: key, merchant_id: merchantId, mca } = await merchantWithAccount(stack, 'unzer'));
  // The merchant registers its webhook at Unzer with its private key, for every event.
  const hook = await fetch(`${stack.sandboxUrl}/unzer/v1/webhooks`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', authorization: `Basic ${Buffer.from(`${manifest.sandbox_account_details!.api_key}:`).toString('base64')}` },
    body: JSON.stringify({ url: `${stack.gatewayUrl}/webhooks/${merchantId}/${mca}`, event: 'all' }),
  });
  expect(hook.status).toBe(201);
});
const inbox = async () => (await stack.db()).collection('provider_notifications').find({ merchant_id: merchantId }).toArray();
const hintsFor = async (paymentId: string) => (await inbox()).filter((d) => JSON.parse(d.body).paymentId === paymentId);
afterAll(async () => stack?.stop());

let n = 0;
/** A BNPL payment for Unzer: EUR, a German billing address, order lines, spec 2.5 metadata, the device fingerprint. */
function payment(email: string, extra: Record<string, unknown> = {}, metadata: Record<string, unknown> = {}) {
  n += 1;
  return {
    amount: 11_900,
    currency: 'EUR',
    confirm: true,
    payment_method: 'pay_later',
    payment_method_type: 'invoice',
    connector: ['unzer'],
    customer: { id: `cus_unzer_${n}`, email, name: 'Erika Mustermann' },
    billing: { address: { first_name: 'Erika', last_name: 'Mustermann', line1: 'Hauptstr. 1', zip: '10115', city: 'Berlin', country: 'DE' }, email },
    order_details: [
      { product_name: 'Lamp', quantity: 2, amount: 10_000, tax_percentage: 19, product_id: 'sku-1' },
      { product_name: 'Shipping', quantity: 1, amount: 1_900, category: 'shipping_costs', tax_percentage: 19 },
    ],
    metadata: { birth_date: '1980-02-03', buyer_type: 'private', customer_locale: 'de-DE', order_dttm: '2026-11-23T10:00:00.000Z', ...metadata },
    browser_info: { ip_address: '203.0.113.7', device_fingerprint: { unzer: `tmx-${n}` } },
    return_url: 'https://shop.example/return',
    ...extra,
  };
}
const pay = (email: string, extra: Record<string, unknown> = {}, metadata: Record<string, unknown> = {}, apiKey = key) =>
  stack.api('POST', '/payments', payment(email, extra, metadata), apiKey);
const at = async (connectorTransactionId: string) =>
  ((await (await stack.sandbox(`/__sandbox/unzer/payments?id=${connectorTransactionId}`)).json()) as any[])[0];
const capture = (id: string, amount?: number) => stack.api('POST', `/payments/${id}/capture`, amount === undefined ? {} : { amount_to_capture: amount }, key);
const refund = (paymentId: string, amount?: number) => stack.api('POST', '/refunds', { payment_id: paymentId, ...(amount ? { amount } : {}) }, key);
async function pollRefund(id: string, until: (r: any) => boolean, ms = 20_000) {
  const deadline = Date.now() + ms;
  for (;;) {
    const r = await stack.api('GET', `/refunds/${id}`, undefined, key);
    if (r.status === 200 && until(r.body)) return r.body;
    if (Date.now() > deadline) throw new Error(`refund ${id}: ${JSON.stringify(r.body)}`);
    await sleep(200);
  }
}

describe('unzer: captures', () => {
  it('automatic capture: authorized and charged at Unzer in one go', async () => {
    const r = await pay('erika@example.com');
    expect(r.body, JSON.stringify(r.body)).toMatchObject({
      status: 'succeeded',
      connector: 'unzer',
      amount_received: 11_900,
      connector_transaction_id: expect.stringMatching(/^s-pay-/),
    });
    expect(await at(r.body.connector_transaction_id)).toMatchObject({ state: { name: 'completed' }, amount: { total: '119.0000', charged: '119.0000' } });
    // The chain as Unzer sees it: the type, the customer, the basket, the authorization, the charge.
    const paths = (await stack.sandboxCalls({ provider: 'unzer' })).map((c) => `${c.method} ${c.path}`);
    // (The sandbox records the path under its mount point /unzer.)
    expect(paths).toEqual(
      expect.arrayContaining([
        'POST /unzer/v1/types/paylater-invoice',
        'POST /unzer/v1/customers',
        'POST /unzer/v2/baskets',
        'POST /unzer/v1/payments/authorize',
        `POST /unzer/v1/payments/${r.body.connector_transaction_id}/charges`,
      ]),
    );
  });

  it('manual capture, then the full amount', async () => {
    const r = await pay('erika@example.com', { capture_method: 'manual' });
    expect(r.body.status).toBe('requires_capture');
    expect(await at(r.body.connector_transaction_id)).toMatchObject({ state: { name: 'pending' }, amount: { charged: '0.0000', remaining: '119.0000' } });
    const c = await capture(r.body.payment_id);
    expect(c.body, JSON.stringify(c.body)).toMatchObject({ status: 'succeeded', amount_received: 11_900 });
    expect(await at(r.body.connector_transaction_id)).toMatchObject({ state: { name: 'completed' } });
  });

  it('a partial capture', async () => {
    const r = await pay('erika@example.com', { capture_method: 'manual' });
    const c = await capture(r.body.payment_id, 5_000);
    expect(c.body).toMatchObject({ status: 'partially_captured', amount_received: 5_000 });
    expect(await at(r.body.connector_transaction_id)).toMatchObject({ state: { name: 'partly' }, amount: { charged: '50.0000' } });
  });

  it('multiple captures (manual_multiple), each an invoice of its own', async () => {
    const r = await pay('erika@example.com', { capture_method: 'manual_multiple' });
    const one = await stack.api(
      'POST',
      `/payments/${r.body.payment_id}/capture`,
      { amount_to_capture: 4_000, capture_metadata: { invoice_data: { merchant_invoice_ref: 'INV-A' } } },
      key,
    );
    expect(one.body).toMatchObject({ status: 'partially_captured_and_capturable', amount_received: 4_000, amount_capturable: 7_900 });
    const two = await capture(r.body.payment_id, 7_900);
    expect(two.body).toMatchObject({ status: 'succeeded', amount_received: 11_900 });
    const charges = (await at(r.body.connector_transaction_id)).transactions.filter((t: any) => t.type === 'charge');
    expect(charges.map((t: any) => t.amount)).toEqual(['40.0000', '79.0000']);
  });

  it('void: the authorization cancelled at Unzer', async () => {
    const r = await pay('erika@example.com', { capture_method: 'manual' });
    const v = await stack.api('POST', `/payments/${r.body.payment_id}/cancel`, { cancellation_reason: 'out of stock' }, key);
    expect(v.body, JSON.stringify(v.body)).toMatchObject({ status: 'cancelled' });
    expect(await at(r.body.connector_transaction_id)).toMatchObject({ state: { name: 'canceled' }, amount: { remaining: '0.0000' } });
  });
});

describe('unzer: refunds', () => {
  it('a partial refund, then the rest: cancels of the charges at payment level', async () => {
    const p = (await pay('erika@example.com')).body;
    const part = await refund(p.payment_id, 4_000);
    expect(part.body, JSON.stringify(part.body)).toMatchObject({ status: 'succeeded', amount: 4_000, connector: 'unzer' });
    const rest = await refund(p.payment_id);
    expect(rest.body).toMatchObject({ status: 'succeeded', amount: 7_900 });
    const cancels = (await at(p.connector_transaction_id)).transactions.filter((t: any) => t.type === 'cancel-charge');
    expect(cancels.map((t: any) => t.amount)).toEqual(['40.0000', '79.0000']);
  });

  it("+refund_fail: Unzer refuses the cancel; +refund_pending: decided later, learned by the hint of Unzer's webhook", async () => {
    const f = (await pay('erika+refund_fail@example.com')).body;
    const failed = await refund(f.payment_id, 1_000);
    expect(failed.body).toMatchObject({ status: 'failed', error_code: 'COR.400.200.101', unified_code: 'UE_6000' });
    const p = (await pay('erika+refund_pending@example.com')).body;
    const pending = await refund(p.payment_id, 1_000);
    expect(pending.body.status).toBe('pending');
    expect(await pollRefund(pending.body.refund_id, (x) => x.status !== 'pending')).toMatchObject({ status: 'succeeded' });
    expect((await hintsFor(p.connector_transaction_id)).map((d) => d.result)).toContain('synced');
  });
});

describe('unzer: decisions', () => {
  it("decline: failed with Unzer's code and message", async () => {
    const r = await pay('erika+decline@example.com');
    expect(r.body).toMatchObject({
      status: 'failed',
      error_code: 'COR.400.100.101',
      error_message: 'The customer was declined by the risk check of Unzer Invoice',
      unified_code: 'UE_1000',
    });
  });

  it('review: processing; Unzer decides and notifies (unsigned); the hint syncs the payment, which is charged (automatic capture)', async () => {
    const r = await pay('erika+review@example.com');
    expect(r.body.status).toBe('processing');
    const done = await stack.poll(r.body.payment_id, key, (p) => p.status !== 'processing', 20_000);
    expect(done).toMatchObject({ status: 'succeeded', amount_received: 11_900 });
    expect(await at(r.body.connector_transaction_id)).toMatchObject({ state: { name: 'completed' } });
    const delivered = (await (await stack.sandbox(`/__sandbox/unzer/notifications?paymentId=${r.body.connector_transaction_id}`)).json()) as any[];
    expect(delivered).toMatchObject([{ event: 'authorize.succeeded', delivered: true, last_status: 200 }]);
    expect(await hintsFor(r.body.connector_transaction_id)).toMatchObject([{ result: 'synced' }]);
  });

  it('a forged notification moves nothing: its body is never taken, only what Unzer answers to our own sync', async () => {
    const r = await pay('erika@example.com', { capture_method: 'manual' });
    expect(r.body.status).toBe('requires_capture');
    const forge = (event: string, paymentId: string) =>
      stack.api(
        'POST',
        `/webhooks/${merchantId}/${mca}`,
        JSON.stringify({ event, publicKey: 's-pub-x', retrieveUrl: 'https://evil.example/v1/payments/x', paymentId }),
        undefined,
        { 'content-type': 'text/plain' },
      );
    // "Cancelled" and "charged" for an authorized payment, and a payment nobody has: 200 (recorded), nothing moves.
    for (const event of ['authorize.canceled', 'charge.succeeded']) expect((await forge(event, r.body.connector_transaction_id)).status).toBe(200);
    expect((await forge('authorize.succeeded', 's-pay-doesnotexist')).status).toBe(200);
    for (let i = 0; i < 100; i++) {
      const hints = await hintsFor(r.body.connector_transaction_id);
      if (hints.length === 2 && hints.every((d) => d.result)) break;
      await sleep(200);
    }
    expect((await hintsFor(r.body.connector_transaction_id)).map((d) => d.result)).toEqual(['unchanged', 'unchanged']);
    expect((await stack.api('GET', `/payments/${r.body.payment_id}`, undefined, key)).body).toMatchObject({ status: 'requires_capture' });
    expect(await at(r.body.connector_transaction_id)).toMatchObject({ amount: { charged: '0.0000' } });
    expect((await stack.sandboxCalls({ provider: 'unzer' })).some((c) => c.path.includes('evil'))).toBe(false);
  });

  it("the customer step: Unzer's page, the customer confirms, the payment is charged", async () => {
    const r = await pay('erika+redirect@example.com');
    expect(r.body).toMatchObject({
      status: 'requires_customer_action',
      next_action: { type: 'redirect_to_url', redirect_to_url: expect.stringContaining('/unzer/redirect/s-pay-') },
    });
    const page = await (await fetch(r.body.next_action.redirect_to_url)).text();
    const approve = /action="([^"]*approve[^"]*)"/.exec(page)?.[1];
    expect(approve).toBeTruthy();
    const back = await fetch(new URL(approve!, r.body.next_action.redirect_to_url), { method: 'POST', redirect: 'manual' });
    expect(back.status).toBe(303);
    expect(back.headers.get('location')).toBe('https://shop.example/return');
    expect(await stack.poll(r.body.payment_id, key, (p) => p.status !== 'requires_customer_action', 20_000)).toMatchObject({ status: 'succeeded' });
  });

  it('Unzer answers 500 twice, the second after making the payment: the orderId in use is read back, one payment at Unzer', async () => {
    const r = await pay('erika+flaky@example.com', { merchant_order_reference_id: 'flaky-order-1' });
    const done = r.body.status === 'processing' ? await stack.poll(r.body.payment_id, key, (p) => p.status !== 'processing') : r.body;
    expect(done).toMatchObject({ status: 'succeeded' });
    const authorizations = (await stack.sandboxCalls({ provider: 'unzer', path: '/unzer/v1/payments/authorize' })).map((c) => c.status);
    expect(authorizations.filter((s) => s === 500)).toHaveLength(2);
    // issue 21: the next attempt meets Unzer's API.320.200.138 (the orderId in use), which the connector took for a
    // refused key; now the status sync reads the payment by its orderId (GET /v1/payments/{orderId}) and charges it.
    expect(authorizations.filter((s) => s === 400)).toHaveLength(1);
    // (The orderId is our payment id.)
    expect((await stack.sandboxCalls({ provider: 'unzer', path: `/unzer/v1/payments/${r.body.payment_id}` })).length).toBeGreaterThan(0);
    const payments = (await (await stack.sandbox(`/__sandbox/unzer/payments?orderId=${r.body.payment_id}`)).json()) as {
      id: string;
      state: { name: string };
    }[];
    expect(payments).toHaveLength(1);
    expect(payments[0]).toMatchObject({ state: { name: 'completed' } });
    expect(done).toMatchObject({ connector_transaction_id: payments[0]!.id });
  });

  it('a business buyer: the customer carries the company', async () => {
    const r = await pay('buyer@muster.example', {}, { buyer_type: 'business', company_name: 'Muster GmbH', legal_form: 'GmbH', birth_date: undefined });
    expect(r.body, JSON.stringify(r.body)).toMatchObject({ status: 'succeeded' });
    const customers = (await (await stack.sandbox(`/__sandbox/unzer/customers`)).json()) as any[];
    // issue 21: Unzer's companyType enum (authority, association, sole, company, other); "GmbH" was sent as it came.
    expect(customers.find((c) => c.email === 'buyer@muster.example')?.body).toMatchObject({ company: 'Muster GmbH', companyInfo: { companyType: 'company' } });
  });

  it("a private buyer without birth date: failed with Unzer's validation code", async () => {
    const r = await pay('erika@example.com', {}, { birth_date: undefined });
    expect(r.body).toMatchObject({ status: 'failed', error_code: 'API.710.200.100', unified_code: 'UE_2000' });
  });

  it("wrong credentials: failed with Unzer's 401 code", async () => {
    const other = await stack.merchant();
    const a = await stack.api(
      'POST',
      `/account/${other.merchant_id}/connectors`,
      {
        connector_name: 'unzer',
        connector_account_details: { auth_type: 'HeaderKey', api_key: 's-priv-wrong' },
        connector_webhook_details: { merchant_secret: 'x' },
      },
      stack.adminKey,
    );
    expect(a.status).toBe(200);
    const r = await pay('erika@example.com', {}, {}, other.api_key);
    expect(r.body).toMatchObject({ status: 'failed', error_code: 'API.710.000.002', unified_code: 'UE_4000' });
  });
});
