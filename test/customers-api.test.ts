// Customers API (spec area "customers"): create, retrieve, list, update, delete with the merchant's secret key.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Stack } from './support/stack.ts';

let stack: Stack;
let key: string;
let merchantId: string;
beforeAll(async () => ({ stack, api_key: key, merchant_id: merchantId } = await Stack.withMerchant()));
afterAll(async () => stack?.stop());

const FIELDS = ['customer_id', 'name', 'email', 'phone', 'phone_country_code', 'description', 'address', 'metadata', 'created_at'];
const ADDRESS = { line1: 'Hauptstr. 1', city: 'Berlin', zip: '10115', country: 'DE', first_name: 'Ada', last_name: 'Lovelace' };

const createCustomer = (body: unknown, k = key) => stack.api('POST', '/customers', body, k);
const stored = async (customerId: string, merchant = merchantId) =>
  (await stack.db()).collection('customers').findOne({ customer_id: customerId, merchant_id: merchant }, { projection: { _id: 0 } });
const countOf = async (merchant = merchantId) => (await stack.db()).collection('customers').countDocuments({ merchant_id: merchant });

describe('customers API', () => {
  it('create with a customer_id answers the Customer resource (no merchant_id, no _id) and stores it for the merchant', async () => {
    const r = await createCustomer({
      customer_id: 'cus_api_1',
      name: 'Ada Lovelace',
      email: 'ada@example.com',
      phone: '1512345678',
      phone_country_code: '+49',
      description: 'first customer',
      address: ADDRESS,
      metadata: { tier: 'gold', visits: 3 },
    });
    expect(r.status).toBe(200);
    expect(Object.keys(r.body).sort()).toEqual([...FIELDS].sort());
    expect(r.body).toEqual({
      customer_id: 'cus_api_1',
      name: 'Ada Lovelace',
      email: 'ada@example.com',
      phone: '1512345678',
      phone_country_code: '+49',
      description: 'first customer',
      address: ADDRESS,
      metadata: { tier: 'gold', visits: 3 },
      created_at: expect.any(String),
    });
    expect(Date.now() - Date.parse(r.body.created_at)).toBeLessThan(60_000);
    expect(await stored('cus_api_1')).toMatchObject({ merchant_id: merchantId, name: 'Ada Lovelace', address: ADDRESS });
  });

  it('create without a customer_id generates cus_ + 20 alphanumerics; fields not given are null', async () => {
    const r = await createCustomer({ email: 'grace@example.com' });
    expect(r.status).toBe(200);
    expect(r.body).toEqual({
      customer_id: expect.stringMatching(/^cus_[A-Za-z0-9]{20}$/),
      name: null,
      email: 'grace@example.com',
      phone: null,
      phone_country_code: null,
      description: null,
      address: null,
      metadata: null,
      created_at: expect.any(String),
    });
    expect(await stored(r.body.customer_id)).not.toBeNull();
    const empty = await stack.api('POST', '/customers', undefined, key);
    expect(empty.status).toBe(200);
    expect(empty.body.customer_id).toMatch(/^cus_[A-Za-z0-9]{20}$/);
    expect(empty.body.customer_id).not.toBe(r.body.customer_id);
  });

  it('retrieve answers the same resource', async () => {
    const r = await stack.api('GET', '/customers/cus_api_1', undefined, key);
    expect(r.status).toBe(200);
    expect(Object.keys(r.body).sort()).toEqual([...FIELDS].sort());
    expect(r.body).toMatchObject({ customer_id: 'cus_api_1', name: 'Ada Lovelace', address: ADDRESS, metadata: { tier: 'gold', visits: 3 } });
    const missing = await stack.api('GET', '/customers/cus_nobody', undefined, key);
    expect(missing.status).toBe(404);
    expect(missing.body.error).toMatchObject({ code: 'HE_02', message: 'Customer does not exist in our records' });
  });

  it('a duplicate customer_id -> 409 HE_01 naming customer_id, the stored customer unchanged; another merchant may use the id', async () => {
    const before = await stored('cus_api_1');
    const r = await createCustomer({ customer_id: 'cus_api_1', name: 'Someone else' });
    expect(r.status).toBe(409);
    expect(r.body.error).toMatchObject({ code: 'HE_01', param: 'customer_id' });
    expect(await stored('cus_api_1')).toEqual(before);
    expect(await countOf()).toBeGreaterThan(0);

    const other = await stack.merchant();
    const o = await createCustomer({ customer_id: 'cus_api_1', name: "Other shop's Ada" }, other.api_key);
    expect(o.status).toBe(200);
    expect((await stored('cus_api_1', other.merchant_id))?.name).toBe("Other shop's Ada");
    expect(await stored('cus_api_1')).toEqual(before);
  });

  it('the same Idempotency-Key replays the create: one customer', async () => {
    const headers = { 'Idempotency-Key': 'create-cus-once' };
    const a = await stack.api('POST', '/customers', { name: 'Once' }, key, headers);
    const b = await stack.api('POST', '/customers', { name: 'Once' }, key, headers);
    expect(a.status).toBe(200);
    expect(b.status).toBe(200);
    expect(b.headers.get('idempotent-replayed')).toBe('true');
    expect(b.body).toEqual(a.body);
    expect(await (await stack.db()).collection('customers').countDocuments({ merchant_id: merchantId, name: 'Once' })).toBe(1);
  });

  it("list: newest first, limit and offset, only the merchant's own customers", async () => {
    const shop = await stack.merchant();
    const other = await stack.merchant();
    await createCustomer({ customer_id: 'cus_other_shop', name: 'not mine' }, other.api_key);
    const made: string[] = [];
    for (let i = 0; i < 12; i++) {
      const r = await createCustomer({ customer_id: `cus_list_${String(i).padStart(2, '0')}`, name: `n${i}` }, shop.api_key);
      expect(r.status).toBe(200);
      made.push(r.body.customer_id);
    }
    const newest = [...made].reverse();
    const all = await stack.api('GET', '/customers/list?limit=100', undefined, shop.api_key);
    expect(all.status).toBe(200);
    expect(all.body.map((c: { customer_id: string }) => c.customer_id)).toEqual(newest);
    for (const c of all.body) expect(Object.keys(c).sort()).toEqual([...FIELDS].sort());

    const dflt = await stack.api('GET', '/customers/list', undefined, shop.api_key);
    expect(dflt.body.map((c: { customer_id: string }) => c.customer_id)).toEqual(newest.slice(0, 10));
    const page = await stack.api('GET', '/customers/list?limit=3&offset=2', undefined, shop.api_key);
    expect(page.body.map((c: { customer_id: string }) => c.customer_id)).toEqual(newest.slice(2, 5));
    const tail = await stack.api('GET', '/customers/list?limit=5&offset=10', undefined, shop.api_key);
    expect(tail.body.map((c: { customer_id: string }) => c.customer_id)).toEqual(newest.slice(10));
    const past = await stack.api('GET', '/customers/list?offset=50', undefined, shop.api_key);
    expect(past.body).toEqual([]);

    const theirs = await stack.api('GET', '/customers/list?limit=100', undefined, other.api_key);
    expect(theirs.body.map((c: { customer_id: string }) => c.customer_id)).toEqual(['cus_other_shop']);
  });

  it('list: bad query values -> 400 naming the parameter; unknown parameter -> IR_07', async () => {
    for (const [query, param, code] of [
      ['limit=0', 'limit', 'IR_05'],
      ['limit=101', 'limit', 'IR_05'],
      ['limit=abc', 'limit', 'IR_05'],
      ['limit=2.5', 'limit', 'IR_05'],
      ['offset=-1', 'offset', 'IR_05'],
      ['offset=x', 'offset', 'IR_05'],
      ['offset=10001', 'offset', 'IR_05'],
      ['limit=1&limit=2', 'limit', 'IR_05'],
      ['customer_id=cus_api_1', 'customer_id', 'IR_07'],
    ]) {
      const r = await stack.api('GET', `/customers/list?${query}`, undefined, key);
      expect(r.status, query).toBe(400);
      expect(r.body.error, query).toMatchObject({ code, param });
    }
  });

  it('update changes only the fields given; null clears one; created_at and customer_id stay', async () => {
    const before = (await stack.api('GET', '/customers/cus_api_1', undefined, key)).body;
    const r = await stack.api('POST', '/customers/cus_api_1', { name: 'Augusta Ada King', description: null, metadata: { tier: 'platinum' } }, key);
    expect(r.status).toBe(200);
    expect(r.body).toEqual({ ...before, name: 'Augusta Ada King', description: null, metadata: { tier: 'platinum' } });
    const address = { line1: "St James's Square 12", city: 'London', country: 'GB' };
    const a = await stack.api('POST', '/customers/cus_api_1', { address, email: 'ada@king.example' }, key);
    expect(a.body).toEqual({ ...r.body, address, email: 'ada@king.example' });
    expect(await stack.api('GET', '/customers/cus_api_1', undefined, key)).toMatchObject({ status: 200, body: a.body });
    const same = await stack.api('POST', '/customers/cus_api_1', {}, key);
    expect(same).toMatchObject({ status: 200, body: a.body });
    const missing = await stack.api('POST', '/customers/cus_nobody', { name: 'x' }, key);
    expect(missing.status).toBe(404);
    expect(missing.body.error.code).toBe('HE_02');
    expect(await stored('cus_nobody')).toBeNull();
  });

  const BAD: [Record<string, unknown>, string, string][] = [
    [{ name: 'x'.repeat(256) }, 'name', 'IR_05'],
    [{ name: 5 }, 'name', 'IR_05'],
    [{ email: 'not-an-email' }, 'email', 'IR_05'],
    [{ email: `${'a'.repeat(250)}@example.com` }, 'email', 'IR_05'],
    [{ phone: 'x'.repeat(256) }, 'phone', 'IR_05'],
    [{ phone_country_code: '+123456789' }, 'phone_country_code', 'IR_05'],
    [{ description: 'x'.repeat(256) }, 'description', 'IR_05'],
    [{ address: 'Berlin' }, 'address', 'IR_05'],
    [{ address: { country: 'de' } }, 'address.country', 'IR_05'],
    [{ address: { city: 'x'.repeat(256) } }, 'address.city', 'IR_05'],
    [{ address: { street: 'x' } }, 'address.street', 'IR_07'],
    [{ metadata: 'x' }, 'metadata', 'IR_05'],
    [{ metadata: { k: 'x'.repeat(501) } }, 'metadata.k', 'IR_05'],
    [{ metadata: Object.fromEntries(Array.from({ length: 51 }, (_, i) => [`k${i}`, i])) }, 'metadata', 'IR_05'],
    [{ nickname: 'Ada' }, 'nickname', 'IR_07'],
  ];

  it('create: every bad field -> 400 naming it, nothing written', async () => {
    const cases: [unknown, string, string][] = [
      ...BAD.map(([b, p, c]) => [{ customer_id: 'cus_bad', ...b }, p, c] as [unknown, string, string]),
      [{ customer_id: '' }, 'customer_id', 'IR_05'],
      [{ customer_id: 'c'.repeat(65) }, 'customer_id', 'IR_05'],
      [{ customer_id: 42 }, 'customer_id', 'IR_05'],
      [[{ customer_id: 'cus_bad' }], 'body', 'IR_05'],
    ];
    const before = await countOf();
    for (const [body, param, code] of cases) {
      const r = await createCustomer(body);
      expect(r.status, JSON.stringify(body).slice(0, 80)).toBe(400);
      expect(r.body.error, JSON.stringify(body).slice(0, 80)).toMatchObject({ code, param });
    }
    expect(await countOf()).toBe(before);
    expect(await stored('cus_bad')).toBeNull();
  });

  it('update: every bad field -> 400 naming it, the customer unchanged; customer_id cannot be changed (IR_07)', async () => {
    const before = await stored('cus_api_1');
    const cases: [unknown, string, string][] = [...BAD, [{ customer_id: 'cus_renamed' }, 'customer_id', 'IR_07'], [[{ name: 'x' }], 'body', 'IR_05']];
    for (const [body, param, code] of cases) {
      // A valid change beside the bad field: it must not be applied either.
      const r = await stack.api('POST', '/customers/cus_api_1', Array.isArray(body) ? body : { name: 'Changed?', ...(body as object) }, key);
      expect(r.status, JSON.stringify(body).slice(0, 80)).toBe(400);
      expect(r.body.error, JSON.stringify(body).slice(0, 80)).toMatchObject({ code, param });
    }
    expect(await stored('cus_api_1')).toEqual(before);
    expect(await stored('cus_renamed')).toBeNull();
  });

  it("another merchant's key: 404 HE_02 on retrieve, update and delete, nothing changed; its list does not show the customer", async () => {
    const other = await stack.merchant();
    const before = await stored('cus_api_1');
    const calls: [string, string, unknown][] = [
      ['GET', '/customers/cus_api_1', undefined],
      ['POST', '/customers/cus_api_1', { name: 'Mallory' }],
      ['DELETE', '/customers/cus_api_1', undefined],
    ];
    for (const [method, path, body] of calls) {
      const r = await stack.api(method, path, body, other.api_key);
      expect(r.status, method).toBe(404);
      expect(r.body.error, method).toMatchObject({ code: 'HE_02', message: 'Customer does not exist in our records' });
    }
    const list = await stack.api('GET', '/customers/list?limit=100', undefined, other.api_key);
    expect(list).toMatchObject({ status: 200, body: [] });
    expect(await stored('cus_api_1')).toEqual(before);
    expect(await stored('cus_api_1', other.merchant_id)).toBeNull();
  });

  const ROUTES: [string, string, unknown][] = [
    ['POST', '/customers', { customer_id: 'cus_nokey' }],
    ['GET', '/customers/list', undefined],
    ['GET', '/customers/cus_api_1', undefined],
    ['POST', '/customers/cus_api_1', { name: 'No key' }],
    ['DELETE', '/customers/cus_api_1', undefined],
  ];

  it('no key or an unknown key -> 401 IR_01 on every route, nothing changed', async () => {
    const before = await stored('cus_api_1');
    for (const [method, path, body] of ROUTES) {
      for (const k of [undefined, 'snd_not_a_real_key']) {
        const r = await stack.api(method, path, body, k);
        expect(r.status, `${method} ${path}`).toBe(401);
        expect(r.body.error.code).toBe('IR_01');
      }
    }
    expect(await stored('cus_api_1')).toEqual(before);
    expect(await stored('cus_nokey')).toBeNull();
  });

  it("the merchant's publishable key -> 403 IR_22 on every route, nothing changed", async () => {
    const m = await (await stack.db()).collection('merchants').findOne({ merchant_id: merchantId });
    const pk = m!.publishable_key as string;
    expect(pk).toMatch(/^pk_/);
    const before = await stored('cus_api_1');
    for (const [method, path, body] of ROUTES) {
      const r = await stack.api(method, path, body, pk);
      expect(r.status, `${method} ${path}`).toBe(403);
      expect(r.body.error.code).toBe('IR_22');
    }
    expect(await stored('cus_api_1')).toEqual(before);
    expect(await stored('cus_nokey')).toBeNull();
  });

  it('a customer created by a payment is visible through the Customers API', async () => {
    const p = await stack.api(
      'POST',
      '/payments',
      {
        amount: 1_000,
        currency: 'EUR',
        customer: { id: 'cus_from_payment', name: 'Grace Hopper', email: 'grace@navy.example', phone: '555', phone_country_code: '+1' },
      },
      key,
    );
    expect(p.status).toBe(200);
    const r = await stack.api('GET', '/customers/cus_from_payment', undefined, key);
    expect(r.status).toBe(200);
    expect(r.body).toEqual({
      customer_id: 'cus_from_payment',
      name: 'Grace Hopper',
      email: 'grace@navy.example',
      phone: '555',
      phone_country_code: '+1',
      description: null,
      address: null,
      metadata: null,
      created_at: expect.any(String),
    });
  });

  it('delete removes the customer (then 404); payments keep their copy; a new payment with the id creates it again', async () => {
    const p = await stack.api('POST', '/payments', { amount: 1_000, currency: 'EUR', customer_id: 'cus_api_1' }, key);
    expect(p.body.customer).toMatchObject({ id: 'cus_api_1', name: 'Augusta Ada King', email: 'ada@king.example' });

    const d = await stack.api('DELETE', '/customers/cus_api_1', undefined, key);
    expect(d.status).toBe(200);
    expect(d.body).toEqual({ customer_id: 'cus_api_1', customer_deleted: true, address_deleted: true, payment_methods_deleted: true });
    expect(await stored('cus_api_1')).toBeNull();
    for (const [method, body] of [
      ['GET', undefined],
      ['POST', { name: 'back?' }],
      ['DELETE', undefined],
    ] as const) {
      const r = await stack.api(method, '/customers/cus_api_1', body, key);
      expect(r.status, method).toBe(404);
      expect(r.body.error.code).toBe('HE_02');
    }
    expect(await stored('cus_api_1')).toBeNull();
    const list = await stack.api('GET', '/customers/list?limit=100', undefined, key);
    expect(list.body.map((c: { customer_id: string }) => c.customer_id)).not.toContain('cus_api_1');

    const kept = await stack.api('GET', `/payments/${p.body.payment_id}`, undefined, key);
    expect(kept.body.customer).toMatchObject({ id: 'cus_api_1', name: 'Augusta Ada King', email: 'ada@king.example' });

    const again = await stack.api('POST', '/payments', { amount: 1_000, currency: 'EUR', customer_id: 'cus_api_1' }, key);
    expect(again.status).toBe(200);
    expect(again.body.customer).toMatchObject({ id: 'cus_api_1', name: null, email: null });
    const r = await stack.api('GET', '/customers/cus_api_1', undefined, key);
    expect(r.status).toBe(200);
    expect(r.body).toMatchObject({ customer_id: 'cus_api_1', name: null, email: null, description: null, metadata: null });
  });

  it('the OpenAPI document lists the customers paths', async () => {
    const r = await stack.api('GET', '/openapi.json');
    expect(Object.keys(r.body.paths)).toEqual(expect.arrayContaining(['/customers', '/customers/list', '/customers/{customer_id}']));
    expect(Object.keys(r.body.paths['/customers/{customer_id}']).sort()).toEqual(['delete', 'get', 'post']);
  });
});
