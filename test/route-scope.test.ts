// Who may call which route (issue 9, S1): every route of the gateway, read from the source, is called with every
// kind of key (none, malformed, unknown secret, unknown publishable, admin, the merchant's secret and publishable
// keys, another merchant's secret and publishable keys), and with its path spelled otherwise (upper case, mixed
// case, trailing slash, double slash). Scope is decided on the matched route: a spelling that matches no route is
// 404 IR_02, never another route's scope, and no refused call changes anything.
import { createHash } from 'node:crypto';
import type { Db } from 'mongodb';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { routesOfApp } from './support/routes.ts';
import { sleep, Stack, type ApiResponse } from './support/stack.ts';
import { insertMandates, mandateDoc, paymentMethodDoc } from './support/mandates.ts';

let stack: Stack;
interface Merchant {
  merchant_id: string;
  api_key: string;
  pk: string;
}
let A: Merchant;
let B: Merchant;
/** A's payment (with a link), customer; C: the merchant the admin routes are walked on. */
let pay: { payment_id: string; client_secret: string; payment_link: { payment_link_id: string } };
let customerId: string;
const mandateId = 'man_scope';
let refundId: string;
/** Disputes exist only by a provider's report (test/disputes.test.ts walks real ones): a well-formed id serves scope. */
const disputeId = `dp_${'0'.repeat(26)}`;
let C: { merchant_id: string; key_id: string; mca: string; profile_id: string };

async function ok(r: Promise<ApiResponse>, what: string) {
  const res = await r;
  if (res.status !== 200) throw new Error(`${what}: ${res.status} ${JSON.stringify(res.body)}`);
  return res.body;
}
async function newMerchant(): Promise<Merchant> {
  const m = await stack.merchant();
  const pk = (await ok(stack.api('GET', `/accounts/${m.merchant_id}`, undefined, stack.adminKey), 'account')).publishable_key as string;
  return { ...m, pk };
}

beforeAll(async () => {
  stack = await Stack.start();
  [A, B] = [await newMerchant(), await newMerchant()];
  pay = await ok(
    stack.api(
      'POST',
      '/payments',
      {
        amount: 4_200,
        currency: 'EUR',
        capture_method: 'manual',
        payment_link: true,
        return_url: 'https://shop.example/done',
        metadata: { internal_ref: 'merchant-only' },
        customer: { id: 'cus_scope', email: 'scope@a.example', name: 'Scope A' },
      },
      A.api_key,
    ),
    'A payment',
  );
  customerId = 'cus_scope';
  // A mandate and a saved payment method of A's customer (issue 22), written as the payment-state projection will: the
  // payment path that creates them is not merged yet.
  await insertMandates(
    await stack.db(),
    [mandateDoc({ mandate_id: mandateId, merchant_id: A.merchant_id, customer_id: customerId, original_payment_id: pay.payment_id })],
    [paymentMethodDoc({ payment_token: 'token_scope', merchant_id: A.merchant_id, customer_id: customerId, mandate_id: mandateId })],
  );
  const paid = await ok(
    stack.api('POST', '/payments', { amount: 3_000, currency: 'EUR', confirm: true, payment_method: 'pay_later', payment_method_type: 'invoice' }, A.api_key),
    'A paid',
  );
  refundId = (
    await ok(stack.api('POST', '/refunds', { payment_id: paid.payment_id, amount: 100, metadata: { internal_ref: 'merchant-only' } }, A.api_key), 'A refund')
  ).refund_id;
  const c = await stack.merchant();
  const admin = stack.adminKey;
  const keys = await ok(stack.api('GET', `/api_keys/${c.merchant_id}/list`, undefined, admin), 'C keys');
  const mca = await ok(
    stack.api(
      'POST',
      `/account/${c.merchant_id}/connectors`,
      {
        connector_name: 'service_test',
        connector_account_details: { auth_type: 'HeaderKey', api_key: 'sk_sandbox_service_test' },
      },
      admin,
    ),
    'C connector account',
  );
  const profiles = await ok(stack.api('GET', `/account/${c.merchant_id}/business_profile`, undefined, admin), 'C profiles');
  C = { merchant_id: c.merchant_id, key_id: keys[0].key_id, mca: mca.merchant_connector_id, profile_id: profiles[0].profile_id };
});
afterAll(async () => stack?.stop());

// ---------------------------------------------------------------------------------------------------------------

type KeyKind =
  | 'none'
  | 'malformed'
  | 'unknown secret'
  | 'unknown publishable'
  | 'admin'
  | 'secret'
  | 'publishable'
  | 'other merchant secret'
  | 'other merchant publishable';
const KEY_KINDS: KeyKind[] = [
  'none',
  'malformed',
  'unknown secret',
  'unknown publishable',
  'admin',
  'secret',
  'publishable',
  'other merchant secret',
  'other merchant publishable',
];
const keyOf = (k: KeyKind): string | undefined =>
  ({
    none: undefined,
    malformed: 'not a key!',
    'unknown secret': `snd_${'0'.repeat(64)}`,
    'unknown publishable': `pk_snd_${'0'.repeat(32)}`,
    admin: stack.adminKey,
    secret: A.api_key,
    publishable: A.pk,
    'other merchant secret': B.api_key,
    'other merchant publishable': B.pk,
  })[k];

/** The routes the publishable key may call (with the payment's client_secret): docs/decisions.md, client-side calls. */
const CLIENT_ROUTES = [
  'GET /payments/:payment_id',
  'POST /payments/:payment_id/confirm',
  'POST /payments/:payment_id/3ds/authentication',
  'GET /payment_link/:payment_link_id',
];
/** Keyless: the key sent is ignored. */
const PUBLIC_ROUTES = [
  'GET /health',
  'GET /openapi.json',
  // The API reference rendered from /openapi.json (issue 23), and Scalar's bundle it loads.
  'GET /docs',
  'GET /docs/scalar.js',
  'GET /feature_matrix',
  // Prometheus scrapes it keyless (issue 23); its labels name no merchant (lib/metrics.ts).
  'GET /metrics',
  'GET /payment_link/:merchant_id/:payment_id',
  'GET /payment_link/s/:merchant_id/:payment_id',
  'POST /payment_link/:merchant_id/:payment_id/confirm',
  'POST /payment_link/:merchant_id/:payment_id/3ds/authentication',
  'POST /payment_link/s/:merchant_id/:payment_id/confirm',
  'POST /payment_link/s/:merchant_id/:payment_id/3ds/authentication',
  // The provider calls it; the signature is the permission (the walk gives it A's id and C's account: 404 whatever the key).
  'POST /webhooks/:merchant_id/:merchant_connector_id',
  // The queue dashboard's sign-in and sign-out pages: the admin key is typed into the form, never sent as a header.
  'GET /admin/queues/login',
  'POST /admin/queues/login',
  'GET /admin/queues/logout',
  'POST /admin/queues/logout',
];
type RouteKind = 'public' | 'admin' | 'client' | 'merchant' | 'admin or merchant';
function routeKind(route: string): RouteKind {
  if (PUBLIC_ROUTES.includes(route)) return 'public';
  if (CLIENT_ROUTES.includes(route)) return 'client';
  const path = route.split(' ')[1];
  // The merchant dashboard (issue 23): its own session cookie and CSRF token; the api-key header plays no part.
  if (/^\/dashboard(\/|$)/.test(path)) return 'public';
  // A merchant's connector accounts: the admin key or the merchant's own secret key (issue 23).
  if (/^\/account\/:merchant_id\/connectors(\/|$)/.test(path)) return 'admin or merchant';
  if (/^\/(accounts|account|api_keys)(\/|$)/.test(path)) return 'admin';
  // The queue dashboard (bull-board; its own routes are not declared on the gateway's routers, these guards are).
  if (/^\/admin\/queues\//.test(path)) return 'admin';
  // The Events API: the admin key, or the merchant's own secret key.
  if (/^\/events(\/|$)/.test(path)) return 'admin or merchant';
  if (/^\/(payments|customers|refunds|disputes|mandates|ephemeral_keys)(\/|$)/.test(path)) return 'merchant';
  throw new Error(`route ${route} is not classified: add it to this test's tables`);
}

interface Call {
  method: string;
  path: string;
  query: string;
  body?: unknown;
  headers: Record<string, string>;
}

/** The route with real ids in it (A's for merchant routes, C's for admin routes) and a body it accepts. */
function callFor(route: string, key: KeyKind): Call {
  const [method, template] = route.split(' ');
  const kind = routeKind(route);
  const merchantId = kind === 'admin' ? C.merchant_id : A.merchant_id;
  const path = template
    .replace(':merchant_id', merchantId)
    .replace(':payment_id', pay.payment_id)
    .replace(':payment_link_id', pay.payment_link.payment_link_id)
    .replace(':event_id', `evt_${'0'.repeat(32)}`)
    .replace(':customer_id', customerId)
    .replace(':mandate_id', mandateId)
    .replace(':refund_id', refundId)
    .replace(':dispute_id', disputeId)
    .replace(':key_id', C.key_id)
    .replace(':merchant_connector_id', C.mca)
    .replace(':profile_id', C.profile_id);
  const clientSecret = kind === 'client' && key.endsWith('publishable') ? pay.client_secret : undefined;
  const query = method === 'GET' && clientSecret ? `?client_secret=${clientSecret}` : route === 'GET /payments/list' ? '?limit=100' : '';
  let body: Record<string, unknown> | undefined;
  if (method === 'POST') {
    body =
      {
        'POST /payments': { amount: 100, currency: 'EUR' },
        'POST /customers': { name: 'New', email: 'new@a.example' },
        'POST /payments/:payment_id/confirm': { payment_method: 'pay_later', payment_method_type: 'invoice' },
        'POST /payments/:payment_id/3ds/authentication': { device_channel: 'BRW', threeds_method_comp_ind: 'N' },
        'POST /payments/:payment_id/incremental_authorization': { amount: 5_000 },
        'POST /accounts': { merchant_name: 'scope' },
        'POST /api_keys/:merchant_id': { name: 'scope', expiration: 'never' },
        // The keyless checkout calls get a body they refuse whoever calls: the walk must not pay A's payment.
        'POST /payment_link/:merchant_id/:payment_id/confirm': { unexpected: 1 },
        'POST /payment_link/:merchant_id/:payment_id/3ds/authentication': { unexpected: 1 },
      }[route] ?? {};
    if (clientSecret) body.client_secret = clientSecret;
  }
  return { method, path, query, body, headers: template.startsWith('/payment_link/s/') ? { 'sec-fetch-dest': 'iframe' } : {} };
}

const send = (c: Call, key: KeyKind) => stack.api(c.method, c.path + c.query, c.body, keyOf(key), c.headers);

type Expect = { status: number; code: string } | 'allowed' | 'same as keyless';
function expected(route: string, key: KeyKind): Expect {
  const kind = routeKind(route);
  if (kind === 'public') return 'same as keyless';
  const unauthorized = { status: 401, code: 'IR_01' };
  if (kind === 'admin') return key === 'admin' ? 'allowed' : unauthorized;
  if (kind === 'admin or merchant') {
    if (key === 'admin' || key === 'secret') return 'allowed';
    if (key === 'other merchant secret') return { status: 404, code: 'HE_02' };
    if (key === 'publishable' || key === 'other merchant publishable') return { status: 403, code: 'IR_22' };
    return unauthorized;
  }
  if (['none', 'malformed', 'unknown secret', 'unknown publishable', 'admin'].includes(key)) return unauthorized;
  if (key === 'secret') return 'allowed';
  const collection = !route.includes(':');
  if (key === 'other merchant secret') return collection ? 'allowed' : { status: 404, code: 'HE_02' };
  if (kind === 'merchant') return { status: 403, code: 'IR_22' };
  return key === 'publishable' ? 'allowed' : { status: 404, code: 'HE_02' };
}

/** Each spelling of a path that is not the declared one. */
function variants(route: string, path: string): Record<string, string> {
  const template = route.split(' ')[1].split('/');
  const segments = path.split('/');
  const lastStatic = template.findLastIndex((s) => s && !s.startsWith(':'));
  const at = (i: number, f: (s: string) => string) => segments.map((s, j) => (j === i ? f(s) : s)).join('/');
  return {
    'upper case': path.toUpperCase(),
    'first segment capitalised': at(1, (s) => s[0].toUpperCase() + s.slice(1)),
    'last fixed segment upper case': at(lastStatic, (s) => s.toUpperCase()),
    'last fixed segment capitalised': at(lastStatic, (s) => s[0].toUpperCase() + s.slice(1)),
    'trailing slash': `${path}/`,
    'double slash': `/${path}`,
  };
}

async function fingerprint(db: Db): Promise<Record<string, string>> {
  const out: Record<string, string> = {};
  for (const { name } of await db.listCollections({}, { nameOnly: true }).toArray()) {
    const docs = (await db.collection(name).find({}).toArray()).map((d) => JSON.stringify(d)).sort();
    if (docs.length) out[name] = `${docs.length} ${createHash('sha256').update(docs.join('\n')).digest('hex')}`;
  }
  return out;
}

const describeCall = (c: Call, key: KeyKind, r: ApiResponse) =>
  `${c.method} ${c.path}${c.query} (${key}) -> ${r.status} ${JSON.stringify(r.body).slice(0, 200)}`;
const leaksA = (r: ApiResponse) => JSON.stringify(r.body ?? '').includes(pay.client_secret) || JSON.stringify(r.body ?? '').includes('merchant-only');

describe('route scope: every route x every key kind x path spellings', () => {
  it("every declared route is classified, and the client routes are exactly the publishable key's", () => {
    const routes = routesOfApp();
    expect(routes.length).toBeGreaterThan(30);
    for (const r of routes) routeKind(r);
    expect(routes.filter((r) => routeKind(r) === 'client').sort()).toEqual([...CLIENT_ROUTES].sort());
    for (const r of PUBLIC_ROUTES) expect(routes).toContain(r);
  });

  it('the S1 exploit: the publishable key cannot list payments by any spelling of the list path', async () => {
    for (const path of [
      '/payments/list?limit=100',
      '/payments/LIST?limit=100',
      '/payments/List/',
      '/payments/list/',
      '/Payments/list',
      '/payments//list',
      '/payments/%6cist',
    ]) {
      const r = await stack.api('GET', path, undefined, A.pk);
      // 400 when the path is taken for a payment id whose retrieve knows no `limit`.
      expect([400, 403, 404], `GET ${path}`).toContain(r.status);
      expect(leaksA(r), `GET ${path} answered A's payment`).toBe(false);
    }
    const list = await stack.api('GET', '/payments/list?limit=100', undefined, A.pk);
    expect(list.body.error.code).toBe('IR_22');
    // Taken as a payment id, "LIST", whose retrieve has no `limit`; without it, a payment that does not exist.
    expect((await stack.api('GET', '/payments/LIST?limit=100', undefined, A.api_key)).body.error).toMatchObject({ code: 'IR_07', param: 'limit' });
    expect((await stack.api('GET', '/payments/LIST', undefined, A.api_key)).body.error.code).toBe('HE_02');
    expect((await stack.api('GET', '/payments/list/', undefined, A.api_key)).body.error.code).toBe('IR_02');
  });

  it('refused cells get 401 IR_01 / 403 IR_22 / 404 HE_02, keyless routes ignore the key, other spellings match nothing; nothing changes', async () => {
    const db = await stack.db();
    const before = await fingerprint(db);
    const wrong: string[] = [];
    let n = 0;
    for (const route of routesOfApp()) {
      const keyless = routeKind(route) === 'public' ? await send(callFor(route, 'none'), 'none') : undefined;
      for (const key of KEY_KINDS) {
        const c = callFor(route, key);
        const want = expected(route, key);
        if (want !== 'allowed') {
          const r = await send(c, key);
          n++;
          if (want === 'same as keyless' ? r.status !== keyless!.status : r.status !== want.status || r.body?.error?.code !== want.code) {
            wrong.push(`${describeCall(c, key, r)}; expected ${JSON.stringify(want === 'same as keyless' ? keyless!.status : want)}`);
          }
        }
        for (const [name, path] of Object.entries(variants(route, c.path))) {
          const r = await send({ ...c, path }, key);
          n++;
          const code = r.body?.error?.code;
          const refused =
            (r.status === 400 && !!code) ||
            (r.status === 401 && code === 'IR_01') ||
            (r.status === 403 && code === 'IR_22') ||
            (r.status === 404 && (code === 'IR_02' || code === 'HE_02'));
          if (!refused || leaksA(r)) wrong.push(`${route} spelt with ${name}: ${describeCall({ ...c, path }, key, r)}`);
        }
      }
    }
    expect(n).toBeGreaterThan(1_500);
    expect(wrong, 'cells answered otherwise').toEqual([]);
    await sleep(500);
    expect(await fingerprint(db)).toEqual(before);
  });

  it('allowed cells pass authentication and scope (no 401, no 403)', async () => {
    const wrong: string[] = [];
    // Deletions last, so that the routes walked after them still have something to act on.
    const routes = routesOfApp().sort((a, b) => Number(a.startsWith('DELETE')) - Number(b.startsWith('DELETE')));
    for (const key of ['publishable', 'secret', 'other merchant secret', 'admin'] as KeyKind[]) {
      for (const route of routes) {
        if (expected(route, key) !== 'allowed') continue;
        const c = callFor(route, key);
        const r = await send(c, key);
        if (r.status === 401 || r.status === 403 || r.body?.error?.code === 'IR_02') wrong.push(describeCall(c, key, r));
        if (key === 'other merchant secret' && JSON.stringify(r.body).includes(pay.payment_id)) wrong.push(`${describeCall(c, key, r)}: holds A's payment`);
      }
    }
    expect(wrong).toEqual([]);
  });
});
