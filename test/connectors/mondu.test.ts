// mondu through the real processes: the payment goes to the sandbox's Mondu (POST /orders), the buyer completes the
// hosted checkout (the test fetches the page and posts its form, as a browser would), the status sync confirms the
// order, captures are invoices, a void cancels the order, refunds are credit notes; Mondu's signed webhooks come to
// the address the merchant registered (POST /webhooks at Mondu: Mondu has no per-order notification URL).
// Sync delays: eight quick rounds (the buyer's checkout, then the confirm), then a long pause, so a review decided
// after them is decided by the order/confirmed webhook.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { customerStep, merchantWithAccount } from '../support/connectors.ts';
import { Stack } from '../support/stack.ts';

const TOKEN = 'mondu_sandbox_api_token';
const SECRET = 'mondu_sandbox_webhook_secret';
let stack: Stack;
let M: { merchant_id: string; api_key: string; mca: string };
let bad: { merchant_id: string; api_key: string };

beforeAll(async () => {
  stack = await Stack.start({ SYNC_DELAYS_MS: '250,250,250,250,250,250,250,250,20000', SANDBOX_REVIEW_MS: '3000' });
  M = await merchantWithAccount(stack, 'mondu', { auth_type: 'HeaderKey', api_key: TOKEN }, SECRET);
  // The merchant registers its notification address at Mondu (Mondu's dashboard or API), for the order topics.
  const hook = await fetch(`${stack.sandboxUrl}/mondu/api/v1/webhooks`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'api-token': TOKEN },
    body: JSON.stringify({ topic: 'order', address: `${stack.gatewayUrl}/webhooks/${M.merchant_id}/${M.mca}` }),
  });
  expect(hook.status).toBe(201);
  bad = await merchantWithAccount(stack, 'mondu', { auth_type: 'HeaderKey', api_key: 'not_a_mondu_token' }, SECRET);
}, 60_000);
afterAll(async () => stack?.stop());

let n = 0;
/** A B2B BNPL payment to mondu: EUR, billing in DE, order lines with tax, spec 2.5 metadata, a device fingerprint. */
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
      connector: ['mondu'],
      merchant_order_reference_id: `order-${n}-${Date.now()}`,
      return_url: 'https://shop.example/return',
      customer: { name: 'Jane Roe', email },
      billing: { address: { line1: 'Hauptstr. 1', city: 'Berlin', zip: '10115', country: 'DE', first_name: 'Jane', last_name: 'Roe' }, email },
      order_details: [
        { product_name: 'Desk', quantity: 2, amount: 9_520, total_tax_amount: 1_520, product_id: 'sku-desk', product_type: 'physical' },
        { product_name: 'Shipping', quantity: 1, amount: 2_380, total_tax_amount: 380, category: 'shipping_costs' },
      ],
      order_tax_amount: 1_900,
      metadata: {
        buyer_type: 'business',
        company_name: 'ACME GmbH',
        legal_form: 'GmbH',
        legal_form_category: 'kapital_und_personen_gesellschaft',
        net_term: 30,
        customer_locale: 'de-DE',
        invoice_url: 'https://shop.example/invoices/default.pdf',
      },
      browser_info: {
        user_agent: 'Mozilla/5.0',
        ip_address: '203.0.113.7',
        language: 'de-DE',
        device_fingerprint: { ratepay: 'rp-1', payla: 'pl-1', unzer: 'uz-1' },
      },
      ...extra,
    },
    key,
  );
  expect(r.status, JSON.stringify(r.body)).toBe(200);
  return r.body;
}

/** The buyer at Mondu's hosted checkout: opens the page and posts its authorize (or cancel) form. */
async function checkout(p: any, action: 'authorize' | 'cancel' = 'authorize') {
  const step = await customerStep(stack, p.payment_id, M.api_key, action);
  expect(step.url).toMatch(new RegExp(`^${stack.sandboxUrl}/mondu/checkout/[0-9a-f-]{36}$`));
  return step;
}

const authorized = async (email = 'jane@acme.example', extra: Record<string, unknown> = {}) => {
  const p = await pay(email, extra);
  await checkout(p);
  return stack.poll(p.payment_id, M.api_key, (x) => x.status === 'requires_capture');
};
const sandbox = async (view: string, q: Record<string, string>) =>
  (await stack.sandbox(`/__sandbox/mondu/${view}?${new URLSearchParams(q)}`)).json() as Promise<any[]>;
const capture = (id: string, body: Record<string, unknown>) => stack.api('POST', `/payments/${id}/capture`, body, M.api_key);

describe('mondu through the stack', () => {
  it('customer step: the hosted checkout, back to the shop with order_uuid, then the confirm -> requires_capture', async () => {
    const p = await pay('jane@acme.example');
    expect(p.status).toBe('requires_customer_action');
    const { location } = await checkout(p);
    expect(location).toMatch(/^https:\/\/shop\.example\/return\?order_uuid=[0-9a-f-]{36}&external_reference_id=order-/);
    const done = await stack.poll(p.payment_id, M.api_key, (x) => x.status === 'requires_capture');
    const [order] = await sandbox('orders', { uuid: done.connector_transaction_id });
    expect(order).toMatchObject({
      state: 'confirmed',
      gross_amount_cents: 11_900,
      net_price_cents: 10_000,
      tax_cents: 1_900,
      net_term: 30,
      state_flow: 'authorization_flow',
      buyer: { email: 'jane@acme.example', company_name: 'ACME GmbH', legal_form: 'GmbH', first_name: 'Jane', last_name: 'Roe' },
      billing_address: { country_code: 'DE', zip_code: '10115' },
      language: 'de',
    });
    expect(order.lines[0]).toMatchObject({
      shipping_price_cents: 2_000,
      line_items: [{ title: 'Desk', quantity: 2, net_price_cents: 8_000, tax_cents: 1_520 }],
    });
  });

  it("the buyer cancels at the checkout -> failed with Mondu's state", async () => {
    const p = await pay('jane@acme.example');
    await checkout(p, 'cancel');
    const f = await stack.poll(p.payment_id, M.api_key, (x) => x.status === 'failed');
    expect(f).toMatchObject({ error_code: 'canceled', unified_code: 'UE_1000' });
  });

  it("manual capture of the whole amount: one invoice with the merchant's invoice number and URL", async () => {
    const p = await authorized();
    const c = await capture(p.payment_id, { amount_to_capture: 11_900, capture_metadata: { invoice_data: { merchant_invoice_ref: `INV-${p.payment_id}` } } });
    expect(c.status, JSON.stringify(c.body)).toBe(200);
    const s = await stack.poll(p.payment_id, M.api_key, (x) => x.status === 'succeeded');
    expect(s.amount_received).toBe(11_900);
    const invs = await sandbox('invoices', { order_uuid: p.connector_transaction_id });
    expect(invs).toMatchObject([
      { external_reference_id: `INV-${p.payment_id}`, invoice_url: 'https://shop.example/invoices/default.pdf', gross_amount_cents: 11_900, tax_cents: 1_900 },
    ]);
    expect(s.captures[0].connector_capture_id).toBe(invs[0].uuid);
    expect((await sandbox('orders', { uuid: p.connector_transaction_id }))[0].state).toBe('shipped');
  });

  it('automatic capture: after the checkout Mondu confirms the order, then our invoice call captures it -> succeeded', async () => {
    const p = await pay('jane@acme.example', { capture_method: 'automatic' });
    await checkout(p);
    const s = await stack.poll(p.payment_id, M.api_key, (x) => x.status === 'succeeded');
    expect(s).toMatchObject({ amount_received: 11_900, amount_capturable: 0, captures: [{ status: 'charged', amount: 11_900 }] });
    const invs = await sandbox('invoices', { order_uuid: s.connector_transaction_id });
    expect(invs).toMatchObject([{ gross_amount_cents: 11_900, invoice_url: 'https://shop.example/invoices/default.pdf' }]);
    expect(s.captures[0].connector_capture_id).toBe(invs[0].uuid);
  });

  it('partial and multiple captures: two invoices, the order shipped', async () => {
    const p = await authorized('jane@acme.example', { capture_method: 'manual_multiple' });
    expect((await capture(p.payment_id, { amount_to_capture: 5_000, metadata: { invoice_url: 'https://shop.example/invoices/1.pdf' } })).status).toBe(200);
    await stack.poll(p.payment_id, M.api_key, (x) => x.status === 'partially_captured_and_capturable');
    expect((await capture(p.payment_id, { amount_to_capture: 6_900 })).status).toBe(200);
    const s = await stack.poll(p.payment_id, M.api_key, (x) => x.status === 'succeeded');
    expect(s.amount_received).toBe(11_900);
    const invs = await sandbox('invoices', { order_uuid: p.connector_transaction_id });
    expect(invs.map((i) => i.gross_amount_cents)).toEqual([5_000, 6_900]);
    expect(invs[0].invoice_url).toBe('https://shop.example/invoices/1.pdf');
    expect((await sandbox('orders', { uuid: p.connector_transaction_id }))[0]).toMatchObject({ state: 'shipped', invoiced_amount_cents: 11_900 });
  });

  it('void: the order is cancelled at Mondu -> cancelled', async () => {
    const p = await authorized();
    const v = await stack.api('POST', `/payments/${p.payment_id}/cancel`, { cancellation_reason: 'out of stock' }, M.api_key);
    expect(v.status, JSON.stringify(v.body)).toBe(200);
    await stack.poll(p.payment_id, M.api_key, (x) => x.status === 'cancelled');
    expect((await sandbox('orders', { uuid: p.connector_transaction_id }))[0].state).toBe('canceled');
  });

  it('refund and partial refund: credit notes on the invoice, our refund id as their number', async () => {
    const p = await authorized();
    await capture(p.payment_id, { amount_to_capture: 11_900 });
    const s = await stack.poll(p.payment_id, M.api_key, (x) => x.status === 'succeeded');
    const r1 = await stack.api('POST', '/refunds', { payment_id: p.payment_id, amount: 2_000, reason: 'damaged' }, M.api_key);
    expect(r1.status, JSON.stringify(r1.body)).toBe(200);
    const refundDone = (id: string) =>
      (async () => {
        for (let i = 0; i < 100; i++) {
          const r = await stack.api('GET', `/refunds/${id}`, undefined, M.api_key);
          if (r.body.status !== 'pending') return r.body;
          await new Promise((x) => setTimeout(x, 200));
        }
        throw new Error('refund still pending');
      })();
    expect(await refundDone(r1.body.refund_id)).toMatchObject({ status: 'succeeded', amount: 2_000 });
    const r2 = await stack.api('POST', '/refunds', { payment_id: p.payment_id, amount: 9_900 }, M.api_key);
    expect(await refundDone(r2.body.refund_id)).toMatchObject({ status: 'succeeded', amount: 9_900 });
    const notes = await sandbox('credit_notes', { invoice_uuid: s.captures[0].connector_capture_id });
    expect(notes).toMatchObject([
      { external_reference_id: r1.body.refund_id, gross_amount_cents: 2_000, tax_cents: 319, notes: 'damaged' },
      { external_reference_id: r2.body.refund_id, gross_amount_cents: 9_900 },
    ]);
  });

  it("a refund Mondu refuses (+refund_fail): failed with Mondu's field and details", async () => {
    const p = await authorized('jane+refund_fail@acme.example');
    await capture(p.payment_id, {});
    await stack.poll(p.payment_id, M.api_key, (x) => x.status === 'succeeded');
    const r = await stack.api('POST', '/refunds', { payment_id: p.payment_id, amount: 1_000 }, M.api_key);
    for (let i = 0; i < 100; i++) {
      const g = await stack.api('GET', `/refunds/${r.body.refund_id}`, undefined, M.api_key);
      if (g.body.status === 'failed') {
        expect(g.body).toMatchObject({
          error_code: 'invoice',
          error_message: 'invoice is in collection: credit notes are not accepted',
          unified_code: 'UE_6000',
        });
        return;
      }
      await new Promise((x) => setTimeout(x, 200));
    }
    throw new Error('refund did not fail');
  });

  it('decline (+decline): Mondu declines at the checkout -> failed with its decline reason', async () => {
    const p = await pay('jane+decline@acme.example');
    const { location } = await checkout(p);
    expect(location).toMatch(/^https:\/\/shop\.example\/return\?order_uuid=/);
    const f = await stack.poll(p.payment_id, M.api_key, (x) => x.status === 'failed');
    // issue 21: the decline's reason as Mondu's order/declined webhook names it (`reason`; the value of its published example).
    expect(f).toMatchObject({ error_code: 'risk_policy', unified_code: 'UE_1000', connector: 'mondu' });
  });

  it("review (+review): confirm -> pending (processing), decided by Mondu's signed order/confirmed webhook", async () => {
    const p = await pay('jane+review@acme.example');
    await checkout(p);
    const pending = await stack.poll(p.payment_id, M.api_key, (x) => x.status === 'processing');
    const done = await stack.poll(pending.payment_id, M.api_key, (x) => x.status === 'requires_capture', 15_000);
    const inbox = await (await stack.db()).collection('provider_notifications').find({ merchant_id: M.merchant_id }).toArray();
    const confirmed = inbox.filter(
      (d: any) => JSON.parse(d.body).order_uuid === done.connector_transaction_id && JSON.parse(d.body).topic === 'order/confirmed',
    );
    // An approval raises money: the webhook asks for a read at Mondu at once, which applies it (issue 19).
    expect(confirmed.map((d: any) => d.result)).toEqual(['synced']);
    const sent = await sandbox('notifications', { object_id: done.connector_transaction_id });
    expect(sent.map((d) => d.topic)).toEqual(['order/authorized', 'order/pending', 'order/confirmed']);
    expect(sent.every((d) => d.delivered)).toBe(true);
  });

  it('Mondu answers 500 twice (+flaky), then creates the order: one order at Mondu', async () => {
    const p = await pay('jane+flaky@acme.example');
    await checkout(p);
    const done = await stack.poll(p.payment_id, M.api_key, (x) => x.status === 'requires_capture');
    const orders = await sandbox('orders', { external_reference_id: done.merchant_order_reference_id });
    expect(orders).toHaveLength(1);
    const calls = await stack.sandboxCalls({ provider: 'mondu', path: '/mondu/api/v1/orders' });
    expect(calls.filter((c) => c.idempotency_key === orders[0].idempotency_key).map((c) => c.status)).toEqual([500, 500, 201]);
  });

  it("wrong credentials: failed with Mondu's code", async () => {
    const p = await pay('jane@acme.example', {}, bad.api_key);
    const f = p.status === 'failed' ? p : await stack.poll(p.payment_id, bad.api_key, (x) => x.status === 'failed');
    expect(f).toMatchObject({ error_code: 'api_token', error_message: 'api_token is invalid', unified_code: 'UE_4000' });
  });
});
