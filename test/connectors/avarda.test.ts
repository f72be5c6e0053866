// avarda through the real processes: the worker gets a short-lived partner token from the sandbox's Avarda (cached in
// Redis per connector account), initializes a purchase, the customer completes Avarda Checkout on the page the
// imitation serves (the test fetches it and posts its form, as a browser would), and we learn the result by the
// status sync reading the purchase and by Avarda's unsigned completion callback (a hint: the worker reads the
// purchase). Captures activate items, a void cancels the rest, refunds return activated rows (POST …/return with
// items); all in decimals (SEK here). The order's reference at Avarda is at most 20 characters: the last 20 of the
// payment id when the merchant's own is longer (the test's are).
// Sync delays: quick rounds while the customer is in the form, then long pauses, so a +review (BankID) completion is
// learned from the callback. Tokens live 3 s at the imitation, so the cache refetches them all through the file.
import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bnplPayment, imitationView, merchantCalls, merchantWithAccount, type ConnectorMerchant } from '../support/connectors.ts';
import { sleep, Stack } from '../support/stack.ts';

let stack: Stack;
let M: ConnectorMerchant;
let calls: ReturnType<typeof merchantCalls>;
beforeAll(async () => {
  stack = await Stack.start({
    SYNC_DELAYS_MS: '250,250,250,250,250,250,250,250,2000,20000,20000',
    SANDBOX_REVIEW_MS: '6000',
    AVARDA_SANDBOX_TOKEN_TTL_S: '3',
  });
  M = await merchantWithAccount(stack, 'avarda');
  calls = merchantCalls(stack, M.api_key);
}, 120_000);
afterAll(async () => stack?.stop());

const profile = (email: string, opts: { buyer?: 'consumer' | 'business' } = {}) => bnplPayment('avarda', email, opts);
/** The shared BNPL profile, in Sweden: SEK, billing in Stockholm, Swedish locale. */
const swedish = (email: string, extra: Record<string, unknown> = {}, opts: { buyer?: 'consumer' | 'business' } = {}) => {
  const p = profile(email, opts);
  return {
    ...p,
    currency: 'SEK',
    billing: { ...p.billing, address: { first_name: 'Erika', last_name: 'Svensson', line1: 'Storgatan 12', city: 'Stockholm', zip: '11122', country: 'SE' } },
    metadata: { ...p.metadata, customer_locale: 'sv-SE' },
    ...extra,
  };
};
const purchase = async (id: string) => (await imitationView(stack, 'avarda', 'purchases', { purchaseId: id }))[0];
/** Our order reference at Avarda for a payment whose own reference is over Avarda's 20 characters. */
const ref = (p: { payment_id: string }) => p.payment_id.slice(-20);

/** The customer on Avarda Checkout's page: opens it and posts its complete (or leave) form. */
async function customer(p: { payment_id: string }, action: 'complete' | 'leave' = 'complete') {
  const ready = await stack.poll(p.payment_id, M.api_key, (x) => x.status === 'requires_customer_action' && !!x.next_action?.redirect_to_url);
  const url = ready.next_action.redirect_to_url as string;
  const page = await (await fetch(url)).text();
  const form = new RegExp(`action="([^"]+/${action})"`).exec(page)?.[1];
  expect(form, page).toBeTruthy();
  const jwt = new URL(url).searchParams.get('purchaseJwt')!;
  const res = await fetch(new URL(form!, url), {
    method: 'POST',
    redirect: 'manual',
    body: new URLSearchParams({ purchaseJwt: jwt, redirectUrl: 'https://shop.example/return' }),
  });
  return { url, res, page: res.status === 200 ? await res.text() : '' };
}
const authorized = async (email = 'erika@example.se', extra: Record<string, unknown> = {}) => {
  const p = await calls.pay(swedish(email, extra));
  await customer(p);
  return calls.until(p, 'requires_capture');
};

describe('avarda: the customer step and capture', () => {
  it('customer step: the purchase is initialized, the customer completes the checkout -> requires_capture; the callback is delivered', async () => {
    const p = await calls.pay(swedish('erika@example.se'));
    expect(p.status).toBe('requires_customer_action');
    const { url, res } = await customer(p);
    expect(url).toMatch(new RegExp(`^${stack.sandboxUrl}/avarda/checkout\\?purchaseJwt=`));
    expect(res.status).toBe(303);
    expect(res.headers.get('location')).toMatch(/^https:\/\/shop\.example\/return\?purchaseId=[0-9a-f]{24}$/);
    const done = await calls.until(p, 'requires_capture');
    const pu = await purchase(done.connector_transaction_id);
    expect(pu).toMatchObject({
      mode: 'B2C',
      step: 'Completed',
      orderReference: ref(p),
      total: 11_900,
      setup: {
        mode: 'B2C',
        language: 'Swedish',
        invoicingCountries: ['SE'],
        completedNotificationUrl: expect.stringMatching(new RegExp(`/webhooks/${M.merchant_id}/${M.mca}$`)),
      },
      customer: {
        invoicingAddress: { firstName: 'Erika', lastName: 'Svensson', address1: 'Storgatan 12', zip: '11122', city: 'Stockholm', country: 'SE' },
        userInputs: { email: 'erika@example.se' },
      },
    });
    expect(pu.items).toEqual([
      { description: 'Lamp', notes: 'sku-lamp', amount: 47.6, taxCode: '19', taxAmount: 7.6, quantity: 2 },
      { description: 'Shipping', amount: 23.8, taxCode: '19', taxAmount: 3.8, quantity: 1 },
    ]);
    const sent = await imitationView(stack, 'avarda', 'callbacks', { purchaseId: done.connector_transaction_id });
    expect(sent).toMatchObject([{ delivered: true, body: JSON.stringify({ purchaseId: done.connector_transaction_id }) }]);
  });

  it('B2B: a company buyer goes through Avarda in B2B mode', async () => {
    const p = await calls.pay(swedish('buyer@acme.example', {}, { buyer: 'business' }));
    await customer(p);
    const done = await calls.until(p, 'requires_capture');
    expect(await purchase(done.connector_transaction_id)).toMatchObject({ mode: 'B2B', customer: { invoicingAddress: { name: 'ACME GmbH' } } });
  });

  it('automatic capture: after the checkout our activation captures the whole purchase -> succeeded', async () => {
    const p = await calls.pay(swedish('erika@example.se', { capture_method: 'automatic' }));
    await customer(p);
    const s = await calls.until(p, 'succeeded');
    expect(s).toMatchObject({ amount_received: 11_900, amount_capturable: 0 });
    expect(await purchase(s.connector_transaction_id)).toMatchObject({ activated: 11_900, activations: [{ amount: 11_900, orderReference: ref(p) }] });
  });

  it("manual capture of the whole amount: the order's items are activated", async () => {
    const p = await authorized();
    const c = await calls.capture(p.payment_id, { amount_to_capture: 11_900 });
    expect(c.status, JSON.stringify(c.body)).toBe(200);
    const s = await calls.until(p, 'succeeded');
    expect(s.amount_received).toBe(11_900);
    const pu = await purchase(p.connector_transaction_id);
    expect(pu.activations).toHaveLength(1);
    expect(pu.activations[0].items).toEqual(pu.items);
  });

  it('partial and multiple captures (manual_multiple): two activations, 50.00 then 69.00', async () => {
    const p = await authorized('erika@example.se', { capture_method: 'manual_multiple' });
    expect((await calls.capture(p.payment_id, { amount_to_capture: 5_000 })).status).toBe(200);
    await calls.until(p, 'partially_captured_and_capturable');
    expect((await calls.capture(p.payment_id, { amount_to_capture: 6_900 })).status).toBe(200);
    expect(await calls.until(p, 'succeeded')).toMatchObject({ amount_received: 11_900 });
    const pu = await purchase(p.connector_transaction_id);
    expect(pu.activations.map((a: any) => a.amount)).toEqual([5_000, 6_900]);
    expect(pu.activations[0].items).toEqual([{ description: 'Delivery', amount: 50, taxCode: '19', taxAmount: 7.98, quantity: 1 }]);
  });

  it('void: what is not activated is cancelled at Avarda -> cancelled', async () => {
    const p = await authorized();
    const v = await calls.cancel(p.payment_id, { cancellation_reason: 'out of stock' });
    expect(v.status, JSON.stringify(v.body)).toBe(200);
    await calls.until(p, 'cancelled');
    expect(await purchase(p.connector_transaction_id)).toMatchObject({ cancelled: 11_900, activated: 0 });
  });
});

describe('avarda: refunds', () => {
  it('refund and partial refund: returns of activated rows, in decimals, up to what was activated', async () => {
    const p = await authorized();
    await calls.capture(p.payment_id, {});
    await calls.until(p, 'succeeded');
    const r1 = await calls.refund(p.payment_id, 2_000, { reason: 'damaged' });
    expect(r1.status, JSON.stringify(r1.body)).toBe(200);
    expect(await calls.refundSettled(r1.body.refund_id)).toMatchObject({ status: 'succeeded', amount: 2_000 });
    const r2 = await calls.refund(p.payment_id);
    expect(await calls.refundSettled(r2.body.refund_id)).toMatchObject({ status: 'succeeded', amount: 9_900 });
    const pu = await purchase(p.connector_transaction_id);
    expect(pu.refunds.map((r: any) => [r.kind, r.amount, r.orderReference])).toEqual([
      ['return', 2_000, ref(p)],
      ['return', 9_900, ref(p)],
    ]);
    expect(pu.refunds[0].items).toEqual([{ description: 'Return', amount: 20, taxCode: '19', taxAmount: 3.19, quantity: 1 }]);
    expect(pu.refunds.map((r: any) => r.tranId)).toEqual([expect.stringMatching(/^op_/), expect.stringMatching(/^op_/)]);
    expect(pu).toMatchObject({ returned: 11_900, released: 0 });
  });

  it('+refund_fail: Avarda refuses the return -> failed with its code and message, UE_6000', async () => {
    const p = await authorized('erika+refund_fail@example.se');
    await calls.capture(p.payment_id, {});
    await calls.until(p, 'succeeded');
    const r = await calls.refund(p.payment_id, 1_000);
    expect(await calls.refundSettled(r.body.refund_id)).toMatchObject({
      status: 'failed',
      error_code: '0',
      error_message: 'The return was rejected: the invoice is with debt collection',
      unified_code: 'UE_6000',
    });
  });
});

describe('avarda: declines, review, retries, tokens', () => {
  it('+decline: the form declines, the customer leaves, the purchase times out -> failed (TimedOut, UE_1000)', async () => {
    const p = await calls.pay(swedish('erika+decline@example.se'));
    const { res, url, page } = await customer(p);
    expect(res.status).toBe(200);
    expect(page).toContain('cannot offer you this payment method');
    // Only leaving is left: the declined page's form.
    const leave = /action="([^"]+\/leave)"/.exec(page)![1]!;
    const jwt = new URL(url).searchParams.get('purchaseJwt')!;
    const left = await fetch(new URL(leave, url), {
      method: 'POST',
      redirect: 'manual',
      body: new URLSearchParams({ purchaseJwt: jwt, redirectUrl: 'https://shop.example/return' }),
    });
    expect(left.status).toBe(303);
    const f = await calls.until(p, 'failed');
    expect(f).toMatchObject({ error_code: 'TimedOut', unified_code: 'UE_1000', connector: 'avarda' });
    expect(await imitationView(stack, 'avarda', 'callbacks', { purchaseId: f.connector_transaction_id })).toEqual([]);
  });

  it('the customer leaves the checkout -> failed (TimedOut)', async () => {
    const p = await calls.pay(swedish('erika@example.se'));
    await customer(p, 'leave');
    expect(await calls.until(p, 'failed')).toMatchObject({ error_code: 'TimedOut' });
  });

  it("+review: the form waits for BankID (processing), completed later: learned from Avarda's callback", async () => {
    const p = await calls.pay(swedish('erika+review@example.se'));
    await customer(p);
    const pending = await calls.until(p, 'processing');
    expect((await purchase(pending.connector_transaction_id)).step).toBe('WaitingForBankId');
    const done = await calls.until(p, 'requires_capture', 15_000);
    const inbox = await (await stack.db()).collection('provider_notifications').find({ merchant_id: M.merchant_id }).toArray();
    const mine = inbox.filter((d: any) => JSON.parse(d.body).purchaseId === done.connector_transaction_id);
    expect(mine.map((d: any) => d.result)).toEqual(['synced']);
  });

  it('+flaky: Avarda answers 500 twice, the worker retries: one purchase', async () => {
    const before = (await stack.sandboxCalls({ provider: 'avarda', path: '/avarda/api/partner/payments' })).length;
    const p = await calls.pay(swedish('erika+flaky@example.se'));
    await customer(p);
    const done = await calls.until(p, 'requires_capture');
    expect(await imitationView(stack, 'avarda', 'purchases', { orderReference: ref(done) })).toHaveLength(1);
    const posts = (await stack.sandboxCalls({ provider: 'avarda', path: '/avarda/api/partner/payments' })).slice(before).filter((c) => c.method === 'POST');
    expect(posts.map((c) => c.status)).toEqual([500, 500, 200]);
  });

  it('an expired token in the cache: Avarda answers 401, the worker fetches a new token and goes on', async () => {
    const t = (await (
      await fetch(`${stack.sandboxUrl}/avarda/api/partner/tokens`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ clientId: 'avarda_sandbox_client', clientSecret: 'avarda_sandbox_client_secret' }),
      })
    ).json()) as { token: string };
    // Wait until Avarda refuses it (it lives 3 s here).
    for (let i = 0; ; i++) {
      const r = await fetch(`${stack.sandboxUrl}/avarda/api/partner/payments/none`, { headers: { authorization: `Bearer ${t.token}` } });
      if (r.status === 401) break;
      expect(i).toBeLessThan(100);
      await sleep(100);
    }
    // A payment first, so that the account's token is cached.
    await calls.until(await calls.pay(swedish('erika@example.se')), 'requires_customer_action');
    const redis = new Redis(stack.env.REDIS_URL);
    try {
      // The cache key ends with the account's credentials version (workers/runtime.ts tokenAccount): the account's
      // cached token, from the cells before, is replaced by the expired one.
      const keys = await redis.keys(`${stack.env.REDIS_PREFIX}:token:avarda:${M.merchant_id}:${M.mca}:*`);
      expect(keys.length).toBeGreaterThan(0);
      for (const k of keys) await redis.set(k, t.token, 'PX', 60_000);
    } finally {
      redis.disconnect();
    }
    const before = (await stack.sandboxCalls({ provider: 'avarda' })).length;
    const p = await calls.pay(swedish('erika@example.se'));
    await calls.until(p, 'requires_customer_action');
    // The payment's syncs of the cell before run beside it (GETs with the same cached token): the refusal may come on
    // either; what counts is that the expired token is refused, a new one is fetched, and the payment goes on with it.
    const after = (await stack.sandboxCalls({ provider: 'avarda' })).slice(before);
    const refused = after.findIndex((c) => c.status === 401);
    expect(refused, JSON.stringify(after.map((c) => [c.method, c.path, c.status]))).toBeGreaterThanOrEqual(0);
    expect(after[refused]!.path).toMatch(/^\/avarda\/api\/partner\/payments/);
    const renewed = after.findIndex((c, i) => i > refused && c.path === '/avarda/api/partner/tokens' && c.status === 200);
    expect(renewed).toBeGreaterThan(refused);
    expect(after.some((c, i) => i > renewed && c.method === 'POST' && c.path === '/avarda/api/partner/payments' && c.status === 200)).toBe(true);
  });

  it("wrong credentials: the token is refused -> failed with Avarda's error and description, UE_4000", async () => {
    const bad = await merchantWithAccount(stack, 'avarda', { auth_type: 'BodyKey', api_key: 'avarda_sandbox_client', key1: 'not-the-secret' });
    const r = await stack.api('POST', '/payments', swedish('erika@example.se'), bad.api_key);
    expect(r.status, JSON.stringify(r.body)).toBe(200);
    const f = r.body.status === 'failed' ? r.body : await stack.poll(r.body.payment_id, bad.api_key, (x) => x.status === 'failed');
    expect(f).toMatchObject({ error_code: 'invalid_client', error_message: 'Invalid client credentials', unified_code: 'UE_4000' });
  });

  it('what Avarda cannot do: EUR billing in Germany and USD are refused by us (IR_05), nothing reaches Avarda', async () => {
    // Payments of earlier cells still sync in the background (GETs, tokens): count purchases initialized.
    const inits = async () =>
      (await stack.sandboxCalls({ provider: 'avarda', path: '/avarda/api/partner/payments' })).filter((c) => c.method === 'POST').length;
    const before = await inits();
    const de = await stack.api('POST', '/payments', profile('erika@example.se'), M.api_key);
    expect(de.status).toBe(400);
    expect(de.body.error).toMatchObject({ code: 'IR_05', message: expect.stringContaining('DE') });
    const usd = await stack.api('POST', '/payments', swedish('erika@example.se', { currency: 'USD' }), M.api_key);
    expect(usd.status).toBe(400);
    expect(usd.body.error).toMatchObject({ code: 'IR_05', message: expect.stringContaining('USD') });
    const noReturn = await stack.api('POST', '/payments', swedish('erika@example.se', { return_url: undefined }), M.api_key);
    expect(noReturn.status).toBe(400);
    expect(noReturn.body.error).toMatchObject({ code: 'IR_04', message: expect.stringContaining('return_url') });
    expect(await inits()).toBe(before);
  });
});
