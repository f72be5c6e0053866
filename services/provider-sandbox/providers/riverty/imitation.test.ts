// The sandbox's Riverty against Riverty's published examples (workers/connectors/riverty/fixtures/published/, read
// as files; no connector code): its answers carry the examples' keys, and it refuses by Riverty's published rules
// (fixtures/rules.json), so a sandbox bug and a matching connector bug cannot hide each other.
import express from 'express';
import { readFileSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { IdempotencyStore } from '../../recorder.ts';
import { rivertyRouter } from './imitation.ts';

const read = (name: string) => JSON.parse(readFileSync(new URL(`../../../../workers/connectors/riverty/fixtures/${name}`, import.meta.url), 'utf8'));
const example = read('authorize-request.json').body;
const answers = read('answers.json');
const published = (name: string) => read(`published/${name}.json`);
const keys = (o: object) => Object.keys(o).sort();
let base = '';
let r: ReturnType<typeof rivertyRouter>;
let close = () => {};
const hooks: unknown[] = [];
beforeAll(async () => {
  const app = express();
  app.use(express.json());
  r = rivertyRouter(new IdempotencyStore(), () => base);
  app.use('/riverty', r.router);
  app.post('/hook', (req, res) => {
    hooks.push({ headers: req.headers, body: req.body });
    res.sendStatus(200);
  });
  const server = app.listen(0, '127.0.0.1');
  await new Promise((x) => server.once('listening', x));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  close = () => server.close();
});
afterAll(() => close());

const call = async (method: string, path: string, body?: unknown, key = 'riverty_sandbox_api_key') => {
  const res = await fetch(`${base}/riverty/api/v3${path}`, {
    method,
    headers: { 'content-type': 'application/json', 'x-auth-key': key },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  return { status: res.status, body: (await res.json()) as any };
};
const withNumber = (number: string, over: Record<string, unknown> = {}) => ({ ...example, order: { ...example.order, number }, ...over });

describe("the sandbox's Riverty", () => {
  it("accepts an authorize within Riverty's rules; answers in the keys of Riverty's Accepted example; the order read is Riverty's", async () => {
    const a = await call('POST', '/checkout/authorize', example);
    expect(a.status).toBe(200);
    expect(a.body.outcome).toBe('Accepted');
    for (const k of ['outcome', 'reservationId', 'checkoutId', 'customer']) expect(a.body).toHaveProperty(k);
    expect(keys(a.body).every((k) => k in published('authorize-accepted'))).toBe(true);
    // The same order number again: the first decision.
    expect((await call('POST', '/checkout/authorize', example)).body).toEqual(a.body);
    const o = await call('GET', '/orders/1001');
    expect(keys(o.body)).toEqual(keys(published('order-read')));
    expect(o.body.orderDetails).toMatchObject({ orderNumber: '1001', status: 'Accepted', totalGrossAmount: 30, currency: 'EUR' });
    expect(keys(o.body.orderDetails).every((k) => k in published('order-read').orderDetails)).toBe(true);
  });

  it("captures, voids and refunds in the keys of Riverty's examples, amounts in decimals", async () => {
    await call('POST', '/checkout/authorize', withNumber('1002'));
    const items = [{ description: 'Hat', quantity: 1, netUnitPrice: 8.4, grossUnitPrice: 10, vatPercent: 19, vatAmount: 1.6 }];
    const c = await call('POST', '/orders/1002/captures', {
      orderDetails: { totalGrossAmount: 10, totalNetAmount: 8.4, currency: 'EUR', items },
      transactionReference: 't1',
    });
    expect(c.status).toBe(200);
    expect(keys(c.body)).toEqual(keys(published('capture-full')));
    expect(c.body).toMatchObject({ capturedAmount: 10, authorizedAmount: 30, remainingAuthorizedAmount: 20, totalCapturedAmount: 10 });
    expect((await call('POST', '/orders/1002/captures', { orderDetails: { totalGrossAmount: 10, items }, transactionReference: 't1' })).body).toEqual(c.body);
    const over = await call('POST', '/orders/1002/captures', {
      orderDetails: { totalGrossAmount: 25, items: [{ ...items[0], grossUnitPrice: 25, netUnitPrice: 21.01, vatAmount: 3.99 }] },
    });
    expect(over.status).toBe(400);
    expect(keys(over.body[0]).every((k) => ['type', 'code', 'message', 'customerFacingMessage', 'actionCode', 'fieldReference'].includes(k))).toBe(true);
    expect(over.body[0]).toMatchObject({ code: '400.202' });
    const rf = await call('POST', '/orders/1002/refunds', { captureNumber: c.body.captureNumber, items, refundType: 'Refund', transactionReference: 'ref_1' });
    expect(keys(rf.body)).toEqual(keys(published('refund')));
    expect(rf.body).toMatchObject({ totalRefundedAmount: 10 });
    const v = await call('POST', '/orders/1002/voids', {});
    expect(keys(v.body)).toEqual(keys(published('void')));
    expect(v.body).toMatchObject({ voidedAmount: 20, remainingAuthorizedAmount: 0 });
    const o = (await call('GET', '/orders/1002')).body;
    expect(o.captures).toMatchObject([{ captureNumber: c.body.captureNumber, amount: 10, orderNumber: '1002' }]);
    expect(o.refunds).toMatchObject([{ captureNumber: c.body.captureNumber, amount: -10 }]);
  });

  it("refuses by Riverty's published rules, naming the field, in Riverty's message array", async () => {
    const unauthorized = await call('POST', '/checkout/authorize', example, 'wrong');
    expect(unauthorized).toEqual({ status: 401, body: answers.unauthorized.body });
    const noBirthDate = await call('POST', '/checkout/authorize', withNumber('1003', { customer: { ...example.customer, birthDate: undefined } }));
    expect(noBirthDate).toEqual({ status: 400, body: answers.birthdate_missing.body });
    const decimals = await call('POST', '/checkout/authorize', withNumber('1004', { order: { ...example.order, number: '1004', totalGrossAmount: 30.001 } }));
    expect(decimals.body[0]).toMatchObject({ code: '200.101', fieldReference: 'order.totalGrossAmount' });
    // The published rules: Riverty's language codes (SV, not SE), order number ≤ 50, street number ≤ 10, item types.
    const refused = async (body: unknown) => (await call('POST', '/checkout/authorize', body)).body[0].fieldReference;
    expect(await refused(withNumber('1010', { customer: { ...example.customer, conversationLanguage: 'SE' } }))).toBe('customer.conversationLanguage');
    expect(await refused(withNumber('x'.repeat(51)))).toBe('order.number');
    expect(
      await refused(withNumber('1011', { customer: { ...example.customer, address: { ...example.customer.address, streetNumber: '12345678901' } } })),
    ).toBe('customer.address.streetNumber');
    expect(await refused(withNumber('1012', { order: { ...example.order, number: '1012', items: [{ ...example.order.items[0], type: 'Shipping' }] } }))).toBe(
      'order.items[0].type',
    );
    await call('POST', '/checkout/authorize', withNumber('1005'));
    expect(
      (
        await call('POST', '/orders/1005/captures', {
          invoiceNumber: 'INV-2026-000000000001',
          orderDetails: { totalGrossAmount: 30, currency: 'EUR', items: example.order.items },
        })
      ).body[0],
    ).toMatchObject({ fieldReference: 'invoiceNumber', message: 'invoiceNumber must be at most 20 characters' });
    await call('POST', '/orders/1005/captures', {});
    expect((await call('POST', '/orders/1005/voids', {})).body).toEqual(answers.void_captured.body);
    expect((await call('POST', '/orders/1005/refunds', { refundType: 'Refund' })).body[0]).toMatchObject({ fieldReference: 'captureNumber' });
    expect((await call('GET', '/orders/nope')).body).toEqual(answers.order_not_found.body);
  });

  it("magic tags: Rejected with the risk message; Pending with the authentication page, then Riverty's CustomerAuthenticationCompleted, unsigned", async () => {
    const rejected = await call('POST', '/checkout/authorize', withNumber('1006', { customer: { ...example.customer, email: 'a+decline@ex.com' } }));
    expect(rejected.body.riskCheckMessages).toEqual(answers.rejected.body.riskCheckMessages);
    expect((await call('GET', '/orders/1006')).body.orderDetails.status).toBe('Rejected');
    for (const [number, decision, status] of [
      ['1007', 'approve', 'Accepted'],
      ['1008', 'deny', 'Cancelled'],
    ] as const) {
      const pending = await call(
        'POST',
        '/checkout/authorize',
        withNumber(number, { customer: { ...example.customer, email: 'a+redirect@ex.com' }, webhookUrl: `${base}/hook` }),
      );
      expect(pending.body).toMatchObject({ outcome: 'Pending', secureLoginUrl: `${base}/riverty/sca/${number}` });
      expect((await call('GET', `/orders/${number}`)).body.orderDetails.status).toBe('Pending');
      expect(await (await fetch(pending.body.secureLoginUrl)).text()).toContain(`action="/riverty/sca/${number}/approve"`);
      await fetch(`${base}/riverty/sca/${number}/${decision}`, { method: 'POST', redirect: 'manual' });
      expect((await call('GET', `/orders/${number}`)).body.orderDetails.status).toBe(status);
      for (let i = 0; i < 50 && !r.notifier.deliveries.find((d) => d.object_id === number)?.delivered; i++) await new Promise((x) => setTimeout(x, 20));
      const sent = r.notifier.deliveries.find((d) => d.object_id === number)!;
      const cac = published('customer-authentication-completed');
      expect(keys((sent.body as any).Header)).toEqual(keys(cac.Header));
      expect((sent.body as any).Header.MessageName).toBe('CustomerAuthenticationCompleted');
      expect((sent.body as any).Body).toEqual({ OrderNumber: number, Status: status });
    }
    const got = hooks as { headers: Record<string, string>; body: any }[];
    expect(got.map((h) => h.body.Body.Status)).toEqual(['Accepted', 'Cancelled']);
    expect(Object.keys(got[0]!.headers).some((h) => /signature/i.test(h))).toBe(false);
  });
});
