// openbank (Santander Consumer's Zinia) through the real processes: the worker logs in (client id and secret ->
// Bearer token, with the Merchant API Key as subscription key), creates the order at the sandbox's Zinia (POST
// /checkout/orders), the customer completes Zinia's Link-Up (the test fetches the page and posts its form, as a browser
// would) and comes back to the shop's return_url; Zinia's unsigned notification is a hint on which the worker re-reads
// the order. Captures are shipment confirmations, a void cancels what is not shipped, refunds may be pending.
// Sync delays: two quick rounds, then a long pause, so what the customer or a review decides later reaches us by the
// notification (the status sync would find it only 30 s later).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bnplPayment, customerStep, imitationView, merchantCalls, merchantWithAccount, type ConnectorMerchant } from '../support/connectors.ts';
import { Stack } from '../support/stack.ts';

const SANDBOX = {
  auth_type: 'SignatureKey',
  api_key: 'openbank_sandbox_merchant_api_key',
  key1: 'openbank_sandbox_client_id',
  api_secret: 'openbank_sandbox_client_secret',
};
let stack: Stack;
let M: ConnectorMerchant;
let calls: ReturnType<typeof merchantCalls>;

beforeAll(async () => {
  stack = await Stack.start({ SYNC_DELAYS_MS: '300,300,30000', SANDBOX_REVIEW_MS: '1500' });
  M = await merchantWithAccount(stack, 'openbank', SANDBOX);
  calls = merchantCalls(stack, M.api_key);
}, 60_000);
afterAll(async () => stack?.stop());

const pay = (email: string, extra: Record<string, unknown> = {}) => calls.pay(bnplPayment('openbank', email, {}, extra));
const order = async (orderId: string) => (await imitationView(stack, 'openbank', 'orders', { order_id: orderId }))[0];
const waitQuickSyncs = () => new Promise((r) => setTimeout(r, 1_200));

/** The customer at Zinia's Link-Up: opens the page the payment redirects to and posts its approve (or deny) form. */
async function linkUp(p: { payment_id: string }, decision: 'approve' | 'deny' = 'approve') {
  const step = await customerStep(stack, p.payment_id, M.api_key, decision);
  expect(step.url).toBe(`${stack.sandboxUrl}/openbank/link-up/${step.payment.connector_transaction_id}`);
  return step;
}
const authorized = async (email = 'erika@example.com', extra: Record<string, unknown> = {}) => {
  const { payment } = await linkUp(await pay(email, extra));
  return calls.until(payment, 'requires_capture');
};
const inboxResults = async (orderId: string) => {
  const inbox = await (await stack.db()).collection('provider_notifications').find({ merchant_id: M.merchant_id }).toArray();
  return inbox.filter((d: any) => JSON.parse(d.body).order_id === orderId).map((d: any) => d.result);
};

describe('openbank through the stack', () => {
  it("customer step: the Link-Up, back to the shop, decided by Zinia's notification (a hint: the worker re-reads the order)", async () => {
    const p = await pay('erika@example.com');
    await waitQuickSyncs();
    const { payment, location } = await linkUp(p);
    expect(location).toBe(
      `https://shop.example/return?zinia_order_id=${payment.connector_transaction_id}&merchant_order_id=${(await order(payment.connector_transaction_id)).merchant_order_id}`,
    );
    const done = await calls.until(payment, 'requires_capture', 15_000);
    const o = await order(done.connector_transaction_id);
    expect(o).toMatchObject({ status: 'APPROVED', product: 'PAY_IN_30', amount: 11_900, merchant_reference: p.merchant_order_reference_id });
    expect(o.request).toMatchObject({
      amount: 119,
      currency: 'EUR',
      customer: {
        first_name: 'Erika',
        last_name: 'Mustermann',
        email: 'erika@example.com',
        mobile_phone: '+4915112345678',
        birth_date: '1980-02-03',
        language: 'de',
      },
      billing_address: { address_line_1: 'Hauptstr. 12a', postal_code: '10115', city: 'Berlin', country_code: 'DE' },
      items: [
        { sku: 'sku-lamp', name: 'Lamp', type: 'PRODUCT', quantity: 2, unit_price: 47.6, total_amount: 95.2, tax_rate: 19, tax_amount: 15.2 },
        { name: 'Shipping', type: 'SHIPPING', quantity: 1, unit_price: 23.8, total_amount: 23.8, tax_amount: 3.8 },
      ],
      urls: { return_url: 'https://shop.example/return', notification_url: expect.stringMatching(new RegExp(`/webhooks/${M.merchant_id}/${M.mca}$`)) },
    });
    const sent = await imitationView(stack, 'openbank', 'notifications', { order_id: o.order_id });
    expect(sent).toMatchObject([{ type: 'ORDER_STATUS_CHANGED', delivered: true, body: { status: 'APPROVED' } }]);
    expect(await inboxResults(o.order_id)).toEqual(['synced']);
    const login = await stack.sandboxCalls({ provider: 'openbank', path: '/openbank/auth/login' });
    expect(login.filter((c) => c.status === 200).length).toBeGreaterThanOrEqual(1);
  });

  it("the customer cancels at the Link-Up -> failed with Zinia's code", async () => {
    const { payment } = await linkUp(await pay('erika@example.com'), 'deny');
    const f = await calls.until(payment, 'failed', 15_000);
    expect(f).toMatchObject({ error_code: 'CUSTOMER_CANCELLED', error_message: 'The customer cancelled the application', unified_code: 'UE_1000' });
  });

  it("decline (+decline): Zinia's credit check rejects at the Link-Up -> failed with its reason", async () => {
    const { payment } = await linkUp(await pay('erika+decline@example.com'));
    const f = await calls.until(payment, 'failed', 15_000);
    expect(f).toMatchObject({
      error_code: 'CREDIT_CHECK_REJECTED',
      error_message: 'Zinia could not approve the financing',
      unified_code: 'UE_1000',
      connector: 'openbank',
    });
  });

  it('review (+review): PENDING after the Link-Up -> processing, APPROVED later, told by a notification', async () => {
    const p = await pay('erika+review@example.com');
    await waitQuickSyncs();
    const { payment } = await linkUp(p);
    await calls.until(payment, 'processing', 15_000);
    const done = await calls.until(payment, 'requires_capture', 15_000);
    const sent = await imitationView(stack, 'openbank', 'notifications', { order_id: done.connector_transaction_id });
    expect(sent.map((d) => d.body.status)).toEqual(['PENDING', 'APPROVED']);
    expect(await inboxResults(done.connector_transaction_id)).toEqual(['synced', 'synced']);
  });

  it("manual capture of the whole amount: one shipment confirmation with the merchant's invoice number", async () => {
    const p = await authorized();
    const c = await calls.capture(p.payment_id, { amount_to_capture: 11_900, capture_metadata: { invoice_data: { merchant_invoice_ref: 'INV-1001' } } });
    expect(c.status, JSON.stringify(c.body)).toBe(200);
    const s = await calls.until(p, 'succeeded');
    expect(s.amount_received).toBe(11_900);
    const o = await order(p.connector_transaction_id);
    expect(o).toMatchObject({ status: 'SHIPPED', shipped: 11_900, shipments: [{ amount: 11_900, invoice_number: 'INV-1001' }] });
    expect(s.captures[0].connector_capture_id).toBe(o.shipments[0].shipment_id);
  });

  it('partial and multiple captures (manual_multiple): two shipments, the order shipped', async () => {
    const p = await authorized('erika@example.com', { capture_method: 'manual_multiple' });
    expect((await calls.capture(p.payment_id, { amount_to_capture: 5_000 })).status).toBe(200);
    await calls.until(p, 'partially_captured_and_capturable');
    expect((await calls.capture(p.payment_id, { amount_to_capture: 6_900 })).status).toBe(200);
    const s = await calls.until(p, 'succeeded');
    expect(s.amount_received).toBe(11_900);
    const o = await order(p.connector_transaction_id);
    expect(o.shipments.map((x: any) => x.amount)).toEqual([5_000, 6_900]);
    expect(o.status).toBe('SHIPPED');
  });

  it('automatic capture: after the Link-Up Zinia approves, our shipment confirmation captures the whole amount -> succeeded', async () => {
    const { payment } = await linkUp(await pay('erika@example.com', { capture_method: 'automatic' }));
    const s = await calls.until(payment, 'succeeded', 15_000);
    expect(s).toMatchObject({ amount_received: 11_900, captures: [{ status: 'charged', amount: 11_900 }] });
    expect(await order(s.connector_transaction_id)).toMatchObject({ status: 'SHIPPED', shipped: 11_900 });
  });

  it('void: the order is cancelled at Zinia -> cancelled', async () => {
    const p = await authorized();
    const v = await calls.cancel(p.payment_id, { cancellation_reason: 'out of stock' });
    expect(v.status, JSON.stringify(v.body)).toBe(200);
    await calls.until(p, 'cancelled');
    expect(await order(p.connector_transaction_id)).toMatchObject({ status: 'CANCELLED', cancelled: 11_900, shipped: 0 });
  });

  it('refund and partial refund: our refund id as merchant_refund_id, COMPLETED at once', async () => {
    const p = await authorized();
    await calls.capture(p.payment_id, {});
    await calls.until(p, 'succeeded');
    const r1 = await calls.refund(p.payment_id, 2_000, { reason: 'damaged' });
    expect(r1.status, JSON.stringify(r1.body)).toBe(200);
    expect(await calls.refundSettled(r1.body.refund_id)).toMatchObject({ status: 'succeeded', amount: 2_000 });
    const r2 = await calls.refund(p.payment_id, 9_900);
    expect(await calls.refundSettled(r2.body.refund_id)).toMatchObject({ status: 'succeeded', amount: 9_900 });
    const o = await order(p.connector_transaction_id);
    expect(o.refunds).toMatchObject([
      { merchant_refund_id: r1.body.refund_id, amount: 2_000, reason: 'damaged', status: 'COMPLETED' },
      { merchant_refund_id: r2.body.refund_id, amount: 9_900, status: 'COMPLETED' },
    ]);
    expect(o).toMatchObject({ refunded: 11_900, status: 'REFUNDED' });
  });

  it("a pending refund (+refund_pending): pending, then succeeded on Zinia's notification (the worker re-reads the refund)", async () => {
    const p = await authorized('erika+refund_pending@example.com');
    await calls.capture(p.payment_id, {});
    await calls.until(p, 'succeeded');
    const r = await calls.refund(p.payment_id, 3_000);
    expect(r.status, JSON.stringify(r.body)).toBe(200);
    expect(await calls.refundSettled(r.body.refund_id, 15_000)).toMatchObject({ status: 'succeeded', amount: 3_000 });
    const [z] = (await order(p.connector_transaction_id)).refunds;
    const sent = await imitationView(stack, 'openbank', 'notifications', { object_id: z.refund_id });
    expect(sent).toMatchObject([{ type: 'REFUND_STATUS_CHANGED', delivered: true, body: { status: 'COMPLETED' } }]);
  });

  it("a refund Zinia rejects (+refund_fail): failed with Zinia's code", async () => {
    const p = await authorized('erika+refund_fail@example.com');
    await calls.capture(p.payment_id, {});
    await calls.until(p, 'succeeded');
    const r = await calls.refund(p.payment_id, 1_000);
    expect(await calls.refundSettled(r.body.refund_id)).toMatchObject({
      status: 'failed',
      error_code: 'REFUND_REJECTED',
      error_message: 'The refund was rejected: the financing is in collection',
      unified_code: 'UE_6000',
    });
  });

  it('Zinia answers 500 twice (+flaky), then creates the order: one order at Zinia', async () => {
    const { payment } = await linkUp(await pay('erika+flaky@example.com'));
    const done = await calls.until(payment, 'requires_capture', 15_000);
    const orders = await imitationView(stack, 'openbank', 'orders', { merchant_reference: done.merchant_order_reference_id });
    expect(orders).toHaveLength(1);
    const created = await stack.sandboxCalls({ provider: 'openbank', path: '/openbank/checkout/orders' });
    expect(created.filter((c) => c.idempotency_key === orders[0].merchant_order_id).map((c) => c.status)).toEqual([500, 500, 201]);
  });

  // issue 21: the customer gives the date of birth at Zinia's page (Computop's and payever's Zinia pages); the old
  // imitation refused an order without it, so such a payment failed before the customer could reach Zinia.
  it("no date of birth -> the customer's step at Zinia; a malformed one -> failed naming customer.birth_date", async () => {
    const body = bnplPayment('openbank', 'erika@example.com');
    const p = await calls.pay({ ...body, metadata: { ...body.metadata, birth_date: undefined } });
    const { payment } = await linkUp(p);
    await calls.until(payment, 'requires_capture');
    const q = await calls.pay({ ...body, metadata: { ...body.metadata, birth_date: '03.02.1980' } });
    const f = await calls.until(q, 'failed');
    expect(f).toMatchObject({ error_code: 'VALIDATION_ERROR', error_message: 'customer.birth_date must be YYYY-MM-DD', unified_code: 'UE_2000' });
  });

  it("wrong credentials: failed with Zinia's code (client secret) or the API gateway's (Merchant API Key)", async () => {
    const badSecret = await merchantWithAccount(stack, 'openbank', { ...SANDBOX, api_secret: 'not_the_secret' });
    const p = await merchantCalls(stack, badSecret.api_key).pay(bnplPayment('openbank', 'erika@example.com'));
    const f = p.status === 'failed' ? p : await stack.poll(p.payment_id, badSecret.api_key, (x) => x.status === 'failed');
    expect(f).toMatchObject({ error_code: 'INVALID_CLIENT_CREDENTIALS', error_message: 'The client ID or client secret is invalid', unified_code: 'UE_4000' });
    const badKey = await merchantWithAccount(stack, 'openbank', { ...SANDBOX, api_key: 'not_the_key' });
    const q = await merchantCalls(stack, badKey.api_key).pay(bnplPayment('openbank', 'erika@example.com'));
    const g = q.status === 'failed' ? q : await stack.poll(q.payment_id, badKey.api_key, (x) => x.status === 'failed');
    expect(g).toMatchObject({ error_code: 'HTTP_401', error_message: expect.stringContaining('invalid subscription key'), unified_code: 'UE_4000' });
  });

  it('refused before anything is queued: a business buyer, a currency or country Zinia does not take, no return_url', async () => {
    const count = async () => (await stack.sandboxCalls({ provider: 'openbank' })).filter((c) => c.method !== 'GET').length;
    const before = await count();
    const refused = async (body: Record<string, unknown>) => {
      const r = await stack.api('POST', '/payments', body, M.api_key);
      expect(r.status, JSON.stringify(r.body)).toBe(400);
      return r.body.error;
    };
    expect(await refused(bnplPayment('openbank', 'erika@example.com', { buyer: 'business' }))).toMatchObject({ code: 'IR_05', param: 'metadata.buyer_type' });
    expect(await refused(bnplPayment('openbank', 'erika@example.com', {}, { currency: 'GBP' }))).toMatchObject({ code: 'IR_05', param: 'currency' });
    const at = bnplPayment('openbank', 'erika@example.com');
    expect(await refused({ ...at, billing: { ...at.billing, address: { ...at.billing.address, country: 'AT' } } })).toMatchObject({
      code: 'IR_05',
      param: 'billing.address.country',
    });
    expect(await refused(bnplPayment('openbank', 'erika@example.com', {}, { return_url: undefined }))).toMatchObject({
      code: 'IR_04',
      param: 'return_url',
      message: expect.stringContaining('openbank needs return_url'),
    });
    expect(await refused(bnplPayment('openbank', 'erika@example.com', {}, { capture_method: 'scheduled' }))).toMatchObject({
      code: 'IR_05',
      param: 'capture_method',
    });
    expect(await count()).toBe(before);
  });
});
