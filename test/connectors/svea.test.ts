// svea through the real processes: the payment becomes a Svea checkout order (POST /api/orders, signed per request),
// the customer completes Svea's checkout page (the test fetches the page and posts its form, as a browser would),
// Svea's unsigned push (no body: the order is named in the pushUri Svea fills in) makes the worker read the order
// (checkout status Final, then the admin order's actions);
// captures are deliveries and refunds credits, each a task the capture's (refund's) status sync polls until done.
// Sync delays: two quick rounds, then a long pause: an authorization is decided by the push; a task (200 ms) by the syncs.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bnplPayment, imitationView, merchantCalls, merchantWithAccount, type ConnectorMerchant } from '../support/connectors.ts';
import { Stack } from '../support/stack.ts';

let stack: Stack;
let M: ConnectorMerchant;
let calls: ReturnType<typeof merchantCalls>;

beforeAll(async () => {
  stack = await Stack.start({ SYNC_DELAYS_MS: '300,300,30000', SANDBOX_REVIEW_MS: '1500', SANDBOX_SVEA_TASK_MS: '200' });
  M = await merchantWithAccount(stack, 'svea');
  calls = merchantCalls(stack, M.api_key);
}, 60_000);
afterAll(async () => stack?.stop());

/** A Swedish BNPL payment: the shared profile in SEK, billed in Stockholm. */
const payment = (email: string, extra: Record<string, unknown> = {}, buyer: 'consumer' | 'business' = 'consumer') => {
  const p = bnplPayment('svea', email, { buyer });
  return {
    ...p,
    currency: 'SEK',
    billing: {
      ...p.billing,
      address: { first_name: 'Erika', last_name: 'Mustermann', line1: 'Drottninggatan 1', city: 'Stockholm', zip: '11151', country: 'SE' },
    },
    metadata: { ...p.metadata, customer_locale: 'sv-SE' },
    browser_info: { user_agent: 'Mozilla/5.0', ip_address: '203.0.113.7', language: 'sv-SE' },
    ...extra,
  };
};
const order = async (id: string) => (await imitationView(stack, 'svea', 'orders', { id }))[0];

/** The customer at Svea's checkout: opens the page the payment points to and posts its approve (or deny) form. */
async function checkout(p: any, action: 'approve' | 'deny' = 'approve', key = M.api_key) {
  const ready = await stack.poll(p.payment_id, key, (x) => x.status === 'requires_customer_action' && !!x.next_action?.redirect_to_url);
  const url = ready.next_action.redirect_to_url as string;
  expect(url).toBe(`${stack.sandboxUrl}/svea/checkout/${ready.connector_transaction_id}`);
  const page = await (await fetch(url)).text();
  const form = new RegExp(`action="([^"]+/${action})"`).exec(page)?.[1];
  expect(form, page).toBeTruthy();
  const res = await fetch(new URL(form!, url), { method: 'POST', redirect: 'manual' });
  expect(res.status).toBe(303);
  return ready;
}
async function authorized(email = 'erika@example.com', extra: Record<string, unknown> = {}, buyer: 'consumer' | 'business' = 'consumer') {
  const p = await calls.pay(payment(email, extra, buyer));
  expect(p.status).toBe('requires_customer_action');
  await checkout(p);
  return calls.until(p, extra.capture_method === 'automatic' ? 'succeeded' : 'requires_capture', 15_000);
}

describe('svea: the checkout', () => {
  it('the order Svea got: signed, minor units, rows ×100, our push URI; the customer step, decided by the push', async () => {
    const p = await authorized();
    const o = await order(p.connector_transaction_id);
    expect(o).toMatchObject({ Status: 'Final', PaymentType: 'INVOICE', ClientOrderNumber: expect.stringMatching(/^op_/) });
    expect(o.request).toMatchObject({
      countryCode: 'SE',
      currency: 'SEK',
      locale: 'sv-SE',
      cart: {
        items: [
          { articleNumber: 'sku-lamp', name: 'Lamp', quantity: 200, unitPrice: 4_760, vatPercent: 1_900 },
          { name: 'Shipping', quantity: 100, unitPrice: 2_380, vatPercent: 1_900 },
        ],
      },
      merchantSettings: {
        confirmationUri: 'https://shop.example/return',
        pushUri: expect.stringMatching(
          new RegExp(`^http://(127\\.0\\.0\\.1|localhost):\\d+/webhooks/${M.merchant_id}/${M.mca}\\?svea_order=\\{checkout\\.order\\.uri\\}$`),
        ),
      },
      presetValues: expect.arrayContaining([
        { typeName: 'EmailAddress', value: 'erika@example.com', isReadOnly: false },
        { typeName: 'IsCompany', value: 'false', isReadOnly: true },
      ]),
      merchantData: p.payment_id,
    });
    // The push (no body) and the Created event, both delivered (the payment may be decided by a status sync first).
    let pushes: any[] = [];
    for (let i = 0; i < 50 && !(pushes.length === 2 && pushes.every((d) => d.delivered)); i++) {
      pushes = await imitationView(stack, 'svea', 'notifications', { object_id: p.connector_transaction_id });
      await new Promise((ok) => setTimeout(ok, 100));
    }
    expect(pushes).toMatchObject([
      { event: 'push', body: null, delivered: true },
      { event: 'CheckoutOrder.Created', delivered: true },
    ]);
    // The push has no body: the gateway kept the URL's query, which names the order; the worker acted on it for this
    // payment (synced, or unchanged when a status sync had decided it first), never 'ignored'.
    const inbox = await (await stack.db()).collection('provider_notifications').find({ merchant_id: M.merchant_id }).toArray();
    const push = inbox.filter((d: any) => d.query?.svea_order === p.connector_transaction_id && d.body === '');
    expect(push).toHaveLength(1);
    expect(['synced', 'unchanged']).toContain(push[0]!.result);
  });

  it('a business buyer: IsCompany preset, account credit', async () => {
    const p = await authorized('buyer@acme.example', {}, 'business');
    const o = await order(p.connector_transaction_id);
    expect(o.request.presetValues).toContainEqual({ typeName: 'IsCompany', value: 'true', isReadOnly: true });
    expect(o.PaymentType).toBe('ACCOUNTCREDIT');
  });

  it("the customer cancels the checkout -> failed, in Svea's words", async () => {
    const p = await calls.pay(payment('erika@example.com'));
    await checkout(p, 'deny');
    const f = await calls.until(p, 'failed', 15_000);
    expect(f).toMatchObject({ error_code: 'Cancelled', unified_code: 'UE_1000' });
  });

  it("+decline: Svea's credit check refuses, the order is cancelled -> failed", async () => {
    const p = await calls.pay(payment('erika+decline@example.com'));
    await checkout(p);
    expect(await calls.until(p, 'failed', 15_000)).toMatchObject({ error_code: 'Cancelled', unified_code: 'UE_1000' });
    expect((await order(p.connector_transaction_id)).Status).toBe('Cancelled');
  });

  it("+review: Final but not deliverable yet -> processing; Svea's second push decides it", async () => {
    const p = await calls.pay(payment('erika+review@example.com'));
    await checkout(p);
    await calls.until(p, 'processing', 15_000);
    const done = await calls.until(p, 'requires_capture', 15_000);
    expect(
      (await imitationView(stack, 'svea', 'notifications', { object_id: done.connector_transaction_id }))
        .filter((d: any) => d.body)
        .map((d: any) => d.body.IsPending),
    ).toEqual([true, false]);
  });

  it('+flaky: Svea answers 500 twice, the retry finds one order by its clientOrderNumber', async () => {
    const p = await calls.pay(payment('erika+flaky@example.com'));
    await checkout(p);
    await calls.until(p, 'requires_capture', 15_000);
    const creates = (await stack.sandboxCalls({ provider: 'svea', path: '/svea/api/orders' })).map((c) => c.status);
    expect(creates.filter((s) => s === 500)).toHaveLength(2);
    const o = await order(p.connector_transaction_id);
    expect(await imitationView(stack, 'svea', 'orders', { clientOrderNumber: o.ClientOrderNumber })).toHaveLength(1);
  });

  it("wrong credentials: Svea refuses the signature -> failed with Svea's 401 code", async () => {
    const bad = await merchantWithAccount(stack, 'svea', { auth_type: 'BodyKey', api_key: 'not_the_secret', key1: '124842' });
    const r = await stack.api('POST', '/payments', payment('erika@example.com'), bad.api_key);
    const f = r.body.status === 'failed' ? r.body : await stack.poll(r.body.payment_id, bad.api_key, (x) => x.status === 'failed');
    expect(f).toMatchObject({ error_code: '40101', unified_code: 'UE_4000' });
  });

  it('what Svea cannot take is refused by us, nothing sent: a currency, no return_url', async () => {
    const before = (await stack.sandboxCalls({ provider: 'svea' })).filter((c) => c.method !== 'GET').length;
    const usd = await stack.api('POST', '/payments', payment('erika@example.com', { currency: 'USD' }), M.api_key);
    expect(usd.status).toBe(400);
    expect(usd.body.error).toMatchObject({ code: 'IR_05', param: 'currency' });
    const noReturn = await stack.api('POST', '/payments', payment('erika@example.com', { return_url: undefined }), M.api_key);
    expect(noReturn.status).toBe(400);
    expect(noReturn.body.error).toMatchObject({ code: 'IR_04', param: 'return_url' });
    expect((await stack.sandboxCalls({ provider: 'svea' })).filter((c) => c.method !== 'GET').length).toBe(before);
  });
});

describe('svea: deliveries and credits', () => {
  it('automatic capture: the order delivered once final (a task, polled), succeeded', async () => {
    const p = await authorized('erika@example.com', { capture_method: 'automatic' });
    const o = await order(p.connector_transaction_id);
    expect(o.admin).toMatchObject({ OrderStatus: 'Delivered', Deliveries: [{ DeliveryAmount: 11_900 }] });
    expect(p.captures[0].connector_capture_id).toBe(String(o.admin.Deliveries[0].Id));
    const queue = await stack.sandboxCalls({ provider: 'svea' });
    expect(queue.some((c) => c.path.startsWith('/svea/api/v1/queue/') && c.status === 303)).toBe(true);
  });

  it('manual capture of the whole amount: the delivery task polled until done, succeeded', async () => {
    const p = await authorized();
    const c = await calls.capture(p.payment_id, {});
    expect(c.status, JSON.stringify(c.body)).toBe(200);
    const s = await calls.until(c.body, 'succeeded', 15_000);
    expect(s.amount_received).toBe(11_900);
    expect((await order(p.connector_transaction_id)).admin.OrderStatus).toBe('Delivered');
  });

  it('partial and multiple captures (manual_multiple): one lamp, then the rest, as row deliveries', async () => {
    const p = await authorized('erika@example.com', { capture_method: 'manual_multiple' });
    await calls.capture(p.payment_id, { amount_to_capture: 4_760 });
    await calls.until(p, 'partially_captured_and_capturable', 15_000);
    await calls.capture(p.payment_id, { amount_to_capture: 7_140 });
    const s = await calls.until(p, 'succeeded', 15_000);
    expect(s.amount_received).toBe(11_900);
    const o = await order(p.connector_transaction_id);
    expect(o.admin.Deliveries.map((d: any) => d.DeliveryAmount)).toEqual([4_760, 7_140]);
  });

  it('one partial capture (manual): delivered at a lower amount, the rest cancelled', async () => {
    const p = await authorized();
    await calls.capture(p.payment_id, { amount_to_capture: 5_000 });
    const s = await calls.until(p, 'partially_captured', 15_000);
    expect(s.amount_received).toBe(5_000);
    expect((await order(p.connector_transaction_id)).admin).toMatchObject({ Deliveries: [{ DeliveryAmount: 5_000 }], CancelledAmount: 6_900 });
  });

  it('void: the order cancelled at Svea', async () => {
    const p = await authorized();
    const v = await calls.cancel(p.payment_id, { cancellation_reason: 'out of stock' });
    expect(v.status).toBe(200);
    await calls.until(v.body, 'cancelled', 15_000);
    expect((await order(p.connector_transaction_id)).admin.OrderStatus).toBe('Cancelled');
  });

  it('a partial refund and the rest: credits of the delivery, each a task', async () => {
    const p = await authorized('erika@example.com', { capture_method: 'automatic' });
    const r1 = await calls.refund(p.payment_id, 2_380);
    expect(r1.status, JSON.stringify(r1.body)).toBe(200);
    expect(await calls.refundSettled(r1.body.refund_id)).toMatchObject({ status: 'succeeded', amount: 2_380 });
    const r2 = await calls.refund(p.payment_id);
    expect(await calls.refundSettled(r2.body.refund_id)).toMatchObject({ status: 'succeeded', amount: 9_520 });
    const d = (await order(p.connector_transaction_id)).admin.Deliveries[0];
    // A credit's Amount is negative at Svea (DataSample AdminOrderRowsCredited).
    expect(d).toMatchObject({ CreditedAmount: 11_900, Credits: [{ Amount: -2_380 }, { Amount: -9_520 }] });
  });

  it("+refund_pending: the credit task outlasts the syncs; Svea's CreditSucceeded push decides it", async () => {
    const p = await authorized('erika+refund_pending@example.com', { capture_method: 'automatic' });
    const r = await calls.refund(p.payment_id, 1_000);
    expect(await calls.refundSettled(r.body.refund_id)).toMatchObject({ status: 'succeeded' });
    expect(await imitationView(stack, 'svea', 'notifications', { object_id: p.connector_transaction_id, event: 'CheckoutOrder.CreditSucceeded' })).toHaveLength(
      1,
    );
  });

  it('+refund_fail: Svea refuses the credit, in its own words', async () => {
    const p = await authorized('erika+refund_fail@example.com', { capture_method: 'automatic' });
    const r = await calls.refund(p.payment_id, 1_000);
    expect(await calls.refundSettled(r.body.refund_id)).toMatchObject({ status: 'failed', error_code: '40010', unified_code: 'UE_6000' });
  });
});
