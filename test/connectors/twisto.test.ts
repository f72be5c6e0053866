// twisto through the real processes: the payment goes to the sandbox's Twisto (POST /checkouts), the shopper completes
// Twisto's checkout page (the test fetches it and posts its form, as a browser would), the status sync reads the
// checkout (approved = authorized), the capture charges it in full (POST /charges), a void cancels the checkout,
// refunds go against the checkout. Twisto's webhooks are unsigned: the URL the merchant registered at onboarding
// (the sandbox's operator call) gets them, and each is only a hint on which the worker reads the checkout.
// Sync delays: eight quick rounds, then a long pause, so a review Twisto decides after them is learned from the hint.
// Twisto charges the full amount only: a partial capture is refused by us before anything is queued.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bnplPayment, customerStep, imitationView, merchantCalls, merchantWithAccount, type ConnectorMerchant } from '../support/connectors.ts';
import { Stack } from '../support/stack.ts';

const QUICK_ROUNDS = 8;
let stack: Stack;
let M: ConnectorMerchant;
let bad: ConnectorMerchant;
let calls: ReturnType<typeof merchantCalls>;

beforeAll(async () => {
  stack = await Stack.start({ SYNC_DELAYS_MS: `${Array(QUICK_ROUNDS).fill(250).join(',')},60000`, SANDBOX_REVIEW_MS: '8000' });
  M = await merchantWithAccount(stack, 'twisto');
  // Onboarding at Twisto: the merchant's webhook URL, ours for this account.
  const hook = await stack.sandbox(`/sandbox/twisto/webhooks`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ secret_key: 'twisto_sandbox_secret_key', url: `${stack.gatewayUrl}/webhooks/${M.merchant_id}/${M.mca}` }),
  });
  expect(hook.status).toBe(201);
  bad = await merchantWithAccount(stack, 'twisto', { auth_type: 'HeaderKey', api_key: 'not_a_twisto_key' });
  calls = merchantCalls(stack, M.api_key);
}, 60_000);
afterAll(async () => stack?.stop());

/** The shared BNPL customer profile, in Prague and in CZK (Twisto lends in CZ and PL). */
const body = (email: string, extra: Record<string, unknown> = {}) =>
  bnplPayment(
    'twisto',
    email,
    {},
    {
      currency: 'CZK',
      billing: {
        address: { first_name: 'Jana', last_name: 'Nováková', line1: 'Národní 12', city: 'Praha', zip: '11000', country: 'CZ' },
        email,
        phone: { number: '601123456', country_code: '+420' },
      },
      // (The profile's device fingerprints name providers our schema does not know yet; Twisto reads none.)
      browser_info: { user_agent: 'Mozilla/5.0', ip_address: '203.0.113.7', language: 'cs-CZ', accept_header: 'text/html' },
      ...extra,
    },
  );
const pay = (email: string, extra: Record<string, unknown> = {}) => calls.pay(body(email, extra));
const view = (v: string, q: Record<string, string>) => imitationView(stack, 'twisto', v, q);
// What would change something at Twisto (its reads come from the status syncs of earlier payments, at any time).
const twistoCalls = async () => (await stack.sandboxCalls({ provider: 'twisto' })).filter((c) => c.method !== 'GET').length;

/** The shopper at Twisto's checkout page: approves (or denies) there; where Twisto sends them back. */
async function checkout(p: any, action: 'approve' | 'deny' = 'approve') {
  const { url, location } = await customerStep(stack, p.payment_id, M.api_key, action);
  expect(url).toMatch(new RegExp(`^${stack.sandboxUrl}/twisto/checkout/chk_[0-9a-f]{24}$`));
  return location;
}
const authorized = async (email = 'jana@example.cz', extra: Record<string, unknown> = {}) => {
  const p = await pay(email, extra);
  await checkout(p);
  return calls.until(p, 'requires_capture');
};
const captured = async (email?: string) => {
  const p = await authorized(email);
  expect((await calls.capture(p.payment_id)).status).toBe(200);
  return calls.until(p, 'succeeded');
};

describe('twisto through the stack', () => {
  it("customer step: Twisto's checkout page, back to the shop, the checkout approved -> requires_capture", async () => {
    const p = await pay('jana@example.cz');
    expect(p.status).toBe('requires_customer_action');
    const location = await checkout(p);
    expect(location).toMatch(/^https:\/\/shop\.example\/return\?checkout_id=chk_[0-9a-f]{24}&state=approved$/);
    const done = await calls.until(p, 'requires_capture');
    const [c] = await view('checkouts', { id: done.connector_transaction_id });
    expect(c).toMatchObject({
      state: 'approved',
      type: 'standard',
      // The merchant's reference at Twisto (our merchant id), not the order's (issue 21).
      merchant_reference: M.merchant_id,
      config: { redirect_uri: 'https://shop.example/return' },
      order: {
        reference: p.merchant_order_reference_id,
        amount: 11_900,
        currency: 'CZK',
        items: [
          { name: 'Lamp', amount: '95.20', quantity: 2, type: 'sku', reference: 'sku-lamp' },
          { name: 'Shipping', amount: '23.80', quantity: 1, type: 'shipping' },
        ],
      },
      shopper: {
        email: 'jana@example.cz',
        first_name: 'Jana',
        last_name: 'Nováková',
        phone: '+4915112345678',
        birth_date: '1980-02-03',
        billing_address: { line1: 'Národní 12', city: 'Praha', postal_code: '11000', country: 'CZ' },
      },
    });
  });

  it("the shopper cancels at the checkout -> failed with Twisto's state", async () => {
    const p = await pay('jana@example.cz');
    expect(await checkout(p, 'deny')).toContain('state=cancelled');
    expect(await calls.until(p, 'failed')).toMatchObject({ error_code: 'cancelled', unified_code: 'UE_1000' });
  });

  it('manual capture of the whole amount: one charge with capture, the checkout completed', async () => {
    const s = await captured();
    expect(s.amount_received).toBe(11_900);
    const charges = await view('charges', { checkout_id: s.connector_transaction_id });
    expect(charges).toMatchObject([{ state: 'captured', amount: 11_900, captured: 11_900, currency: 'CZK', reference: s.merchant_order_reference_id }]);
    expect(s.captures[0].connector_capture_id).toBe(charges[0].id);
    expect((await view('checkouts', { id: s.connector_transaction_id }))[0].state).toBe('completed');
  });

  it('automatic capture: after the approval our charge follows -> succeeded', async () => {
    const p = await pay('jana@example.cz', { capture_method: 'automatic' });
    await checkout(p);
    const s = await calls.until(p, 'succeeded');
    expect(s).toMatchObject({ amount_received: 11_900, captures: [{ status: 'charged', amount: 11_900 }] });
    expect(await view('charges', { checkout_id: s.connector_transaction_id })).toMatchObject([{ state: 'captured', amount: 11_900 }]);
  });

  it('partial and multiple capture: refused by us (IR_05 naming the field), nothing reaches Twisto', async () => {
    const p = await authorized();
    const before = await twistoCalls();
    const partial = await calls.capture(p.payment_id, { amount_to_capture: 5_000 });
    expect(partial.status).toBe(400);
    expect(partial.body.error).toMatchObject({ code: 'IR_05', param: 'amount_to_capture' });
    const multiple = await stack.api('POST', '/payments', body('jana@example.cz', { capture_method: 'manual_multiple' }), M.api_key);
    expect(multiple.status).toBe(400);
    expect(multiple.body.error).toMatchObject({ code: 'IR_05', param: 'capture_method' });
    expect(await twistoCalls()).toBe(before);
    expect((await stack.api('GET', `/payments/${p.payment_id}`, undefined, M.api_key)).body).toMatchObject({
      status: 'requires_capture',
      amount_capturable: 11_900,
    });
    expect(await view('charges', { checkout_id: p.connector_transaction_id })).toEqual([]);
  });

  it('refused before anything is queued: a currency, a country and a business buyer Twisto does not take', async () => {
    const before = await twistoCalls();
    const cases: [Record<string, unknown>, string][] = [
      [{ currency: 'USD' }, 'currency'],
      [{ billing: { address: { line1: 'Hauptstr. 1', city: 'Berlin', zip: '10115', country: 'DE' } } }, 'billing.address.country'],
      [{ metadata: { buyer_type: 'business', company_name: 'ACME s.r.o.' } }, 'metadata.buyer_type'],
    ];
    for (const [extra, param] of cases) {
      const r = await stack.api('POST', '/payments', body('jana@example.cz', extra), M.api_key);
      expect(r.status, JSON.stringify(r.body)).toBe(400);
      expect(r.body.error).toMatchObject({ code: 'IR_05', param });
    }
    expect(await twistoCalls()).toBe(before);
  });

  it('void: the checkout is cancelled at Twisto -> cancelled', async () => {
    const p = await authorized();
    expect((await calls.cancel(p.payment_id, { cancellation_reason: 'out of stock' })).status).toBe(200);
    await calls.until(p, 'cancelled');
    expect((await view('checkouts', { id: p.connector_transaction_id }))[0].state).toBe('cancelled');
  });

  it('refund and partial refund: refunds against the checkout, our refund id as their reference', async () => {
    const s = await captured();
    const r1 = await calls.refund(s.payment_id, 2_000, { reason: 'damaged' });
    expect(r1.status, JSON.stringify(r1.body)).toBe(200);
    expect(await calls.refundSettled(r1.body.refund_id)).toMatchObject({ status: 'succeeded', amount: 2_000 });
    const r2 = await calls.refund(s.payment_id, 9_900);
    expect(await calls.refundSettled(r2.body.refund_id)).toMatchObject({ status: 'succeeded', amount: 9_900 });
    expect(await view('refunds', { checkout_id: s.connector_transaction_id })).toMatchObject([
      { reference: r1.body.refund_id, amount: 2_000, reason: 'damaged' },
      { reference: r2.body.refund_id, amount: 9_900 },
    ]);
  });

  it("a refund Twisto refuses (+refund_fail): failed with Twisto's code", async () => {
    const s = await captured('jana+refund_fail@example.cz');
    const r = await calls.refund(s.payment_id, 1_000);
    expect(await calls.refundSettled(r.body.refund_id)).toMatchObject({
      status: 'failed',
      error_code: 'refund_rejected',
      error_message: 'The refund was rejected by Twisto.',
      unified_code: 'UE_6000',
    });
  });

  it('Twisto answers a refund 500 twice (+refund_flaky), then makes it: one refund at Twisto', async () => {
    const s = await captured('jana+refund_flaky@example.cz');
    const r = await calls.refund(s.payment_id, 3_000);
    expect(await calls.refundSettled(r.body.refund_id)).toMatchObject({ status: 'succeeded' });
    expect(await view('refunds', { checkout_id: s.connector_transaction_id })).toMatchObject([{ reference: r.body.refund_id, amount: 3_000 }]);
    // The refund's operation: the POSTs with the key that met the 500s (each retry read the list first, then posted).
    const posts = (await stack.sandboxCalls({ provider: 'twisto', path: '/twisto/psp/v4/refunds' })).filter((c) => c.method === 'POST');
    const key = posts.find((c) => c.status === 500)?.idempotency_key;
    expect(posts.filter((c) => c.idempotency_key === key).map((c) => c.status)).toEqual([500, 500, 201]);
  });

  it("decline (+decline): Twisto's scoring cancels the checkout -> failed", async () => {
    const p = await pay('jana+decline@example.cz');
    expect(await checkout(p)).toContain('state=cancelled');
    expect(await calls.until(p, 'failed')).toMatchObject({ error_code: 'cancelled', unified_code: 'UE_1000', connector: 'twisto' });
  });

  it('review (+review): Twisto scores after the quick syncs; its unsigned `approved` webhook is the hint that decides it', async () => {
    const p = await pay('jana+review@example.cz');
    await checkout(p);
    const chk = (await calls.until(p, 'requires_customer_action')).connector_transaction_id as string;
    // The quick status syncs are spent while Twisto is still scoring; the next one is a minute away.
    const reads = async () => (await stack.sandboxCalls({ provider: 'twisto', path: `/twisto/psp/v4/checkouts/${chk}` })).length;
    for (let i = 0; i < 200 && (await reads()) < QUICK_ROUNDS; i++) await new Promise((r) => setTimeout(r, 100));
    expect(await reads()).toBe(QUICK_ROUNDS);
    expect((await view('checkouts', { id: chk }))[0].state).toBe('created');
    const done = await calls.until(p, 'requires_capture', 40_000);
    expect(await reads()).toBe(QUICK_ROUNDS + 1);
    const sent = await view('notifications', { object_id: chk });
    expect(sent.map((d) => [d.event, d.delivered])).toEqual([['approved', true]]);
    const inbox = await (await stack.db()).collection('provider_notifications').find({ merchant_id: M.merchant_id }).toArray();
    expect(inbox.filter((d: any) => JSON.parse(d.body).checkout_id === done.connector_transaction_id).map((d: any) => d.result)).toEqual(['synced']);
  });

  it('Twisto answers 500 twice (+flaky), then creates the checkout: one checkout at Twisto', async () => {
    const p = await pay('jana+flaky@example.cz');
    await checkout(p);
    const done = await calls.until(p, 'requires_capture');
    const checkouts = await view('checkouts', { reference: done.merchant_order_reference_id });
    expect(checkouts).toHaveLength(1);
    const creates = await stack.sandboxCalls({ provider: 'twisto', path: '/twisto/psp/v4/checkouts' });
    expect(creates.filter((c) => c.idempotency_key === checkouts[0].idempotency_key).map((c) => c.status)).toEqual([500, 500, 201]);
  });

  it("wrong credentials: failed with Twisto's code", async () => {
    const r = await stack.api('POST', '/payments', body('jana@example.cz'), bad.api_key);
    expect(r.status, JSON.stringify(r.body)).toBe(200);
    const f = r.body.status === 'failed' ? r.body : await stack.poll(r.body.payment_id, bad.api_key, (x) => x.status === 'failed');
    expect(f).toMatchObject({ error_code: 'authentication_failed', error_message: 'Invalid token.', unified_code: 'UE_4000' });
  });
});
