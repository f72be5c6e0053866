// The rate limits: RATE_LIMIT_PER_SECOND requests per key in any rolling second (no double burst across a second's
// boundary), then 429 RL_01 with Retry-After; other keys unaffected; a refused request changes nothing; a failed
// Redis lets requests through. RATE_LIMIT_PER_ADDRESS_PER_SECOND per client address, before any authentication.
import { randomBytes } from 'node:crypto';
import type { AddressInfo } from 'node:net';
import { Redis } from 'ioredis';
import express, { type NextFunction, type Request, type Response } from 'express';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { addressKey, byAddress, rateLimit } from '../gateway/rate-limit.ts';
import { sleep, Stack, type ApiResponse } from './support/stack.ts';

const LIMIT = 5;
const CHECKOUT_LIMIT = 2;
let stack: Stack;
let merchantId: string;
let keyA: string;
let keyB: string;
beforeAll(async () => {
  stack = await Stack.start({ RATE_LIMIT_PER_SECOND: String(LIMIT), CHECKOUT_RATE_LIMIT_PER_SECOND: String(CHECKOUT_LIMIT) });
  ({ merchant_id: merchantId, api_key: keyA } = await stack.merchant());
  const k = await stack.api('POST', `/api_keys/${merchantId}`, { name: 'b', expiration: 'never' }, stack.adminKey);
  expect(k.status).toBe(200);
  keyB = k.body.api_key;
});
afterAll(async () => stack?.stop());

/** Waits until just after a whole second, so that a short burst falls in as few windows as possible. */
async function startOfSecond(): Promise<void> {
  await sleep(1000 - (Date.now() % 1000) + 5);
}

/**
 * Runs the requests at once; `windows` is how many one-second windows the burst can have been counted in (every
 * second from the first request sent to the last answer received, on this machine's clock, the gateway's too).
 */
async function burst<T>(requests: (() => Promise<T>)[]): Promise<{ results: T[]; windows: number }> {
  const start = Date.now();
  const results = await Promise.all(requests.map((r) => r()));
  const end = Date.now();
  return { results, windows: Math.floor(end / 1000) - Math.floor(start / 1000) + 1 };
}

function expectLimited(results: ApiResponse[], windows: number): void {
  const ok = results.filter((r) => r.status === 200);
  const limited = results.filter((r) => r.status === 429);
  expect(ok.length + limited.length).toBe(results.length);
  expect(ok.length).toBeLessThanOrEqual(LIMIT * windows);
  expect(limited.length).toBeGreaterThanOrEqual(1);
  for (const r of limited) {
    expect(r.body.error).toMatchObject({ type: 'invalid_request', code: 'RL_01' });
    const retryAfter = r.headers.get('retry-after');
    expect(retryAfter).toMatch(/^\d+$/);
    expect(Number(retryAfter)).toBeGreaterThanOrEqual(1);
  }
}

describe('rate limit per API key', () => {
  it(
    'a burst of 20 GETs with one key: at most the limit per window succeed, the rest 429 RL_01 with Retry-After; ' +
      'another key of the merchant is not limited by it; after Retry-After the key works again',
    async () => {
      const created = await stack.api('POST', '/payments', { amount: 500, currency: 'EUR' }, keyA);
      expect(created.status).toBe(200);
      const path = `/payments/${created.body.payment_id}`;

      await startOfSecond();
      const { results, windows } = await burst([
        ...Array.from({ length: 20 }, () => () => stack.api('GET', path, undefined, keyA).then((r) => ({ key: 'A', r }))),
        // Key B at its limit, in the same burst: each of its windows holds at most LIMIT of them.
        ...Array.from({ length: LIMIT }, () => () => stack.api('GET', path, undefined, keyB).then((r) => ({ key: 'B', r }))),
      ]);
      const a = results.filter((x) => x.key === 'A').map((x) => x.r);
      const b = results.filter((x) => x.key === 'B').map((x) => x.r);
      expectLimited(a, windows);
      expect(a.find((r) => r.status === 200)?.body.payment_id).toBe(created.body.payment_id);
      expect(b.map((r) => r.status)).toEqual(Array(LIMIT).fill(200));

      const retryAfter = Math.max(...a.filter((r) => r.status === 429).map((r) => Number(r.headers.get('retry-after'))));
      await sleep(retryAfter * 1000);
      const again = await stack.api('GET', path, undefined, keyA);
      expect(again.status).toBe(200);
      expect(again.body.payment_id).toBe(created.body.payment_id);
    },
  );

  it("no double burst across a second's boundary: the limit holds in any rolling second", async () => {
    const created = await stack.api('POST', '/payments', { amount: 500, currency: 'EUR' }, keyB);
    const path = `/payments/${created.body.payment_id}`;
    await sleep(1100);
    // The end of one second, then the start of the next: a fixed window would let 2 x LIMIT through here.
    await sleep((1800 - (Date.now() % 1000) + 1000) % 1000);
    const start = Date.now();
    const first = await Promise.all(Array.from({ length: LIMIT }, () => stack.api('GET', path, undefined, keyB)));
    await sleep(Math.max(0, Math.ceil(start / 1000) * 1000 + 50 - Date.now()));
    const second = await Promise.all(Array.from({ length: LIMIT }, () => stack.api('GET', path, undefined, keyB)));
    const end = Date.now();
    expect(first.map((r) => r.status)).toEqual(Array(LIMIT).fill(200));
    // Only meaningful if all of it happened within one rolling second (true unless the machine stalled).
    if (end - start < 1000) expect(second.map((r) => r.status)).toEqual(Array(LIMIT).fill(429));
    else expect(second.filter((r) => r.status === 200).length).toBeLessThan(LIMIT);
  });

  it('a 429 on a POST changes nothing: transitions and payments grow by exactly the number of 200 answers', async () => {
    const db = await stack.db();
    const count = async () => ({
      transitions: await db.collection('transitions').countDocuments({}),
      payments: await db.collection('payments').countDocuments({}),
    });
    await sleep(1100); // the previous test's last request's window is over
    const before = await count();
    await startOfSecond();
    const { results, windows } = await burst(Array.from({ length: 20 }, () => () => stack.api('POST', '/payments', { amount: 700, currency: 'EUR' }, keyA)));
    expectLimited(results, windows);
    const ok = results.filter((r) => r.status === 200).length;
    const after = await count();
    expect(after.transitions - before.transitions).toBe(ok);
    expect(after.payments - before.payments).toBe(ok);
  });

  it('an Idempotency-Key refused by the limit is not claimed: the same request succeeds afterwards', async () => {
    await sleep(1100);
    await startOfSecond();
    const { results } = await burst(
      Array.from(
        { length: 20 },
        (_, i) => () => stack.api('POST', '/payments', { amount: 800 + i, currency: 'EUR' }, keyA, { 'idempotency-key': `rl-${i}` }).then((r) => ({ i, r })),
      ),
    );
    const refused = results.find((x) => x.r.status === 429);
    expect(refused).toBeDefined();
    await sleep(Number(refused!.r.headers.get('retry-after')) * 1000);
    const retried = await stack.api('POST', '/payments', { amount: 800 + refused!.i, currency: 'EUR' }, keyA, { 'idempotency-key': `rl-${refused!.i}` });
    expect(retried.status).toBe(200);
    expect(retried.headers.get('idempotent-replayed')).toBeNull();
  });

  it('the keyless checkout calls of a payment link are limited per payment; a 429 confirms nothing', async () => {
    const link = async () => (await stack.api('POST', '/payments', { amount: 900, currency: 'EUR', payment_link: true, capture_method: 'manual' }, keyA)).body;
    const [p, q] = [await link(), await link()];
    const confirm = (x: any) =>
      fetch(`${x.payment_link.link}/confirm`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{}' }).then(async (r) => ({
        status: r.status,
        retryAfter: r.headers.get('retry-after'),
        body: await r.json(),
      }));
    const db = await stack.db();
    const confirms = async () => db.collection('transitions').countDocuments({ action: 'confirm' });
    const before = await confirms();
    await startOfSecond();
    const { results, windows } = await burst(Array.from({ length: 12 }, () => () => confirm(p)));
    const limited = results.filter((r) => r.status === 429);
    expect(results.length - limited.length).toBeLessThanOrEqual(CHECKOUT_LIMIT * windows);
    expect(limited.length).toBeGreaterThanOrEqual(1);
    for (const r of limited) expect(r).toMatchObject({ retryAfter: expect.stringMatching(/^\d+$/), body: { error: { code: 'RL_01' } } });
    // One confirm applied (the others that passed the limit were refused as already confirmed); another payment's page is not limited by it.
    expect(results.filter((r) => r.status === 200)).toHaveLength(1);
    expect(await confirms()).toBe(before + 1);
    expect((await confirm(q)).status).toBe(200);
  });

  it('when Redis cannot be reached the request goes through', async () => {
    const dead = new Redis('redis://127.0.0.1:1', { lazyConnect: true, maxRetriesPerRequest: null });
    try {
      const mw = rateLimit(dead, 1);
      for (let i = 0; i < 3; i++) {
        const passed = await new Promise<unknown>((resolve) => {
          void mw({ caller: { merchantId: 'm', kind: 'secret', keyId: 'k' } } as Request, {} as Response, resolve as NextFunction);
        });
        expect(passed).toBeUndefined();
      }
    } finally {
      dead.disconnect();
    }
  });
});

describe('rate limit per client address, before authentication', () => {
  const ADDRESS_LIMIT = 5;
  let addrStack: Stack;
  beforeAll(async () => {
    addrStack = await Stack.start({ RATE_LIMIT_PER_ADDRESS_PER_SECOND: String(ADDRESS_LIMIT) });
  });
  afterAll(async () => addrStack?.stop());

  it('bad keys, admin routes and keyless pages are counted by address: 429 RL_01 above the limit, X-Forwarded-For ignored', async () => {
    await startOfSecond();
    // Each request claims another address: without TRUST_PROXY the header is not believed.
    const xff = (i: number) => ({ 'x-forwarded-for': `198.51.100.${i}` });
    const calls = [
      (i: number) => addrStack.api('GET', '/payments/pay_x', undefined, 'bad key', xff(i)),
      (i: number) => addrStack.api('GET', '/payments/list', undefined, `snd_${'0'.repeat(64)}`, xff(i)),
      (i: number) => addrStack.api('GET', '/accounts/merchant_x', undefined, 'not the admin key', xff(i)),
      (i: number) => addrStack.api('GET', '/accounts/merchant_x', undefined, addrStack.adminKey, xff(i)),
      (i: number) => addrStack.api('GET', '/payment_link/merchant_x/pay_x', undefined, undefined, xff(i)),
      (i: number) => addrStack.api('GET', '/no/such/route', undefined, undefined, xff(i)),
    ];
    const { results, windows } = await burst(Array.from({ length: 24 }, (_, i) => () => calls[i % calls.length](i)));
    const limited = results.filter((r) => r.status === 429);
    // A refused bad key is answered 429, not 401: the limit ran before the key lookup.
    expect(results.length - limited.length).toBeLessThanOrEqual(ADDRESS_LIMIT * windows);
    expect(limited.length).toBeGreaterThanOrEqual(1);
    for (const r of limited) {
      expect(r.body.error.code).toBe('RL_01');
      expect(r.headers.get('retry-after')).toMatch(/^\d+$/);
    }
    await sleep(1100);
    expect((await addrStack.api('GET', '/health', undefined, undefined, { 'x-forwarded-for': '203.0.113.9' })).status).toBe(200);
  });
});

describe("the address counter and TRUST_PROXY (Express 'trust proxy'), on real Redis and HTTP", () => {
  const redis = new Redis(process.env.REDIS_URL || 'redis://127.0.0.1:6379');
  const run = randomBytes(4).toString('hex');
  afterAll(async () => {
    const keys = await redis.keys(`*ratelimit:test-${run}:*`);
    if (keys.length) await redis.del(...keys);
    redis.disconnect();
  });

  async function serve(trustProxy: string | undefined) {
    const app = express();
    if (trustProxy) app.set('trust proxy', trustProxy);
    app.use(rateLimit(redis, 3, (req) => `test-${run}:${trustProxy ?? 'none'}:${byAddress(req)}`));
    app.get('/', (_req, res) => res.json({ ok: true }));
    app.use((err: { status: number }, _req: Request, res: Response, _next: NextFunction) => res.status(err.status).end());
    const server = app.listen(0, '127.0.0.1');
    await new Promise((r) => server.once('listening', r));
    const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/`;
    return { url, close: () => new Promise((r) => server.close(r)) };
  }
  const statuses = (url: string, n: number, forwardedFor: (i: number) => string) =>
    Promise.all(Array.from({ length: n }, (_, i) => fetch(url, { headers: { 'x-forwarded-for': forwardedFor(i) } }).then((r) => r.status)));

  it("untrusted: X-Forwarded-For is ignored, every request counts for the socket's address", async () => {
    await redis.ping();
    const s = await serve(undefined);
    try {
      const got = await statuses(s.url, 8, (i) => `198.51.100.${i}`);
      expect(got.filter((x) => x === 200).length).toBe(3);
      expect(got.filter((x) => x === 429).length).toBe(5);
    } finally {
      await s.close();
    }
  });

  it('TRUST_PROXY=loopback: each forwarded client has its own count', async () => {
    const s = await serve('loopback');
    try {
      const got = await statuses(s.url, 8, (i) => `198.51.100.${i}`);
      expect(got).toEqual(Array(8).fill(200));
      const same = await statuses(s.url, 5, () => '198.51.100.200');
      expect(same.filter((x) => x === 429).length).toBe(2);
      // IPv6 is counted by /64: other addresses in the same /64 share one count, another /64 has its own.
      const sixtyFour = await statuses(s.url, 5, (i) => `2001:db8:1:2::${i + 1}`);
      expect(sixtyFour.filter((x) => x === 429).length).toBe(2);
      expect(await statuses(s.url, 1, () => '2001:db8:1:3:0:0:0:1')).toEqual([200]);
      expect(addressKey('2001:DB8:1:2:aa:bb:cc:dd')).toBe('2001:db8:1:2::/64');
      expect(addressKey('::ffff:203.0.113.7')).toBe('203.0.113.7');
      expect(addressKey('::1')).toBe('0:0:0:0::/64');
    } finally {
      await s.close();
    }
  });
});
