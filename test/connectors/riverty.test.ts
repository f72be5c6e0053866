// riverty through the real processes: the payment goes to the sandbox's Riverty (POST /api/v3/checkout/authorize, with
// X-Auth-Key, decimal amounts and per-unit items), strong customer authentication is a redirect the customer completes
// (the test fetches the page and posts its form, as a browser would), Riverty's CustomerAuthenticationCompleted webhook
// (unsigned: a hint on which the worker reads the order, GET /api/v3/orders/{n}) decides what was pending, captures
// are invoices, a void releases the reservation, refunds name the capture. Sync delays: two quick rounds, then a long
// pause, so what is pending is decided on the webhook.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { customerStep, merchantWithAccount } from '../support/connectors.ts';
import { Stack } from '../support/stack.ts';

const KEY = 'riverty_sandbox_api_key';
let stack: Stack;
let M: { merchant_id: string; api_key: string; mca: string };
let bad: { merchant_id: string; api_key: string };

beforeAll(async () => {
  stack = await Stack.start({ SYNC_DELAYS_MS: '300,300,30000' });
  M = await merchantWithAccount(stack, 'riverty', { auth_type: 'HeaderKey', api_key: KEY });
  bad = await merchantWithAccount(stack, 'riverty', { auth_type: 'HeaderKey', api_key: 'not_a_riverty_key' });
}, 60_000);
afterAll(async () => stack?.stop());

let n = 0;
/** A B2C BNPL payment to riverty: EUR, billing in DE, order lines with tax, spec 2.5 metadata, a device fingerprint. */
function body(email: string, extra: Record<string, unknown> = {}) {
  n += 1;
  return {
    amount: 11_900,
    currency: 'EUR',
    confirm: true,
    capture_method: 'manual',
    payment_method: 'pay_later',
    payment_method_type: 'invoice',
    connector: ['riverty'],
    merchant_order_reference_id: `order-${n}-${Date.now().toString(36)}`,
    return_url: 'https://shop.example/return',
    customer: { name: 'Astrid Schmidt', email },
    billing: { address: { line1: 'Hauptstr. 12a', city: 'Berlin', zip: '10115', country: 'DE', first_name: 'Astrid', last_name: 'Schmidt' }, email },
    order_details: [
      { product_name: 'Hat', quantity: 2, amount: 9_520, total_tax_amount: 1_520, tax_percentage: 19, product_id: 'sku-hat', product_type: 'physical' },
      { product_name: 'Shipping', quantity: 1, amount: 2_380, total_tax_amount: 380, category: 'shipping_costs' },
    ],
    order_tax_amount: 1_900,
    metadata: { birth_date: '1990-01-02', buyer_type: 'consumer', customer_locale: 'de-DE', device_token: 'rv-device-1' },
    browser_info: {
      user_agent: 'Mozilla/5.0',
      ip_address: '203.0.113.7',
      language: 'de-DE',
      device_fingerprint: { ratepay: 'rp-1', payla: 'pl-1', unzer: 'uz-1' },
    },
    ...extra,
  };
}
async function pay(email: string, extra: Record<string, unknown> = {}, key = M.api_key) {
  const r = await stack.api('POST', '/payments', body(email, extra), key);
  expect(r.status, JSON.stringify(r.body)).toBe(200);
  return r.body;
}

/** The customer at Riverty's authentication page: opens it and posts its approve (or deny) form. */
async function authenticate(p: any, action: 'approve' | 'deny' = 'approve') {
  const step = await customerStep(stack, p.payment_id, M.api_key, action);
  expect(step.url).toBe(`${stack.sandboxUrl}/riverty/sca/${step.payment.connector_transaction_id}`);
  return step;
}

const authorized = async (email = 'astrid@example.com', extra: Record<string, unknown> = {}) => {
  const p = await pay(email, extra);
  return p.status === 'requires_capture' ? p : stack.poll(p.payment_id, M.api_key, (x) => x.status === 'requires_capture');
};
const sandbox = async (view: string, q: Record<string, string>) =>
  (await stack.sandbox(`/__sandbox/riverty/${view}?${new URLSearchParams(q)}`)).json() as Promise<any[]>;
const order = async (number: string) => (await sandbox('orders', { number }))[0];
const capture = (id: string, b: Record<string, unknown>) => stack.api('POST', `/payments/${id}/capture`, b, M.api_key);
async function refundDone(id: string, key = M.api_key) {
  for (let i = 0; i < 100; i++) {
    const r = await stack.api('GET', `/refunds/${id}`, undefined, key);
    if (r.body.status !== 'pending') return r.body;
    await new Promise((x) => setTimeout(x, 200));
  }
  throw new Error('refund still pending');
}

describe('riverty through the stack', () => {
  it('authorize: Accepted -> requires_capture; Riverty got decimals, per-unit items, the consumer and the order number', async () => {
    const p = await authorized();
    expect(p.connector).toBe('riverty');
    const o = await order(p.connector_transaction_id);
    expect(o.outcome).toBe('Accepted');
    expect(p.reference_id).toBe(o.reservationId);
    expect(o.request).toMatchObject({
      payment: { type: 'Invoice' },
      customer: {
        customerCategory: 'Person',
        firstName: 'Astrid',
        lastName: 'Schmidt',
        email: 'astrid@example.com',
        birthDate: '1990-01-02',
        conversationLanguage: 'DE',
        address: { street: 'Hauptstr.', streetNumber: '12a', postalCode: '10115', postalPlace: 'Berlin', countryCode: 'DE' },
        riskData: { ipAddress: '203.0.113.7', profileTrackingId: 'rv-device-1' },
      },
      order: {
        number: p.connector_transaction_id,
        totalGrossAmount: 119,
        totalNetAmount: 100,
        currency: 'EUR',
        items: [
          {
            productId: 'sku-hat',
            description: 'Hat',
            type: 'PhysicalArticle',
            quantity: 2,
            grossUnitPrice: 47.6,
            netUnitPrice: 40,
            vatAmount: 7.6,
            vatPercent: 19,
          },
          { description: 'Shipping', type: 'ShippingFee', quantity: 1, grossUnitPrice: 23.8, netUnitPrice: 20, vatAmount: 3.8, vatPercent: 19 },
        ],
      },
      merchantUrl: 'https://shop.example/return',
      yourReference: p.merchant_order_reference_id,
      ourReference: p.payment_id,
      webhookUrl: expect.stringMatching(new RegExp(`^http://(127\\.0\\.0\\.1|localhost):\\d+/webhooks/${M.merchant_id}/${M.mca}$`)),
    });
    const calls = await stack.sandboxCalls({ provider: 'riverty', path: '/riverty/api/v3/checkout/authorize' });
    expect(calls.some((c) => c.status === 200)).toBe(true);
  });

  it('a business buyer: customerCategory Company with the company name, no birth date needed', async () => {
    const p = await authorized('buyer@acme.example', {
      metadata: { buyer_type: 'business', company_name: 'ACME GmbH', legal_form: 'GmbH', company_vat_id: 'DE123456789' },
    });
    const o = await order(p.connector_transaction_id);
    expect(o.request.customer).toMatchObject({ customerCategory: 'Company', companyName: 'ACME GmbH', identificationNumber: 'DE123456789' });
    expect(o.request.customer.birthDate).toBeUndefined();
  });

  it("strong customer authentication (+redirect): the customer confirms at Riverty, back to the shop, decided on Riverty's webhook by a read", async () => {
    const p = await pay('astrid+redirect@example.com');
    // After the two quick status syncs (the next is 30 s away): only the notification can decide it in time.
    await new Promise((x) => setTimeout(x, 1_200));
    const { location } = await authenticate(p);
    expect(location).toBe('https://shop.example/return');
    const done = await stack.poll(p.payment_id, M.api_key, (x) => x.status === 'requires_capture', 15_000);
    const sent = await sandbox('notifications', { object_id: done.connector_transaction_id });
    expect(sent).toMatchObject([
      {
        type: 'CustomerAuthenticationCompleted',
        delivered: true,
        body: { Header: { MessageName: 'CustomerAuthenticationCompleted' }, Body: { OrderNumber: done.connector_transaction_id, Status: 'Accepted' } },
      },
    ]);
    const inbox = await (await stack.db()).collection('provider_notifications').find({ merchant_id: M.merchant_id }).toArray();
    expect(inbox.filter((d: any) => JSON.parse(d.body).Body?.OrderNumber === done.connector_transaction_id).map((d: any) => d.result)).toEqual(['synced']); // raises money: confirmed by a read (issue 19)
  });

  it('the customer cancels the authentication -> failed: the order Riverty reports Cancelled', async () => {
    const p = await pay('astrid+redirect@example.com');
    await new Promise((x) => setTimeout(x, 1_200));
    await authenticate(p, 'deny');
    const f = await stack.poll(p.payment_id, M.api_key, (x) => x.status === 'failed', 15_000);
    expect(f).toMatchObject({ error_code: 'Cancelled', unified_code: 'UE_1000' });
    const sent = await sandbox('notifications', { object_id: f.connector_transaction_id });
    expect(sent).toMatchObject([{ type: 'CustomerAuthenticationCompleted', delivered: true, body: { Body: { Status: 'Cancelled' } } }]);
  });

  it("manual capture of the whole amount: one invoice with the merchant's invoice number and the order's items", async () => {
    const p = await authorized();
    const c = await capture(p.payment_id, { amount_to_capture: 11_900, capture_metadata: { invoice_data: { merchant_invoice_ref: 'INV-1001' } } });
    expect(c.status, JSON.stringify(c.body)).toBe(200);
    const s = await stack.poll(p.payment_id, M.api_key, (x) => x.status === 'succeeded');
    expect(s.amount_received).toBe(11_900);
    const o = await order(p.connector_transaction_id);
    expect(o.captures).toMatchObject([{ invoiceNumber: 'INV-1001', amount: 11_900 }]);
    expect(s.captures[0].connector_capture_id).toBe(o.captures[0].captureNumber);
  });

  it('partial and multiple captures (manual_multiple): two invoices, then nothing left of the reservation', async () => {
    const p = await authorized('astrid@example.com', { capture_method: 'manual_multiple' });
    expect((await capture(p.payment_id, { amount_to_capture: 5_000 })).status).toBe(200);
    await stack.poll(p.payment_id, M.api_key, (x) => x.status === 'partially_captured_and_capturable');
    expect((await capture(p.payment_id, { amount_to_capture: 6_900 })).status).toBe(200);
    const s = await stack.poll(p.payment_id, M.api_key, (x) => x.status === 'succeeded');
    expect(s.amount_received).toBe(11_900);
    const o = await order(p.connector_transaction_id);
    expect(o.captures.map((c: any) => c.amount)).toEqual([5_000, 6_900]);
    expect(o.captured).toBe(11_900);
  });

  it('void: the reservation is released -> cancelled', async () => {
    const p = await authorized();
    const v = await stack.api('POST', `/payments/${p.payment_id}/cancel`, { cancellation_reason: 'out of stock' }, M.api_key);
    expect(v.status, JSON.stringify(v.body)).toBe(200);
    await stack.poll(p.payment_id, M.api_key, (x) => x.status === 'cancelled');
    expect(await order(p.connector_transaction_id)).toMatchObject({ voided: 11_900, captured: 0 });
  });

  it('refund and partial refund: within the capture, our refund id as transactionReference', async () => {
    const p = await authorized();
    await capture(p.payment_id, { amount_to_capture: 11_900 });
    await stack.poll(p.payment_id, M.api_key, (x) => x.status === 'succeeded');
    const r1 = await stack.api('POST', '/refunds', { payment_id: p.payment_id, amount: 2_000, reason: 'damaged' }, M.api_key);
    expect(r1.status, JSON.stringify(r1.body)).toBe(200);
    expect(await refundDone(r1.body.refund_id)).toMatchObject({ status: 'succeeded', amount: 2_000 });
    const r2 = await stack.api('POST', '/refunds', { payment_id: p.payment_id, amount: 9_900 }, M.api_key);
    expect(await refundDone(r2.body.refund_id)).toMatchObject({ status: 'succeeded', amount: 9_900 });
    const o = await order(p.connector_transaction_id);
    expect(o.refunds).toMatchObject([
      { captureNumber: o.captures[0].captureNumber, amount: 2_000, transactionReference: r1.body.refund_id },
      { captureNumber: o.captures[0].captureNumber, amount: 9_900, transactionReference: r2.body.refund_id },
    ]);
    expect(o.refunded).toBe(11_900);
  });

  it("a refund Riverty declines (+refund_fail): failed with Riverty's code", async () => {
    const p = await authorized('astrid+refund_fail@example.com');
    await capture(p.payment_id, {});
    await stack.poll(p.payment_id, M.api_key, (x) => x.status === 'succeeded');
    const r = await stack.api('POST', '/refunds', { payment_id: p.payment_id, amount: 1_000 }, M.api_key);
    expect(await refundDone(r.body.refund_id)).toMatchObject({
      status: 'failed',
      error_code: '400.302',
      error_message: 'The refund was declined',
      unified_code: 'UE_6000',
    });
  });

  it('decline (+decline): outcome Rejected -> failed with the risk check message', async () => {
    const p = await pay('astrid+decline@example.com');
    const f = p.status === 'failed' ? p : await stack.poll(p.payment_id, M.api_key, (x) => x.status === 'failed');
    expect(f).toMatchObject({
      error_code: '300.101',
      error_message: 'The customer did not pass the risk check',
      unified_code: 'UE_1000',
      connector: 'riverty',
    });
  });

  it('Riverty answers 500 twice (+flaky), then decides: one order at Riverty', async () => {
    const p = await pay('astrid+flaky@example.com');
    const done = p.status === 'requires_capture' ? p : await stack.poll(p.payment_id, M.api_key, (x) => x.status === 'requires_capture');
    const orders = await sandbox('orders', { ourReference: done.payment_id });
    expect(orders).toHaveLength(1);
    const calls = await stack.sandboxCalls({ provider: 'riverty', path: '/riverty/api/v3/checkout/authorize' });
    expect(calls.filter((c) => c.idempotency_key === done.connector_transaction_id).map((c) => c.status)).toEqual([500, 500, 200]);
  });

  it("Riverty's own validation: a German consumer without a birth date -> failed naming customer.birthDate", async () => {
    const p = await pay('astrid@example.com', { metadata: { buyer_type: 'consumer' } });
    const f = p.status === 'failed' ? p : await stack.poll(p.payment_id, M.api_key, (x) => x.status === 'failed');
    expect(f).toMatchObject({ error_code: '200.101', error_message: 'customer.birthDate is required', unified_code: 'UE_2000' });
  });

  it("wrong credentials: failed with Riverty's code", async () => {
    const p = await pay('astrid@example.com', {}, bad.api_key);
    const f = p.status === 'failed' ? p : await stack.poll(p.payment_id, bad.api_key, (x) => x.status === 'failed');
    expect(f).toMatchObject({ error_code: '100.001', error_message: 'Authorization has been denied for this request.', unified_code: 'UE_4000' });
  });

  it('automatic capture: Riverty reserves, our capture call invoices the whole amount -> succeeded', async () => {
    const p = await pay('astrid@example.com', { capture_method: 'automatic' });
    const s = p.status === 'succeeded' ? p : await stack.poll(p.payment_id, M.api_key, (x) => x.status === 'succeeded');
    expect(s).toMatchObject({ amount_received: 11_900, captures: [{ status: 'charged', amount: 11_900 }] });
    expect(await order(s.connector_transaction_id)).toMatchObject({ authorized: 11_900, captured: 11_900 });
  });

  it('refused before anything is queued: a missing required field, a scheduled capture, a currency Riverty does not take', async () => {
    const authorizeCalls = async () => (await stack.sandboxCalls({ provider: 'riverty', path: '/riverty/api/v3/checkout/authorize' })).length;
    const before = await authorizeCalls();
    const noZip = body('astrid@example.com');
    noZip.billing = { ...noZip.billing, address: { ...noZip.billing.address, zip: undefined as unknown as string } };
    const r = await stack.api('POST', '/payments', noZip, M.api_key);
    expect(r.status, JSON.stringify(r.body)).toBe(400);
    expect(r.body.error).toMatchObject({ code: 'IR_04', param: 'billing.address.zip', message: expect.stringContaining('riverty needs billing.address.zip') });
    const auto = await stack.api('POST', '/payments', body('astrid@example.com', { capture_method: 'scheduled' }), M.api_key);
    expect(auto.status).toBe(400);
    expect(auto.body.error).toMatchObject({ code: 'IR_05', param: 'capture_method' });
    const usd = await stack.api('POST', '/payments', body('astrid@example.com', { currency: 'USD' }), M.api_key);
    expect(usd.status).toBe(400);
    expect(usd.body.error).toMatchObject({ code: 'IR_05', param: 'currency' });
    expect(await authorizeCalls()).toBe(before);
  });
});
