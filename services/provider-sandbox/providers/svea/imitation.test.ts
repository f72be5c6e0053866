// The svea imitation, checked against the documented shapes the connector is tested with
// (workers/connectors/svea/fixtures/answers.json) and the documented signature (hex in either case): no stack, the
// router on a port of its own, the worker's provider call (so the task's 303 is followed as in the worker).
import express from 'express';
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { providerCall } from '../../../../workers/provider-http.ts';
import type { ProviderResponse } from '../../../../workers/connectors/kit/http.ts';
import { sveaTimestamp } from '../../../../workers/connectors/svea/sign.ts';
import { IdempotencyStore } from '../../recorder.ts';
import { sveaRouter } from './imitation.ts';

const fixtures: Record<string, ProviderResponse> = JSON.parse(readFileSync(new URL('../../../../workers/connectors/svea/fixtures/answers.json', import.meta.url), 'utf8'));
let server: Server;
let base: string;
let r: ReturnType<typeof sveaRouter>;
beforeAll(async () => {
  const app = express();
  app.use(express.json());
  r = sveaRouter(new IdempotencyStore(), () => base);
  app.use('/svea', r.router);
  await new Promise<void>((ok) => { server = app.listen(0, '127.0.0.1', () => ok()); });
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(() => new Promise<void>((ok) => server.close(() => ok())));

/** Signs as Svea's docs do; `upper`: the docs' example's uppercase hex. */
function headers(body: unknown, secret = 'svea_sandbox_secret', upper = false) {
  const ts = sveaTimestamp();
  let hex = createHash('sha512').update((body === undefined ? '' : JSON.stringify(body)) + secret + ts).digest('hex');
  if (upper) hex = hex.toUpperCase();
  return { timestamp: ts, authorization: `Svea ${Buffer.from(`124842:${hex}`).toString('base64')}` };
}
const call = (method: 'GET' | 'POST' | 'PATCH', path: string, body?: unknown, h = headers(body)) => providerCall(`${base}/svea`, { method, path, body, headers: h }, 'svea');
const keysOf = (o: unknown) => Object.keys(o as object).sort();
let n = 0;
const createBody = (email = 'erika@example.com') => ({
  countryCode: 'SE', currency: 'SEK', locale: 'sv-SE', clientOrderNumber: `A-${++n}-${Date.now()}`,
  cart: { items: [{ Name: 'Lamp', Quantity: 200, UnitPrice: 4760, VatPercent: 2500 }, { Name: 'Shipping', Quantity: 100, UnitPrice: 2380, VatPercent: 2500 }] },
  merchantSettings: { termsUri: 'https://shop/terms', checkoutUri: 'https://shop/checkout', confirmationUri: 'https://shop/ok', pushUri: 'https://shop/push?id={checkout.order.uri}' },
  presetValues: [{ typeName: 'EmailAddress', value: email, isReadOnly: false }],
});

describe('svea imitation', () => {
  it('the signature: accepted in lower and upper case hex; a wrong secret is Svea\'s 401', async () => {
    const b = createBody();
    expect((await call('POST', '/api/orders', b, headers(b, 'svea_sandbox_secret', true))).status).toBe(201);
    expect(await call('POST', '/api/orders', b, headers(b, 'wrong'))).toMatchObject({ status: 401, body: fixtures.unauthorized!.body });
    expect((await call('GET', '/api/orders/1', undefined, { ...headers(undefined), timestamp: '2026-11-23T12:00:00Z' })).status).toBe(401);
  });

  it('create: the documented shape (201), the same clientOrderNumber answers the same order (200); a missing URI is Svea\'s 400', async () => {
    const b = createBody();
    const created = await call('POST', '/api/orders', b);
    expect(created.status).toBe(201);
    expect(keysOf(created.body)).toEqual(expect.arrayContaining(keysOf(fixtures.order_created!.body)));
    expect(created.body).toMatchObject({ Status: 'Created', ClientOrderNumber: b.clientOrderNumber, Gui: { Snippet: expect.stringContaining('<iframe') } });
    const again = await call('POST', '/api/orders', b);
    expect(again).toMatchObject({ status: 200, body: { OrderId: (created.body as any).OrderId } });
    const bad = { ...createBody(), merchantSettings: { ...b.merchantSettings, pushUri: undefined } };
    expect(await call('POST', '/api/orders', bad)).toEqual(expect.objectContaining(fixtures.validation));
  });

  it('checkout page -> Final; delivery 202 + Location; the task InProgress, then (303 followed) the delivery; credits likewise', async () => {
    const { OrderId: id } = (await call('POST', '/api/orders', createBody())).body as any;
    expect((await call('GET', `/api/v1/orders/${id}`)).status).toBe(404);
    const page = await (await fetch(`${base}/svea/checkout/${id}`)).text();
    expect(page).toContain(`/svea/checkout/${id}/approve`);
    expect((await fetch(`${base}/svea/checkout/${id}/approve`, { method: 'POST', redirect: 'manual' })).status).toBe(303);
    expect(r.pushes.filter((p) => p.object_id === String(id)).map((p) => p.url)).toEqual([`https://shop/push?id=${id}`]);
    const admin = await call('GET', `/api/v1/orders/${id}`);
    expect(keysOf(admin.body)).toEqual(expect.arrayContaining(keysOf(fixtures.admin_open!.body)));
    expect((admin.body as any).Actions).toContain('CanDeliverOrder');
    const d = await call('POST', `/api/v1/orders/${id}/deliveries`, { orderRowIds: [] });
    expect(d).toMatchObject({ status: 202, body: null, headers: { location: expect.stringMatching(/\/svea\/api\/v1\/queue\/\d+$/) } });
    const task = (path: string) => providerCall('', { method: 'GET', path, headers: headers(undefined) }, 'svea');
    expect(await task(d.headers!.location!)).toMatchObject({ status: 200, body: { Status: 'InProgress' } });
    expect(keysOf((await task(d.headers!.location!)).body)).toEqual(keysOf(fixtures.task_in_progress!.body));
    await new Promise((ok) => setTimeout(ok, 250));
    const delivery = await task(d.headers!.location!);
    expect(delivery.status).toBe(200);
    expect(keysOf(delivery.body)).toEqual(keysOf(fixtures.delivery!.body));
    expect(delivery.body).toMatchObject({ DeliveryAmount: 11900, CreditedAmount: 0 });
    const did = (delivery.body as any).Id;
    const c = await call('POST', `/api/v1/orders/${id}/deliveries/${did}/credits`, { newCreditOrderRow: { Name: 'Refund', Quantity: 100, UnitPrice: 2380, VatPercent: 2500 } });
    expect(c.status).toBe(202);
    await new Promise((ok) => setTimeout(ok, 250));
    const credit = await task(c.headers!.location!);
    expect(keysOf(credit.body)).toEqual(keysOf(fixtures.credit!.body));
    expect(credit.body).toMatchObject({ Amount: 2380 });
    const tooMuch = await call('POST', `/api/v1/orders/${id}/deliveries/${did}/credits`, { newCreditOrderRow: { Name: 'Refund', Quantity: 100, UnitPrice: 99999, VatPercent: 2500 } });
    expect(tooMuch).toMatchObject({ status: 400, body: { Code: 40001 } });
    expect(await call('PATCH', `/api/v1/orders/${id}`, { isCancelled: true })).toMatchObject({ status: 400, body: { Code: (fixtures.not_deliverable!.body as any).Code } });
  });

  it('+decline: the credit check refuses at the checkout, the order ends Cancelled', async () => {
    const { OrderId: id } = (await call('POST', '/api/orders', createBody('erika+decline@example.com'))).body as any;
    await fetch(`${base}/svea/checkout/${id}/approve`, { method: 'POST', redirect: 'manual' });
    expect((await call('GET', `/api/orders/${id}`)).body).toMatchObject({ Status: 'Cancelled' });
  });
});
