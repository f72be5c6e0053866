// Mandates and recurring payments (issue 22), through the whole stack (gateway -> payment-state -> worker -> the
// service_test imitation): a subscription's first payment with the customer's acceptance sets up a mandate; later
// payments with mandate_id and off_session charge on it with no payment method and no customer step; the
// single_use limits, a revoked or expired mandate, another merchant's id, a mandate revoked at the provider, a
// zero-amount setup_mandate, a payment_token standing in for payment_method_data, and a worker killed mid-charge.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MandateStore } from '../adapters/mandate-store.ts';
import { manifest as billie } from '../workers/connectors/billie/manifest.ts';
import { Stack, operationIds, sleep, until } from './support/stack.ts';

let stack: Stack;
let key: string;
let merchantId: string;
let mandates: MandateStore;
beforeAll(async () => {
  ({ stack, api_key: key, merchant_id: merchantId } = await Stack.withMerchant({ CONFIRM_WAIT_MS: '1500', SANDBOX_SLOW_MS: '3000' }));
  mandates = new MandateStore(await stack.db());
}, 120_000);
afterAll(async () => stack?.stop());

const DAY = 86_400_000;
const iso = (offsetMs: number) => new Date(Date.now() + offsetMs).toISOString();
const pay = (body: Record<string, unknown>, apiKey = key) => stack.api('POST', '/payments', body, apiKey);
const get = (path: string) => stack.api('GET', path, undefined, key);
/** The merchant's events about a mandate (GET /events/{merchant_id}?object_id=), oldest first. */
const mandateEvents = async (mandateId: string): Promise<any[]> => (await get(`/events/${merchantId}?object_id=${mandateId}`)).body.data ?? [];

/** A subscription's first payment: subscription_invoice, off_session, new_mandate, with the customer's acceptance. */
function firstPayment(customerId: string, over: Record<string, unknown> = {}, singleUse: Record<string, unknown> = {}) {
  return {
    amount: 1_000,
    currency: 'EUR',
    customer_id: customerId,
    confirm: true,
    payment_method: 'pay_later',
    payment_method_type: 'subscription_invoice',
    setup_future_usage: 'off_session',
    payment_type: 'new_mandate',
    mandate_data: {
      customer_acceptance: { acceptance_type: 'online', accepted_at: iso(0), online: { ip_address: '203.0.113.9', user_agent: 'Mozilla/5.0' } },
      mandate_type: { single_use: { amount: 10_000, currency: 'EUR', start_date: iso(-DAY), end_date: iso(365 * DAY), ...singleUse } },
    },
    ...over,
  };
}

async function subscribe(customerId: string, over: Record<string, unknown> = {}, singleUse: Record<string, unknown> = {}) {
  const r = await pay(firstPayment(customerId, over, singleUse));
  expect(r.status, JSON.stringify(r.body)).toBe(200);
  return r.body;
}

const recurring = (mandateId: string, over: Record<string, unknown> = {}, apiKey = key) =>
  pay({ amount: 2_500, currency: 'EUR', mandate_id: mandateId, off_session: true, confirm: true, ...over }, apiKey);

describe('a subscription: the first payment sets up a mandate', () => {
  let first: any;
  it('answers mandate_id and connector_mandate_id; the mandate and the saved payment method are written', async () => {
    const paymentId = `pay_${String(Date.now()).padStart(26, '0')}`;
    const body = firstPayment('cus_sub_1', { payment_id: paymentId });
    first = (await pay(body)).body;
    expect(first).toMatchObject({ status: 'succeeded', customer_id: 'cus_sub_1', payment_method_type: 'subscription_invoice' });
    expect(first.mandate_id).toMatch(/^man_/);
    expect(first.connector_mandate_id).toMatch(/^stm_/);
    expect(first.payment_token).toMatch(/^token_/);
    expect(first.attempts[0].mandate_id).toBe(first.mandate_id);
    // The same request again (same payment_id and body) names the same mandate.
    const again = await pay(body);
    expect(again.body.mandate_id).toBe(first.mandate_id);

    // As a merchant reads them: GET /mandates/{id}, the customer's mandates and saved payment methods.
    const m = (await get(`/mandates/${first.mandate_id}`)).body;
    expect(m).toMatchObject({
      mandate_id: first.mandate_id,
      customer_id: 'cus_sub_1',
      status: 'active',
      connector: 'service_test',
      connector_mandate_id: first.connector_mandate_id,
      payment_method: 'pay_later',
      payment_method_type: 'subscription_invoice',
      payment_token: first.payment_token,
      original_payment_id: paymentId,
      revoked_at: null,
    });
    expect(m.customer_acceptance).toMatchObject({ acceptance_type: 'online', online: { ip_address: '203.0.113.9' } });
    expect(m.mandate_type?.single_use).toMatchObject({ amount: 10_000, currency: 'EUR' });
    expect((await get('/customers/cus_sub_1/mandates')).body.map((x: any) => x.mandate_id)).toEqual([first.mandate_id]);
    const pms = (await get('/customers/cus_sub_1/payment_methods')).body.customer_payment_methods;
    expect(pms).toHaveLength(1);
    expect(pms[0]).toMatchObject({
      payment_token: first.payment_token,
      customer_id: 'cus_sub_1',
      setup_future_usage: 'off_session',
      mandate_id: first.mandate_id,
      payment_method_type: 'subscription_invoice',
    });
    // mandate_active: once, about the mandate as GET shows it.
    await until('mandate_active', async () => (await mandateEvents(first.mandate_id)).length === 1, 15_000);
    const [active] = await mandateEvents(first.mandate_id);
    expect(active).toMatchObject({ event_type: 'mandate_active', object_id: first.mandate_id });
  });

  it('three recurring charges with mandate_id: no payment method, no customer step, each captured and refundable', async () => {
    for (let month = 1; month <= 3; month++) {
      const r = await recurring(first.mandate_id, { capture_method: 'manual', amount: 2_000 + month });
      expect(r.status, JSON.stringify(r.body)).toBe(200);
      expect(r.body).toMatchObject({
        status: 'requires_capture',
        mandate_id: first.mandate_id,
        connector_mandate_id: first.connector_mandate_id,
        customer_id: 'cus_sub_1',
        payment_method: 'pay_later',
        payment_method_type: 'subscription_invoice',
        connector: 'service_test',
        next_action: null,
      });
      expect(r.body.attempts[0].mandate_id).toBe(first.mandate_id);
      // The provider was asked to charge off-session on its own mandate reference.
      const [op] = (await operationIds(stack, merchantId, r.body.payment_id)).filter((o) => o.kind === 'authorize');
      const [atProvider] = (await stack.sandboxPayments(op!.operation_id)) as any[];
      expect(atProvider.mandate).toEqual({ id: first.connector_mandate_id, status: 'active' });
      const captured = await stack.api('POST', `/payments/${r.body.payment_id}/capture`, {}, key);
      expect(captured.body.status, JSON.stringify(captured.body)).toBe('succeeded');
      const refund = await stack.api('POST', '/refunds', { payment_id: r.body.payment_id, amount: 500 }, key);
      expect(refund.status, JSON.stringify(refund.body)).toBe(200);
      expect(refund.body.status).toBe('succeeded');
    }
  });

  it('the single_use limits: above its amount, another currency are refused naming the field; nothing is charged', async () => {
    const before = (await stack.sandboxPayments()).length;
    const above = await recurring(first.mandate_id, { amount: 10_001 });
    expect(above.status).toBe(400);
    expect(above.body.error).toMatchObject({ param: 'amount' });
    expect(above.body.error.message).toContain('10000');
    const usd = await recurring(first.mandate_id, { currency: 'USD' });
    expect(usd.status).toBe(400);
    expect(usd.body.error).toMatchObject({ param: 'currency' });
    expect((await stack.sandboxPayments()).length).toBe(before);
  });

  it('without off_session: refused naming off_session, nothing stored', async () => {
    const paymentId = `pay_${String(Date.now() + 1).padStart(26, '0')}`;
    const r = await pay({ amount: 1_000, currency: 'EUR', mandate_id: first.mandate_id, confirm: true, payment_id: paymentId });
    expect(r.status).toBe(400);
    expect(r.body.error).toMatchObject({ code: 'IR_04', param: 'off_session' });
    expect((await stack.api('GET', `/payments/${paymentId}`, undefined, key)).status).toBe(404);
    // Created without confirm, then confirmed: the same refusal at the confirm.
    const created = await pay({ amount: 1_000, currency: 'EUR', mandate_id: first.mandate_id });
    expect(created.status, JSON.stringify(created.body)).toBe(200);
    const confirm = await stack.api('POST', `/payments/${created.body.payment_id}/confirm`, {}, key);
    expect(confirm.body.error).toMatchObject({ param: 'off_session' });
    const ok = await stack.api('POST', `/payments/${created.body.payment_id}/confirm`, { off_session: true }, key);
    expect(ok.body, JSON.stringify(ok.body)).toMatchObject({ status: 'succeeded', mandate_id: first.mandate_id });
  });

  it('payment_token stands in for payment_method_data; off-session it charges on its mandate', async () => {
    const onSession = await pay({ amount: 1_200, currency: 'EUR', payment_token: first.payment_token, confirm: true });
    expect(onSession.body, JSON.stringify(onSession.body)).toMatchObject({
      status: 'succeeded',
      payment_method: 'pay_later',
      payment_method_type: 'subscription_invoice',
      customer_id: 'cus_sub_1',
      mandate_id: null,
    });
    const offSession = await pay({ amount: 1_300, currency: 'EUR', payment_token: first.payment_token, off_session: true, confirm: true });
    expect(offSession.body, JSON.stringify(offSession.body)).toMatchObject({
      status: 'succeeded',
      mandate_id: first.mandate_id,
      connector_mandate_id: first.connector_mandate_id,
    });
    expect((await mandates.getPaymentMethod(merchantId, first.payment_token))?.last_used_at).toBeTruthy();
    const unknown = await pay({ amount: 1_300, currency: 'EUR', payment_token: 'token_nosuchtoken', confirm: true });
    expect(unknown.status).toBe(404);
    expect(unknown.body.error).toMatchObject({ param: 'payment_token' });
  });

  it("another merchant's mandate id is not found, as an unknown id is, naming mandate_id", async () => {
    const other = await stack.merchant();
    const theirs = await recurring(first.mandate_id, {}, other.api_key);
    const none = await recurring('man_doesnotexist', {}, other.api_key);
    expect(theirs.status).toBe(404);
    expect(theirs.body).toEqual(none.body);
    expect(theirs.body.error).toMatchObject({ param: 'mandate_id' });
    expect(JSON.stringify(theirs.body)).not.toContain('cus_sub_1');
  });

  it('a mandate revoked by the merchant is refused', async () => {
    const sub = await subscribe('cus_sub_revoke');
    const r = await stack.api('POST', `/mandates/revoke/${sub.mandate_id}`, undefined, key);
    expect(r.body).toEqual({ mandate_id: sub.mandate_id, status: 'revoked' });
    const refused = await recurring(sub.mandate_id);
    expect(refused.status).toBe(400);
    expect(refused.body.error).toMatchObject({ param: 'mandate_id' });
    expect(refused.body.error.message).toContain('revoked');
  });

  it('dates: a mandate not started yet, or expired, is refused naming mandate_id', async () => {
    const later = await subscribe('cus_sub_later', {}, { start_date: iso(DAY), end_date: iso(2 * DAY) });
    const early = await recurring(later.mandate_id);
    expect(early.status).toBe(400);
    expect(early.body.error).toMatchObject({ param: 'mandate_id' });
    expect(early.body.error.message).toContain('starts on');
    const ended = await subscribe('cus_sub_ended', {}, { start_date: iso(-2 * DAY), end_date: iso(-DAY) });
    expect((await mandates.getMandate(merchantId, ended.mandate_id))?.status).toBe('expired');
    const expired = await recurring(ended.mandate_id);
    expect(expired.status).toBe(400);
    expect(expired.body.error).toMatchObject({ param: 'mandate_id' });
    expect(expired.body.error.message).toContain('expired');
  });

  it('revoked at the provider: the recurring charge fails, our mandate becomes revoked, the next is refused', async () => {
    const sub = await subscribe('cus_sub_provider');
    // Magic amounts of the service_test imitation (services/provider-sandbox/README.md): 6660 declined, 6661 revoked.
    const declined = await recurring(sub.mandate_id, { amount: 6_660 });
    expect(declined.body).toMatchObject({ status: 'failed', error_code: 'recurring_declined', unified_code: 'UE_1000' });
    expect((await mandates.getMandate(merchantId, sub.mandate_id))?.status).toBe('active');
    const revoked = await recurring(sub.mandate_id, { amount: 6_661 });
    expect(revoked.body).toMatchObject({ status: 'failed', error_code: 'mandate_revoked', unified_code: 'UE_7000' });
    expect((await get(`/mandates/${sub.mandate_id}`)).body).toMatchObject({ status: 'revoked', revoked_at: expect.any(String) });
    // The revocation at the provider is announced like the merchant's: one mandate_revoked event.
    await until('mandate_revoked', async () => (await mandateEvents(sub.mandate_id)).some((e) => e.event_type === 'mandate_revoked'), 15_000);
    expect((await mandateEvents(sub.mandate_id)).map((e) => e.event_type).sort()).toEqual(['mandate_active', 'mandate_revoked']);
    const next = await recurring(sub.mandate_id);
    expect(next.status).toBe(400);
    expect(next.body.error).toMatchObject({ param: 'mandate_id' });
  });
});

describe('a merchant with connector accounts', () => {
  it('the recurring charge goes through the connector account that holds the mandate', async () => {
    const m = await stack.merchant();
    const account = async () => {
      const a = await stack.api(
        'POST',
        `/account/${m.merchant_id}/connectors`,
        { connector_name: 'service_test', connector_account_details: { auth_type: 'HeaderKey', api_key: 'sk_sandbox_service_test' } },
        stack.adminKey,
      );
      expect(a.status, JSON.stringify(a.body)).toBe(200);
      return a.body.merchant_connector_id as string;
    };
    const [mca1, mca2] = [await account(), await account()];
    const first = await pay(
      firstPayment('cus_mca', { routing: { type: 'single', data: { connector: 'service_test', merchant_connector_id: mca2 } } }),
      m.api_key,
    );
    expect(first.body, JSON.stringify(first.body)).toMatchObject({ status: 'succeeded', merchant_connector_id: mca2 });
    expect((await mandates.getMandate(m.merchant_id, first.body.mandate_id))?.merchant_connector_id).toBe(mca2);
    // Without routing this merchant's first account (mca1) would take it; the mandate's account does.
    const charged = await recurring(first.body.mandate_id, {}, m.api_key);
    expect(charged.body, JSON.stringify(charged.body)).toMatchObject({ status: 'succeeded', merchant_connector_id: mca2 });
    expect(mca1).not.toBe(mca2);
  });
});

describe('a connector that keeps no mandate', () => {
  // billie publishes no recurring charge (as of issue 22); should its manifest ever declare mandates, this is moot.
  it.skipIf(!!billie.mandates)('is refused up front naming why, nothing stored or sent', async () => {
    const before = (await stack.sandboxCalls()).length;
    const r = await pay(
      firstPayment('cus_b2b', {
        connector: ['billie'],
        payment_method_type: 'invoice',
        billing: { address: { country: 'DE' } },
        metadata: { buyer_type: 'business' },
      }),
    );
    expect(r.status, JSON.stringify(r.body)).toBe(400);
    expect(r.body.error).toMatchObject({ param: 'payment_type' });
    expect(r.body.error.message).toContain('cannot keep a mandate');
    expect((await stack.sandboxCalls()).length).toBe(before);
  });
});

describe('setting up a mandate', () => {
  it('payment_type setup_mandate: a zero authorization that leaves a mandate, charged on later', async () => {
    const setup = await pay(firstPayment('cus_setup', { amount: 0, payment_type: 'setup_mandate', setup_future_usage: null }));
    expect(setup.status, JSON.stringify(setup.body)).toBe(200);
    expect(setup.body).toMatchObject({ status: 'succeeded', amount: 0 });
    expect(setup.body.connector_mandate_id).toMatch(/^stm_/);
    expect(await mandates.getMandate(merchantId, setup.body.mandate_id)).toMatchObject({ status: 'active', customer_id: 'cus_setup' });
    const charged = await recurring(setup.body.mandate_id, { amount: 4_000 });
    expect(charged.body).toMatchObject({ status: 'succeeded', mandate_id: setup.body.mandate_id, amount_received: 4_000 });
  });

  it('amount 0 without setup_mandate, a new mandate without customer_id or customer_acceptance: refused naming the field', async () => {
    const zero = await pay(firstPayment('cus_zero', { amount: 0 }));
    expect(zero.status).toBe(400);
    expect(zero.body.error).toMatchObject({ param: 'amount' });
    const noCustomer = await pay(firstPayment('cus_x', { customer_id: undefined }));
    expect(noCustomer.status).toBe(400);
    expect(noCustomer.body.error).toMatchObject({ code: 'IR_04', param: 'customer_id' });
    const body = firstPayment('cus_noaccept') as any;
    delete body.mandate_data.customer_acceptance;
    const noAcceptance = await pay(body);
    expect(noAcceptance.status).toBe(400);
    expect(noAcceptance.body.error).toMatchObject({ code: 'IR_04', param: 'mandate_data.customer_acceptance' });
    expect(await mandates.listMandates(merchantId, 'cus_noaccept')).toEqual([]);
  });
});

describe('kill -9 of the worker during a recurring charge', () => {
  it('charges once at the provider; the payment succeeds', async () => {
    // +slow: the imitation answers after SANDBOX_SLOW_MS (3 s); the request answers `processing` after 1.5 s.
    const first = await pay({ ...firstPayment('cus_sub_crash'), customer: { id: 'cus_sub_crash', email: 'sub+slow@example.com' } });
    expect(first.status, JSON.stringify(first.body)).toBe(200);
    const done = await stack.poll(first.body.payment_id, key, (p) => p.status === 'succeeded', 30_000);
    expect(done.mandate_id).toMatch(/^man_/);
    let mandate = await mandates.getMandate(merchantId, done.mandate_id);
    for (let i = 0; !mandate && i < 50; i++) {
      await sleep(100);
      mandate = await mandates.getMandate(merchantId, done.mandate_id);
    }
    expect(mandate?.status).toBe('active');

    const r = await recurring(done.mandate_id, { customer_id: 'cus_sub_crash', amount: 3_000 });
    expect(r.status, JSON.stringify(r.body)).toBe(200);
    expect(r.body.status).toBe('processing');
    await stack.kill('worker');
    const [op] = (await operationIds(stack, merchantId, r.body.payment_id)).filter((o) => o.kind === 'authorize');
    try {
      expect((await stack.sandboxCalls({ idempotency_key: op!.operation_id })).map((x) => x.answered)).toEqual([false]);
    } finally {
      await stack.startPart('worker');
    }
    const charged = await stack.poll(r.body.payment_id, key, (p) => p.status !== 'processing', 60_000);
    expect(charged).toMatchObject({ status: 'succeeded', amount_received: 3_000, mandate_id: done.mandate_id });
    await sleep(500);
    const atProvider = (await stack.sandboxPayments(op!.operation_id)) as any[];
    expect(atProvider).toHaveLength(1);
    expect(atProvider[0].mandate.id).toBe(done.connector_mandate_id);
  });
});
