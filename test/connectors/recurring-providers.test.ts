// Mandates and recurring payments (issue 22) through the whole stack with the providers that keep one: avarda (a
// purchase offering recurring payments leaves a recurring payment token; a charge is …/authorizerecurringpayment) and
// svea (a recurring checkout order leaves a RecurringToken; a charge is an order on /api/tokens/{token}/orders). For
// each: the first payment with a mandate goes through the customer's step at the provider's checkout (as
// avarda.test.ts and svea.test.ts complete it) and answers mandate_id and connector_mandate_id; GET /mandates/{id}
// shows it active with the provider's reference; two recurring charges with mandate_id + off_session go through with no
// customer step and no return_url, each captured and refunded; the mandate ended at the provider (avarda: the
// sandbox's operator revoke; svea: its token PATCH {status: Cancelled}) fails the next charge with UE_7000 and our
// mandate becomes revoked.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MANIFESTS } from '../../workers/connectors/manifests.ts';
import { sveaHeaders } from '../../workers/connectors/svea/sign.ts';
import { bnplPayment, merchantCalls, merchantWithAccount, type ConnectorMerchant } from '../support/connectors.ts';
import { Stack, until } from '../support/stack.ts';

let stack: Stack;
beforeAll(async () => {
  stack = await Stack.start({ SYNC_DELAYS_MS: '250,250,250,250,250,250,250,250,2000,20000', SANDBOX_REVIEW_MS: '1500', SANDBOX_SVEA_TASK_MS: '200' });
}, 120_000);
afterAll(async () => stack?.stop());

const DAY = 86_400_000;
const iso = (offsetMs: number) => new Date(Date.now() + offsetMs).toISOString();

/** A Swedish subscription's first payment: the shared BNPL profile in SEK, billed in Stockholm, with a new mandate. */
function firstPayment(connector: 'avarda' | 'svea', customerId: string, paymentMethodType: string) {
  const p = bnplPayment(connector, `${customerId}@example.se`);
  return {
    ...p,
    currency: 'SEK',
    customer_id: customerId,
    customer: { ...p.customer, id: customerId },
    payment_method_type: paymentMethodType,
    capture_method: 'automatic',
    billing: { ...p.billing, address: { first_name: 'Erika', last_name: 'Svensson', line1: 'Storgatan 12', city: 'Stockholm', zip: '11122', country: 'SE' } },
    metadata: { ...p.metadata, customer_locale: 'sv-SE' },
    browser_info: { user_agent: 'Mozilla/5.0', ip_address: '203.0.113.7', language: 'sv-SE' },
    setup_future_usage: 'off_session',
    payment_type: 'new_mandate',
    mandate_data: {
      customer_acceptance: { acceptance_type: 'online', accepted_at: iso(0), online: { ip_address: '203.0.113.7', user_agent: 'Mozilla/5.0' } },
      mandate_type: { single_use: { amount: 50_000, currency: 'SEK', start_date: iso(-DAY), end_date: iso(365 * DAY) } },
    },
  };
}

/** The customer at the provider's checkout: opens the page the payment points to and posts its form. */
async function customerStep(connector: 'avarda' | 'svea', p: { payment_id: string }, key: string) {
  const ready = await stack.poll(p.payment_id, key, (x) => x.status === 'requires_customer_action' && !!x.next_action?.redirect_to_url);
  const url = ready.next_action.redirect_to_url as string;
  const page = await (await fetch(url)).text();
  const action = connector === 'avarda' ? 'complete' : 'approve';
  const form = new RegExp(`action="([^"]+/${action})"`).exec(page)?.[1];
  expect(form, page).toBeTruthy();
  const init: RequestInit = { method: 'POST', redirect: 'manual' };
  if (connector === 'avarda')
    init.body = new URLSearchParams({ purchaseJwt: new URL(url).searchParams.get('purchaseJwt')!, redirectUrl: 'https://shop.example/return' });
  const res = await fetch(new URL(form!, url), init);
  expect(res.status).toBe(303);
}

/** Ends the mandate at the provider, as the customer withdrawing consent (avarda) or the merchant cancelling the token at Svea. */
async function endAtProvider(connector: 'avarda' | 'svea', connectorMandateId: string) {
  if (connector === 'avarda') {
    const token = connectorMandateId.split(':')[1]!;
    const r = await stack.sandbox(`/sandbox/avarda/revoke/${token}`, { method: 'POST' });
    expect(r.status).toBe(200);
    return;
  }
  const body = { status: 'Cancelled' };
  const details = MANIFESTS.svea!.sandbox_account_details as { api_key: string; key1: string };
  const r = await fetch(`${stack.sandboxUrl}/svea/api/tokens/${connectorMandateId}`, {
    method: 'PATCH',
    headers: { 'content-type': 'application/json', ...sveaHeaders(details.key1, details.api_key, body) },
    body: JSON.stringify(body),
  });
  expect(r.status, await r.text()).toBe(200);
}

describe.each([
  { connector: 'avarda' as const, reference: /^[0-9a-f]{24}:[0-9a-f]{32}$/ },
  { connector: 'svea' as const, reference: /^[0-9a-f-]{36}$/ },
])('$connector: a subscription through the stack', ({ connector, reference }) => {
  let M: ConnectorMerchant;
  let calls: ReturnType<typeof merchantCalls>;
  let first: any;
  const customerId = `cus_rec_${connector}`;
  const get = (path: string) => stack.api('GET', path, undefined, M.api_key);
  const recurring = (mandateId: string, over: Record<string, unknown> = {}) =>
    stack.api('POST', '/payments', { amount: 29_900, currency: 'SEK', mandate_id: mandateId, off_session: true, confirm: true, ...over }, M.api_key);

  beforeAll(async () => {
    M = await merchantWithAccount(stack, connector);
    calls = merchantCalls(stack, M.api_key);
  });

  it('the first payment with a mandate: the customer completes the checkout; mandate_id and connector_mandate_id; GET /mandates shows it active', async () => {
    const type = MANIFESTS[connector]!.mandates!.payment_method_types.includes('subscription_invoice') ? 'subscription_invoice' : 'invoice';
    const p = await calls.pay(firstPayment(connector, customerId, type));
    expect(p.status, JSON.stringify(p)).toBe('requires_customer_action');
    expect(p.mandate_id).toMatch(/^man_/);
    await customerStep(connector, p, M.api_key);
    first = await calls.until(p, 'succeeded', 20_000);
    expect(first).toMatchObject({ mandate_id: p.mandate_id, connector, customer_id: customerId, payment_method_type: type });
    expect(first.connector_mandate_id).toMatch(reference);
    let m: any;
    await until('the mandate', async () => (m = (await get(`/mandates/${first.mandate_id}`)).body).status === 'active', 15_000);
    expect(m).toMatchObject({
      mandate_id: first.mandate_id,
      customer_id: customerId,
      status: 'active',
      connector,
      connector_mandate_id: first.connector_mandate_id,
      payment_method_type: type,
      original_payment_id: first.payment_id,
    });
  });

  it('two recurring charges: no customer step, no return_url; each authorized, captured and refunded', async () => {
    for (let month = 1; month <= 2; month++) {
      const r = await recurring(first.mandate_id, { capture_method: 'manual', amount: 29_900 + month });
      expect(r.status, JSON.stringify(r.body)).toBe(200);
      expect(r.body.next_action ?? null).toBeNull();
      const authorized = await calls.until(r.body, 'requires_capture', 15_000);
      expect(authorized).toMatchObject({
        mandate_id: first.mandate_id,
        connector_mandate_id: first.connector_mandate_id,
        customer_id: customerId,
        connector,
        merchant_connector_id: M.mca,
        next_action: null,
      });
      expect(authorized.connector_transaction_id).not.toBe(first.connector_transaction_id);
      expect(authorized.attempts.at(-1).mandate_id).toBe(first.mandate_id);
      const c = await calls.capture(r.body.payment_id, {});
      expect(c.status, JSON.stringify(c.body)).toBe(200);
      expect(await calls.until(c.body, 'succeeded', 15_000)).toMatchObject({ amount_received: 29_900 + month });
      const refund = await calls.refund(r.body.payment_id, 10_000);
      expect(refund.status, JSON.stringify(refund.body)).toBe(200);
      expect(await calls.refundSettled(refund.body.refund_id)).toMatchObject({ status: 'succeeded', amount: 10_000 });
    }
    // At the provider: two charges on its own reference, without the customer (avarda: on the first purchase's token;
    // svea: orders on the RecurringToken), and no checkout opened for them.
    const path =
      connector === 'avarda'
        ? `/avarda/api/partner/payments/${first.connector_mandate_id.split(':')[0]}/authorizerecurringpayment`
        : `/svea/api/tokens/${first.connector_mandate_id}/orders`;
    const charges = (await stack.sandboxCalls({ provider: connector, path })).filter((c) => c.method === 'POST' && c.status < 300);
    expect(charges).toHaveLength(2);
  });

  it('the mandate ended at the provider: the next charge fails with UE_7000, our mandate becomes revoked, the next is refused', async () => {
    await endAtProvider(connector, first.connector_mandate_id);
    const r = await recurring(first.mandate_id);
    expect(r.status, JSON.stringify(r.body)).toBe(200);
    const failed = await calls.until(r.body, 'failed', 15_000);
    // In the provider's words: avarda's 110 (token not valid), svea's 118 (token status not Active).
    expect(failed).toMatchObject({ error_code: connector === 'avarda' ? '110' : '118', unified_code: 'UE_7000', mandate_id: first.mandate_id });
    await until('revoked', async () => (await get(`/mandates/${first.mandate_id}`)).body.status === 'revoked', 15_000);
    const next = await recurring(first.mandate_id);
    expect(next.status).toBe(400);
    expect(next.body.error).toMatchObject({ param: 'mandate_id' });
  });
});
