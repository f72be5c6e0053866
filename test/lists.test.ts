// Payment lists: GET /payments/list (cursor pages, newest first) and POST /payments/list (filters, offsets).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Stack, sleep } from './support/stack.ts';

let stack: Stack;
let key: string;
const made: { payment_id: string; created: string; status: string }[] = [];
beforeAll(async () => {
  stack = await Stack.start();
  ({ api_key: key } = await stack.merchant());
  const bodies = [
    { amount: 100, currency: 'EUR' },
    { amount: 200, currency: 'SEK', confirm: true, payment_method: 'pay_later' },
    { amount: 300, currency: 'EUR', confirm: true, payment_method: 'pay_later', capture_method: 'manual' },
    { amount: 400, currency: 'NOK', confirm: true, payment_method: 'pay_later', customer: { email: 'l+decline@example.com' } },
    { amount: 500, currency: 'EUR', customer: { id: 'cus_list_1', email: 'l@example.com' } },
  ];
  for (const b of bodies) {
    const r = await stack.api('POST', '/payments', b, key);
    made.push(r.body);
    await sleep(5);
  }
  // Another merchant's payment never shows.
  const other = await stack.merchant();
  await stack.api('POST', '/payments', { amount: 999, currency: 'EUR' }, other.api_key);
});
afterAll(async () => stack?.stop());

const ids = (r: { body: { data: { payment_id: string }[] } }) => r.body.data.map((p) => p.payment_id);
const newestFirst = () => [...made].reverse().map((p) => p.payment_id);

describe('GET /payments/list', () => {
  it("lists the merchant's payments newest first, 10 by default, as full Payment objects", async () => {
    const r = await stack.api('GET', '/payments/list', undefined, key);
    expect(r.status).toBe(200);
    expect(r.body.size).toBe(5);
    expect(ids(r)).toEqual(newestFirst());
    expect(r.body.data[0]).toHaveProperty('net_amount');
  });

  it('pages with limit, starting_after and ending_before', async () => {
    const all = newestFirst();
    const page1 = await stack.api('GET', '/payments/list?limit=2', undefined, key);
    expect(ids(page1)).toEqual(all.slice(0, 2));
    const page2 = await stack.api('GET', `/payments/list?limit=2&starting_after=${all[1]}`, undefined, key);
    expect(ids(page2)).toEqual(all.slice(2, 4));
    const back = await stack.api('GET', `/payments/list?limit=2&ending_before=${all[2]}`, undefined, key);
    expect(ids(back)).toEqual(all.slice(0, 2));
  });

  it('pages through payments created in the same millisecond, by payment_id, none skipped or repeated', async () => {
    const m = await stack.merchant();
    const own: string[] = [];
    for (let i = 0; i < 3; i++) own.push((await stack.api('POST', '/payments', { amount: 100 + i, currency: 'EUR' }, m.api_key)).body.payment_id);
    const same = '2026-01-02T03:04:05.006Z';
    await (await stack.db()).collection('payments').updateMany({ payment_id: { $in: own } }, { $set: { created: same } });
    const order = [...own].sort().reverse();
    const page = async (query: string) => ids(await stack.api('GET', `/payments/list?limit=1${query}`, undefined, m.api_key));
    const forward = [...(await page(''))];
    while (forward.length < 4) {
      const next = await page(`&starting_after=${forward.at(-1)}`);
      if (!next.length) break;
      forward.push(...next);
    }
    expect(forward).toEqual(order);
    expect(await page(`&ending_before=${order[2]}`)).toEqual([order[1]]);
    expect(await page(`&ending_before=${order[0]}`)).toEqual([]);
  });

  it('filters by customer_id and by created time', async () => {
    expect(ids(await stack.api('GET', '/payments/list?customer_id=cus_list_1', undefined, key))).toEqual([made[4].payment_id]);
    const since = await stack.api('GET', `/payments/list?created.gte=${encodeURIComponent(made[3].created)}`, undefined, key);
    expect(ids(since)).toEqual([made[4].payment_id, made[3].payment_id]);
    const before = await stack.api('GET', `/payments/list?created.lt=${encodeURIComponent(made[1].created)}`, undefined, key);
    expect(ids(before)).toEqual([made[0].payment_id]);
  });

  it.each([
    ['limit', 'limit=0'],
    ['limit', 'limit=101'],
    ['limit', 'limit=abc'],
    ['created.gt', 'created.gt=yesterday'],
    ['starting_after', 'starting_after=pay_nope'],
    ['colour', 'colour=red'],
  ])('bad %s -> 400 naming it', async (param, query) => {
    const r = await stack.api('GET', `/payments/list?${query}`, undefined, key);
    expect(r.status).toBe(400);
    expect(r.body.error.param).toBe(param);
  });
});

describe('POST /payments/list', () => {
  it('filters by status, currency and amount, with count and total_count', async () => {
    const eur = await stack.api('POST', '/payments/list', { currency: ['EUR'] }, key);
    expect(eur.body).toMatchObject({ count: 3, total_count: 3 });
    const failed = await stack.api('POST', '/payments/list', { status: ['failed'] }, key);
    expect(ids(failed)).toEqual([made[3].payment_id]);
    const mid = await stack.api('POST', '/payments/list', { amount_filter: { start_amount: 200, end_amount: 400 } }, key);
    expect(ids(mid)).toEqual([made[3].payment_id, made[2].payment_id, made[1].payment_id]);
    const two = await stack.api('POST', '/payments/list', { status: ['succeeded', 'requires_capture'], connector: ['service_test'] }, key);
    expect(ids(two)).toEqual([made[2].payment_id, made[1].payment_id]);
  });

  it('pages with limit and offset; total_count counts all matches', async () => {
    const r = await stack.api('POST', '/payments/list', { limit: 2, offset: 2 }, key);
    expect(r.body).toMatchObject({ count: 2, total_count: 5 });
    expect(ids(r)).toEqual(newestFirst().slice(2, 4));
  });

  it('total_count counts all matches whether the page is full, short or past the end', async () => {
    const page = async (body: Record<string, unknown>) => (await stack.api('POST', '/payments/list', body, key)).body;
    expect(await page({ limit: 5 })).toMatchObject({ count: 5, total_count: 5 });
    expect(await page({ limit: 2, offset: 4 })).toMatchObject({ count: 1, total_count: 5 });
    expect(await page({ limit: 2, offset: 7 })).toMatchObject({ count: 0, total_count: 5 });
    expect(await page({ limit: 10, currency: ['SEK'] })).toMatchObject({ count: 1, total_count: 1 });
    expect(await page({ limit: 10, currency: ['USD'] })).toMatchObject({ count: 0, total_count: 0 });
  });

  it('answers each payment as GET /payments/{id} does', async () => {
    const listed = (await stack.api('POST', '/payments/list', {}, key)).body.data;
    const got = [];
    for (const p of listed) got.push((await stack.api('GET', `/payments/${p.payment_id}`, undefined, key)).body);
    expect(listed).toEqual(got);
    expect((await stack.api('GET', '/payments/list', undefined, key)).body.data).toEqual(got);
  });

  it('filters by time: start_time to end_time (default now)', async () => {
    const r = await stack.api('POST', '/payments/list', { start_time: made[2].created }, key);
    expect(ids(r)).toEqual(newestFirst().slice(0, 3));
  });

  it.each([
    ['status.0', { status: ['bogus'] }],
    ['limit', { limit: 0 }],
    ['offset', { offset: -1 }],
    ['offset', { offset: 10_001 }],
    ['amount_filter.start_amount', { amount_filter: { start_amount: -5 } }],
    ['start_time', { start_time: 'soon' }],
    ['sort', { sort: 'asc' }],
  ])('bad %s -> 400 naming it', async (param, body) => {
    const r = await stack.api('POST', '/payments/list', body, key);
    expect(r.status).toBe(400);
    expect(r.body.error.param).toBe(param);
  });
});

describe('list indexes on the server', () => {
  it('the payments and customers collections carry the merchant-leading list indexes', async () => {
    const db = await stack.db();
    const names = async (c: string) => (await db.collection(c).listIndexes().toArray()).map((i) => i.name);
    expect(await names('payments')).toEqual(expect.arrayContaining(['list_by_merchant', 'list_by_customer', 'list_by_profile']));
    expect(await names('customers')).toEqual(expect.arrayContaining(['customers_list']));
  });
});

describe('POST /refunds/list', () => {
  it('answers each refund as GET /refunds/{id} does, with total_count', async () => {
    const refund = (await stack.api('POST', '/refunds', { payment_id: made[1].payment_id, amount: 50 }, key)).body;
    const r = await stack.api('POST', '/refunds/list', {}, key);
    expect(r.body).toMatchObject({ count: 1, total_count: 1 });
    expect(r.body.data).toEqual([(await stack.api('GET', `/refunds/${refund.refund_id}`, undefined, key)).body]);
    expect((await stack.api('POST', '/refunds/list', { offset: 1 }, key)).body).toMatchObject({ count: 0, total_count: 1 });
  });
});
