// Merchant setup through the admin API (issue 4): accounts with a default profile, profiles, API keys with
// rotation, connector accounts with sealed credentials, and routing by the profile's default algorithm.
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
async function merchantWithKey(account: Record<string, unknown> = {}) {
  const m = (await adminApi('POST', '/accounts', { merchant_name: 'Shop', ...account })).body;
  const k = (await adminApi('POST', `/api_keys/${m.merchant_id}`, { name: 'server', expiration: 'never' })).body;
  return { m, key: k.api_key as string, keyId: k.key_id as string };
}
const connectorAccount = async (merchantId: string, body: Record<string, unknown> = {}) =>
  (
    await adminApi('POST', `/account/${merchantId}/connectors`, {
      connector_name: 'service_test',
      connector_account_details: { auth_type: 'HeaderKey', api_key: SANDBOX_KEY },
      ...body,
    })
  ).body;
const pay = (key: string, body: Record<string, unknown> = {}) =>
  stack.api('POST', '/payments', { amount: 1_000, currency: 'EUR', confirm: true, payment_method: 'pay_later', ...body }, key);

describe('merchant accounts', () => {
  it("create makes a default profile; retrieve, update and delete work; a deleted merchant's keys stop at once", async () => {
    const { m, key } = await merchantWithKey({ merchant_id: 'shop_crud' });
    expect(m).toMatchObject({
      merchant_id: 'shop_crud',
      default_profile: expect.stringMatching(/^pro_/),
      publishable_key: expect.stringMatching(/^pk_snd_[0-9a-f]{32}$/),
    });
    const profiles = (await adminApi('GET', '/account/shop_crud/business_profile')).body;
    expect(profiles).toHaveLength(1);
    expect(profiles[0]).toMatchObject({
      profile_id: m.default_profile,
      profile_name: 'default',
      payment_response_hash_key: expect.stringMatching(/^[0-9a-f]{64}$/),
    });
    expect((await adminApi('GET', '/accounts/shop_crud')).body).toMatchObject({ merchant_name: 'Shop' });
    const u = await adminApi('POST', '/accounts/shop_crud', { merchant_name: 'Shop GmbH', manual_review: { amount_at_least: 10 } });
    expect(u.body).toMatchObject({ merchant_name: 'Shop GmbH', manual_review: { amount_at_least: 10 } });
    expect((await adminApi('POST', '/accounts/shop_crud', { merchant_id: 'x' })).body.error).toMatchObject({ code: 'IR_07', param: 'merchant_id' });
    expect((await pay(key)).status).toBe(200);
    expect((await adminApi('DELETE', '/accounts/shop_crud')).body).toEqual({ merchant_id: 'shop_crud', deleted: true });
    expect((await adminApi('GET', '/accounts/shop_crud')).status).toBe(404);
    expect((await pay(key)).status).toBe(401);
    expect((await stack.api('GET', '/payments/list', undefined, m.publishable_key)).status).toBe(401);
  });

  // Connector accounts take the merchant's own secret key too (issue 23: test/errors-and-clients.test.ts).
  it("every merchant route but connector accounts needs the admin key; a merchant's own secret key is refused", async () => {
    const { m, key } = await merchantWithKey();
    for (const [method, path] of [
      ['GET', `/accounts/${m.merchant_id}`],
      ['GET', `/api_keys/${m.merchant_id}/list`],
      ['GET', `/account/${m.merchant_id}/business_profile`],
    ]) {
      expect((await stack.api(method, path, undefined, key)).status).toBe(401);
      expect((await stack.api(method, path)).status).toBe(401);
    }
  });
});

describe('business profiles', () => {
  it('with several profiles a payment must name one (IR_04 profile_id); business_label maps onto a profile by name', async () => {
    const { m, key } = await merchantWithKey();
    expect((await pay(key)).body.profile_id).toBe(m.default_profile);
    const eu = (
      await adminApi('POST', `/account/${m.merchant_id}/business_profile`, {
        profile_name: 'eu_shop',
        webhook_details: { webhook_url: 'https://shop.example/hooks' },
      })
    ).body;
    expect(eu).toMatchObject({ profile_name: 'eu_shop', webhook_details: { webhook_url: 'https://shop.example/hooks' } });
    const none = await pay(key);
    expect(none.status).toBe(400);
    expect(none.body.error).toMatchObject({ code: 'IR_04', param: 'profile_id' });
    expect((await pay(key, { profile_id: eu.profile_id })).body.profile_id).toBe(eu.profile_id);
    expect((await pay(key, { business_label: 'eu_shop' })).body.profile_id).toBe(eu.profile_id);
    expect((await pay(key, { profile_id: 'pro_unknown' })).body.error.param).toBe('profile_id');
    expect((await pay(key, { business_label: 'nope' })).body.error.param).toBe('business_label');
    expect((await adminApi('POST', `/account/${m.merchant_id}/business_profile`, { profile_name: 'eu_shop' })).status).toBe(409);
    const other = await merchantWithKey();
    expect((await pay(other.key, { profile_id: eu.profile_id })).body.error.param).toBe('profile_id');
    expect((await adminApi('GET', `/account/${other.m.merchant_id}/business_profile/${eu.profile_id}`)).status).toBe(404);
  });

  it('the webhook hash key is kept sealed: the stored profile does not hold it in clear', async () => {
    const { m } = await merchantWithKey();
    const p = (
      await adminApi('POST', `/account/${m.merchant_id}/business_profile`, { profile_name: 'sealed', payment_response_hash_key: 'my-webhook-signing-key-123' })
    ).body;
    expect(p.payment_response_hash_key).toBe('my-webhook-signing-key-123');
    const stored = await (await stack.db()).collection('business_profiles').findOne({ profile_id: p.profile_id });
    expect(JSON.stringify(stored)).not.toContain('my-webhook-signing-key-123');
    const u = await adminApi('POST', `/account/${m.merchant_id}/business_profile/${p.profile_id}`, { return_url: 'https://shop.example/done' });
    expect(u.body).toMatchObject({ return_url: 'https://shop.example/done', payment_response_hash_key: 'my-webhook-signing-key-123' });
  });
});

describe('API keys', () => {
  it('list and retrieve never show the secret; update changes name and expiry; rotation: the revoked key is refused at once, the new one works', async () => {
    const { m, key, keyId } = await merchantWithKey();
    const second = (await adminApi('POST', `/api_keys/${m.merchant_id}`, { name: 'rotated', expiration: 'never' })).body;
    const list = await adminApi('GET', `/api_keys/${m.merchant_id}/list`);
    expect(list.body.map((k: any) => k.key_id).sort()).toEqual([keyId, second.key_id].sort());
    expect(JSON.stringify(list.body)).not.toContain(key);
    expect(JSON.stringify(list.body)).not.toContain(second.api_key);
    expect(list.body[0]).not.toHaveProperty('api_key');
    expect(list.body[0]).not.toHaveProperty('key_hash');
    const one = await adminApi('GET', `/api_keys/${m.merchant_id}/${keyId}`);
    expect(one.body).toMatchObject({ key_id: keyId, name: 'server', prefix: key.slice(0, 12), revoked: false });
    const later = new Date(Date.now() + 86_400_000).toISOString();
    expect((await adminApi('POST', `/api_keys/${m.merchant_id}/${keyId}`, { name: 'old', expiration: later })).body).toMatchObject({
      name: 'old',
      expiration: later,
    });
    expect((await adminApi('POST', `/api_keys/${m.merchant_id}/${keyId}`, { expiration: '2001-01-01T00:00:00Z' })).body.error.param).toBe('expiration');

    expect((await pay(key)).status).toBe(200);
    expect((await adminApi('DELETE', `/api_keys/${m.merchant_id}/${keyId}`)).body).toEqual({ merchant_id: m.merchant_id, key_id: keyId, revoked: true });
    const refused = await pay(key);
    expect(refused.status).toBe(401);
    expect(refused.body.error.code).toBe('IR_01');
    expect((await pay(second.api_key)).status).toBe(200);
    const stored = JSON.stringify(await (await stack.db()).collection('api_keys').find({ merchant_id: m.merchant_id }).toArray());
    expect(stored).not.toContain(key);
    expect(stored).not.toContain(second.api_key);
  });

  it("another merchant's key id answers 404 and changes nothing", async () => {
    const a = await merchantWithKey();
    const b = await merchantWithKey();
    expect((await adminApi('GET', `/api_keys/${a.m.merchant_id}/${b.keyId}`)).status).toBe(404);
    expect((await adminApi('DELETE', `/api_keys/${a.m.merchant_id}/${b.keyId}`)).status).toBe(404);
    expect((await pay(b.key)).status).toBe(200);
  });
});

describe('merchant connector accounts', () => {
  it('credentials are sealed at rest and answered masked; list, retrieve, update, delete', async () => {
    const { m } = await merchantWithKey();
    const a = await connectorAccount(m.merchant_id, {
      connector_label: 'main',
      connector_account_details: { auth_type: 'BodyKey', api_key: 'sk_live_very_secret_value', key1: 'merchant-42' },
    });
    expect(a).toMatchObject({
      merchant_connector_id: expect.stringMatching(/^mca_/),
      connector_name: 'service_test',
      connector_label: 'main',
      profile_id: m.default_profile,
      disabled: false,
      test_mode: true,
      connector_account_details: { auth_type: 'BodyKey', api_key: 'sk_l********', key1: 'merc********' },
    });
    const db = await stack.db();
    expect(JSON.stringify(await db.collection('connector_accounts').find({}).toArray())).not.toMatch(/sk_live_very_secret_value|merchant-42/);
    expect((await adminApi('GET', `/account/${m.merchant_id}/connectors`)).body).toHaveLength(1);
    const u = await adminApi('POST', `/account/${m.merchant_id}/connectors/${a.merchant_connector_id}`, { disabled: true, connector_label: 'paused' });
    expect(u.body).toMatchObject({ disabled: true, connector_label: 'paused' });
    expect((await adminApi('GET', `/account/${m.merchant_id}/connectors/${a.merchant_connector_id}`)).body.disabled).toBe(true);
    expect(
      (
        await adminApi('POST', `/account/${m.merchant_id}/connectors`, {
          connector_name: 'paypal',
          connector_account_details: { auth_type: 'HeaderKey', api_key: 'k' },
        })
      ).body.error.param,
    ).toBe('connector_name');
    expect((await adminApi('POST', `/account/${m.merchant_id}/connectors`, { connector_name: 'service_test' })).body.error).toMatchObject({
      code: 'IR_04',
      param: 'connector_account_details',
    });
    const other = await merchantWithKey();
    expect((await adminApi('GET', `/account/${other.m.merchant_id}/connectors/${a.merchant_connector_id}`)).status).toBe(404);
    expect((await adminApi('DELETE', `/account/${other.m.merchant_id}/connectors/${a.merchant_connector_id}`)).status).toBe(404);
    expect((await adminApi('DELETE', `/account/${m.merchant_id}/connectors/${a.merchant_connector_id}`)).body).toMatchObject({ deleted: true });
    expect((await adminApi('GET', `/account/${m.merchant_id}/connectors`)).body).toHaveLength(0);
  });

  it("the provider is called with the account's own credentials: wrong ones are refused by the provider", async () => {
    const { m, key } = await merchantWithKey();
    const wrong = await connectorAccount(m.merchant_id, { connector_account_details: { auth_type: 'HeaderKey', api_key: 'sk_wrong' } });
    const r = await pay(key);
    expect(r.body).toMatchObject({ status: 'failed', merchant_connector_id: wrong.merchant_connector_id, error_code: 'unauthorized', unified_code: 'UE_4000' });
    await adminApi('POST', `/account/${m.merchant_id}/connectors/${wrong.merchant_connector_id}`, { disabled: true });
    const right = await connectorAccount(m.merchant_id);
    const ok = await pay(key);
    expect(ok.body).toMatchObject({ status: 'succeeded', merchant_connector_id: right.merchant_connector_id, connector: 'service_test' });
    expect(ok.body.attempts[0].routing_reason).toBe('first_enabled_account');
  });
});

describe("routing by the profile's default algorithm", () => {
  it("volume_split over 1,000 payments: each account's share within 6 percentage points of its weight", async () => {
    const { m, key } = await merchantWithKey();
    const a = await connectorAccount(m.merchant_id, { connector_label: 'a' });
    const b = await connectorAccount(m.merchant_id, { connector_label: 'b' });
    await adminApi('POST', `/account/${m.merchant_id}/business_profile/${m.default_profile}`, {
      routing_algorithm: {
        type: 'volume_split',
        data: [
          { connector: { connector: 'service_test', merchant_connector_id: a.merchant_connector_id }, split: 70 },
          { connector: { connector: 'service_test', merchant_connector_id: b.merchant_connector_id }, split: 30 },
        ],
      },
    });
    const n = 1_000;
    const results: any[] = [];
    for (let i = 0; i < n; i += 20) results.push(...(await Promise.all(Array.from({ length: 20 }, () => pay(key)))).map((r) => r.body));
    expect(results.every((p) => p.status === 'succeeded')).toBe(true);
    const toA = results.filter((p) => p.merchant_connector_id === a.merchant_connector_id).length;
    const toB = results.filter((p) => p.merchant_connector_id === b.merchant_connector_id).length;
    expect(toA + toB).toBe(n);
    // 70% of 1,000 = 700; the binomial standard deviation is about 14.5, so ±60 (4.1 of them) fails by chance about
    // once in 25,000 runs.
    expect(Math.abs(toA - 700)).toBeLessThanOrEqual(60);
    expect(results[0].attempts[0].routing_reason).toBe('profile_default:volume_split');
    expect(results.find((p) => p.merchant_connector_id === b.merchant_connector_id).connector_label).toBe('b');
  });

  it('priority takes the first account, and falls back to the next when the first is disabled', async () => {
    const { m, key } = await merchantWithKey();
    const a = await connectorAccount(m.merchant_id, { connector_label: 'first' });
    const b = await connectorAccount(m.merchant_id, { connector_label: 'second' });
    const choice = (x: any) => ({ connector: 'service_test', merchant_connector_id: x.merchant_connector_id });
    await adminApi('POST', `/account/${m.merchant_id}/business_profile/${m.default_profile}`, {
      routing_algorithm: { type: 'priority', data: [choice(a), choice(b)] },
    });
    expect((await pay(key)).body).toMatchObject({ merchant_connector_id: a.merchant_connector_id, connector_label: 'first' });
    await adminApi('POST', `/account/${m.merchant_id}/connectors/${a.merchant_connector_id}`, { disabled: true });
    const fallback = await pay(key);
    expect(fallback.body).toMatchObject({ status: 'succeeded', merchant_connector_id: b.merchant_connector_id, connector_label: 'second' });
    expect(fallback.body.attempts[0].routing_reason).toBe('profile_default:priority');
    await adminApi('POST', `/account/${m.merchant_id}/connectors/${b.merchant_connector_id}`, { disabled: true });
    // The routing names no account that can serve: refused saying why, never sent to an account it does not name.
    const nothing = await pay(key);
    expect(nothing.status).toBe(400);
    expect(nothing.body.error).toMatchObject({ param: 'routing', message: expect.stringContaining(`${b.merchant_connector_id} (service_test): disabled`) });
  });

  it("a routing algorithm naming another merchant's account, or splits not adding up to 100, is refused naming routing_algorithm", async () => {
    const { m } = await merchantWithKey();
    const other = await merchantWithKey();
    const foreign = await connectorAccount(other.m.merchant_id);
    const r = await adminApi('POST', `/account/${m.merchant_id}/business_profile/${m.default_profile}`, {
      routing_algorithm: { type: 'single', data: { connector: 'service_test', merchant_connector_id: foreign.merchant_connector_id } },
    });
    expect(r.status).toBe(400);
    expect(r.body.error.param).toBe('routing_algorithm');
    const bad = await adminApi('POST', `/account/${m.merchant_id}/business_profile/${m.default_profile}`, {
      routing_algorithm: { type: 'volume_split', data: [{ connector: 'service_test', split: 60 }] },
    });
    expect(bad.body.error.param).toBe('routing_algorithm.data');
  });
});
