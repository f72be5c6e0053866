// The sandbox's Riverty against the reference sheet's examples and the connector's schemas of Riverty's answers
// (workers/connectors/riverty/response.ts): a sandbox bug and a matching connector bug cannot hide each other.
import express from 'express';
import { readFileSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { IdempotencyStore } from '../../recorder.ts';
import { rivertyRouter } from './imitation.ts';
import { RivertyAuthorization, RivertyCapture, RivertyErrors, RivertyOrder, RivertyRefund, RivertyVoid } from '../../../../workers/connectors/riverty/response.ts';

const example = JSON.parse(readFileSync(new URL('../../../../workers/connectors/riverty/fixtures/authorize-request.json', import.meta.url), 'utf8')).body;
const answers = JSON.parse(readFileSync(new URL('../../../../workers/connectors/riverty/fixtures/answers.json', import.meta.url), 'utf8'));
let base = '';
let close = () => {};
beforeAll(async () => {
  const app = express();
  app.use(express.json());
  app.use('/riverty', rivertyRouter(new IdempotencyStore(), () => base).router);
  const server = app.listen(0, '127.0.0.1');
  await new Promise((r) => server.once('listening', r));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  close = () => server.close();
});
afterAll(() => close());

const call = async (method: string, path: string, body?: unknown, key = 'riverty_sandbox_api_key') => {
  const res = await fetch(`${base}/riverty/api/v3${path}`, { method, headers: { 'content-type': 'application/json', 'x-auth-key': key }, body: body === undefined ? undefined : JSON.stringify(body) });
  return { status: res.status, body: await res.json() as any };
};
const withNumber = (number: string, over: Record<string, unknown> = {}) => ({ ...example, order: { ...example.order, number }, ...over });

describe('the sandbox\'s Riverty', () => {
  it('accepts the reference sheet\'s authorize example, in the sheet\'s answer shape', async () => {
    const r = await call('POST', '/checkout/authorize', example);
    expect(r.status).toBe(200);
    expect(RivertyAuthorization.parse(r.body).outcome).toBe('Accepted');
    expect(Object.keys(r.body).sort()).toEqual(Object.keys(answers.accepted.body).sort());
    // The same order number again: the first decision.
    expect((await call('POST', '/checkout/authorize', example)).body).toEqual(r.body);
    expect(RivertyOrder.parse((await call('GET', '/orders/1001')).body).orderDetails.number).toBe('1001');
  });

  it('captures, voids and refunds in the sheet\'s answer shapes, amounts in decimals', async () => {
    await call('POST', '/checkout/authorize', withNumber('1002'));
    const items = [{ description: 'Hat', quantity: 1, netUnitPrice: 8.4, grossUnitPrice: 10, vatPercent: 19, vatAmount: 1.6 }];
    const c = await call('POST', '/orders/1002/captures', { orderDetails: { totalGrossAmount: 10, totalNetAmount: 8.4, currency: 'EUR', items }, transactionReference: 't1' });
    expect(c.status).toBe(200);
    expect(RivertyCapture.parse(c.body)).toMatchObject({ capturedAmount: 10, authorizedAmount: 30, remainingAuthorizedAmount: 20, totalCapturedAmount: 10 });
    expect(Object.keys(c.body).sort()).toEqual(Object.keys(answers.capture.body).sort());
    expect((await call('POST', '/orders/1002/captures', { orderDetails: { totalGrossAmount: 10, items }, transactionReference: 't1' })).body).toEqual(c.body);
    const over = await call('POST', '/orders/1002/captures', { orderDetails: { totalGrossAmount: 25, items: [{ ...items[0], grossUnitPrice: 25, netUnitPrice: 21.01, vatAmount: 3.99 }] } });
    expect(over.status).toBe(400);
    expect(RivertyErrors.parse(over.body)[0]).toMatchObject({ code: '400.202' });
    const rf = await call('POST', '/orders/1002/refunds', { captureNumber: c.body.captureNumber, items, refundType: 'Refund', transactionReference: 'ref_1' });
    expect(RivertyRefund.parse(rf.body)).toMatchObject({ totalRefundedAmount: 10 });
    expect(Object.keys(rf.body).sort()).toEqual(Object.keys(answers.refund.body).sort());
    const v = await call('POST', '/orders/1002/voids', {});
    expect(RivertyVoid.parse(v.body)).toMatchObject({ voidedAmount: 20, remainingAuthorizedAmount: 0 });
    expect(Object.keys(v.body).sort()).toEqual(Object.keys(answers.voided.body).sort());
  });

  it('refuses in Riverty\'s message array: a wrong key, a missing field, too many decimals, a void after the full capture', async () => {
    const unauthorized = await call('POST', '/checkout/authorize', example, 'wrong');
    expect(unauthorized.status).toBe(401);
    expect(RivertyErrors.parse(unauthorized.body)).toEqual(answers.unauthorized.body);
    const noBirthDate = await call('POST', '/checkout/authorize', withNumber('1003', { customer: { ...example.customer, birthDate: undefined } }));
    expect(noBirthDate).toEqual({ status: 400, body: answers.birthdate_missing.body });
    const decimals = await call('POST', '/checkout/authorize', withNumber('1004', { order: { ...example.order, number: '1004', totalGrossAmount: 30.001 } }));
    expect(RivertyErrors.parse(decimals.body)[0]).toMatchObject({ code: '200.101', fieldReference: 'order.totalGrossAmount' });
    await call('POST', '/checkout/authorize', withNumber('1005'));
    await call('POST', '/orders/1005/captures', {});
    expect((await call('POST', '/orders/1005/voids', {})).body).toEqual(answers.void_captured.body);
    expect((await call('GET', '/orders/nope')).body).toEqual(answers.order_not_found.body);
  });

  it('magic tags in the customer\'s email: Rejected with the risk message, Pending with the authentication page', async () => {
    const rejected = await call('POST', '/checkout/authorize', withNumber('1006', { customer: { ...example.customer, email: 'a+decline@ex.com' } }));
    expect(rejected.body.riskCheckMessages).toEqual((answers.rejected.body as any).riskCheckMessages);
    const pending = await call('POST', '/checkout/authorize', withNumber('1007', { customer: { ...example.customer, email: 'a+redirect@ex.com' } }));
    expect(pending.body).toMatchObject({ outcome: 'Pending', secureLoginUrl: `${base}/riverty/sca/1007` });
    expect(await (await fetch(pending.body.secureLoginUrl)).text()).toContain('action="/riverty/sca/1007/approve"');
  });
});
