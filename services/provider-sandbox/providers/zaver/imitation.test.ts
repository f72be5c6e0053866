// The sandbox's Zaver against the reference sheet's examples (workers/connectors/zaver/fixtures) and the connector's
// schemas of Zaver's shapes (workers/connectors/zaver/response.ts, notification.ts): a sandbox bug and a matching
// connector bug cannot hide each other.
import express from 'express';
import { readFileSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { IdempotencyStore } from '../../recorder.ts';
import { zaverRouter } from './imitation.ts';
import { ZaverCapture, ZaverPayment, ZaverRefund } from '../../../../workers/connectors/zaver/response.ts';
import { ZaverError } from '../../../../workers/connectors/zaver/errors.ts';
import { parseNotification } from '../../../../workers/connectors/zaver/notification.ts';

const requests = JSON.parse(readFileSync(new URL('../../../../workers/connectors/zaver/fixtures/requests.json', import.meta.url), 'utf8'));
const answers = JSON.parse(readFileSync(new URL('../../../../workers/connectors/zaver/fixtures/answers.json', import.meta.url), 'utf8'));
const KEY = 'zaver_sandbox_api_key';

let base = '';
let server: ReturnType<express.Express['listen']>;
const received: { authorization: string | undefined; body: string }[] = [];
beforeAll(async () => {
  const app = express();
  app.use(express.json());
  app.use(express.urlencoded({ extended: false }));
  app.use('/zaver', zaverRouter(new IdempotencyStore(), () => base).router);
  app.post('/cb', express.text({ type: '*/*' }), (req, res) => {
    received.push({ authorization: req.header('authorization'), body: typeof req.body === 'string' ? req.body : JSON.stringify(req.body) });
    res.sendStatus(200);
  });
  await new Promise<void>((r) => { server = app.listen(0, '127.0.0.1', () => r()); });
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(() => server?.close());

const call = async (method: string, path: string, body?: unknown, key = KEY) => {
  const res = await fetch(`${base}/zaver${path}`, { method, headers: { 'content-type': 'application/json', authorization: `Bearer ${key}` }, body: body === undefined ? undefined : JSON.stringify(body) });
  return { status: res.status, body: await res.json() as any };
};
const sheetPayment = (over: Record<string, unknown> = {}) => ({ ...requests.create_payment, merchantUrls: { ...requests.create_payment.merchantUrls, callbackUrl: `${base}/cb` }, ...over });
const sheetRefund = (over: Record<string, unknown> = {}) => ({ ...requests.refund, merchantUrls: { callbackUrl: `${base}/cb` }, ...over });
const keysOf = (o: object) => Object.keys(o).sort();

/** The payer on the payment link: opens it and posts its approve (or deny) form. */
async function payer(link: string, decision: 'approve' | 'deny') {
  const page = await (await fetch(link)).text();
  const form = new RegExp(`action="([^"]+/${decision})"`).exec(page)?.[1];
  expect(form, page).toBeTruthy();
  return fetch(new URL(form!, link), { method: 'POST', redirect: 'manual' });
}

describe('the sandbox\'s Zaver', () => {
  it('the sheet\'s create example: the payment link, the payer\'s approval, a capture, refunds, in the sheet\'s shapes and major units', async () => {
    const created = await call('POST', '/payments/link/v2', sheetPayment({ idempotencyKey: 'k-1' }));
    expect(created.status).toBe(200);
    const p = ZaverPayment.parse(created.body);
    expect(p).toMatchObject({ paymentStatus: 'CREATED', amount: 2100, currency: 'SEK', merchantPaymentReference: '123456' });
    expect(keysOf(created.body)).toEqual(keysOf(answers.created.body).filter((k) => k !== 'specificPaymentMethodData').concat('merchantMetadata', 'title').sort());
    // The same idempotencyKey: the same payment.
    expect((await call('POST', '/payments/link/v2', sheetPayment({ idempotencyKey: 'k-1' }))).body.paymentId).toBe(p.paymentId);
    // Nothing to capture before the payer's approval.
    expect(await call('POST', `/payments/link/v2/${p.paymentId}/capture`, requests.capture)).toEqual({ status: 400, body: { errors: [{ ...answers.capture_not_authorized.body.errors[0] }] } });
    const back = await payer(p.paymentLink!, 'approve');
    expect(back.status).toBe(303);
    expect(back.headers.get('location')).toBe('https://shop/ty');
    expect(ZaverPayment.parse((await call('GET', `/payments/link/v2/${p.paymentId}`)).body).paymentStatus).toBe('PENDING_MERCHANT_CAPTURE');
    const partial = await call('POST', `/payments/link/v2/${p.paymentId}/capture`, { ...requests.capture, amount: 1000.5 });
    expect(ZaverCapture.parse(partial.body)).toMatchObject({ amount: 1000.5, paymentStatus: 'PENDING_MERCHANT_CAPTURE' });
    expect(keysOf(partial.body)).toEqual(keysOf(answers.capture.body));
    // The same captureIdempotencyKey: the first capture.
    expect((await call('POST', `/payments/link/v2/${p.paymentId}/capture`, { ...requests.capture, amount: 1000.5 })).body).toEqual(partial.body);
    const tooMuch = await call('POST', `/payments/link/v2/${p.paymentId}/capture`, { amount: 1200, currency: 'SEK', captureIdempotencyKey: 'c-2' });
    expect(ZaverError.parse(tooMuch.body).errors[0]!.errorCode).toBe('AMOUNT_INVALID');
    const rest = await call('POST', `/payments/link/v2/${p.paymentId}/capture`, { amount: 1099.5, currency: 'SEK', captureIdempotencyKey: 'c-3' });
    expect(rest.body).toMatchObject({ paymentStatus: 'SETTLED' });
    expect(ZaverPayment.parse((await call('GET', `/payments/link/v2/${p.paymentId}`)).body)).toMatchObject({ paymentStatus: 'SETTLED', capturedAmount: 2100 });
    expect((await call('POST', `/payments/link/v2/${p.paymentId}/cancel`)).body.errors[0].errorCode).toBe('PAYMENT_ILLEGAL_STATE');

    const refund = await call('POST', '/refund/v1', sheetRefund({ paymentId: p.paymentId }));
    expect(ZaverRefund.parse(refund.body)).toMatchObject({ status: 'EXECUTED', refundAmount: 100, merchantReference: 'R-123456-1' });
    expect(keysOf(refund.body)).toEqual(keysOf(answers.refund_pending_approval.body));
    // The same merchantReference: the same refund.
    expect((await call('POST', '/refund/v1', sheetRefund({ paymentId: p.paymentId }))).body.refundId).toBe(refund.body.refundId);
    expect(await call('POST', '/refund/v1', sheetRefund({ paymentId: p.paymentId, refundAmount: 2001, merchantReference: 'R-2' }))).toEqual(answers.refund_too_much);
    expect(ZaverRefund.parse((await call('GET', `/refund/v1/${refund.body.refundId}`)).body).status).toBe('EXECUTED');

    // Every status change was called back with the merchant's callback token, in shapes the connector reads.
    await expect.poll(() => received.filter((r) => parseNotification(r.body).object === 'payment').length).toBe(2);
    for (const r of received) expect(r.authorization).toBe('Bearer zaver_sandbox_callback_token');
    const told = received.map((r) => parseNotification(r.body)).filter((n) => n.object === 'payment' && n.connector_transaction_id === p.paymentId);
    expect(told.map((n) => (n as any).outcome.kind)).toEqual(['AUTHORIZED', 'CAPTURED']);
  });

  it('a refund held for the merchant\'s approval (+refund_pending): PENDING_MERCHANT_APPROVAL, approved -> PENDING_EXECUTION -> EXECUTED, called back', async () => {
    received.length = 0;
    const p = (await call('POST', '/payments/link/v2', sheetPayment({ payerData: { email: 'sven+refund_pending@example.se' } }))).body;
    await payer(p.paymentLink, 'approve');
    await call('POST', `/payments/link/v2/${p.paymentId}/capture`, { amount: 2100, currency: 'SEK' });
    const r = await call('POST', '/refund/v1', sheetRefund({ paymentId: p.paymentId }));
    expect(ZaverRefund.parse(r.body).status).toBe('PENDING_MERCHANT_APPROVAL');
    const approved = await call('POST', `/refund/v1/${r.body.refundId}/approve`);
    expect(approved.body.status).toBe('EXECUTED');
    expect((await call('POST', `/refund/v1/${r.body.refundId}/approve`)).body.errors[0].errorCode).toBe('REFUND_ILLEGAL_STATE');
    await expect.poll(() => received.map((x) => parseNotification(x.body)).filter((n) => n.object === 'refund').map((n) => (n as any).outcome.kind)).toEqual(['PENDING', 'REFUNDED']);
    const [first, second] = received.map((x) => parseNotification(x.body)).filter((n) => n.object === 'refund') as any[];
    expect(second.provider_updated_at > first.provider_updated_at).toBe(true);
    expect(first.refund_reference).toBe('R-123456-1');
    // One cancelled before its approval: CANCELLED.
    const r2 = await call('POST', '/refund/v1', sheetRefund({ paymentId: p.paymentId, merchantReference: 'R-2' }));
    expect((await call('POST', `/refund/v1/${r2.body.refundId}/cancel`)).body.status).toBe('CANCELLED');
  });

  it('the payer is declined (+decline) or cancels on the link: CANCELLED, back to cancelUrl; the cancel of an authorized payment', async () => {
    const declined = (await call('POST', '/payments/link/v2', sheetPayment({ payerData: { email: 'sven+decline@example.se' } }))).body;
    expect((await payer(declined.paymentLink, 'approve')).headers.get('location')).toBe('https://shop/cancel');
    expect((await call('GET', `/payments/link/v2/${declined.paymentId}`)).body.paymentStatus).toBe('CANCELLED');
    const cancelled = (await call('POST', '/payments/link/v2', sheetPayment())).body;
    expect((await payer(cancelled.paymentLink, 'deny')).headers.get('location')).toBe('https://shop/cancel');
    const authorized = (await call('POST', '/payments/link/v2', sheetPayment())).body;
    await payer(authorized.paymentLink, 'approve');
    const v = await call('POST', `/payments/link/v2/${authorized.paymentId}/cancel`);
    expect(ZaverPayment.parse(v.body).paymentStatus).toBe('CANCELLED');
  });

  it('errors in Zaver\'s shape: a wrong key, a missing field, an unknown payment, a refund refused (+refund_fail)', async () => {
    expect(await call('POST', '/payments/link/v2', sheetPayment(), 'wrong')).toEqual(answers.unauthorized);
    const { title: _t, ...noTitle } = sheetPayment();
    expect(await call('POST', '/payments/link/v2', noTitle)).toEqual(answers.validation_error);
    const badLine = await call('POST', '/payments/link/v2', sheetPayment({ lineItems: [{ ...requests.create_payment.lineItems[0], totalAmount: 1999 }] }));
    expect(ZaverError.parse(badLine.body).errors[0]).toMatchObject({ errorCode: 'AMOUNT_INVALID', errorMessage: 'lineItems[0].totalAmount: must be unitPrice × quantity' });
    expect(await call('GET', '/payments/link/v2/nope')).toEqual(answers.payment_not_found);
    const p = (await call('POST', '/payments/link/v2', sheetPayment({ payerData: { email: 'sven+refund_fail@example.se' } }))).body;
    await payer(p.paymentLink, 'approve');
    await call('POST', `/payments/link/v2/${p.paymentId}/capture`, { amount: 2100, currency: 'SEK' });
    expect(await call('POST', '/refund/v1', sheetRefund({ paymentId: p.paymentId }))).toEqual(answers.refund_not_possible);
  });
});
