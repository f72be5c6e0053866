// Merchant webhooks end to end: the real stack, a real local HTTP receiver. Every event of a payment's life arrives
// once, signed, in order; a receiver that is down gets the retries when it is back; killing the webhook worker
// mid-delivery or emptying Redis loses nothing; the Events API and its refusals.
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Webhook } from 'standardwebhooks';
import { standardWebhookSecret, verifyWebhookSignature } from '../lib/merchant-webhook-signature.ts';
import { WebhookDelivery } from '../lib/schemas/event.ts';
import { Stack, freePort, sleep } from './support/stack.ts';

interface Received {
  headers: IncomingHttpHeaders;
  raw: string;
  body: { merchant_id: string; event_id: string; event_type: string; content: { type: string; object: any }; timestamp: string };
}

/** A merchant's webhook endpoint on 127.0.0.1 that can go down (connection refused) and come back on the same port. */
class Receiver {
  readonly received: Received[] = [];
  /** Deliveries WebhookDelivery (lib/schemas/event.ts) refused, with why. */
  readonly undocumented: string[] = [];
  /** Delay before answering (a slow merchant), ms. */
  delayMs = 0;
  onRequest?: (r: Received) => void;
  private server?: Server;
  readonly port: number;
  constructor(port: number) {
    this.port = port;
  }
  get url() {
    return `http://127.0.0.1:${this.port}/hooks`;
  }

  async up(): Promise<void> {
    this.server = createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (c: Buffer) => chunks.push(c));
      req.on('end', async () => {
        const raw = Buffer.concat(chunks).toString('utf8');
        const r = { headers: req.headers, raw, body: JSON.parse(raw) };
        // Every delivery is what the OpenAPI document's `webhooks` (and so the typed client) says it is.
        const documented = WebhookDelivery.safeParse(r.body);
        if (!documented.success) this.undocumented.push(`${r.body.event_type}: ${documented.error.message}`);
        this.onRequest?.(r);
        if (this.delayMs) await sleep(this.delayMs);
        this.received.push(r);
        res.writeHead(204).end();
      });
    });
    await new Promise<void>((resolve) => this.server!.listen(this.port, '127.0.0.1', resolve));
  }

  async down(): Promise<void> {
    const s = this.server;
    if (!s) return;
    this.server = undefined;
    s.closeAllConnections();
    await new Promise((resolve) => s.close(resolve));
  }

  of(paymentId: string): Received[] {
    return this.received.filter((r) => (r.body.content.object.payment_id ?? null) === paymentId);
  }

  async waitFor(what: string, until: () => boolean, timeoutMs = 60_000): Promise<void> {
    const deadline = Date.now() + timeoutMs;
    while (!until()) {
      if (Date.now() > deadline)
        throw new Error(`receiver: ${what}; got ${JSON.stringify(this.received.map((r) => [r.body.event_type, r.body.content.object.payment_id]))}`);
      await sleep(100);
    }
  }
}

let stack: Stack;
let key: string;
let merchantId: string;
let hashKey: string;
let receiver: Receiver;
let redisDb: number;

/** A Redis database of this file's own, so that emptying it (FLUSHDB) touches no other stack sharing the server. */
async function freeRedisDb(): Promise<number> {
  const r = new Redis(process.env.REDIS_URL || 'redis://127.0.0.1:6379');
  try {
    for (let db = 15; db >= 8; db--) {
      await r.select(db);
      if ((await r.dbsize()) === 0) return db;
    }
    throw new Error('no empty Redis database among 8-15');
  } finally {
    r.disconnect();
  }
}

beforeAll(async () => {
  redisDb = await freeRedisDb();
  const base = (process.env.REDIS_URL || 'redis://127.0.0.1:6379').replace(/\/\d*$/, '');
  ({ stack, api_key: key, merchant_id: merchantId } = await Stack.withMerchant({ REDIS_URL: `${base}/${redisDb}` }));
  receiver = new Receiver(await freePort());
  await receiver.up();
  const profiles = await stack.api('GET', `/account/${merchantId}/business_profile`, undefined, stack.adminKey);
  const profile = profiles.body[0];
  const updated = await stack.api(
    'POST',
    `/account/${merchantId}/business_profile/${profile.profile_id}`,
    { webhook_details: { webhook_url: receiver.url } },
    stack.adminKey,
  );
  expect(updated.status, JSON.stringify(updated.body)).toBe(200);
  hashKey = updated.body.payment_response_hash_key;
});
afterAll(async () => {
  await receiver?.down();
  await stack?.stop();
});

const pay = (extra: Record<string, unknown> = {}) =>
  stack.api(
    'POST',
    '/payments',
    {
      amount: 10_000,
      currency: 'EUR',
      confirm: true,
      payment_method: 'pay_later',
      payment_method_type: 'invoice',
      customer: { id: 'cus_hooks', email: 'rita@example.com' },
      ...extra,
    },
    key,
  );

const events = (query = '', apiKey = key) => stack.api('GET', `/events/${merchantId}${query}`, undefined, apiKey);

async function eventsOf(paymentId: string, until: (e: any[]) => boolean, timeoutMs = 60_000): Promise<any[]> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const r = await events(`?object_id=${paymentId}&limit=100`);
    if (r.status === 200 && until(r.body.data)) return r.body.data;
    if (Date.now() > deadline) throw new Error(`events of ${paymentId}: ${JSON.stringify(r.body).slice(0, 1500)}`);
    await sleep(200);
  }
}

describe('merchant webhooks', () => {
  it("every event of a payment's life arrives once, signed, in the order of its transitions", async () => {
    const created = await pay({ capture_method: 'manual' });
    expect(created.status, JSON.stringify(created.body)).toBe(200);
    expect(created.body.status).toBe('requires_capture');
    const id = created.body.payment_id;
    const captured = await stack.api('POST', `/payments/${id}/capture`, { amount_to_capture: 10_000 }, key);
    expect(captured.body.status, JSON.stringify(captured.body)).toBe('succeeded');
    const refund = await stack.api('POST', '/refunds', { payment_id: id, amount: 4_000, refund_id: 'ref_hooks_1' }, key);
    expect(refund.body.status, JSON.stringify(refund.body)).toBe('succeeded');

    await receiver.waitFor('the refund event', () =>
      receiver.received.some((r) => r.body.event_type === 'refund_succeeded' && r.body.content.object.refund_id === 'ref_hooks_1'),
    );
    const got = receiver.of(id);
    expect(got.map((r) => r.body.event_type)).toEqual([
      'payment_processing',
      'payment_authorized',
      'payment_processing',
      'payment_captured',
      'payment_succeeded',
      'refund_succeeded',
    ]);
    // Once each, signed over the exact body with the profile's hash key, the five fields, the resource as GET shows it.
    expect(new Set(got.map((r) => r.body.event_id)).size).toBe(got.length);
    for (const r of got) {
      expect(verifyWebhookSignature(r.raw, r.headers['x-webhook-signature-512'], hashKey)).toBe(true);
      expect(verifyWebhookSignature(r.raw, r.headers['x-webhook-signature-512'], 'another key of the merchant')).toBe(false);
      // Standard Webhooks (issue 19 item 12): the id is the event id, and the standardwebhooks package verifies it.
      const std = {
        'webhook-id': String(r.headers['webhook-id']),
        'webhook-timestamp': String(r.headers['webhook-timestamp']),
        'webhook-signature': String(r.headers['webhook-signature']),
      };
      expect(std['webhook-id']).toBe(r.body.event_id);
      expect(new Webhook(standardWebhookSecret(hashKey)).verify(r.raw, std)).toEqual(r.body);
      expect(Object.keys(r.body)).toEqual(['merchant_id', 'event_id', 'event_type', 'content', 'timestamp']);
      expect(r.body.merchant_id).toBe(merchantId);
    }
    expect(receiver.undocumented).toEqual([]);
    expect(got[4]!.body.content).toMatchObject({ type: 'payment_details', object: { payment_id: id, status: 'succeeded', amount_received: 10_000 } });
    const now = await stack.api('GET', `/payments/${id}`, undefined, key);
    expect(Object.keys(got[4]!.body.content.object).sort()).toEqual(Object.keys(now.body).sort());
    expect(got[4]!.body.content.object.refunds).toEqual([]);
    expect(now.body.refunds).toHaveLength(1);
    expect(got[5]!.body.content).toMatchObject({
      type: 'refund_details',
      object: { refund_id: 'ref_hooks_1', payment_id: id, status: 'succeeded', amount: 4_000 },
    });

    // The Events API says the same: each delivered, with the transition's sequence that orders them.
    const listed = await eventsOf(id, (e) => e.length === 5 && e.every((x) => x.delivery_status === 'delivered'));
    const ofRefund = await eventsOf('ref_hooks_1', (e) => e.length === 1);
    const all = [...listed, ...ofRefund];
    expect(all.map((e) => e.event_id).sort()).toEqual(got.map((r) => r.body.event_id).sort());
    // Arrival order is the order of the transitions (the sequence each event carries).
    const seqOf = new Map(all.map((e) => [e.event_id, e.sequence]));
    const arrived = got.map((r) => seqOf.get(r.body.event_id)!);
    expect(arrived).toEqual([...arrived].sort((a, b) => a - b));
    expect(all[0]).toMatchObject({
      merchant_id: merchantId,
      object_type: 'payment_details',
      event_class: 'payments',
      is_delivery_successful: true,
      delivery_attempts: 1,
    });
    // Nothing more arrives for it later (no second delivery).
    await sleep(1500);
    expect(receiver.of(id)).toHaveLength(6);
  });

  it('a receiver that is down gets the event when it is back; the attempts say what happened', async () => {
    await receiver.down();
    const created = await pay();
    expect(created.body.status, JSON.stringify(created.body)).toBe('succeeded');
    const id = created.body.payment_id;
    // The payment's first event is retried; the next waits behind it (a payment's events go out in order).
    const pending = await eventsOf(id, (e) => e.some((x) => x.event_type === 'payment_processing' && x.delivery_attempts >= 2));
    expect(pending.map((e) => [e.event_type, e.delivery_status])).toEqual([
      ['payment_succeeded', 'pending'],
      ['payment_processing', 'pending'],
    ]);
    expect(pending.find((e) => e.event_type === 'payment_succeeded').delivery_attempts).toBe(0);
    await receiver.up();
    await receiver.waitFor('the succeeded event after the outage', () => receiver.of(id).some((r) => r.body.event_type === 'payment_succeeded'));
    expect(receiver.of(id).map((r) => r.body.event_type)).toEqual(['payment_processing', 'payment_succeeded']);
    const done = await eventsOf(id, (e) => e.every((x) => x.delivery_status === 'delivered'));
    const succeeded = done.find((e) => e.event_type === 'payment_processing');
    const attempts = await stack.api('GET', `/events/${merchantId}/${succeeded.event_id}/attempts`, undefined, key);
    expect(attempts.status).toBe(200);
    expect(attempts.body.length).toBeGreaterThanOrEqual(2);
    expect(attempts.body[0]).toMatchObject({ delivered: false, response: null, trigger: 'automatic', url: receiver.url });
    expect(attempts.body[0].error).toMatch(/ECONNREFUSED/);
    expect(attempts.body.at(-1)).toMatchObject({ delivered: true, error: null, response: { status_code: 204 } });
    expect(JSON.parse(attempts.body.at(-1).request.body)).toMatchObject({ event_id: succeeded.event_id, event_type: 'payment_processing' });
  });

  it('killing the webhook worker in the middle of a delivery loses nothing', async () => {
    receiver.delayMs = 1500;
    let killed: Promise<void> | undefined;
    receiver.onRequest = () => {
      killed ??= stack.kill('worker-webhooks');
    };
    const created = await pay();
    const id = created.body.payment_id;
    await receiver.waitFor('the first delivery starting', () => killed !== undefined);
    await killed;
    receiver.onRequest = undefined;
    receiver.delayMs = 0;
    await stack.startPart('worker-webhooks');
    await receiver.waitFor('both events after the restart', () =>
      ['payment_processing', 'payment_succeeded'].every((t) => receiver.of(id).some((r) => r.body.event_type === t)),
    );
    // At least once: the delivery cut off may come again (merchants deduplicate by event_id); in order of first arrival.
    const firsts = [...new Map(receiver.of(id).map((r) => [r.body.event_id, r.body.event_type])).values()];
    expect(firsts).toEqual(['payment_processing', 'payment_succeeded']);
    await eventsOf(id, (e) => e.length === 2 && e.every((x) => x.delivery_status === 'delivered'));
  });

  it("Redis emptied (FLUSHDB of the stack's database) loses nothing: the relay enqueues the deliveries again", async () => {
    await receiver.down();
    const created = await pay();
    const id = created.body.payment_id;
    await eventsOf(id, (e) => e.length === 2 && e.some((x) => x.delivery_attempts >= 1));
    const redis = new Redis(stack.env.REDIS_URL);
    try {
      expect(await redis.keys(`${stack.env.REDIS_PREFIX}:webhooks:*`)).not.toEqual([]);
      await redis.flushdb();
      expect(await redis.keys(`${stack.env.REDIS_PREFIX}:webhooks:*`)).toEqual([]);
    } finally {
      redis.disconnect();
    }
    await receiver.up();
    await receiver.waitFor('both events after Redis lost everything', () =>
      ['payment_processing', 'payment_succeeded'].every((t) => receiver.of(id).some((r) => r.body.event_type === t)),
    );
    await eventsOf(id, (e) => e.length === 2 && e.every((x) => x.delivery_status === 'delivered'));
    // And what happens after the flush is delivered too.
    const after = await pay();
    expect(after.body.status, JSON.stringify(after.body)).toBe('succeeded');
    await receiver.waitFor('a payment after the flush', () => receiver.of(after.body.payment_id).some((r) => r.body.event_type === 'payment_succeeded'));
  });

  it('the Events API: filters, paging, the admin key, a manual retry, and its refusals', async () => {
    const created = await pay();
    const id = created.body.payment_id;
    const [ev] = await eventsOf(id, (e) => e.some((x) => x.event_type === 'payment_succeeded' && x.delivery_status === 'delivered')).then((e) =>
      e.filter((x) => x.event_type === 'payment_succeeded'),
    );

    const typed = await events(`?event_types=payment_succeeded,refund_succeeded&limit=100`);
    expect(typed.status).toBe(200);
    expect(typed.body.data.length).toBeGreaterThan(0);
    expect(typed.body.data.every((e: any) => ['payment_succeeded', 'refund_succeeded'].includes(e.event_type))).toBe(true);
    const first = await events('?limit=1');
    const page = await events('?limit=1&offset=1');
    expect(page.body).toMatchObject({ count: 1, total_count: first.body.total_count });
    expect(page.body.total_count).toBeGreaterThanOrEqual(2);
    expect(page.body.data[0].event_id).not.toBe(first.body.data[0].event_id);
    const before = await events(`?created_before=${encodeURIComponent('2000-01-01T00:00:00Z')}`);
    expect(before.body).toMatchObject({ count: 0, total_count: 0, data: [] });
    const since = await events(`?object_id=${id}&created_after=${encodeURIComponent(ev.created_at)}`);
    expect(since.body.data.map((e: any) => e.event_id)).toContain(ev.event_id);
    expect((await events(`?object_id=${id}`, stack.adminKey)).body.data.map((e: any) => e.event_id)).toContain(ev.event_id);

    // A manual retry delivers it again now, and says how it went.
    const copies = receiver.of(id).filter((r) => r.body.event_id === ev.event_id).length;
    const retry = await stack.api('POST', `/events/${merchantId}/${ev.event_id}/retry`, undefined, key);
    expect(
      retry.status,
      JSON.stringify(retry.body) +
        stack.logs.gateway
          .filter((l) => l.includes('error'))
          .slice(-3)
          .join('\n'),
    ).toBe(200);
    expect(retry.body.attempt).toMatchObject({ trigger: 'manual', delivered: true, response: { status_code: 204 } });
    expect(retry.body.event).toMatchObject({ event_id: ev.event_id, delivery_status: 'delivered' });
    expect(receiver.of(id).filter((r) => r.body.event_id === ev.event_id)).toHaveLength(copies + 1);
    const attempts = await stack.api('GET', `/events/${merchantId}/${ev.event_id}/attempts`, undefined, stack.adminKey);
    expect(attempts.body.map((a: any) => a.trigger)).toEqual(['automatic', 'manual']);

    // Refusals: each a clear 4xx.
    const bad = async (path: string, status: number, param?: string, apiKey: string | undefined = key, method = 'GET') => {
      const r = await stack.api(method, path, undefined, apiKey);
      expect(r.status, `${path}: ${JSON.stringify(r.body)}`).toBe(status);
      if (param) expect(r.body.error.param).toBe(param);
      return r;
    };
    await bad(`/events/${merchantId}?event_types=payment_exploded`, 400, 'event_types');
    await bad(`/events/${merchantId}?limit=0`, 400, 'limit');
    await bad(`/events/${merchantId}?limit=101`, 400, 'limit');
    await bad(`/events/${merchantId}?offset=-1`, 400, 'offset');
    await bad(`/events/${merchantId}?created_after=yesterday`, 400, 'created_after');
    await bad(`/events/${merchantId}?created_after=2026-02-01T00:00:00Z&created_before=2026-01-01T00:00:00Z`, 400, 'created_before');
    await bad(`/events/${merchantId}?colour=red`, 400, 'colour');
    await bad(`/events/${merchantId}`, 401, undefined, '');
    await bad(`/events/${merchantId}`, 401, undefined, 'snd_not_a_key');
    const merchant = await stack.api('GET', `/accounts/${merchantId}`, undefined, stack.adminKey);
    await bad(`/events/${merchantId}`, 403, undefined, merchant.body.publishable_key);
    const other = await stack.merchant();
    await bad(`/events/${merchantId}`, 404, undefined, other.api_key);
    await bad(`/events/${merchantId}/${ev.event_id}/attempts`, 404, undefined, other.api_key);
    await bad(`/events/${merchantId}/${ev.event_id}/retry`, 404, undefined, other.api_key, 'POST');
    await bad(`/events/${merchantId}/evt_${'0'.repeat(32)}/attempts`, 404);
    await bad(`/events/mer_unknown/${ev.event_id}/attempts`, 404, undefined, stack.adminKey);
    // The other merchant's own list is empty, not ours.
    expect((await stack.api('GET', `/events/${other.merchant_id}`, undefined, other.api_key)).body).toMatchObject({ total_count: 0 });
    const withBody = await stack.api('POST', `/events/${merchantId}/${ev.event_id}/retry`, { force: true }, key);
    expect(withBody.status).toBe(400);
    expect(withBody.body.error.param).toBe('force');
  });

  it("a profile's webhook URL must be http(s)", async () => {
    const profiles = await stack.api('GET', `/account/${merchantId}/business_profile`, undefined, stack.adminKey);
    const r = await stack.api(
      'POST',
      `/account/${merchantId}/business_profile/${profiles.body[0].profile_id}`,
      { webhook_details: { webhook_url: 'ftp://shop.example.com/hooks' } },
      stack.adminKey,
    );
    expect(r.status).toBe(400);
    expect(r.body.error.param).toMatch(/webhook_details/);
  });
});
