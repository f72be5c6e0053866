// The svea imitation, checked against Svea's own published examples (the connector's fixtures, read as files:
// workers/connectors/svea/fixtures/SOURCES.md) and Svea's documented signature (hex in either case, the Timestamp with
// or without seconds): no stack, the router on a port of its own, the worker's provider call (so the task's 303 is
// followed as in the worker). No connector code: the request bodies here are written out as Svea documents them.
import express from 'express';
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { providerCall } from '../../../../workers/provider-http.ts';
import { IdempotencyStore } from '../../recorder.ts';
import { sveaRouter } from './imitation.ts';
import { setTimeout as wait } from 'node:timers/promises';

const fixture = (name: string): any => JSON.parse(readFileSync(new URL(`../../../../workers/connectors/svea/fixtures/${name}.json`, import.meta.url), 'utf8'));
let server: Server;
let base: string;
let r: ReturnType<typeof sveaRouter>;
beforeAll(async () => {
  const app = express();
  app.use(express.json());
  r = sveaRouter(new IdempotencyStore(), () => base);
  app.use('/svea', r.router);
  await new Promise<void>((ok) => {
    server = app.listen(0, '127.0.0.1', () => ok());
  });
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(() => new Promise<void>((ok) => server.close(() => ok())));

/** Signs as Svea's clients do: .NET and Magento with seconds, php-checkout without; `upper`: uppercase hex. */
function headers(body: unknown, secret = 'svea_sandbox_secret', { upper = false, minutes = false } = {}) {
  const ts = new Date()
    .toISOString()
    .slice(0, minutes ? 16 : 19)
    .replace('T', ' ');
  let hex = createHash('sha512')
    .update((body === undefined ? '' : JSON.stringify(body)) + secret + ts)
    .digest('hex');
  if (upper) hex = hex.toUpperCase();
  return { timestamp: ts, authorization: `Svea ${Buffer.from(`124842:${hex}`).toString('base64')}` };
}
const call = (method: 'GET' | 'POST' | 'PATCH', path: string, body?: unknown, h = headers(body)) =>
  providerCall(`${base}/svea`, { method, path, body, headers: h }, 'svea');
const keysOf = (o: unknown) => Object.keys(o as object).sort();
let n = 0;
const createBody = (email = 'erika@example.com') => ({
  countryCode: 'SE',
  currency: 'SEK',
  locale: 'sv-SE',
  clientOrderNumber: `A-${++n}-${Date.now()}`,
  cart: {
    items: [
      { name: 'Lamp', quantity: 200, unitPrice: 4760, vatPercent: 2500 },
      { name: 'Shipping', quantity: 100, unitPrice: 2380, vatPercent: 2500 },
    ],
  },
  merchantSettings: {
    termsUri: 'https://shop/terms',
    checkoutUri: 'https://shop/checkout',
    confirmationUri: 'https://shop/ok',
    pushUri: 'https://shop/push?id={checkout.order.uri}',
  },
  presetValues: [{ typeName: 'EmailAddress', value: email, isReadOnly: false }],
});

describe('svea imitation', () => {
  it("the signature: lower and upper case hex, a Timestamp with or without seconds; a wrong secret is a 401 in Svea's error body", async () => {
    const b = createBody();
    expect((await call('POST', '/api/orders', b, headers(b, 'svea_sandbox_secret', { upper: true }))).status).toBe(201);
    expect((await call('GET', '/api/orders/1', undefined, headers(undefined, 'svea_sandbox_secret', { minutes: true }))).status).not.toBe(401);
    const refused = await call('POST', '/api/orders', b, headers(b, 'wrong'));
    expect(refused.status).toBe(401);
    expect(keysOf(refused.body)).toEqual(keysOf(fixture('error_validation')));
    expect((await call('GET', '/api/orders/1', undefined, { ...headers(undefined), timestamp: '2026-11-23T12:00:00Z' })).status).toBe(401);
  });

  it("create: Svea's published request is taken; the answer has the fields of Svea's example and Svea's snippet (the address in data-sco-sveacheckout-iframeSrc)", async () => {
    const published = fixture('create_order_request');
    const ok = await call('POST', '/api/orders', { ...published, clientOrderNumber: `P-${Date.now()}` });
    expect(ok.status, JSON.stringify(ok.body)).toBe(201);
    const b = createBody();
    const created = await call('POST', '/api/orders', b);
    expect(created.status).toBe(201);
    expect(keysOf(created.body)).toEqual(expect.arrayContaining(keysOf(fixture('checkout_order_created'))));
    const id = (created.body as any).OrderId;
    const snippet: string = (created.body as any).Gui.Snippet;
    expect(snippet).toContain(`data-sco-sveacheckout-iframeSrc="${base}/svea/checkout/${id}"`);
    expect(snippet).not.toMatch(/<iframe[^>]*\ssrc=/i);
    expect(created.body).toMatchObject({ Status: 'Created', ClientOrderNumber: b.clientOrderNumber });
    const again = await call('POST', '/api/orders', b);
    expect(again).toMatchObject({ status: 200, body: { OrderId: id } });
  });

  it("create: Svea's field rules, each a 400 naming the field", async () => {
    const b = createBody();
    const refused = async (body: unknown) => {
      const res = await call('POST', '/api/orders', body);
      expect(res.status).toBe(400);
      expect(keysOf(res.body)).toEqual(keysOf(fixture('error_validation')));
      return (res.body as any).Errors[0].Field;
    };
    expect(await refused({ ...createBody(), merchantSettings: { ...b.merchantSettings, pushUri: undefined } })).toBe('MerchantSettings.PushUri');
    expect(await refused({ ...createBody(), merchantSettings: { ...b.merchantSettings, termsUri: `https://shop/${'t'.repeat(500)}` } })).toBe(
      'MerchantSettings.TermsUri',
    );
    expect(await refused({ ...createBody(), clientOrderNumber: 'c'.repeat(33) })).toBe('ClientOrderNumber');
    expect(await refused({ ...createBody(), locale: 'nb-NO' })).toBe('Locale');
    expect(await refused({ ...createBody(), cart: { items: [{ name: 'n'.repeat(41), quantity: 100, unitPrice: 100, vatPercent: 2500 }] } })).toBe(
      'Cart.Items[0].Name',
    );
    expect(await refused({ ...createBody(), cart: { items: [{ name: 'Lamp', quantity: 1.5, unitPrice: 100, vatPercent: 2500 }] } })).toBe(
      'Cart.Items[0].Quantity',
    );
    expect(await refused({ ...createBody(), cart: { items: [{ name: 'Lamp', quantity: 100, unitPrice: 100, vatPercent: 25.5 }] } })).toBe(
      'Cart.Items[0].VatPercent',
    );
    expect(await refused({ ...createBody(), cart: { items: [{ name: 'Lamp', quantity: 100, unitPrice: 100, vatPercent: 2500, unit: 'pieces' }] } })).toBe(
      'Cart.Items[0].Unit',
    );
    expect(await refused(createBody(`${'e'.repeat(45)}@example.com`))).toBe('PresetValues[0].Value');
    expect(await refused({ ...createBody(), presetValues: [{ typeName: 'PhoneNumber', value: '+46 (70) 123', isReadOnly: false }] })).toBe(
      'PresetValues[0].Value',
    );
  });

  it("checkout -> Final: the push (no body, the order in the URI) and the Created event; the admin order in Svea's shape and action names", async () => {
    const { OrderId: id } = (await call('POST', '/api/orders', createBody())).body as any;
    expect((await call('GET', `/api/v1/orders/${id}`)).status).toBe(404);
    const page = await (await fetch(`${base}/svea/checkout/${id}`)).text();
    expect(page).toContain(`/svea/checkout/${id}/approve`);
    expect((await fetch(`${base}/svea/checkout/${id}/approve`, { method: 'POST', redirect: 'manual' })).status).toBe(303);
    expect(r.pushes.filter((p) => p.object_id === String(id)).map((p) => [p.url, p.event, p.body])).toEqual([
      [`https://shop/push?id=${id}`, 'push', null],
      [`https://shop/push?id=${id}`, 'CheckoutOrder.Created', expect.objectContaining({ CheckoutOrderId: id, IsPending: false })],
    ]);
    const event = r.pushes.find((p) => p.object_id === String(id) && p.event === 'CheckoutOrder.Created')!.body;
    expect(keysOf(event)).toEqual(keysOf(fixture('callback_created')));
    const admin = await call('GET', `/api/v1/orders/${id}`);
    expect(keysOf(admin.body)).toEqual(expect.arrayContaining(keysOf(fixture('admin_order_open'))));
    expect((admin.body as any).Actions).toEqual(expect.arrayContaining(['CanDeliverOrder', 'CanDeliverPartially']));
    expect(keysOf((admin.body as any).OrderRows[0])).toEqual(keysOf(fixture('admin_order_open').OrderRows[0]));
    expect((await call('GET', `/api/orders/${id}`)).body).toMatchObject({ Status: 'Final', PaymentType: 'INVOICE' });
  });

  it('delivery: 202 + Location; the task InProgress, then (303 followed) the order with its delivery; a credit likewise leads to {CreditId}', async () => {
    const { OrderId: id } = (await call('POST', '/api/orders', createBody())).body as any;
    await fetch(`${base}/svea/checkout/${id}/approve`, { method: 'POST', redirect: 'manual' });
    expect((await call('POST', `/api/v1/orders/${id}/deliveries`, {})).status).toBe(400);
    const d = await call('POST', `/api/v1/orders/${id}/deliveries`, { orderRowIds: [] });
    expect(d).toMatchObject({ status: 202, body: null, headers: { location: expect.stringMatching(/\/svea\/api\/v1\/queue\/\d+$/) } });
    const task = (path: string) => providerCall('', { method: 'GET', path, headers: headers(undefined) }, 'svea');
    const running = await task(d.headers!.location!);
    expect(running).toMatchObject({ status: 200, body: { Status: 'InProgress' } });
    expect(keysOf(running.body)).toEqual(keysOf(fixture('task_in_progress')));
    await wait(250);
    const done = await task(d.headers!.location!);
    expect(done.status).toBe(200);
    expect(keysOf(done.body)).toEqual(expect.arrayContaining(keysOf(fixture('admin_order_delivered'))));
    const delivery = (done.body as any).Deliveries[0];
    expect(keysOf(delivery)).toEqual(keysOf(fixture('admin_order_delivered').Deliveries[0]));
    expect(done.body).toMatchObject({ OrderStatus: 'Delivered', OrderRows: [], Deliveries: [{ DeliveryAmount: 11900, CreditedAmount: 0 }] });
    const c = await call('POST', `/api/v1/orders/${id}/deliveries/${delivery.Id}/credits`, {
      newCreditOrderRow: { name: 'Refund', quantity: 100, unitPrice: 2380, vatPercent: 2500 },
    });
    expect(c.status).toBe(202);
    await wait(250);
    const credit = await task(c.headers!.location!);
    expect(keysOf(credit.body)).toEqual(keysOf(fixture('credit')));
    expect(credit.body).toEqual({ CreditId: expect.stringMatching(/^\d+$/) });
    expect(((await call('GET', `/api/v1/orders/${id}`)).body as any).Deliveries[0]).toMatchObject({ CreditedAmount: 2380, Credits: [{ Amount: -2380 }] });
    const tooMuch = await call('POST', `/api/v1/orders/${id}/deliveries/${delivery.Id}/credits`, {
      newCreditOrderRow: { name: 'Refund', quantity: 100, unitPrice: 99999, vatPercent: 2500 },
    });
    expect(tooMuch).toMatchObject({ status: 400, body: { Code: 40001 } });
    const longName = await call('POST', `/api/v1/orders/${id}/deliveries/${delivery.Id}/credits`, {
      newCreditOrderRow: { name: 'n'.repeat(41), quantity: 100, unitPrice: 1, vatPercent: 2500 },
    });
    expect(longName).toMatchObject({ status: 400, body: { Errors: [{ Field: 'NewCreditOrderRow.Name' }] } });
    expect(await call('PATCH', `/api/v1/orders/${id}`, { isCancelled: true })).toMatchObject({ status: 400, body: { Code: 40901 } });
  });

  it('+decline: the credit check refuses at the checkout, the order ends Cancelled (push, Closed event)', async () => {
    const { OrderId: id } = (await call('POST', '/api/orders', createBody('erika+decline@example.com'))).body as any;
    await fetch(`${base}/svea/checkout/${id}/approve`, { method: 'POST', redirect: 'manual' });
    expect((await call('GET', `/api/orders/${id}`)).body).toMatchObject({ Status: 'Cancelled' });
    expect(r.pushes.filter((p) => p.object_id === String(id)).map((p) => p.event)).toEqual(['push', 'CheckoutOrder.Closed']);
  });
});

describe('svea imitation: recurring orders (php-checkout §6-§9, docs checkout/recurring-orders)', () => {
  /** A recurring order the customer completes: its RecurringToken. */
  async function recurringToken(): Promise<{ token: string; first: number }> {
    const created = await call('POST', '/api/orders', { ...createBody(), recurring: true });
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    const first = (created.body as any).OrderId as number;
    expect(created.body).toMatchObject({ Recurring: true, RecurringToken: null });
    await fetch(`${base}/svea/checkout/${first}/approve`, { method: 'POST', redirect: 'manual' });
    const final = await call('GET', `/api/orders/${first}`);
    expect(final.body).toMatchObject({ Status: 'Final', Recurring: true });
    // The keys of the checkout order the imitation answers for every order (checkout_order_created), with §9's two.
    expect(keysOf(final.body)).toEqual(expect.arrayContaining([...keysOf(fixture('checkout_order_created')), 'Recurring', 'RecurringToken']));
    const token = (final.body as any).RecurringToken as string;
    expect(token).toMatch(/^[0-9a-f-]{36}$/);
    return { token, first };
  }
  const tokenBody = () => {
    const { token: _t, ...published } = fixture('token_order_request');
    return { ...published, clientOrderNumber: `R-${++n}-${Date.now()}` };
  };

  it('a plain order has no token; a recurring one gets its RecurringToken once Final (§9)', async () => {
    const plain = await call('POST', '/api/orders', createBody());
    expect(plain.body).toMatchObject({ Recurring: null, RecurringToken: null });
    await recurringToken();
  });

  it("php-checkout's example data on the token: a new order, 201, Final without the customer (no Gui), deliverable in Payment Admin", async () => {
    const { token } = await recurringToken();
    const b = tokenBody();
    const created = await call('POST', `/api/tokens/${token}/orders`, b);
    expect(created.status, JSON.stringify(created.headers)).toBe(201);
    expect(keysOf(created.body)).toEqual(expect.arrayContaining([...keysOf(fixture('checkout_order_created')), 'Recurring', 'RecurringToken']));
    expect(created.body).toMatchObject({ Gui: null, Status: 'Final', ClientOrderNumber: b.clientOrderNumber, Recurring: true });
    const id = (created.body as any).OrderId;
    expect((await call('GET', `/api/orders/${id}`)).body).toMatchObject({ Status: 'Final' });
    expect((await call('GET', `/api/tokens/${token}/orders/${id}`)).body).toMatchObject({ OrderId: id });
    const admin = await call('GET', `/api/v1/orders/${id}`);
    expect(admin.body).toMatchObject({ OrderStatus: 'Open', Actions: expect.arrayContaining(['CanDeliverOrder']), OrderAmount: 133_200 });
    // And again next month on the same token.
    expect((await call('POST', `/api/tokens/${token}/orders`, tokenBody())).status).toBe(201);
  });

  it('refusals in the X-SVEACHECKOUT-ERRORCODE / -ERRORMESSAGE headers: unknown token 404, used ClientOrderNumber 126, empty cart 135, no push URI 110', async () => {
    const { token } = await recurringToken();
    const unknown = await call('POST', '/api/tokens/00000000-0000-0000-0000-000000000000/orders', tokenBody());
    expect(unknown).toMatchObject({ status: 404, headers: { 'x-sveacheckout-errormessage': 'No token with the requested ID was found' } });
    const b = tokenBody();
    expect((await call('POST', `/api/tokens/${token}/orders`, b)).status).toBe(201);
    expect(await call('POST', `/api/tokens/${token}/orders`, b)).toMatchObject({ status: 400, headers: { 'x-sveacheckout-errorcode': '126' } });
    const free = { ...tokenBody(), cart: { items: [{ name: 'Free', quantity: 100, unitPrice: 0, vatPercent: 2500 }] } };
    expect(await call('POST', `/api/tokens/${token}/orders`, free)).toMatchObject({ status: 400, headers: { 'x-sveacheckout-errorcode': '135' } });
    const noPush = { ...tokenBody(), merchantSettings: { checkoutUri: 'https://shop/checkout' } };
    expect(await call('POST', `/api/tokens/${token}/orders`, noPush)).toMatchObject({ status: 400, headers: { 'x-sveacheckout-errorcode': '110' } });
    expect(await call('POST', `/api/tokens/${token}/orders`, { ...tokenBody(), currency: 'EUR' })).toMatchObject({
      status: 400,
      headers: { 'x-sveacheckout-errorcode': '105' },
    });
  });

  it("PATCH /api/tokens/{token} with the docs' sample {status: Cancelled}: the next order on it is refused (118)", async () => {
    const { token } = await recurringToken();
    expect((await call('PATCH', `/api/tokens/${token}`, fixture('token_update_request'))).status).toBe(200);
    expect(await call('POST', `/api/tokens/${token}/orders`, tokenBody())).toMatchObject({
      status: 400,
      headers: { 'x-sveacheckout-errorcode': '118', 'x-sveacheckout-errormessage': 'Invalid token status.' },
    });
  });
});
