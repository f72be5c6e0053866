// The Avarda imitation against Avarda's own published examples (workers/connectors/avarda/fixtures/, sources in its
// SOURCES.md): it accepts Avarda's example requests as printed (PascalCase docs, camelCase demo), refuses what Avarda's
// rules refuse in Avarda's published error shape, and answers in the published shapes. No connector code: the
// connector's tests parse the same files, so neither side can agree with a mistake of the other. In process, no stack.
import express from 'express';
import { readFileSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { IdempotencyStore } from '../../recorder.ts';
import { avardaRouter } from './imitation.ts';

const fixture = (name: string): any => JSON.parse(readFileSync(new URL(`../../../../workers/connectors/avarda/fixtures/${name}`, import.meta.url), 'utf8'));

let base = '';
let close = () => {};
const received: unknown[] = [];
beforeAll(async () => {
  const app = express();
  app.use(express.json());
  app.use(express.urlencoded({ extended: false }));
  app.use('/avarda', avardaRouter(new IdempotencyStore(), () => base).router);
  app.post('/cb', (req, res) => {
    received.push(req.body);
    res.json({ ok: true });
  });
  const server = app.listen(0, '127.0.0.1');
  await new Promise((r) => server.once('listening', r));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  close = () => server.close();
});
afterAll(() => close());

const API = '/avarda/api/partner/payments';
const SANDBOX = { clientId: 'avarda_sandbox_client', clientSecret: 'avarda_sandbox_client_secret' };
const call = async (method: string, path: string, body?: unknown, headers: Record<string, string> = {}) => {
  const res = await fetch(base + path, {
    method,
    headers: { 'content-type': 'application/json', ...headers },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await res.text();
  return { status: res.status, body: text ? JSON.parse(text) : '' };
};
const bearer = async () => ({ authorization: `Bearer ${(await call('POST', '/avarda/api/partner/tokens', SANDBOX)).body.token}` });
/** Avarda's demo purchase, with a Swedish customer (magic tags in the email) and our callback receiver. */
const initialize = (email = 'a@example.se', over: Record<string, unknown> = {}) => ({
  ...fixture('initialize-request.json'),
  checkoutSetup: { ...fixture('initialize-request.json').checkoutSetup, mode: 'B2C', completedNotificationUrl: `${base}/cb`, invoicingCountries: ['SE'] },
  extraIdentifiers: { orderReference: '4000124352' },
  b2C: { invoicingAddress: { firstName: 'A', lastName: 'B', address1: 'Storgatan 1', zip: '11122', city: 'Stockholm', country: 'SE' }, userInputs: { email } },
  ...over,
});
/** The customer posts one of the checkout page's forms, as a browser would. */
async function customer(jwt: string, action: 'complete' | 'leave') {
  const page = await (
    await fetch(`${base}/avarda/checkout?purchaseJwt=${encodeURIComponent(jwt)}&redirectUrl=${encodeURIComponent('https://shop.example/return')}`)
  ).text();
  const action_ = new RegExp(`action="(/avarda/checkout/${action})"`).exec(page)?.[1];
  expect(action_, page).toBeTruthy();
  return fetch(base + action_!, {
    method: 'POST',
    redirect: 'manual',
    body: new URLSearchParams({ purchaseJwt: jwt, redirectUrl: 'https://shop.example/return' }),
  });
}
const until = async (check: () => boolean) => {
  for (let i = 0; i < 100 && !check(); i++) await new Promise((r) => setTimeout(r, 20));
};
const keysOf = (o: object) => Object.keys(o).sort();
/** A completed purchase of 50.00 (the demo's one item, 20 % VAT). */
async function completed(email = 'a@example.se') {
  const h = await bearer();
  const init = await call('POST', API, initialize(email), h);
  expect(init.status, JSON.stringify(init.body)).toBe(200);
  expect((await customer(init.body.jwt, 'complete')).status).toBe(303);
  return { h, id: init.body.purchaseId as string };
}

describe('avarda imitation: partner tokens', () => {
  it("answers Avarda's published example request with the published answer's fields", async () => {
    const ok = await call('POST', '/avarda/api/partner/tokens', SANDBOX);
    expect(keysOf(ok.body)).toEqual(keysOf(fixture('token-response.json')));
    expect(Date.parse(ok.body.tokenExpirationUtc)).toBeGreaterThan(Date.now());
    // The published example's credentials are not a client here: refused as the Magento module reads it.
    const refused = await call('POST', '/avarda/api/partner/tokens', fixture('token-request.json'));
    expect(refused).toEqual({ status: 401, body: { error: 'invalid_client', error_description: 'Invalid client credentials' } });
    const missing = await call('POST', '/avarda/api/partner/tokens', { clientId: 'x' });
    expect(missing.body).toEqual({
      Errors: [{ Property: 'ClientSecret', ErrorCode: 0, ErrorMessage: 'The ClientSecret field is required.' }],
      StatusCode: 400,
    });
  });
});

describe('avarda imitation: a purchase from initialization to return', () => {
  it("initializes Avarda's demo purchase; the read has the published payment-status shape; completion calls back {purchaseId}", async () => {
    const h = await bearer();
    const init = await call('POST', API, initialize(), h);
    expect(keysOf(init.body)).toEqual(keysOf(fixture('initialize-response.json')));
    const before = await call('GET', `${API}/${init.body.purchaseId}`, undefined, h);
    const example = fixture('payment-status.json');
    expect(keysOf(before.body)).toEqual(keysOf({ ...example, paymentMethods: {} }));
    expect(keysOf(before.body.b2C.step)).toEqual(keysOf(example.b2C.step));
    expect(before.body.b2C.step.current).toBe('Initialized');
    expect(before.body.extraIdentifiers).toMatchObject({ orderReference: '4000124352' });
    expect(await customer(init.body.jwt, 'complete')).toMatchObject({ status: 303 });
    expect((await call('GET', `${API}/${init.body.purchaseId}`, undefined, h)).body.b2C.step.current).toBe('Completed');
    await until(() => received.length > 0);
    expect(keysOf(received.at(-1) as object)).toEqual(keysOf(fixture('callback.json')));
  });

  it("the order: Avarda's example body (PascalCase) activates, 200 with no content; the same rules refuse a 21-character OrderReference", async () => {
    const { h, id } = await completed();
    const published = fixture('order-request.json');
    const tooLong = await call('POST', `${API}/${id}/order`, { ...published, OrderReference: 'x'.repeat(21) }, h);
    expect(tooLong).toMatchObject({ status: 400, body: { Errors: [{ Property: 'OrderReference' }], StatusCode: 400 } });
    expect(await call('POST', `${API}/${id}/order`, published, h)).toEqual({ status: 200, body: '' });
    // 41.94 of 50.00 activated: the rest is more than is left.
    const over = await call('POST', `${API}/${id}/order`, published, h);
    expect(over).toMatchObject({ status: 400, body: { Errors: [{ Property: 'Items', ErrorCode: 0 }] } });
  });

  it("the return: Avarda's example body credits activated rows, 204; over what is activated it is refused", async () => {
    const { h, id } = await completed();
    expect(
      (
        await call(
          'POST',
          `${API}/${id}/order`,
          { orderReference: '4000124352', tranId: 'op_1', items: [{ description: 'Test Item 1', amount: 50, taxCode: '20', taxAmount: 10, quantity: 1 }] },
          h,
        )
      ).status,
    ).toBe(200);
    expect(await call('POST', `${API}/${id}/return`, fixture('return-request.json'), h)).toEqual({ status: 204, body: '' });
    const over = await call('POST', `${API}/${id}/return`, { ...fixture('return-request.json'), Items: [{ Description: 'Return', Amount: 49.5 }] }, h);
    expect(over).toMatchObject({ status: 400, body: { Errors: [{ Property: 'Amount' }] } });
  });

  it('the refund releases money not activated (decimal amount, 204); the cancel needs its reason and answers 200', async () => {
    const { h, id } = await completed();
    expect(await call('POST', `${API}/${id}/refund`, fixture('refund-request.json'), h)).toEqual({ status: 204, body: '' });
    expect((await call('POST', `${API}/${id}/refund`, { amount: 'ten' }, h)).body.Errors[0]).toMatchObject({ Property: 'Amount' });
    expect((await call('POST', `${API}/${id}/refund`, { amount: 1.234 }, h)).body.Errors[0]).toEqual({
      Property: 'Amount',
      ErrorCode: 0,
      ErrorMessage: 'Maximum number of decimal places allowed is 2.',
    });
    expect((await call('POST', `${API}/${id}/cancel`, { reason: '' }, h)).body.Errors[0]).toMatchObject({ Property: 'Reason' });
    expect(await call('POST', `${API}/${id}/cancel`, fixture('cancel-request.json'), h)).toEqual({ status: 200, body: '' });
    // 10.00 released, 40.00 cancelled: nothing is left to activate.
    const act = await call('POST', `${API}/${id}/order`, { orderReference: '1', items: [{ description: 'x', amount: 1, quantity: 1 }] }, h);
    expect(act.body.Errors[0]).toMatchObject({ Property: 'Items' });
  });
});

describe("avarda imitation: Avarda's rules on the initialization", () => {
  it("the docs' own invalid request is refused with the docs' own error", async () => {
    const h = await bearer();
    const res = await call('POST', API, { checkoutSetup: {}, ...fixture('error-400-request.json') }, h);
    expect(res.status).toBe(400);
    expect(res.body.StatusCode).toBe(400);
    expect(res.body.Errors).toEqual(fixture('error-400.json').Errors);
  });
  it('item texts over 35, a 21-character orderReference, names and cities over the published limits (codes 126–131)', async () => {
    const h = await bearer();
    const body = initialize('a@example.se', {
      items: [{ description: 'd'.repeat(36), notes: 'n'.repeat(36), amount: 50, taxCode: '20', taxAmount: 10 }],
      extraIdentifiers: { orderReference: 'r'.repeat(21) },
      b2C: { invoicingAddress: { firstName: 'f'.repeat(41), city: 'c'.repeat(31), country: 'SE' } },
    });
    const res = await call('POST', API, body, h);
    expect(res.body.Errors.map((e: any) => [e.Property, e.ErrorCode])).toEqual([
      ['Items[0].Description', 0],
      ['Items[0].Notes', 0],
      ['ExtraIdentifiers.OrderReference', 0],
      ['B2C.InvoicingAddress.City', 128],
      ['B2C.InvoicingAddress.FirstName', 130],
    ]);
  });
  it('+decline: the form declines and the customer can only leave -> TimedOut; activating then is refused (100)', async () => {
    const h = await bearer();
    const init = await call('POST', API, initialize('a+decline@example.se'), h);
    const declined = await customer(init.body.jwt, 'complete');
    expect(declined.status).toBe(200);
    const page = await declined.text();
    expect(page).toContain('cannot offer you this payment method');
    expect(page).not.toContain('/avarda/checkout/complete');
    expect((await customer(init.body.jwt, 'leave')).status).toBe(303);
    expect((await call('GET', `${API}/${init.body.purchaseId}`, undefined, h)).body.b2C.step.current).toBe('TimedOut');
    const act = await call('POST', `${API}/${init.body.purchaseId}/order`, fixture('order-request.json'), h);
    expect(act).toEqual({
      status: 400,
      body: { Errors: [{ Property: '', ErrorCode: 100, ErrorMessage: 'Purchase must be in completed state' }], StatusCode: 400 },
    });
  });
  it('+flaky: 500 twice per orderReference, then the purchase', async () => {
    const h = await bearer();
    const body = initialize('a+flaky@example.se', { extraIdentifiers: { orderReference: 'flaky-1' } });
    expect((await call('POST', API, body, h)).status).toBe(500);
    expect((await call('POST', API, body, h)).status).toBe(500);
    expect((await call('POST', API, body, h)).status).toBe(200);
  });
  it('without a valid partner token: 401', async () => {
    expect((await call('GET', `${API}/none`, undefined, { authorization: 'Bearer nope' })).status).toBe(401);
  });
});

describe("avarda imitation: recurring payments (the WooCommerce plugin's subscription calls)", () => {
  const withRecurring = (email = 'a@example.se') => {
    const b = initialize(email);
    return { ...b, checkoutSetup: { ...b.checkoutSetup, recurringPayments: 'checked', hideUnsupportedRecurringPaymentMethods: true } };
  };
  const published = fixture('recurring-request.json');

  it('a purchase offering recurring payments shows its token once Completed, at the path the plugin reads; a plain one none', async () => {
    const h = await bearer();
    const init = await call('POST', API, withRecurring(), h);
    expect(init.status, JSON.stringify(init.body)).toBe(200);
    expect((await call('GET', `${API}/${init.body.purchaseId}`, undefined, h)).body.paymentMethods).toEqual({});
    await customer(init.body.jwt, 'complete');
    const read = (await call('GET', `${API}/${init.body.purchaseId}`, undefined, h)).body;
    expect(read.paymentMethods.selectedPayment.recurringPaymentToken).toMatch(/^[0-9a-f]{32}$/);
    expect(keysOf(fixture('payment-status-recurring.json').paymentMethods.selectedPayment)).toEqual(['recurringPaymentToken']);
    const plain = await completed();
    expect((await call('GET', `${API}/${plain.id}`, undefined, plain.h)).body.paymentMethods.selectedPayment).not.toHaveProperty('recurringPaymentToken');
  });

  it('authorizerecurringpayment with the token: a new purchase, Completed without the customer, activated and returned like any other', async () => {
    const h = await bearer();
    const init = await call('POST', API, withRecurring(), h);
    await customer(init.body.jwt, 'complete');
    const first = init.body.purchaseId as string;
    const token = (await call('GET', `${API}/${first}`, undefined, h)).body.paymentMethods.selectedPayment.recurringPaymentToken as string;
    const path = `${API}/${first}/authorizerecurringpayment`;
    // The plugin's body shape (its purchase_id is ignored), with this purchase's token.
    const charged = await call('POST', path, { ...published, recurringPaymentToken: token }, h);
    expect(charged.status, JSON.stringify(charged.body)).toBe(200);
    expect(keysOf(charged.body)).toEqual(keysOf(fixture('recurring-response.json')));
    const second = charged.body.purchaseId as string;
    expect(second).not.toBe(first);
    const read = (await call('GET', `${API}/${second}`, undefined, h)).body;
    expect(read).toMatchObject({
      purchaseId: second,
      totalPrice: 100,
      b2C: { step: { current: 'Completed' } },
      extraIdentifiers: { orderReference: '123456' },
    });
    expect(await call('POST', `${API}/${second}/order`, { orderReference: '123456', tranId: 't1', items: published.items }, h)).toEqual({
      status: 200,
      body: '',
    });
    expect(await call('POST', `${API}/${second}/return`, { orderReference: '123456', tranId: 't2', items: published.items.slice(1) }, h)).toEqual({
      status: 204,
      body: '',
    });
    // Charged again next month on the same token.
    expect((await call('POST', path, { ...published, recurringPaymentToken: token, orderReference: '123457' }, h)).status).toBe(200);
  });

  it("refuses a wrong or missing token, a purchase not Completed, and rows over Avarda's rules, in Avarda's error shape", async () => {
    const h = await bearer();
    const init = await call('POST', API, withRecurring(), h);
    const path = `${API}/${init.body.purchaseId}/authorizerecurringpayment`;
    expect(await call('POST', path, published, h)).toMatchObject({ status: 400, body: { Errors: [{ ErrorCode: 100 }] } });
    await customer(init.body.jwt, 'complete');
    expect(await call('POST', path, published, h)).toMatchObject({ status: 400, body: { Errors: [{ Property: 'RecurringPaymentToken' }], StatusCode: 400 } });
    const { recurringPaymentToken: _t, ...none } = published;
    expect(await call('POST', path, none, h)).toMatchObject({ status: 400, body: { Errors: [{ Property: 'RecurringPaymentToken' }] } });
    const token = (await call('GET', `${API}/${init.body.purchaseId}`, undefined, h)).body.paymentMethods.selectedPayment.recurringPaymentToken;
    expect(await call('POST', path, { ...published, recurringPaymentToken: token, orderReference: 'x'.repeat(21) }, h)).toMatchObject({
      status: 400,
      body: { Errors: [{ Property: 'OrderReference' }] },
    });
    // A purchase that did not offer recurring payments holds no token.
    const plain = await completed();
    expect(await call('POST', `${API}/${plain.id}/authorizerecurringpayment`, { ...published, recurringPaymentToken: token }, plain.h)).toMatchObject({
      status: 400,
      body: { Errors: [{ Property: 'RecurringPaymentToken' }] },
    });
  });

  it('the operator revokes a token (consent withdrawn at Avarda): the next charge on it is refused', async () => {
    const app = express();
    const a = avardaRouter(new IdempotencyStore(), () => '');
    app.use(express.json());
    app.use('/avarda', a.router);
    app.use('/sandbox', a.operator);
    const server = app.listen(0, '127.0.0.1');
    await new Promise((r) => server.once('listening', r));
    const own = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    try {
      const post = async (path: string, body: unknown, headers: Record<string, string> = {}) => {
        const res = await fetch(own + path, { method: 'POST', headers: { 'content-type': 'application/json', ...headers }, body: JSON.stringify(body) });
        return { status: res.status, body: await res.json().catch(() => '') };
      };
      const h = { authorization: `Bearer ${(await post('/avarda/api/partner/tokens', SANDBOX)).body.token}` };
      const init = await post(API, withRecurring(), h);
      const p = a.purchases.get(init.body.purchaseId)!;
      p.step = 'Completed';
      p.recurringPaymentToken = 'feedfacefeedfacefeedfacefeedface';
      const path = `${API}/${p.purchaseId}/authorizerecurringpayment`;
      expect((await post(path, { ...published, recurringPaymentToken: p.recurringPaymentToken }, h)).status).toBe(200);
      expect((await post('/sandbox/avarda/revoke/feedfacefeedfacefeedfacefeedface', {})).status).toBe(200);
      expect(await post(path, { ...published, recurringPaymentToken: 'feedfacefeedfacefeedfacefeedface' }, h)).toMatchObject({
        status: 400,
        body: { Errors: [{ Property: 'RecurringPaymentToken' }] },
      });
      expect((await post('/sandbox/avarda/revoke/unknown', {})).status).toBe(404);
    } finally {
      server.close();
    }
  });
});
