// Mandates and saved payment methods, the resources around recurring payments (issue 22, api lane), on the real stack:
// GET /mandates/{id}, GET /customers/{id}/mandates, POST /mandates/revoke/{id}, GET /customers/{id}/payment_methods;
// merchant scoping (another merchant's ids are 404 HE_02, the publishable key is refused); revoking twice; an
// expired mandate; the mandate_revoked event reaching the merchant's webhook endpoint once; a customer's deletion
// revoking its mandates and deleting its payment methods; the OpenAPI document and the feature matrix.
//
// The mandates and payment methods here are written with MandateStore directly (test/support/mandates.ts), as the
// payment-state projection will write them: the payment path that creates them from a confirmed payment (core lane)
// is not merged yet. The end-to-end test (a subscription's first payment, then its recurring charges) comes with it.
import { createServer, type Server } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CustomerPaymentMethod, MandateResource } from '../lib/schemas/mandate.ts';
import { MandateStore } from '../adapters/mandate-store.ts';
import { insertMandates, mandateDoc, paymentMethodDoc } from './support/mandates.ts';
import { Stack, freePort, sleep, until } from './support/stack.ts';

interface Hook {
  event_id: string;
  event_type: string;
  content: { type: string; object: any };
  headers: Record<string, unknown>;
}

let stack: Stack;
let A: { merchant_id: string; api_key: string; pk: string };
let B: { merchant_id: string; api_key: string };
let server: Server;
const hooks: Hook[] = [];
let paymentId: string;
const CUS = 'cus_mandates_a';
const past = '2026-01-01T00:00:00.000Z';

const get = (path: string, key = A.api_key) => stack.api('GET', path, undefined, key);
const revoke = (id: string, key = A.api_key, body: unknown = undefined) => stack.api('POST', `/mandates/revoke/${id}`, body, key);

beforeAll(async () => {
  stack = await Stack.start();
  const a = await stack.merchant();
  const pk = (await stack.api('GET', `/accounts/${a.merchant_id}`, undefined, stack.adminKey)).body.publishable_key as string;
  A = { ...a, pk };
  B = await stack.merchant();

  // A's webhook endpoint: a local receiver on A's default profile.
  const port = await freePort();
  server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const body = JSON.parse(Buffer.concat(chunks).toString('utf8'));
      hooks.push({ ...body, headers: req.headers });
      res.writeHead(204).end();
    });
  });
  await new Promise<void>((resolve) => server.listen(port, '127.0.0.1', resolve));
  const profiles = await stack.api('GET', `/account/${A.merchant_id}/business_profile`, undefined, stack.adminKey);
  const set = await stack.api(
    'POST',
    `/account/${A.merchant_id}/business_profile/${profiles.body[0].profile_id}`,
    { webhook_details: { webhook_url: `http://127.0.0.1:${port}/hooks` } },
    stack.adminKey,
  );
  expect(set.status, JSON.stringify(set.body)).toBe(200);

  // A's customer and the payment its mandates come from.
  expect((await stack.api('POST', '/customers', { customer_id: CUS, name: 'Sub Scriber', email: 'sub@a.example' }, A.api_key)).status).toBe(200);
  const paid = await stack.api(
    'POST',
    '/payments',
    { amount: 10_000, currency: 'EUR', confirm: true, payment_method: 'pay_later', payment_method_type: 'invoice', customer_id: CUS },
    A.api_key,
  );
  expect(paid.body.status, JSON.stringify(paid.body)).toBe('succeeded');
  paymentId = paid.body.payment_id;
  expect((await stack.api('POST', '/customers', { customer_id: 'cus_mandates_b', name: 'Other' }, B.api_key)).status).toBe(200);

  const db = await stack.db();
  const t = (min: number) => new Date(Date.now() - min * 60_000).toISOString();
  await insertMandates(
    db,
    [
      mandateDoc({ mandate_id: 'man_a_first', merchant_id: A.merchant_id, customer_id: CUS, original_payment_id: paymentId, created_at: t(30) }),
      mandateDoc({ mandate_id: 'man_a_second', merchant_id: A.merchant_id, customer_id: CUS, original_payment_id: paymentId, created_at: t(20) }),
      mandateDoc({
        mandate_id: 'man_a_expired',
        merchant_id: A.merchant_id,
        customer_id: CUS,
        original_payment_id: paymentId,
        created_at: t(40),
        mandate_type: { single_use: { amount: 10_000, currency: 'EUR', start_date: '2025-01-01T00:00:00.000Z', end_date: past } },
      }),
      mandateDoc({ mandate_id: 'man_a_race', merchant_id: A.merchant_id, customer_id: 'cus_mandates_a2', original_payment_id: paymentId }),
      mandateDoc({ mandate_id: 'man_a_crash', merchant_id: A.merchant_id, customer_id: 'cus_mandates_a2', original_payment_id: paymentId }),
      mandateDoc({ mandate_id: 'man_b_only', merchant_id: B.merchant_id, customer_id: 'cus_mandates_b', original_payment_id: 'pay_b_unknown' }),
    ],
    [
      paymentMethodDoc({ payment_token: 'token_a_1', merchant_id: A.merchant_id, customer_id: CUS, mandate_id: 'man_a_first', created_at: t(30) }),
      paymentMethodDoc({ payment_token: 'token_a_2', merchant_id: A.merchant_id, customer_id: CUS, setup_future_usage: 'on_session', created_at: t(10) }),
      paymentMethodDoc({ payment_token: 'token_b_1', merchant_id: B.merchant_id, customer_id: 'cus_mandates_b' }),
    ],
  );
});
afterAll(async () => {
  server?.closeAllConnections();
  await new Promise((r) => server?.close(r));
  await stack?.stop();
});

describe('mandates API', () => {
  it('GET /mandates/{id}: the Mandate resource, valid by its schema; expired once past its end_date', async () => {
    const r = await get('/mandates/man_a_first');
    expect(r.status, JSON.stringify(r.body)).toBe(200);
    expect(MandateResource.strict().parse(r.body)).toEqual(r.body);
    expect(r.body).toMatchObject({
      mandate_id: 'man_a_first',
      merchant_id: A.merchant_id,
      customer_id: CUS,
      status: 'active',
      connector: 'service_test',
      connector_mandate_id: 'stm_man_a_first',
      original_payment_id: paymentId,
      customer_acceptance: { acceptance_type: 'online' },
      revoked_at: null,
    });
    expect((await get('/mandates/man_a_expired')).body.status).toBe('expired');
  });

  it("another merchant's mandate or customer answers 404 HE_02 like an unknown one, naming the id; the publishable key 403; no key 401", async () => {
    const unknown = await get('/mandates/man_nope');
    expect(unknown.status).toBe(404);
    expect(unknown.body.error).toMatchObject({ code: 'HE_02', param: 'mandate_id' });
    for (const path of ['/mandates/man_b_only', '/customers/cus_mandates_b/mandates', '/customers/cus_mandates_b/payment_methods']) {
      const r = await get(path);
      expect(r.status, path).toBe(404);
      expect(r.body.error.code).toBe('HE_02');
    }
    expect((await get('/mandates/man_a_first', B.api_key)).body.error).toEqual(unknown.body.error);
    expect((await get(`/customers/${CUS}/mandates`, B.api_key)).body.error).toMatchObject({ code: 'HE_02', param: 'customer_id' });
    expect((await revoke('man_b_only')).body.error).toMatchObject({ code: 'HE_02', param: 'mandate_id' });
    expect((await get('/mandates/man_b_only', B.api_key)).body.status).toBe('active');
    for (const [method, path] of [
      ['GET', '/mandates/man_a_first'],
      ['POST', '/mandates/revoke/man_a_first'],
      ['GET', `/customers/${CUS}/mandates`],
      ['GET', `/customers/${CUS}/payment_methods`],
    ]) {
      expect((await stack.api(method, path, undefined, A.pk)).body.error?.code, `${method} ${path} publishable`).toBe('IR_22');
      expect((await stack.api(method, path)).status, `${method} ${path} keyless`).toBe(401);
    }
    expect((await get('/mandates/man_a_first')).body.status).toBe('active');
  });

  it("GET /customers/{id}/mandates: the customer's mandates, newest first; an unknown customer 404 naming customer_id", async () => {
    const r = await get(`/customers/${CUS}/mandates`);
    expect(r.status).toBe(200);
    expect(r.body.map((m: any) => [m.mandate_id, m.status])).toEqual([
      ['man_a_second', 'active'],
      ['man_a_first', 'active'],
      ['man_a_expired', 'expired'],
    ]);
    for (const m of r.body) expect(MandateResource.strict().parse(m)).toEqual(m);
    const none = await get('/customers/cus_nobody/mandates');
    expect(none.status).toBe(404);
    expect(none.body.error).toMatchObject({ code: 'HE_02', param: 'customer_id' });
  });

  it('GET /customers/{id}/payment_methods: {customer_payment_methods}, newest first, no merchant_id nor anything sensitive', async () => {
    const r = await get(`/customers/${CUS}/payment_methods`);
    expect(r.status).toBe(200);
    expect(Object.keys(r.body)).toEqual(['customer_payment_methods']);
    expect(r.body.customer_payment_methods.map((p: any) => p.payment_token)).toEqual(['token_a_2', 'token_a_1']);
    for (const p of r.body.customer_payment_methods) expect(CustomerPaymentMethod.strict().parse(p)).toEqual(p);
    expect(r.body.customer_payment_methods[1]).toMatchObject({ mandate_id: 'man_a_first', setup_future_usage: 'off_session', customer_id: CUS });
    expect(JSON.stringify(r.body)).not.toContain(A.merchant_id);
  });

  it('POST /mandates/revoke/{id}: revoked once, with one mandate_revoked event delivered to the webhook endpoint; twice answers revoked', async () => {
    expect((await revoke('man_a_second', A.api_key, { reason: 'x' })).body.error).toMatchObject({ code: 'IR_07', param: 'reason' });
    expect((await get('/mandates/man_a_second')).body.status).toBe('active');

    const r = await revoke('man_a_second');
    expect(r.status, JSON.stringify(r.body)).toBe(200);
    expect(r.body).toEqual({ mandate_id: 'man_a_second', status: 'revoked' });
    const after = (await get('/mandates/man_a_second')).body;
    expect(after).toMatchObject({ status: 'revoked', revoked_at: expect.any(String) });
    const again = await revoke('man_a_second');
    expect(again.body).toEqual({ mandate_id: 'man_a_second', status: 'revoked' });
    expect((await get('/mandates/man_a_second')).body.revoked_at).toBe(after.revoked_at);

    const hook = await until('mandate_revoked at the endpoint', async () => hooks.find((h) => h.event_type === 'mandate_revoked'));
    expect(hook.content.type).toBe('mandate_details');
    expect(hook.content.object).toEqual(after);
    expect(hook.headers['webhook-id']).toBe(hook.event_id);
    const listed = await until('the event listed', async () => {
      const l = await get(`/events/${A.merchant_id}?object_id=man_a_second`);
      return l.body.data?.length ? l.body : null;
    });
    expect(listed.data).toHaveLength(1);
    expect(listed.data[0]).toMatchObject({
      event_id: hook.event_id,
      event_type: 'mandate_revoked',
      event_class: 'mandates',
      object_type: 'mandate_details',
      payment_id: paymentId,
    });
    await until('delivered', async () => (await get(`/events/${A.merchant_id}?object_id=man_a_second`)).body.data[0].delivery_status === 'delivered');
    // A third revoke, after the delivery: still one event, delivered once.
    expect((await revoke('man_a_second')).body.status).toBe('revoked');
    await sleep(1_500);
    expect(hooks.filter((h) => h.event_type === 'mandate_revoked' && h.content.object.mandate_id === 'man_a_second')).toHaveLength(1);
    expect(await (await stack.db()).collection('events').countDocuments({ merchant_id: A.merchant_id, object_id: 'man_a_second' })).toBe(1);
  });

  it('revokes at once: one revoked, one event; a revocation that stopped before its event gets it when asked again', async () => {
    const answers = await Promise.all(Array.from({ length: 6 }, () => revoke('man_a_race')));
    for (const a of answers) expect(a.body).toEqual({ mandate_id: 'man_a_race', status: 'revoked' });
    // A crash between the revoke and its event, as MandateStore leaves it: revoked, no event.
    const db = await stack.db();
    await new MandateStore(db).revokeMandate(A.merchant_id, 'man_a_crash', new Date().toISOString());
    expect(await db.collection('events').countDocuments({ object_id: 'man_a_crash' })).toBe(0);
    expect((await revoke('man_a_crash')).body).toEqual({ mandate_id: 'man_a_crash', status: 'revoked' });
    for (const id of ['man_a_race', 'man_a_crash']) {
      await until(`mandate_revoked for ${id}`, async () => hooks.find((h) => h.event_type === 'mandate_revoked' && h.content.object.mandate_id === id));
    }
    await sleep(1_000);
    for (const id of ['man_a_race', 'man_a_crash']) {
      expect(
        hooks.filter((h) => h.event_type === 'mandate_revoked' && h.content.object.mandate_id === id),
        id,
      ).toHaveLength(1);
      expect(await db.collection('events').countDocuments({ object_id: id }), id).toBe(1);
    }
  });

  it('an expired mandate cannot be revoked: 400 naming mandate_id, nothing changed, no event', async () => {
    const r = await revoke('man_a_expired');
    expect(r.status).toBe(400);
    expect(r.body.error).toMatchObject({ param: 'mandate_id' });
    expect(r.body.error.message).toContain('expired');
    expect((await get('/mandates/man_a_expired')).body).toMatchObject({ status: 'expired', revoked_at: null });
    expect(await (await stack.db()).collection('events').countDocuments({ object_id: 'man_a_expired' })).toBe(0);
  });

  it("DELETE /customers/{id}: its active mandates revoked (each with its event), its payment methods deleted; another merchant's untouched", async () => {
    const r = await stack.api('DELETE', `/customers/${CUS}`, undefined, A.api_key);
    expect(r.status).toBe(200);
    expect(r.body).toEqual({ customer_id: CUS, customer_deleted: true, address_deleted: true, payment_methods_deleted: true });
    // The mandates stay readable by id (the payments that set them up name them), revoked; the expired one as it was.
    expect((await get('/mandates/man_a_first')).body).toMatchObject({ status: 'revoked', revoked_at: expect.any(String) });
    expect((await get('/mandates/man_a_expired')).body.status).toBe('expired');
    const db = await stack.db();
    expect(await db.collection('payment_methods').countDocuments({ merchant_id: A.merchant_id })).toBe(0);
    expect(await db.collection('payment_methods').countDocuments({ merchant_id: B.merchant_id })).toBe(1);
    expect((await get('/mandates/man_b_only', B.api_key)).body.status).toBe('active');
    // The customer is gone: its lists answer 404 like any unknown customer.
    expect((await get(`/customers/${CUS}/mandates`)).body.error).toMatchObject({ code: 'HE_02', param: 'customer_id' });
    expect((await get(`/customers/${CUS}/payment_methods`)).status).toBe(404);
    const hook = await until('mandate_revoked for man_a_first', async () =>
      hooks.find((h) => h.event_type === 'mandate_revoked' && h.content.object.mandate_id === 'man_a_first'),
    );
    expect(hook.content.object).toMatchObject({ status: 'revoked', customer_id: CUS });
    expect(
      hooks
        .filter((h) => h.event_type === 'mandate_revoked' && h.content.object.customer_id === CUS)
        .map((h) => h.content.object.mandate_id)
        .sort(),
    ).toEqual(['man_a_first', 'man_a_second']);
  });
});

describe('documents', () => {
  it('the OpenAPI document has the four routes with the mandate schemas', async () => {
    const doc = (await stack.api('GET', '/openapi.json')).body;
    // The bodies are named component schemas (issue 23): follow the $ref.
    const ok = (path: string, method: string) => {
      const schema = doc.paths[path][method].responses['200'].content['application/json'].schema;
      return schema.$ref ? doc.components.schemas[schema.$ref.split('/').pop()] : schema;
    };
    expect(ok('/mandates/{mandate_id}', 'get').properties).toHaveProperty('mandate_id');
    expect(ok('/mandates/revoke/{mandate_id}', 'post').properties).toHaveProperty('status');
    expect(ok('/customers/{customer_id}/mandates', 'get').type).toBe('array');
    expect(ok('/customers/{customer_id}/payment_methods', 'get').properties).toHaveProperty('customer_payment_methods');
  });

  it("GET /feature_matrix: each connector's mandates, from its manifest (absent: not supported)", async () => {
    const { connectors } = (await stack.api('GET', '/feature_matrix')).body;
    for (const c of connectors) {
      expect(c.mandates, c.name).toEqual({ supported: expect.any(Boolean), payment_method_types: expect.any(Array), setup_mandate: expect.any(Boolean) });
      if (!c.mandates.supported) expect(c.mandates).toEqual({ supported: false, payment_method_types: [], setup_mandate: false });
    }
  });
});
