// Client-side authentication (spec section 5, issue 4): the publishable key with a payment's client_secret may
// confirm and retrieve that payment and read its payment link, and nothing else.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Stack } from './support/stack.ts';

let stack: Stack;
let key: string;
let pk: string;
beforeAll(async () => {
  let merchantId: string;
  ({ stack, api_key: key, merchant_id: merchantId } = await Stack.withMerchant());
  pk = (await stack.api('GET', `/accounts/${merchantId}`, undefined, stack.adminKey)).body.publishable_key;
});
afterAll(async () => stack?.stop());

const create = async (body: Record<string, unknown> = {}) =>
  (await stack.api('POST', '/payments', { amount: 2_500, currency: 'EUR', capture_method: 'manual', ...body }, key)).body;
const transitions = async () => (await stack.db()).collection('transitions').countDocuments({});

describe('publishable key + client_secret', () => {
  it('confirms and retrieves its payment; the customer may set only their own fields', async () => {
    const p = await create();
    expect(p.client_secret).toMatch(new RegExp(`^${p.payment_id}_secret_[A-Za-z0-9]{20}$`));
    const got = await stack.api('GET', `/payments/${p.payment_id}?client_secret=${p.client_secret}`, undefined, pk);
    expect(got.status).toBe(200);
    expect(got.body.payment_id).toBe(p.payment_id);
    const before = await transitions();
    const sneaky = await stack.api('POST', `/payments/${p.payment_id}/confirm`, { client_secret: p.client_secret, payment_method: 'pay_later', amount: 1 }, pk);
    expect(sneaky.status).toBe(403);
    expect(sneaky.body.error.code).toBe('IR_22');
    expect(await transitions()).toBe(before);
    const c = await stack.api(
      'POST',
      `/payments/${p.payment_id}/confirm`,
      {
        client_secret: p.client_secret,
        payment_method: 'pay_later',
        payment_method_type: 'invoice',
        browser_info: { user_agent: 'Mozilla/5.0' },
      },
      pk,
    );
    expect(c.status).toBe(200);
    expect(c.body).toMatchObject({ status: 'requires_capture', payment_method_type: 'invoice', amount: 2_500 });
  });

  it("a missing, wrong, other payment's or expired client_secret is refused (IR_08 / IR_09) and changes nothing", async () => {
    const a = await create();
    const b = await create();
    const expired = await create({ session_expiry: 1 });
    await new Promise((r) => setTimeout(r, 1_100));
    const before = await transitions();
    const confirm = (id: string, secret?: string) =>
      stack.api('POST', `/payments/${id}/confirm`, { payment_method: 'pay_later', ...(secret ? { client_secret: secret } : {}) }, pk);
    expect((await confirm(a.payment_id)).body.error).toMatchObject({ code: 'IR_08', param: 'client_secret' });
    expect((await confirm(a.payment_id, `${a.payment_id}_secret_${'x'.repeat(20)}`)).body.error).toMatchObject({ code: 'IR_09', param: 'client_secret' });
    expect((await confirm(a.payment_id, b.client_secret)).body.error.code).toBe('IR_09');
    expect((await stack.api('GET', `/payments/${b.payment_id}?client_secret=${a.client_secret}`, undefined, pk)).body.error.code).toBe('IR_09');
    expect((await stack.api('GET', `/payments/${b.payment_id}`, undefined, pk)).body.error.code).toBe('IR_08');
    expect((await confirm(expired.payment_id, expired.client_secret)).body.error).toMatchObject({ code: 'IR_08', message: expect.stringContaining('expired') });
    expect(await transitions()).toBe(before);
  });

  it('on every secret-key endpoint the publishable key is refused with 403, nothing changes', async () => {
    const p = await create();
    const before = await transitions();
    const calls: [string, string, unknown][] = [
      ['POST', '/payments', { amount: 1, currency: 'EUR' }],
      ['GET', '/payments/list', undefined],
      ['POST', '/payments/list', {}],
      ['POST', `/payments/${p.payment_id}`, { client_secret: p.client_secret, description: 'x' }],
      ['POST', `/payments/${p.payment_id}/capture`, { client_secret: p.client_secret }],
      ['POST', `/payments/${p.payment_id}/cancel`, { client_secret: p.client_secret }],
      ['POST', `/payments/${p.payment_id}/incremental_authorization`, { amount: 5_000 }],
      ['POST', `/payments/${p.payment_id}/approve`, {}],
      ['POST', `/payments/${p.payment_id}/reject`, {}],
      ['GET', '/customers/list', undefined],
    ];
    for (const [method, path, body] of calls) {
      const r = await stack.api(method, path, body, pk);
      expect(r.status, `${method} ${path}`).toBe(403);
      expect(r.body.error.code).toBe('IR_22');
    }
    // Admin endpoints take only the admin key: a publishable key is as unknown there as any other.
    expect((await stack.api('GET', `/accounts/${p.merchant_id}`, undefined, pk)).status).toBe(401);
    expect(await transitions()).toBe(before);
  });

  it("a secret key with a client_secret is refused: the client_secret is the browser's", async () => {
    const p = await create();
    const r = await stack.api('POST', `/payments/${p.payment_id}/confirm`, { client_secret: p.client_secret, payment_method: 'pay_later' }, key);
    expect(r.status).toBe(400);
    expect(r.body.error.param).toBe('client_secret');
    expect((await stack.api('GET', `/payments/${p.payment_id}?client_secret=${p.client_secret}`, undefined, key)).body.error.param).toBe('client_secret');
    expect((await stack.api('GET', `/payments/${p.payment_id}`, undefined, key)).body.status).toBe('requires_confirmation');
  });

  it("reads its payment link with the client_secret; another merchant's publishable key sees nothing", async () => {
    const p = await create({ payment_link: true });
    const id = p.payment_link.payment_link_id;
    const r = await stack.api('GET', `/payment_link/${id}?client_secret=${p.client_secret}`, undefined, pk);
    expect(r.status).toBe(200);
    expect(r.body).toMatchObject({ payment_link_id: id, amount: 2_500, status: 'active' });
    expect((await stack.api('GET', `/payment_link/${id}`, undefined, pk)).body.error.code).toBe('IR_08');
    const other = await stack.merchant();
    const otherPk = (await stack.api('GET', `/accounts/${other.merchant_id}`, undefined, stack.adminKey)).body.publishable_key;
    expect((await stack.api('GET', `/payment_link/${id}?client_secret=${p.client_secret}`, undefined, otherPk)).status).toBe(404);
    expect((await stack.api('GET', `/payments/${p.payment_id}?client_secret=${p.client_secret}`, undefined, otherPk)).status).toBe(404);
  });

  it('an unknown or malformed publishable key gets the same 401 as any bad key', async () => {
    for (const bad of ['pk_snd_00000000000000000000000000000000', 'pk_', 'pk_'.padEnd(300, 'x')]) {
      const r = await stack.api('GET', '/payments/pay_x', undefined, bad);
      expect(r.status).toBe(401);
      expect(r.body.error.code).toBe('IR_01');
    }
  });

  it('the browser is answered only the client fields: no merchant metadata, customer record, connector or ephemeral key', async () => {
    const p = await create({
      metadata: { internal_ref: 'merchant-only' },
      customer: { id: 'cus_client_view', email: 'c@example.com', name: 'C' },
      description: 'Shoes',
    });
    const full = await stack.api('GET', `/payments/${p.payment_id}`, undefined, key);
    expect(full.body).toMatchObject({ metadata: { internal_ref: 'merchant-only' }, merchant_id: expect.any(String), ephemeral_key: expect.anything() });
    const CLIENT_FIELDS = [
      'payment_id',
      'status',
      'amount',
      'net_amount',
      'currency',
      'capture_method',
      'authentication_type',
      'external_3ds_authentication_attempted',
      'external_authentication_details',
      'payment_method',
      'payment_method_type',
      'payment_experience',
      'allowed_payment_method_types',
      'description',
      'return_url',
      'next_action',
      'created',
      'expires_on',
      'error_code',
      'error_message',
      'unified_code',
      'unified_message',
    ].sort();
    const got = await stack.api('GET', `/payments/${p.payment_id}?client_secret=${p.client_secret}`, undefined, pk);
    expect(got.status).toBe(200);
    expect(Object.keys(got.body).sort()).toEqual(CLIENT_FIELDS);
    expect(got.body).toMatchObject({ payment_id: p.payment_id, amount: 2_500, currency: 'EUR', description: 'Shoes', status: 'requires_confirmation' });
    const confirmed = await stack.api('POST', `/payments/${p.payment_id}/confirm`, { client_secret: p.client_secret, payment_method: 'pay_later' }, pk);
    expect(confirmed.status).toBe(200);
    expect(Object.keys(confirmed.body).sort()).toEqual(CLIENT_FIELDS);
    for (const answer of [got, confirmed]) {
      expect(JSON.stringify(answer.body)).not.toMatch(/merchant-only|epk_|c@example\.com|_secret_/);
    }
  });

  it('every answer is no-store, nosniff and no-referrer: JSON, refusals, unknown routes and pages', async () => {
    const p = await create({ payment_link: true });
    const answers = [
      await stack.api('GET', `/payments/${p.payment_id}?client_secret=${p.client_secret}`, undefined, pk),
      await stack.api('GET', `/payments/${p.payment_id}`, undefined, key),
      await stack.api('POST', '/payments', { amount: 1, currency: 'EUR' }, key),
      await stack.api('GET', '/payments/list', undefined, 'bad key'),
      await stack.api('GET', '/no/such/route'),
      await stack.api('GET', '/health'),
      await stack.api('GET', new URL(p.payment_link.link).pathname),
    ];
    for (const r of answers) {
      expect(r.headers.get('cache-control')).toBe('no-store');
      expect(r.headers.get('x-content-type-options')).toBe('nosniff');
      expect(r.headers.get('referrer-policy')).toBe('no-referrer');
    }
    expect(answers.map((r) => r.status)).toEqual([200, 200, 200, 401, 404, 200, 200]);
  });
});
