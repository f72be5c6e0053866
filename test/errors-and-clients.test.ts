// Issue 23: errors that teach (a 401 names the header and the key, a lower-case currency is told it is upper case, an
// unknown payment id is 404 naming payment_id on every route that takes one, one meaning per error code), and the
// calls a client written for the leading open-source switch makes work unchanged.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Stack } from './support/stack.ts';

let stack: Stack;
let admin: string;
beforeAll(async () => {
  stack = await Stack.start();
  admin = stack.adminKey;
});
afterAll(async () => stack?.stop());

const SANDBOX_KEY = 'sk_sandbox_service_test';
const adminApi = (method: string, path: string, body?: unknown) => stack.api(method, path, body, admin);
async function merchantWithKey() {
  const m = (await adminApi('POST', '/accounts', { merchant_name: 'Shop' })).body;
  const k = (await adminApi('POST', `/api_keys/${m.merchant_id}`, { name: 'server', expiration: 'never' })).body;
  return { m, key: k.api_key as string, keyId: k.key_id as string };
}
const ACCOUNT = { connector_name: 'service_test', connector_account_details: { auth_type: 'HeaderKey', api_key: SANDBOX_KEY } };
const PAY = { amount: 1_000, currency: 'EUR', confirm: true, payment_method: 'pay_later', payment_method_type: 'invoice' };

describe('errors that teach', () => {
  it('a 401 names the api-key header and the kind of key the route wants', async () => {
    const { m } = await merchantWithKey();
    const cases: [string, string, RegExp][] = [
      ['POST', '/accounts', /admin key/],
      ['GET', '/customers/list', /merchant's secret key/],
      ['GET', '/payments/list', /secret key .*or its publishable key/],
      ['GET', `/account/${m.merchant_id}/connectors`, /admin key or the merchant's own secret key/],
      ['GET', `/events/${m.merchant_id}`, /admin key or the merchant's own secret key/],
    ];
    for (const [method, path, wants] of cases) {
      for (const key of [undefined, 'snd_wrong']) {
        const r = await stack.api(method, path, method === 'POST' ? {} : undefined, key);
        expect(r.status, `${method} ${path}`).toBe(401);
        expect(r.body.error.code).toBe('IR_01');
        expect(r.body.error.message, `${method} ${path}`).toMatch(/api-key header/);
        expect(r.body.error.message, `${method} ${path}`).toMatch(wants);
      }
    }
  });

  it('a lower-case currency or country is told the codes are upper case, not given the list', async () => {
    const { key } = await merchantWithKey();
    const r = await stack.api('POST', '/payments', { amount: 100, currency: 'eur' }, key);
    expect(r.status).toBe(400);
    expect(r.body.error).toMatchObject({ code: 'IR_05', param: 'currency' });
    expect(r.body.error.message).toContain('upper case: EUR');
    expect(r.body.error.message.length).toBeLessThan(120);
    const unknown = await stack.api('POST', '/payments', { amount: 100, currency: 'XXY' }, key);
    expect(unknown.body.error.message).toMatch(/ISO 4217 .*upper case \(e\.g\. EUR/);
    expect(unknown.body.error.message.length).toBeLessThan(160);
    const country = await stack.api('POST', '/payments', { amount: 100, currency: 'EUR', billing: { address: { country: 'de' } } }, key);
    expect(country.body.error).toMatchObject({ code: 'IR_05', param: 'billing.address.country' });
    expect(country.body.error.message).toContain('upper case: DE');
  });

  it('an unknown payment id, of any shape, is 404 HE_02 naming payment_id on every route that takes one', async () => {
    const { key } = await merchantWithKey();
    for (const id of ['pay_doesnotexist0000000000000000', 'pay_short', 'x'.repeat(200)]) {
      for (const [method, path, body] of [
        ['POST', '/refunds', { payment_id: id }],
        ['GET', `/payments/${id}`, undefined],
        ['POST', `/payments/${id}`, { description: 'x' }],
        ['POST', `/payments/${id}/confirm`, { payment_method: 'pay_later' }],
        ['POST', `/payments/${id}/capture`, {}],
        ['POST', `/payments/${id}/cancel`, {}],
      ] as const) {
        const r = await stack.api(method, path, body, key);
        expect(r.status, `${method} ${path} ${JSON.stringify(r.body)}`).toBe(404);
        expect(r.body.error, `${method} ${path}`).toMatchObject({ code: 'HE_02', param: 'payment_id' });
      }
    }
    // A list filter with such an id finds nothing (no 400 about its length).
    const list = await stack.api('POST', '/refunds/list', { payment_id: 'pay_short' }, key);
    expect(list.status).toBe(200);
    expect(list.body.count).toBe(0);
  });

  it('each code has one meaning: an unreadable body is RQ_01, an amount above what is allowed IR_06, a body too large RQ_02', async () => {
    const { m, key } = await merchantWithKey();
    await adminApi('POST', `/account/${m.merchant_id}/connectors`, ACCOUNT);
    const bad = await stack.api('POST', '/payments', '{"amount": ', key);
    expect(bad.status).toBe(400);
    expect(bad.body.error).toMatchObject({ code: 'RQ_01', param: 'body' });
    const big = await stack.api('POST', '/payments', { amount: 1, currency: 'EUR', description: 'x'.repeat(300_000) }, key);
    expect(big.status).toBe(413);
    expect(big.body.error.code).toBe('RQ_02');
    const p = (await stack.api('POST', '/payments', { ...PAY, capture_method: 'manual' }, key)).body;
    expect(p.status).toBe('requires_capture');
    const over = await stack.api('POST', `/payments/${p.payment_id}/capture`, { amount_to_capture: 1_001 }, key);
    expect(over.body.error).toMatchObject({ code: 'IR_06', param: 'amount_to_capture' });
  });
});

describe("clients written for the leading switch's API", () => {
  it("a merchant's own secret key manages its own connector accounts (create, retrieve, update, list, delete); another's are 404", async () => {
    const a = await merchantWithKey();
    const b = await merchantWithKey();
    const base = `/account/${a.m.merchant_id}/connectors`;
    const created = await stack.api('POST', base, ACCOUNT, a.key);
    expect(created.status, JSON.stringify(created.body)).toBe(200);
    const id = created.body.merchant_connector_id as string;
    expect(created.body).toMatchObject({ merchant_id: a.m.merchant_id, connector_name: 'service_test' });
    expect(JSON.stringify(created.body)).not.toContain(SANDBOX_KEY);
    expect((await stack.api('GET', `${base}/${id}`, undefined, a.key)).body).toMatchObject({ merchant_connector_id: id });
    expect((await stack.api('POST', `${base}/${id}`, { connector_label: 'own_label' }, a.key)).body).toMatchObject({ connector_label: 'own_label' });
    expect((await stack.api('GET', base, undefined, a.key)).body.map((x: { merchant_connector_id: string }) => x.merchant_connector_id)).toEqual([id]);
    // A payment runs through it.
    expect((await stack.api('POST', '/payments', PAY, a.key)).body.status).toBe('succeeded');
    // B's key: A's connector accounts do not exist for it; the publishable key is refused; the admin key still works.
    for (const [method, path] of [
      ['GET', base],
      ['GET', `${base}/${id}`],
      ['POST', `${base}/${id}`],
      ['DELETE', `${base}/${id}`],
    ]) {
      const r = await stack.api(method, path, method === 'POST' ? { connector_label: 'taken' } : undefined, b.key);
      expect(r.status, `${method} ${path}`).toBe(404);
      expect(r.body.error.code).toBe('HE_02');
      expect((await stack.api(method, path, method === 'POST' ? { connector_label: 'taken' } : undefined, a.m.publishable_key)).status).toBe(403);
    }
    expect((await adminApi('GET', `${base}/${id}`)).body).toMatchObject({ connector_label: 'own_label' });
    // The merchant's own key is for its connector accounts only: the rest of the admin API stays the admin's.
    expect((await stack.api('GET', `/accounts/${a.m.merchant_id}`, undefined, a.key)).status).toBe(401);
    expect((await stack.api('GET', `/account/${a.m.merchant_id}/business_profile`, undefined, a.key)).status).toBe(401);
    expect((await stack.api('DELETE', `${base}/${id}`, undefined, a.key)).body).toEqual({
      merchant_id: a.m.merchant_id,
      merchant_connector_id: id,
      deleted: true,
    });
    expect((await stack.api('GET', `${base}/${id}`, undefined, a.key)).status).toBe(404);
  });

  it('a capture takes statement_descriptor_name and statement_descriptor_suffix, kept with the capture; the 22-character rule names the field', async () => {
    const { m, key } = await merchantWithKey();
    await adminApi('POST', `/account/${m.merchant_id}/connectors`, ACCOUNT);
    const p = (await stack.api('POST', '/payments', { ...PAY, capture_method: 'manual' }, key)).body;
    const long = await stack.api(
      'POST',
      `/payments/${p.payment_id}/capture`,
      { statement_descriptor_name: 'Shop', statement_descriptor_suffix: 'x'.repeat(19) },
      key,
    );
    expect(long.body.error).toMatchObject({ code: 'IR_05', param: 'statement_descriptor_suffix' });
    const noLetter = await stack.api('POST', `/payments/${p.payment_id}/capture`, { statement_descriptor_name: '12345' }, key);
    expect(noLetter.body.error).toMatchObject({ code: 'IR_05', param: 'statement_descriptor_name' });
    const cap = await stack.api(
      'POST',
      `/payments/${p.payment_id}/capture`,
      { statement_descriptor_name: 'Shop', statement_descriptor_suffix: 'ORDER 42' },
      key,
    );
    expect(cap.status, JSON.stringify(cap.body)).toBe(200);
    expect(cap.body.status).toBe('succeeded');
    const stored = await (await stack.db()).collection('payments').findOne({ payment_id: p.payment_id });
    const op = ((stored?.operations ?? []) as { kind: string; capture_details?: unknown }[]).find((o) => o.kind === 'capture');
    expect(op?.capture_details).toMatchObject({ statement_descriptor: { name: 'Shop', suffix: 'ORDER 42', prefix: null } });
  });

  it('customer_acceptance on a create with confirm: true is kept as the mandate data; malformed, it is 400 naming its field', async () => {
    const { m, key } = await merchantWithKey();
    await adminApi('POST', `/account/${m.merchant_id}/connectors`, ACCOUNT);
    const acceptance = { acceptance_type: 'online', accepted_at: '2026-01-01T00:00:00Z', online: { ip_address: '203.0.113.7', user_agent: 'test' } };
    const r = await stack.api('POST', '/payments', { ...PAY, customer_id: 'cus_acceptance', customer_acceptance: acceptance }, key);
    expect(r.status, JSON.stringify(r.body)).toBe(200);
    expect(r.body.status).toBe('succeeded');
    expect(r.body.mandate_data).toMatchObject({ customer_acceptance: acceptance });
    const bad = await stack.api('POST', '/payments', { ...PAY, customer_acceptance: { acceptance_type: 'nodding' } }, key);
    expect(bad.body.error).toMatchObject({ code: 'IR_05', param: 'customer_acceptance.acceptance_type' });
    const twice = await stack.api('POST', '/payments', { ...PAY, customer_acceptance: acceptance, mandate_data: { customer_acceptance: acceptance } }, key);
    expect(twice.body.error).toMatchObject({ code: 'IR_05', param: 'customer_acceptance' });
  });

  it('confirm: false on an update changes nothing else; confirm: true there is 400 naming confirm', async () => {
    const { key } = await merchantWithKey();
    const p = (await stack.api('POST', '/payments', { amount: 1_000, currency: 'EUR' }, key)).body;
    const u = await stack.api('POST', `/payments/${p.payment_id}`, { confirm: false, description: 'updated' }, key);
    expect(u.status, JSON.stringify(u.body)).toBe(200);
    expect(u.body).toMatchObject({ status: p.status, description: 'updated' });
    const t = await stack.api('POST', `/payments/${p.payment_id}`, { confirm: true }, key);
    expect(t.body.error).toMatchObject({ code: 'IR_05', param: 'confirm' });
  });

  it('an API key update with "name": null leaves the name as it is', async () => {
    const { m, keyId } = await merchantWithKey();
    const r = await adminApi('POST', `/api_keys/${m.merchant_id}/${keyId}`, { name: null, description: 'rotated monthly' });
    expect(r.status, JSON.stringify(r.body)).toBe(200);
    expect(r.body).toMatchObject({ name: 'server', description: 'rotated monthly' });
    expect((await adminApi('GET', `/api_keys/${m.merchant_id}/${keyId}`)).body.name).toBe('server');
  });

  it("POST /ephemeral_keys answers the customer's key in the leading switch's shape; an unknown or another merchant's customer is 404", async () => {
    const a = await merchantWithKey();
    const b = await merchantWithKey();
    expect((await stack.api('POST', '/customers', { customer_id: 'cus_eph', name: 'Eve' }, a.key)).status).toBe(200);
    const before = Math.floor(Date.now() / 1000);
    const r = await stack.api('POST', '/ephemeral_keys', { customer_id: 'cus_eph' }, a.key);
    expect(r.status, JSON.stringify(r.body)).toBe(200);
    expect(r.body).toEqual({
      id: expect.stringMatching(/^eki_/),
      customer_id: 'cus_eph',
      created_at: expect.any(Number),
      expires: r.body.created_at + 3600,
      secret: expect.stringMatching(/^epk_/),
    });
    expect(r.body.created_at).toBeGreaterThanOrEqual(before);
    // The same shape a payment's create answers for its customer.
    const p = (await stack.api('POST', '/payments', { amount: 100, currency: 'EUR', customer_id: 'cus_eph' }, a.key)).body;
    expect(Object.keys(p.ephemeral_key).sort()).toEqual(['created_at', 'customer_id', 'expires', 'secret']);
    const stored = JSON.stringify(await (await stack.db()).collection('ephemeral_keys').find({}).toArray());
    expect(stored).not.toContain(r.body.secret);
    for (const [key, customer_id] of [
      [a.key, 'cus_unknown'],
      [b.key, 'cus_eph'],
    ]) {
      const nf = await stack.api('POST', '/ephemeral_keys', { customer_id }, key);
      expect(nf.status).toBe(404);
      expect(nf.body.error).toMatchObject({ code: 'HE_02', param: 'customer_id' });
    }
    expect((await stack.api('POST', '/ephemeral_keys', {}, a.key)).body.error).toMatchObject({ code: 'IR_04', param: 'customer_id' });
    expect((await stack.api('POST', '/ephemeral_keys', { customer_id: 'cus_eph' }, a.m.publishable_key)).status).toBe(403);
    expect((await stack.api('POST', '/ephemeral_keys', { customer_id: 'cus_eph' })).status).toBe(401);
  });
});
