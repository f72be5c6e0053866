// Isolation between merchants: with two merchants A and B, every endpoint given B's payment, customer, connector
// account, profile, payment link or key id with A's credentials answers 404 (HE_02) and changes nothing. One table
// walks every route of the gateway; a guard reads the route declarations in gateway/app.ts and gateway/routes/*.ts
// so that a new route cannot be added without appearing here (walked, or excluded with its reason).
import { createHash, createHmac } from 'node:crypto';
import type { Db } from 'mongodb';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { routesOfApp } from './support/routes.ts';
import { call, paymentStateClient } from '../lib/grpc.ts';
import { sleep, Stack } from './support/stack.ts';
import { insertMandates, mandateDoc, paymentMethodDoc } from './support/mandates.ts';

let stack: Stack;
let admin: string;

interface Merchant {
  merchant_id: string;
  api_key: string;
  pk: string;
}
let A: Merchant;
let B: Merchant & {
  secondKey: string;
  keyIds: string[];
  mca: string;
  profiles: string[];
  customers: string[];
  refunds: string[];
  disputes: string[];
  /** Issue 22: written with MandateStore (the payment path that creates them is not merged yet). */
  mandates: string[];
  payments: Record<'pending' | 'authorized' | 'linked' | 'review' | 'succeeded' | 'threeDs', any>;
};

async function ok(r: Promise<{ status: number; body: any }>, what: string) {
  const res = await r;
  if (res.status !== 200) throw new Error(`${what}: ${res.status} ${JSON.stringify(res.body)}`);
  return res.body;
}

async function newMerchant(account: Record<string, unknown> = {}): Promise<Merchant> {
  const m = await stack.merchant(account);
  const pk = (await ok(stack.api('GET', `/accounts/${m.merchant_id}`, undefined, admin), 'account')).publishable_key as string;
  return { ...m, pk };
}

beforeAll(async () => {
  stack = await Stack.start();
  admin = stack.adminKey;

  // A: an ordinary merchant with a payment and a customer of its own, so that its lists are not empty.
  A = await newMerchant();
  await ok(stack.api('POST', '/customers', { customer_id: 'cus_a_isolation', name: 'Alice A', email: 'alice@a.example' }, A.api_key), 'A customer');
  await ok(stack.api('POST', '/payments', { amount: 1_500, currency: 'EUR', customer_id: 'cus_a_isolation' }, A.api_key), 'A payment');

  // B: manual review from 50000, a connector account, a customer, payments in several statuses, a second key and a
  // second business profile (made last: with two profiles a payment must name one).
  const b = await newMerchant({ manual_review: { amount_at_least: 50_000 } });
  const mca = (
    await ok(
      stack.api(
        'POST',
        `/account/${b.merchant_id}/connectors`,
        {
          connector_name: 'service_test',
          connector_account_details: { auth_type: 'HeaderKey', api_key: 'sk_sandbox_service_test' },
        },
        admin,
      ),
      'B connector account',
    )
  ).merchant_connector_id as string;
  const customer = (
    await ok(stack.api('POST', '/customers', { customer_id: 'cus_b_isolation', name: 'Bob B', email: 'bob@b.example' }, b.api_key), 'B customer')
  ).customer_id as string;
  const pay = (body: Record<string, unknown>) => ok(stack.api('POST', '/payments', { amount: 10_000, currency: 'EUR', ...body }, b.api_key), 'B payment');
  const pending = await pay({ customer_id: customer });
  const authorized = await pay({ capture_method: 'manual', confirm: true, payment_method: 'pay_later', payment_method_type: 'invoice' });
  const linked = await pay({ payment_link: true, customer: { id: 'cus_b_linked', email: 'carol@b.example', name: 'Carol B' } });
  const succeeded = await pay({ amount: 5_000, confirm: true, payment_method: 'pay_later' });
  const toReview = await pay({ amount: 60_000, capture_method: 'manual' });
  const review = await ok(
    stack.api('POST', `/payments/${toReview.payment_id}/confirm`, { payment_method: 'pay_later', payment_method_type: 'invoice' }, b.api_key),
    'B confirm for review',
  );
  const threeDs = await pay({ authentication_type: 'three_ds', confirm: true, payment_method: 'pay_later', browser_info: { user_agent: 'Mozilla/5.0' } });
  expect(pending.status).toBe('requires_confirmation');
  expect(authorized.status).toBe('requires_capture');
  expect(linked).toMatchObject({ status: 'requires_confirmation', payment_link: { payment_link_id: expect.any(String) } });
  expect(succeeded.status).toBe('succeeded');
  expect(review.status).toBe('requires_merchant_action');
  expect(threeDs).toMatchObject({ status: 'requires_customer_action', next_action: { type: 'three_ds_invoke' } });
  for (const p of [authorized, succeeded, review]) expect(p.merchant_connector_id).toBe(mca);

  const refund = await ok(
    stack.api('POST', '/refunds', { payment_id: succeeded.payment_id, amount: 1_000, refund_id: 'ref_b_isolation' }, b.api_key),
    'B refund',
  );
  expect(refund).toMatchObject({ refund_id: 'ref_b_isolation', payment_id: succeeded.payment_id });
  const secondKey = (await ok(stack.api('POST', `/api_keys/${b.merchant_id}`, { name: 'second', expiration: 'never' }, admin), 'B second key'))
    .api_key as string;
  const keyIds = (await ok(stack.api('GET', `/api_keys/${b.merchant_id}/list`, undefined, admin), 'B keys')).map((k: any) => k.key_id as string);
  await ok(stack.api('POST', `/account/${b.merchant_id}/business_profile`, { profile_name: 'b_second' }, admin), 'B second profile');
  const profiles = (await ok(stack.api('GET', `/account/${b.merchant_id}/business_profile`, undefined, admin), 'B profiles')).map(
    (p: any) => p.profile_id as string,
  );
  expect(keyIds).toHaveLength(2);
  expect(profiles).toHaveLength(2);

  // A dispute on B's captured payment, as the provider's notification records it (payment-state's ReportDispute).
  const client = paymentStateClient(stack.env.PAYMENT_STATE_ADDR);
  const reported = await call<object, { applied: boolean }>(
    client as never,
    'ReportDispute',
    {
      merchant_id: b.merchant_id,
      payment_id: succeeded.payment_id,
      connector_dispute_id: 'dp_b_isolation',
      amount: 5_000,
      currency: 'EUR',
      dispute_stage: 'dispute',
      dispute_status: 'dispute_opened',
      connector_updated_at: '2026-11-20T08:00:00Z',
    },
    5_000,
  );
  client.close();
  expect(reported.applied).toBe(true);
  const disputes = (await ok(stack.api('GET', '/disputes/list', undefined, b.api_key), 'B disputes')).map((d: any) => d.dispute_id as string);
  expect(disputes).toHaveLength(1);

  // B's mandates and saved payment method (issue 22), written as the payment-state projection will write them: the
  // payment path that creates them from a confirmed payment is not merged yet.
  const mandates = ['man_b_isolation_1', 'man_b_isolation_2'];
  await insertMandates(
    await stack.db(),
    mandates.map((mandate_id) => mandateDoc({ mandate_id, merchant_id: b.merchant_id, customer_id: customer, original_payment_id: succeeded.payment_id })),
    [paymentMethodDoc({ payment_token: 'token_b_isolation', merchant_id: b.merchant_id, customer_id: customer, mandate_id: mandates[0] })],
  );

  B = {
    ...b,
    secondKey,
    mandates,
    keyIds,
    mca,
    profiles,
    customers: [customer, 'cus_b_linked'],
    refunds: [refund.refund_id],
    disputes,
    payments: { pending, authorized, linked, review, succeeded, threeDs },
  };
});
afterAll(async () => stack?.stop());

// ---------------------------------------------------------------------------------------------------------------
// The table: every route of the service that takes an id of a merchant's resource, each called with A's
// credentials and B's ids. `route` is the route as declared in the source (method and Express path).

interface Call {
  method: string;
  path: string;
  body?: unknown;
  key?: string;
  headers?: Record<string, string>;
}
interface Row {
  route: string;
  calls: Call[];
}

function walkTable(): Row[] {
  const sk = A.api_key;
  const payments = Object.values(B.payments);
  const perPayment = (make: (p: any) => Call[]) => payments.flatMap(make);
  const op = (name: string, body: unknown): Row => ({
    route: `POST /payments/:payment_id/${name}`,
    calls: perPayment((p) => [{ method: 'POST', path: `/payments/${p.payment_id}/${name}`, body, key: sk }]),
  });
  const linkId = B.payments.linked.payment_link.payment_link_id as string;
  return [
    // Payments, with A's secret key (and, where the publishable key may call, A's publishable key with B's client_secret).
    {
      route: 'GET /payments/:payment_id',
      calls: perPayment((p) => [
        { method: 'GET', path: `/payments/${p.payment_id}`, key: sk },
        { method: 'GET', path: `/payments/${p.payment_id}?force_sync=true`, key: sk },
        { method: 'GET', path: `/payments/${p.payment_id}?client_secret=${p.client_secret}`, key: A.pk },
      ]),
    },
    {
      route: 'POST /payments/:payment_id',
      calls: perPayment((p) => [
        { method: 'POST', path: `/payments/${p.payment_id}`, body: { amount: 70_000, description: 'changed by another merchant' }, key: sk },
      ]),
    },
    {
      route: 'POST /payments/:payment_id/confirm',
      calls: perPayment((p) => [
        { method: 'POST', path: `/payments/${p.payment_id}/confirm`, body: { payment_method: 'pay_later', payment_method_type: 'invoice' }, key: sk },
        { method: 'POST', path: `/payments/${p.payment_id}/confirm`, body: { client_secret: p.client_secret, payment_method: 'pay_later' }, key: A.pk },
      ]),
    },
    {
      route: 'POST /payments/:payment_id/3ds/authentication',
      calls: perPayment((p) => [
        { method: 'POST', path: `/payments/${p.payment_id}/3ds/authentication`, body: { device_channel: 'BRW', threeds_method_comp_ind: 'N' }, key: sk },
        {
          method: 'POST',
          path: `/payments/${p.payment_id}/3ds/authentication`,
          body: { client_secret: p.client_secret, device_channel: 'BRW', threeds_method_comp_ind: 'N' },
          key: A.pk,
        },
      ]),
    },
    op('capture', { amount_to_capture: 1_000 }),
    op('incremental_authorization', { amount: 20_000 }),
    op('approve', {}),
    op('cancel', { cancellation_reason: 'requested_by_customer' }),
    op('reject', {}),

    // Payment links: the merchant's read (secret key; publishable key with B's client_secret), and the keyless
    // checkout pages under A's merchant_id with B's payment id.
    {
      route: 'GET /payment_link/:payment_link_id',
      calls: [
        { method: 'GET', path: `/payment_link/${linkId}`, key: sk },
        { method: 'GET', path: `/payment_link/${linkId}?client_secret=${B.payments.linked.client_secret}`, key: A.pk },
      ],
    },
    {
      route: 'GET /payment_link/:merchant_id/:payment_id',
      calls: perPayment((p) => [{ method: 'GET', path: `/payment_link/${A.merchant_id}/${p.payment_id}` }]),
    },
    {
      route: 'GET /payment_link/s/:merchant_id/:payment_id',
      calls: perPayment((p) => [{ method: 'GET', path: `/payment_link/s/${A.merchant_id}/${p.payment_id}`, headers: { 'sec-fetch-dest': 'iframe' } }]),
    },
    {
      route: 'POST /payment_link/:merchant_id/:payment_id/confirm',
      calls: perPayment((p) => [{ method: 'POST', path: `/payment_link/${A.merchant_id}/${p.payment_id}/confirm`, body: {} }]),
    },
    {
      route: 'POST /payment_link/s/:merchant_id/:payment_id/confirm',
      calls: perPayment((p) => [
        { method: 'POST', path: `/payment_link/s/${A.merchant_id}/${p.payment_id}/confirm`, body: {}, headers: { 'sec-fetch-site': 'same-origin' } },
      ]),
    },
    {
      route: 'POST /payment_link/s/:merchant_id/:payment_id/3ds/authentication',
      calls: perPayment((p) => [
        {
          method: 'POST',
          path: `/payment_link/s/${A.merchant_id}/${p.payment_id}/3ds/authentication`,
          body: { device_channel: 'BRW', threeds_method_comp_ind: 'U', browser_info: { user_agent: 'UA' } },
          headers: { 'sec-fetch-site': 'same-origin' },
        },
      ]),
    },
    {
      route: 'POST /payment_link/:merchant_id/:payment_id/3ds/authentication',
      calls: perPayment((p) => [
        {
          method: 'POST',
          path: `/payment_link/${A.merchant_id}/${p.payment_id}/3ds/authentication`,
          body: { device_channel: 'BRW', threeds_method_comp_ind: 'U', browser_info: { user_agent: 'UA' } },
        },
      ]),
    },

    // Refunds (A's secret key): B's refund ids, and a refund of B's payment.
    {
      route: 'GET /refunds/:refund_id',
      calls: B.refunds.flatMap((id) => [
        { method: 'GET', path: `/refunds/${id}`, key: sk },
        { method: 'GET', path: `/refunds/${id}?force_sync=true`, key: sk },
      ]),
    },
    {
      route: 'POST /refunds/:refund_id',
      calls: B.refunds.map((id) => ({
        method: 'POST',
        path: `/refunds/${id}`,
        body: { reason: 'changed by another merchant', metadata: { k: 'v' } },
        key: sk,
      })),
    },
    {
      route: 'POST /refunds',
      calls: [B.payments.succeeded, B.payments.authorized].map((p) => ({
        method: 'POST',
        path: '/refunds',
        body: { payment_id: p.payment_id, amount: 100 },
        key: sk,
      })),
    },
    // Provider notifications: A's merchant_id with B's connector account (no key: the provider signs, and this one is
    // signed with B's default secret, which must not help).
    {
      route: 'POST /webhooks/:merchant_id/:merchant_connector_id',
      calls: [
        {
          method: 'POST',
          path: `/webhooks/${A.merchant_id}/${B.mca}`,
          body: '{"type":"payment.updated"}',
          headers: { 'x-webhook-signature-512': createHmac('sha512', 'whsec_sandbox_service_test').update('{"type":"payment.updated"}').digest('hex') },
        },
      ],
    },

    // Customers (A's secret key).
    // An ephemeral key for B's customer (issue 23).
    { route: 'POST /ephemeral_keys', calls: B.customers.map((c) => ({ method: 'POST', path: '/ephemeral_keys', body: { customer_id: c }, key: sk })) },
    // A's secret key on B's connector accounts (A's own key manages A's, issue 23).
    {
      route: 'POST /account/:merchant_id/connectors',
      calls: [
        {
          method: 'POST',
          path: `/account/${B.merchant_id}/connectors`,
          key: sk,
          body: { connector_name: 'service_test', connector_account_details: { auth_type: 'HeaderKey', api_key: 'x' } },
        },
      ],
    },
    { route: 'GET /account/:merchant_id/connectors', calls: [{ method: 'GET', path: `/account/${B.merchant_id}/connectors`, key: sk }] },
    { route: 'GET /customers/:customer_id', calls: B.customers.map((c) => ({ method: 'GET', path: `/customers/${c}`, key: sk })) },
    {
      route: 'POST /customers/:customer_id',
      calls: B.customers.map((c) => ({ method: 'POST', path: `/customers/${c}`, body: { name: 'Mallory', email: 'mallory@a.example' }, key: sk })),
    },
    { route: 'DELETE /customers/:customer_id', calls: B.customers.map((c) => ({ method: 'DELETE', path: `/customers/${c}`, key: sk })) },

    // Mandates and saved payment methods (A's secret key; issue 22).
    { route: 'GET /mandates/:mandate_id', calls: B.mandates.map((m) => ({ method: 'GET', path: `/mandates/${m}`, key: sk })) },
    { route: 'POST /mandates/revoke/:mandate_id', calls: B.mandates.map((m) => ({ method: 'POST', path: `/mandates/revoke/${m}`, key: sk })) },
    { route: 'GET /customers/:customer_id/mandates', calls: B.customers.map((c) => ({ method: 'GET', path: `/customers/${c}/mandates`, key: sk })) },
    {
      route: 'GET /customers/:customer_id/payment_methods',
      calls: B.customers.map((c) => ({ method: 'GET', path: `/customers/${c}/payment_methods`, key: sk })),
    },

    // Disputes (A's secret key).
    { route: 'GET /disputes/:dispute_id', calls: B.disputes.map((d) => ({ method: 'GET', path: `/disputes/${d}`, key: sk })) },
    // Events: A's secret key on B's merchant id (the admin key reads every merchant's events by design).
    { route: 'GET /events/:merchant_id', calls: [{ method: 'GET', path: `/events/${B.merchant_id}`, key: sk }] },
    {
      route: 'GET /events/:merchant_id/:event_id/attempts',
      calls: [{ method: 'GET', path: `/events/${B.merchant_id}/evt_${'0'.repeat(32)}/attempts`, key: sk }],
    },
    { route: 'POST /events/:merchant_id/:event_id/retry', calls: [{ method: 'POST', path: `/events/${B.merchant_id}/evt_${'0'.repeat(32)}/retry`, key: sk }] },

    // Admin routes: A's merchant_id in the path, B's resource id, the admin key.
    { route: 'GET /api_keys/:merchant_id/:key_id', calls: B.keyIds.map((k) => ({ method: 'GET', path: `/api_keys/${A.merchant_id}/${k}`, key: admin })) },
    {
      route: 'POST /api_keys/:merchant_id/:key_id',
      calls: B.keyIds.map((k) => ({ method: 'POST', path: `/api_keys/${A.merchant_id}/${k}`, body: { name: 'renamed' }, key: admin })),
    },
    { route: 'DELETE /api_keys/:merchant_id/:key_id', calls: B.keyIds.map((k) => ({ method: 'DELETE', path: `/api_keys/${A.merchant_id}/${k}`, key: admin })) },
    {
      route: 'GET /account/:merchant_id/connectors/:merchant_connector_id',
      calls: [
        { method: 'GET', path: `/account/${A.merchant_id}/connectors/${B.mca}`, key: admin },
        // A merchant's own secret key manages its own connector accounts (issue 23): never B's, by either path.
        { method: 'GET', path: `/account/${A.merchant_id}/connectors/${B.mca}`, key: sk },
        { method: 'GET', path: `/account/${B.merchant_id}/connectors/${B.mca}`, key: sk },
      ],
    },
    {
      route: 'POST /account/:merchant_id/connectors/:merchant_connector_id',
      calls: [
        {
          method: 'POST',
          path: `/account/${A.merchant_id}/connectors/${B.mca}`,
          key: admin,
          body: { disabled: true, connector_label: 'taken', connector_account_details: { auth_type: 'HeaderKey', api_key: 'sk_attacker' } },
        },
        { method: 'POST', path: `/account/${A.merchant_id}/connectors/${B.mca}`, key: sk, body: { disabled: true } },
        { method: 'POST', path: `/account/${B.merchant_id}/connectors/${B.mca}`, key: sk, body: { disabled: true } },
      ],
    },
    {
      route: 'POST /account/:merchant_id/connectors/:merchant_connector_id/webhook_secret/rotate',
      calls: [{ method: 'POST', path: `/account/${A.merchant_id}/connectors/${B.mca}/webhook_secret/rotate`, key: admin }],
    },
    {
      route: 'DELETE /account/:merchant_id/connectors/:merchant_connector_id',
      calls: [
        { method: 'DELETE', path: `/account/${A.merchant_id}/connectors/${B.mca}`, key: admin },
        { method: 'DELETE', path: `/account/${A.merchant_id}/connectors/${B.mca}`, key: sk },
        { method: 'DELETE', path: `/account/${B.merchant_id}/connectors/${B.mca}`, key: sk },
      ],
    },
    {
      route: 'GET /account/:merchant_id/business_profile/:profile_id',
      calls: B.profiles.map((p) => ({ method: 'GET', path: `/account/${A.merchant_id}/business_profile/${p}`, key: admin })),
    },
    {
      route: 'POST /account/:merchant_id/business_profile/:profile_id',
      calls: B.profiles.map((p) => ({
        method: 'POST',
        path: `/account/${A.merchant_id}/business_profile/${p}`,
        key: admin,
        body: { return_url: 'https://attacker.example/return', payment_response_hash_key: 'attacker-chosen-hash-key-0001' },
      })),
    },
  ];
}

// Routes with no other merchant's resource id to give them, each with its reason. Their answers are checked below
// where it matters (A's lists hold none of B's ids).
const EXCLUDED: Record<string, string> = {
  'GET /health': 'no merchant data',
  'GET /openapi.json': 'no merchant data',
  'GET /docs': 'no merchant data (the API reference page)',
  'GET /docs/scalar.js': 'no merchant data (the API reference script)',
  'GET /feature_matrix': 'no merchant data',
  'GET /metrics': 'no merchant data: no id is a label (lib/metrics.ts)',
  'POST /payments': "creates A's own payment",
  'GET /payments/list': "A's own list (checked: none of B's payments)",
  'POST /payments/list': "A's own list (checked: none of B's payments)",
  'POST /customers': "creates A's own customer",
  'POST /refunds/list': "A's own list (checked: none of B's refunds)",
  'GET /customers/list': "A's own list (checked: none of B's customers)",
  'GET /disputes/list': "A's own list (checked: none of B's disputes)",
  // The merchant account itself is the resource: the admin key manages every merchant by design.
  'POST /accounts': 'creates a merchant account (admin)',
  'GET /accounts/:merchant_id': 'the merchant itself (admin key reaches every merchant)',
  'POST /accounts/:merchant_id': 'the merchant itself (admin key reaches every merchant)',
  'DELETE /accounts/:merchant_id': 'the merchant itself (admin key reaches every merchant)',
  // Collections under A's merchant_id: no B id to pass (the lists are checked to hold none of B's ids).
  'POST /api_keys/:merchant_id': 'creates a key for the merchant in the path',
  'GET /api_keys/:merchant_id/list': "A's own keys (checked: none of B's)",
  'POST /account/:merchant_id/business_profile': 'creates a profile for the merchant in the path',
  'GET /account/:merchant_id/business_profile': "A's own profiles (checked: none of B's)",
  // The queue dashboard: the admin key's, no merchant id in the path (test/queue-board.test.ts).
  'GET /admin/queues/login': 'the sign-in page (no merchant data)',
  'POST /admin/queues/login': 'signs in with the admin key (no merchant data)',
  'GET /admin/queues/logout': 'the sign-out page (no merchant data)',
  'POST /admin/queues/logout': 'signs out (no merchant data)',
  'PUT /admin/queues/api/queues/:queueName/retry/:queueStatus': 'the queue dashboard (admin key; no merchant id in the path)',
  'PUT /admin/queues/api/queues/:queueName/:jobId/retry': 'the queue dashboard (admin key; no merchant id in the path)',
};

/**
 * Count and hash of every document of every collection. An empty collection is left out: the Idempotency-Key
 * middleware claims a key (creating `idempotency_keys` on first use) and releases it on a refusal, so a walk of
 * refusals may leave that collection existing with nothing in it, which is no change of data.
 */
async function fingerprint(db: Db): Promise<Record<string, string>> {
  const out: Record<string, string> = {};
  const names = (await db.listCollections({}, { nameOnly: true }).toArray()).map((c) => c.name).sort();
  for (const name of names) {
    const docs = (await db.collection(name).find({}).toArray()).map((d) => JSON.stringify(d)).sort();
    if (docs.length) out[name] = `${docs.length} ${createHash('sha256').update(docs.join('\n')).digest('hex')}`;
  }
  return out;
}

/** The database once background work (syncs, sweeper) has nothing left to write: two equal readings in a row. */
async function settledFingerprint(db: Db): Promise<Record<string, string>> {
  let last = await fingerprint(db);
  for (let i = 0; i < 20; i++) {
    await sleep(500);
    const now = await fingerprint(db);
    if (JSON.stringify(now) === JSON.stringify(last)) return now;
    last = now;
  }
  throw new Error('the database did not settle');
}

describe('isolation between merchants', () => {
  it('the table covers every route declared in the gateway (or excludes it with a reason)', () => {
    const declared = routesOfApp();
    expect(declared.length).toBeGreaterThan(30);
    const walked = walkTable().map((r) => r.route);
    expect(new Set(walked).size, 'a route appears twice in the table').toBe(walked.length);
    // The merchant dashboard's pages take a session cookie, not a key: test/dashboard.test.ts checks that one merchant's
    // pages show and change nothing of another's.
    const unlisted = declared.filter((r) => !walked.includes(r) && !(r in EXCLUDED) && !/^[A-Z]+ \/dashboard(\/|$)/.test(r));
    expect(unlisted, 'routes neither walked nor excluded').toEqual([]);
    const stale = [...walked, ...Object.keys(EXCLUDED)].filter((r) => !declared.includes(r));
    expect(stale, 'table or exclusion entries for routes that no longer exist').toEqual([]);
  });

  it("every route given B's ids with A's credentials answers 404 HE_02 and changes nothing in any collection", async () => {
    const db = await stack.db();
    const before = await settledFingerprint(db);
    const providerCallsBefore = (await stack.sandboxCalls()).length;
    expect(Object.keys(before)).toEqual(
      expect.arrayContaining(['payments', 'transitions', 'customers', 'api_keys', 'connector_accounts', 'business_profiles', 'payment_links']),
    );
    const wrong: string[] = [];
    let n = 0;
    for (const row of walkTable()) {
      expect(row.calls.length, row.route).toBeGreaterThan(0);
      for (const c of row.calls) {
        const headers = { ...c.headers, ...(c.method === 'POST' ? { 'idempotency-key': `isolation-${n++}` } : {}) };
        const r = await stack.api(c.method, c.path, c.body, c.key, headers);
        if (r.status !== 404 || r.body?.error?.code !== 'HE_02') {
          wrong.push(
            `${row.route}: ${c.method} ${c.path} (${c.key === A.pk ? 'A publishable key' : c.key === admin ? 'admin key' : c.key ? 'A secret key' : 'no key'}) ${JSON.stringify(c.body ?? null)} -> ${r.status} ${JSON.stringify(r.body).slice(0, 300)}`,
          );
        }
      }
    }
    expect(wrong, 'answers other than 404 HE_02').toEqual([]);
    await sleep(1_000); // anything a wrongly accepted call started in the background has landed by now
    expect(await settledFingerprint(db)).toEqual(before);
    expect((await stack.sandboxCalls()).length, 'calls to the provider during the walk').toBe(providerCallsBefore);
  });

  it("A's lists hold none of B's payments, customers, keys, connector accounts or profiles", async () => {
    const bPayments = Object.values(B.payments).map((p) => p.payment_id as string);
    const getList = await ok(stack.api('GET', '/payments/list?limit=100', undefined, A.api_key), 'GET /payments/list');
    expect(getList.size).toBeGreaterThan(0);
    expect(getList.data.map((p: any) => p.payment_id).filter((id: string) => bPayments.includes(id))).toEqual([]);
    const postList = await ok(stack.api('POST', '/payments/list', { limit: 100 }, A.api_key), 'POST /payments/list');
    expect(postList.count).toBeGreaterThan(0);
    expect(postList.data.map((p: any) => p.payment_id).filter((id: string) => bPayments.includes(id))).toEqual([]);
    for (const id of bPayments) {
      const byId = await ok(stack.api('POST', '/payments/list', { payment_id: id }, A.api_key), 'POST /payments/list by id');
      expect(byId).toMatchObject({ count: 0, total_count: 0, data: [] });
    }
    for (const c of B.customers) {
      expect((await ok(stack.api('GET', `/payments/list?customer_id=${c}`, undefined, A.api_key), 'list by customer')).size).toBe(0);
      expect((await ok(stack.api('POST', '/payments/list', { customer_id: c }, A.api_key), 'list by customer')).count).toBe(0);
    }
    const refunds = await ok(stack.api('POST', '/refunds/list', { limit: 100 }, A.api_key), 'POST /refunds/list');
    expect(refunds).toMatchObject({ count: 0, total_count: 0, data: [] });
    for (const id of bPayments) expect((await ok(stack.api('POST', '/refunds/list', { payment_id: id }, A.api_key), 'refunds by payment')).count).toBe(0);
    const customers = await ok(stack.api('GET', '/customers/list?limit=100', undefined, A.api_key), 'GET /customers/list');
    expect(customers.map((c: any) => c.customer_id)).toEqual(['cus_a_isolation']);
    expect(await ok(stack.api('GET', '/disputes/list?limit=100', undefined, A.api_key), 'GET /disputes/list')).toEqual([]);

    const keys = await ok(stack.api('GET', `/api_keys/${A.merchant_id}/list`, undefined, admin), 'A keys');
    expect(keys.length).toBe(1);
    expect(keys.map((k: any) => k.key_id).filter((id: string) => B.keyIds.includes(id))).toEqual([]);
    expect(await ok(stack.api('GET', `/account/${A.merchant_id}/connectors`, undefined, admin), 'A connectors')).toEqual([]);
    const profiles = await ok(stack.api('GET', `/account/${A.merchant_id}/business_profile`, undefined, admin), 'A profiles');
    expect(profiles).toHaveLength(1);
    expect(profiles.map((p: any) => p.profile_id).filter((id: string) => B.profiles.includes(id))).toEqual([]);
  });

  it("B's own requests still work afterwards", async () => {
    const keys = await ok(stack.api('GET', `/api_keys/${B.merchant_id}/list`, undefined, admin), 'B keys');
    expect(keys.map((k: any) => [k.name, k.revoked]).sort()).toEqual([
      ['second', false],
      ['test', false],
    ]);
    expect(await ok(stack.api('GET', `/disputes/${B.disputes[0]}`, undefined, B.api_key), 'B dispute')).toMatchObject({
      dispute_id: B.disputes[0],
      dispute_status: 'dispute_opened',
    });
    const captured = await stack.api('POST', `/payments/${B.payments.authorized.payment_id}/capture`, {}, B.api_key);
    expect(captured.status).toBe(200);
    expect(captured.body).toMatchObject({ status: 'succeeded', amount_received: 10_000 });
    const approved = await stack.api('POST', `/payments/${B.payments.review.payment_id}/approve`, {}, B.api_key);
    expect(approved.body).toMatchObject({ status: 'requires_capture', merchant_decision: 'approve' });
    const customer = await stack.api('GET', `/customers/${B.customers[0]}`, undefined, B.secondKey);
    expect(customer.body).toMatchObject({ customer_id: B.customers[0], name: 'Bob B' });
    for (const m of B.mandates)
      expect((await stack.api('GET', `/mandates/${m}`, undefined, B.api_key)).body).toMatchObject({ mandate_id: m, status: 'active' });
    const saved = await stack.api('GET', `/customers/${B.customers[0]}/payment_methods`, undefined, B.api_key);
    expect(saved.body.customer_payment_methods.map((p: any) => p.payment_token)).toEqual(['token_b_isolation']);
    const link = await stack.api(
      'GET',
      `/payment_link/${B.payments.linked.payment_link.payment_link_id}?client_secret=${B.payments.linked.client_secret}`,
      undefined,
      B.pk,
    );
    expect(link.body).toMatchObject({ status: 'active', amount: 10_000 });
    expect((await stack.api('GET', `/account/${B.merchant_id}/connectors/${B.mca}`, undefined, admin)).body).toMatchObject({
      disabled: false,
      connector_label: 'service_test_default',
    });
  });
});
