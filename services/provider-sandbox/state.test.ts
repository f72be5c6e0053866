// SANDBOX_STATE_FILE (main.ts): every imitation keeps its state across a restart. Each case makes a payment at one
// imitation, saves its state as main.ts does (through JSON), builds a fresh imitation that loads it, and makes a
// follow-up call on the earlier payment there; a fresh imitation without the load answers it not found.
import express from 'express';
import type { AddressInfo } from 'node:net';
import { readdirSync, readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { IdempotencyStore } from './recorder.ts';
import type { Imitation, SandboxProvider } from './provider.ts';

const providersDir = new URL('./providers/', import.meta.url);
const names = readdirSync(providersDir, { withFileTypes: true })
  .filter((e) => e.isDirectory())
  .map((e) => e.name)
  .sort();
const imitations = new Map<string, Imitation>();
const fixture = (connector: string, file: string) =>
  JSON.parse(readFileSync(new URL(`../../workers/connectors/${connector}/fixtures/${file}`, import.meta.url), 'utf8'));

/** The imitation each provider's path is routed to now: swapped for a restarted one mid-test. */
const mounted = new Map<string, SandboxProvider>();
let base = '';
let server: ReturnType<express.Express['listen']>;
beforeAll(async () => {
  for (const n of names) imitations.set(n, ((await import(new URL(`${n}/imitation.ts`, providersDir).href)) as { imitation: Imitation }).imitation);
  const app = express();
  app.use(express.json());
  app.use(express.urlencoded({ extended: false }));
  for (const n of names) {
    app.use(`/${n}`, (req, res, next) => mounted.get(n)!.router(req, res, next));
    app.use('/sandbox', (req, res, next) => (mounted.get(n)?.operator ? mounted.get(n)!.operator!(req, res, next) : next()));
  }
  await new Promise<void>((r) => {
    server = app.listen(0, '127.0.0.1', () => r());
  });
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(() => server?.close());

const start = (name: string) => {
  const idem = new IdempotencyStore();
  const p = imitations.get(name)!(idem, () => base);
  mounted.set(name, p);
  return { p, idem };
};
/** A restart: what main.ts writes (state and idempotency records, through JSON) loaded into a new imitation. */
const restart = (name: string, before: { p: SandboxProvider; idem: IdempotencyStore }) => {
  const file = JSON.parse(JSON.stringify({ idem: before.idem.save(), state: before.p.state!.save() }));
  const idem = new IdempotencyStore();
  idem.load(file.idem);
  const p = imitations.get(name)!(idem, () => base);
  p.state!.load(file.state);
  mounted.set(name, p);
};
/** A restart that lost the state (what happened before): the same follow-up must then fail. */
const forget = (name: string) => {
  start(name);
};

const call = async (method: string, path: string, body?: unknown, headers: Record<string, string> = {}) => {
  const res = await fetch(base + path, {
    method,
    headers: { 'content-type': 'application/json', ...headers },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await res.text();
  let json: any = text;
  try {
    json = JSON.parse(text);
  } catch {
    /* not JSON */
  }
  return { status: res.status, body: json };
};
/** Posts the form for `action` on a checkout page (the shopper's choice). */
const shopper = async (pageUrl: string, action: string) => {
  const page = await (await fetch(pageUrl)).text();
  const form = new RegExp(`action="([^"]*/${action})"`).exec(page)?.[1];
  expect(form, page).toBeTruthy();
  return fetch(new URL(form!, pageUrl), { method: 'POST', redirect: 'manual' });
};

describe('sandbox state across a restart', () => {
  it('every imitation in providers/ keeps its state (a new one cannot forget)', () => {
    expect(names.length).toBeGreaterThan(12);
    const without = names.filter((n) => !imitations.get(n)!(new IdempotencyStore(), () => base).state);
    expect(without).toEqual([]);
  });

  it('every imitation loads a missing or older state file as empty, and saves what it loaded', () => {
    for (const n of names) {
      const p = imitations.get(n)!(new IdempotencyStore(), () => base);
      for (const old of [undefined, null, {}, { orders: 'not a list' }]) expect(() => p.state!.load(old)).not.toThrow();
      const once = JSON.stringify(p.state!.save());
      p.state!.load(JSON.parse(once));
      expect(JSON.stringify(p.state!.save())).toBe(once);
    }
  });

  it('twisto: a checkout charged before the restart is refunded after it (webhook registration kept)', async () => {
    const h = { authorization: 'Bearer twisto_sandbox_secret_key' };
    const requests = fixture('twisto', 'requests.json');
    const before = start('twisto');
    const c = await call('POST', '/twisto/psp/v4/checkouts', requests.create_checkout, h);
    expect(c.status).toBe(201);
    expect((await shopper(c.body.uri, 'approve')).status).toBe(303);
    const charge = await call(
      'POST',
      '/twisto/psp/v4/charges',
      { ...requests.create_charge, authority: { type: 'checkout_id', value: c.body.id }, capture: true },
      h,
    );
    expect(charge.status, JSON.stringify(charge.body)).toBe(201);
    const refund = { checkout_id: c.body.id, amount: c.body.order.amount, reference: 'r1' };
    restart('twisto', before);
    expect(await call('POST', '/twisto/psp/v4/refunds', refund, h)).toMatchObject({ status: 201 });
    expect((await call('GET', `/twisto/psp/v4/charges/${charge.body.id}`, undefined, h)).body.state).toBe('refunded');
    forget('twisto');
    expect((await call('POST', '/twisto/psp/v4/refunds', refund, h)).status).toBe(400);
  });

  it('riverty: an order authorized before the restart is captured after it, with the next capture number', async () => {
    const h = { 'x-auth-key': 'riverty_sandbox_api_key' };
    const example = fixture('riverty', 'authorize-request.json').body;
    const before = start('riverty');
    const r = await call('POST', '/riverty/api/v3/checkout/authorize', example, h);
    expect(r.status).toBe(200);
    const number = example.order.number;
    restart('riverty', before);
    const capture = await call(
      'POST',
      `/riverty/api/v3/orders/${number}/captures`,
      { orderDetails: { totalGrossAmount: example.order.totalGrossAmount, currency: example.order.currency, items: example.order.items } },
      h,
    );
    expect(capture.status, JSON.stringify(capture.body)).toBe(200);
    forget('riverty');
    expect((await call('GET', `/riverty/api/v3/orders/${number}`, undefined, h)).status).toBe(404);
  });

  it('mondu: an order created before the restart is read after it', async () => {
    const h = { 'api-token': 'mondu_sandbox_api_token' };
    const before = start('mondu');
    const o = await call('POST', '/mondu/api/v1/orders', fixture('mondu', 'requests.json').create_order, h);
    expect(o.status).toBe(201);
    restart('mondu', before);
    expect((await call('GET', `/mondu/api/v1/orders/${o.body.order.uuid}`, undefined, h)).body.order.uuid).toBe(o.body.order.uuid);
    forget('mondu');
    expect((await call('GET', `/mondu/api/v1/orders/${o.body.order.uuid}`, undefined, h)).status).toBe(404);
  });

  it('billie: an order created before the restart is read after it with the token issued before it', async () => {
    const before = start('billie');
    const t = await call('POST', '/billie/api/v2/oauth/token', {
      grant_type: 'client_credentials',
      client_id: 'billie_sandbox_client_id',
      client_secret: 'billie_sandbox_client_secret',
    });
    const h = { authorization: `Bearer ${t.body.access_token}` };
    const o = await call('POST', '/billie/api/v2/orders', fixture('billie', 'requests.json').create_order, h);
    expect(o.status, JSON.stringify(o.body)).toBeLessThan(300);
    restart('billie', before);
    expect(await call('GET', `/billie/api/v2/orders/${o.body.uuid}`, undefined, h)).toMatchObject({ status: 200, body: { uuid: o.body.uuid } });
    forget('billie');
    expect((await call('GET', `/billie/api/v2/orders/${o.body.uuid}`, undefined, h)).status).toBe(401);
  });

  it('zaver: a payment created before the restart is read after it', async () => {
    const h = { authorization: 'Bearer zaver_sandbox_api_key' };
    const before = start('zaver');
    const p = await call('POST', '/zaver/payments/link/v2', { ...fixture('zaver', 'payment-creation.request.json'), idempotencyKey: 'k-1' }, h);
    expect(p.status).toBe(200);
    restart('zaver', before);
    expect(await call('GET', `/zaver/payments/link/v2/${p.body.paymentId}`, undefined, h)).toMatchObject({
      status: 200,
      body: { paymentId: p.body.paymentId },
    });
    forget('zaver');
    expect((await call('GET', `/zaver/payments/link/v2/${p.body.paymentId}`, undefined, h)).status).toBe(404);
  });
});
