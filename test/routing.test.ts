// Routing across connectors through the real processes: priority falls back past a connector that cannot take the
// payment's country, currency or customer type; a routing never sends a payment to an account it does not name; a
// forced connector keeps the routing's account choice; a routing that cannot serve is refused when saved, or fails
// the payment with the reason; `connector` naming an unusable connector is refused on create. And inverted ranges in
// list filters are 400. (The volume split over 1,000 payments: test/merchant-setup.test.ts.)
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bnplPayment } from './support/connectors.ts';
import { Stack } from './support/stack.ts';

let stack: Stack;
beforeAll(async () => {
  stack = await Stack.start();
}, 60_000);
afterAll(async () => stack?.stop());

const admin = (method: string, path: string, body?: unknown) => stack.api(method, path, body, stack.adminKey);
async function account(merchantId: string, connector: 'service_test' | 'billie', extra: Record<string, unknown> = {}) {
  const details =
    connector === 'billie'
      ? { auth_type: 'BodyKey', api_key: 'billie_sandbox_client_id', key1: 'billie_sandbox_client_secret' }
      : { auth_type: 'HeaderKey', api_key: 'sk_sandbox_service_test' };
  const r = await admin('POST', `/account/${merchantId}/connectors`, { connector_name: connector, connector_account_details: details, ...extra });
  expect(r.status, JSON.stringify(r.body)).toBe(200);
  return r.body.merchant_connector_id as string;
}
async function merchant() {
  const m = await stack.merchant();
  const profile = (await admin('GET', `/accounts/${m.merchant_id}`)).body.default_profile as string;
  return { ...m, profile };
}
const setRouting = (m: { merchant_id: string; profile: string }, routing_algorithm: unknown) =>
  admin('POST', `/account/${m.merchant_id}/business_profile/${m.profile}`, { routing_algorithm });
/** The BNPL profile without a forced connector, so routing decides. */
const payment = (email: string, buyer: 'consumer' | 'business', extra: Record<string, unknown> = {}) => {
  const { connector: _, ...body } = bnplPayment('service_test', email, { buyer });
  return { ...body, ...extra };
};
const countPayments = async (merchantId: string) => (await stack.db()).collection('payments').countDocuments({ merchant_id: merchantId });

describe('routing across connectors', () => {
  it('priority [billie, service_test]: a business buyer goes to billie, a consumer falls back to service_test', async () => {
    const m = await merchant();
    const billie = await account(m.merchant_id, 'billie');
    const st = await account(m.merchant_id, 'service_test');
    expect(
      (
        await setRouting(m, {
          type: 'priority',
          data: [
            { connector: 'billie', merchant_connector_id: billie },
            { connector: 'service_test', merchant_connector_id: st },
          ],
        })
      ).status,
    ).toBe(200);
    const b2b = await stack.api('POST', '/payments', payment('jane@acme.example', 'business'), m.api_key);
    expect(b2b.body, JSON.stringify(b2b.body)).toMatchObject({ connector: 'billie', merchant_connector_id: billie, status: 'requires_capture' });
    expect(b2b.body.attempts[0].routing_reason).toBe('profile_default:priority');
    const b2c = await stack.api('POST', '/payments', payment('erika@example.com', 'consumer'), m.api_key);
    expect(b2c.body, JSON.stringify(b2c.body)).toMatchObject({ connector: 'service_test', merchant_connector_id: st, status: 'requires_capture' });
    // A currency billie does not take falls back too.
    const sek = await stack.api('POST', '/payments', payment('jane@acme.example', 'business', { currency: 'SEK' }), m.api_key);
    expect(sek.body).toMatchObject({ connector: 'service_test', merchant_connector_id: st });
  });

  it('a profile routed to a billie account never pays through the service_test account it does not name: 400 saying why, nothing written', async () => {
    const m = await merchant();
    const billie = await account(m.merchant_id, 'billie');
    await account(m.merchant_id, 'service_test');
    expect((await setRouting(m, { type: 'single', data: { connector: 'billie', merchant_connector_id: billie } })).status).toBe(200);
    const r = await stack.api('POST', '/payments', payment('erika@example.com', 'consumer'), m.api_key);
    expect(r.status).toBe(400);
    expect(r.body.error).toMatchObject({ param: 'routing', message: expect.stringContaining(`${billie} (billie): billie does not take B2C customers`) });
    expect(await countPayments(m.merchant_id)).toBe(0);
  });

  it("a forced connector keeps the routing's account choice for that connector", async () => {
    const m = await merchant();
    await account(m.merchant_id, 'service_test', { connector_label: 'first' });
    const second = await account(m.merchant_id, 'service_test', { connector_label: 'second' });
    expect((await setRouting(m, { type: 'single', data: { connector: 'service_test', merchant_connector_id: second } })).status).toBe(200);
    const r = await stack.api('POST', '/payments', payment('erika@example.com', 'consumer', { connector: ['service_test'] }), m.api_key);
    expect(r.body, JSON.stringify(r.body)).toMatchObject({ merchant_connector_id: second, connector_label: 'second' });
    expect(r.body.attempts[0].routing_reason).toBe('connector_forced:single');
  });

  it('a routing whose accounts cannot serve is refused when saved, naming routing_algorithm', async () => {
    const m = await merchant();
    const st = await account(m.merchant_id, 'service_test');
    const off = await account(m.merchant_id, 'service_test', { disabled: true });
    const cases: [unknown, string][] = [
      [{ type: 'single', data: { connector: 'service_test', merchant_connector_id: off } }, `connector account ${off} is disabled`],
      [{ type: 'single', data: { connector: 'billie', merchant_connector_id: st } }, `connector account ${st} is a service_test account, not billie`],
      [
        { type: 'priority', data: [{ connector: 'service_test', merchant_connector_id: st }, { connector: 'billie' }] },
        'has no enabled billie connector account',
      ],
    ];
    for (const [routing, message] of cases) {
      const r = await setRouting(m, routing);
      expect(r.status, JSON.stringify(r.body)).toBe(400);
      expect(r.body.error).toMatchObject({ param: 'routing_algorithm', message: expect.stringContaining(message) });
    }
    // Another profile's account serves no payment of this profile.
    const other = (await admin('POST', `/account/${m.merchant_id}/business_profile`, { profile_name: 'other' })).body.profile_id as string;
    const theirs = await account(m.merchant_id, 'service_test', { profile_id: other });
    const r = await setRouting(m, { type: 'single', data: { connector: 'service_test', merchant_connector_id: theirs } });
    expect(r.body.error).toMatchObject({ param: 'routing_algorithm', message: expect.stringContaining(`belongs to business profile ${other}`) });
    expect((await admin('GET', `/account/${m.merchant_id}/business_profile/${m.profile}`)).body.routing_algorithm).toBeNull();
  });

  it('`connector` naming a connector the merchant cannot use is refused on create, without a confirm; nothing written', async () => {
    const m = await merchant();
    await account(m.merchant_id, 'service_test');
    const body = { ...payment('erika@example.com', 'consumer'), confirm: false, connector: ['billie'] };
    const r = await stack.api('POST', '/payments', body, m.api_key);
    expect(r.status).toBe(400);
    expect(r.body.error).toMatchObject({ param: 'connector', message: expect.stringContaining('billie: no connector account') });
    // A connector that cannot take the currency, for a merchant without accounts (the sandbox's default account).
    const bare = await merchant();
    const usd = await stack.api(
      'POST',
      '/payments',
      { ...payment('jane@acme.example', 'business'), currency: 'USD', confirm: false, connector: ['billie'] },
      bare.api_key,
    );
    expect(usd.body.error).toMatchObject({ code: 'IR_05', param: 'currency', message: expect.stringContaining('billie does not take USD') });
    expect((await countPayments(m.merchant_id)) + (await countPayments(bare.merchant_id))).toBe(0);
    const ok = await stack.api('POST', '/payments', { ...body, connector: ['service_test'] }, m.api_key);
    expect(ok.body.status).toBe('requires_confirmation');
  });
});

describe('inverted ranges in list filters are 400 naming the end of the range', () => {
  it('payments, refunds and disputes', async () => {
    const m = await merchant();
    const cases: [string, string, unknown, string][] = [
      ['POST', '/payments/list', { amount_filter: { start_amount: 500, end_amount: 100 } }, 'amount_filter.end_amount'],
      ['POST', '/payments/list', { start_time: '2026-11-23T10:00:00Z', end_time: '2026-11-22T10:00:00Z' }, 'end_time'],
      ['POST', '/refunds/list', { amount_filter: { start_amount: 2, end_amount: 1 } }, 'amount_filter.end_amount'],
      ['POST', '/refunds/list', { start_time: '2026-11-23T10:00:00Z', end_time: '2026-01-01T00:00:00Z' }, 'end_time'],
      ['GET', '/payments/list?created.gte=2026-11-23T10:00:00Z&created.lte=2026-11-01T00:00:00Z', undefined, 'created.lte'],
      ['GET', '/disputes/list?received_time.gt=2026-11-23T10:00:00Z&received_time.lt=2026-11-01T00:00:00Z', undefined, 'received_time.lt'],
    ];
    for (const [method, path, body, param] of cases) {
      const r = await stack.api(method, path, body, m.api_key);
      expect(r.status, `${path} ${JSON.stringify(r.body)}`).toBe(400);
      expect(r.body.error.param).toBe(param);
    }
    // Equal ends are a range of one value, not inverted.
    expect((await stack.api('POST', '/payments/list', { amount_filter: { start_amount: 100, end_amount: 100 } }, m.api_key)).status).toBe(200);
  });
});
