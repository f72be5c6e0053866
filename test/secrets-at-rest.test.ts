// Secrets at rest and in logs: after a merchant's whole setup and a few payments (secret keys, publishable key with
// client_secret, payment link), no stored document holds a secret API key, the admin key, a provider credential or
// a webhook hash key in clear, and no log line of any process holds any of them, a client_secret or the customer's
// personal data. (The payment's own client_secret is stored with the payment by design: not checked in the DB.)
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Redis } from 'ioredis';
import { Stack, type PartName } from './support/stack.ts';

let stack: Stack;
let admin: string;

// Distinctive values, so that any copy of them anywhere is found.
const CONNECTOR = {
  api_key: 'sk_sandbox_service_test', // the sandbox's key, so that payments go through
  key1: 'key1-distinctive-Qv7Rm2Xw9Lk4',
  api_secret: 'apisecret-distinctive-Hn3Tz8Pc5Yd1',
  key2: 'key2-distinctive-Wb6Fj1Ns4Ue7',
};
const HASH_KEY = 'hashkey-distinctive-Gm5Kx2Vr8Sq3Zt';
const DEFAULT_PROFILE_HASH_KEY = 'hashkey-default-distinctive-Ay4Lp9Ce2Jh6';
const CUSTOMER = { customer_id: 'cus_secrets_1', name: 'Zephyrine Quillbottom', email: 'zephyrine.quillbottom@secrets.example', phone: '5550199731' };
const FLAKY_EMAIL = 'zephyrine.quillbottom+flaky@secrets.example';
const DECLINE_EMAIL = 'zephyrine.quillbottom+decline@secrets.example';

let merchantId: string;
let keys: string[] = [];
let pk: string;
const clientSecrets: string[] = [];

async function ok(r: Promise<{ status: number; body: any }>, what: string) {
  const res = await r;
  if (res.status !== 200) throw new Error(`${what}: ${res.status} ${JSON.stringify(res.body)}`);
  return res.body;
}

beforeAll(async () => {
  stack = await Stack.start();
  admin = stack.adminKey;
  const adminApi = (method: string, path: string, body?: unknown, idem?: string) =>
    ok(stack.api(method, path, body, admin, idem ? { 'idempotency-key': idem } : {}), `${method} ${path}`);

  const m = await adminApi('POST', '/accounts', { merchant_name: 'Secrets shop' });
  merchantId = m.merchant_id;
  pk = m.publishable_key;
  // Two secret keys: one created with an Idempotency-Key (as a careful client would), one without. Profiles and the
  // connector account are also written with Idempotency-Keys: the service keeps successful answers to replay them,
  // and those records are stored documents like any other.
  keys = [
    (await adminApi('POST', `/api_keys/${merchantId}`, { name: 'server', expiration: 'never' }, 'create-key-1')).api_key,
    (await adminApi('POST', `/api_keys/${merchantId}`, { name: 'backup', expiration: 'never' })).api_key,
  ];
  // The default profile gets a hash key by update; a second profile is created with one (with an Idempotency-Key),
  // and its connector account carries distinctive credentials.
  await adminApi(
    'POST',
    `/account/${merchantId}/business_profile/${m.default_profile}`,
    { payment_response_hash_key: DEFAULT_PROFILE_HASH_KEY },
    'update-profile-1',
  );
  const profile = await adminApi(
    'POST',
    `/account/${merchantId}/business_profile`,
    {
      profile_name: 'checkout',
      return_url: 'https://shop.example/done',
      payment_response_hash_key: HASH_KEY,
    },
    'create-profile-1',
  );
  expect(profile.payment_response_hash_key).toBe(HASH_KEY);
  const mca = await adminApi(
    'POST',
    `/account/${merchantId}/connectors`,
    {
      connector_name: 'service_test',
      profile_id: profile.profile_id,
      connector_account_details: { auth_type: 'SignatureKey', ...CONNECTOR },
    },
    'create-connector-1',
  );
  expect(JSON.stringify(mca)).not.toContain(CONNECTOR.api_secret);

  const [k1, k2] = keys;
  const api = (method: string, path: string, body: unknown, key: string, idem?: string) =>
    ok(stack.api(method, path, body, key, idem ? { 'idempotency-key': idem } : {}), `${method} ${path}`);
  const base = { currency: 'EUR', profile_id: profile.profile_id };

  await api('POST', '/customers', CUSTOMER, k1, 'customer-1');

  // 1. create (key 1) -> confirm (key 1) -> capture (key 2), the customer given by its details.
  const p1 = await api(
    'POST',
    '/payments',
    {
      ...base,
      amount: 12_000,
      capture_method: 'manual',
      customer: { id: CUSTOMER.customer_id, name: CUSTOMER.name, email: CUSTOMER.email, phone: CUSTOMER.phone },
    },
    k1,
    'pay-1',
  );
  const c1 = await api('POST', `/payments/${p1.payment_id}/confirm`, { payment_method: 'pay_later', payment_method_type: 'invoice' }, k1, 'confirm-1');
  expect(c1).toMatchObject({ status: 'requires_capture', merchant_connector_id: mca.merchant_connector_id });
  expect((await api('POST', `/payments/${p1.payment_id}/capture`, {}, k2, 'capture-1')).status).toBe('succeeded');

  // 2. create (key 2) -> confirm and retrieve in the browser (publishable key + client_secret) -> capture (key 1).
  const p2 = await api('POST', '/payments', { ...base, amount: 8_000, capture_method: 'manual', customer_id: CUSTOMER.customer_id }, k2);
  const c2 = await api(
    'POST',
    `/payments/${p2.payment_id}/confirm`,
    { client_secret: p2.client_secret, payment_method: 'pay_later', payment_method_type: 'invoice' },
    pk,
    'browser-confirm-2',
  );
  expect(c2.status).toBe('requires_capture');
  expect((await api('GET', `/payments/${p2.payment_id}?client_secret=${p2.client_secret}`, undefined, pk)).status).toBe('requires_capture');
  expect((await api('POST', `/payments/${p2.payment_id}/capture`, { amount_to_capture: 8_000 }, k1)).status).toBe('succeeded');

  // 3. a payment link, read with the client_secret, paid on its checkout page.
  const p3 = await api(
    'POST',
    '/payments',
    { ...base, amount: 4_200, payment_link: true, customer: { email: CUSTOMER.email, name: CUSTOMER.name } },
    k1,
    'pay-3',
  );
  const link = await api('GET', `/payment_link/${p3.payment_link.payment_link_id}?client_secret=${p3.client_secret}`, undefined, pk);
  expect(link.status).toBe('active');
  const page = await stack.api('GET', new URL(p3.payment_link.link).pathname);
  expect(page.status).toBe(200);
  expect((await ok(stack.api('POST', `${new URL(p3.payment_link.link).pathname}/confirm`, {}), 'checkout confirm')).status).toBe('succeeded');

  // 4. create and confirm in one call (automatic capture).
  const p4 = await api(
    'POST',
    '/payments',
    {
      ...base,
      amount: 3_000,
      confirm: true,
      payment_method: 'pay_later',
      customer_id: CUSTOMER.customer_id,
      billing: {
        address: { first_name: 'Zephyrine', last_name: 'Quillbottom', line1: '1 Hidden Lane', city: 'Berlin', zip: '10115', country: 'DE' },
        email: CUSTOMER.email,
      },
    },
    k2,
    'pay-4',
  );
  expect(p4.status).toBe('succeeded');

  // 5 and 6. paths that make the worker log: a provider failing twice before answering (retries), and a decline.
  const p5 = await api(
    'POST',
    '/payments',
    { ...base, amount: 2_000, confirm: true, payment_method: 'pay_later', customer: { name: CUSTOMER.name, email: FLAKY_EMAIL } },
    k1,
  );
  expect(p5.status).toBe('succeeded');
  const p6 = await api(
    'POST',
    '/payments',
    { ...base, amount: 2_100, confirm: true, payment_method: 'pay_later', customer: { name: CUSTOMER.name, email: DECLINE_EMAIL } },
    k2,
  );
  expect(p6.status).toBe('failed');

  clientSecrets.push(...[p1, p2, p3, p4, p5, p6].map((p) => p.client_secret as string));
  expect(clientSecrets.every((s) => /_secret_/.test(s))).toBe(true);
});
afterAll(async () => stack?.stop());

/** Secrets that must never be stored in clear. */
const storedSecrets = () => ({
  'secret api key 1': keys[0],
  'secret api key 2': keys[1],
  'admin key': admin,
  KEY_HASH_SECRET: stack.env.KEY_HASH_SECRET,
  MASTER_ENC_KEY: stack.env.MASTER_ENC_KEY,
  'connector api_key': CONNECTOR.api_key,
  'connector key1': CONNECTOR.key1,
  'connector api_secret': CONNECTOR.api_secret,
  'connector key2': CONNECTOR.key2,
  'profile hash key': HASH_KEY,
  'default profile hash key': DEFAULT_PROFILE_HASH_KEY,
});

function findings(haystacks: [string, string][], needles: Record<string, string>): string[] {
  const found: string[] = [];
  for (const [where, text] of haystacks) {
    for (const [what, value] of Object.entries(needles)) {
      if (value && text.includes(value))
        found.push(`${what} in ${where}: ${text.slice(Math.max(0, text.indexOf(value) - 200), text.indexOf(value) + value.length + 60)}`);
    }
  }
  return found;
}

describe('secrets at rest and in logs', () => {
  it('no collection of the database holds a secret key, the admin key, a provider credential or a hash key', async () => {
    const db = await stack.db();
    const names = (await db.listCollections({}, { nameOnly: true }).toArray()).map((c) => c.name).sort();
    expect(names).toEqual(
      expect.arrayContaining(['api_keys', 'business_profiles', 'connector_accounts', 'customers', 'merchants', 'payments', 'transitions', 'idempotency_keys']),
    );
    const dumps: [string, string][] = [];
    for (const name of names) {
      for (const doc of await db.collection(name).find({}).toArray()) dumps.push([`${name} ${String(doc._id)}`, JSON.stringify(doc)]);
    }
    expect(dumps.length).toBeGreaterThan(20);
    // The dump is real: the customer's details and the payments' client_secrets are there (by design).
    expect(dumps.some(([, t]) => t.includes(CUSTOMER.email))).toBe(true);
    expect(dumps.some(([, t]) => t.includes(clientSecrets[0]))).toBe(true);
    expect(findings(dumps, storedSecrets())).toEqual([]);
  });

  it('no Redis key of the stack (queues, jobs, events) holds a secret key, the admin key, a provider credential or a hash key', async () => {
    const redis = new Redis(stack.env.REDIS_URL);
    const dumps: [string, string][] = [];
    try {
      let cursor = '0';
      do {
        const [next, found] = await redis.scan(cursor, 'MATCH', `${stack.env.REDIS_PREFIX}:*`, 'COUNT', 1000);
        for (const key of found) {
          const type = await redis.type(key);
          const value =
            type === 'string'
              ? await redis.get(key)
              : type === 'hash'
                ? await redis.hgetall(key)
                : type === 'list'
                  ? await redis.lrange(key, '0', '-1')
                  : type === 'set'
                    ? await redis.smembers(key)
                    : type === 'zset'
                      ? await redis.zrange(key, '0', '-1')
                      : type === 'stream'
                        ? await redis.xrange(key, '-', '+')
                        : null;
          dumps.push([`redis ${key}`, JSON.stringify(value)]);
        }
        cursor = next;
      } while (cursor !== '0');
    } finally {
      redis.disconnect();
    }
    expect(dumps.length).toBeGreaterThan(0);
    expect(findings(dumps, storedSecrets())).toEqual([]);
  });

  it("no log line of any process holds a secret, a client_secret or the customer's email, name or phone", async () => {
    const lines: [string, string][] = (Object.keys(stack.logs) as PartName[]).flatMap((part) =>
      stack.logs[part].map((l, i) => [`${part} log line ${i}`, l] as [string, string]),
    );
    expect(lines.length).toBeGreaterThan(4);
    const needles: Record<string, string> = {
      ...storedSecrets(),
      ...Object.fromEntries(clientSecrets.map((s, i) => [`client_secret of payment ${i + 1}`, s])),
      'customer email': CUSTOMER.email,
      'customer name': CUSTOMER.name,
      'customer phone': CUSTOMER.phone,
      'customer email (flaky)': FLAKY_EMAIL,
      'customer email (decline)': DECLINE_EMAIL,
    };
    expect(findings(lines, needles)).toEqual([]);
  });
});
