// The sandbox's Zaver against Zaver's published examples and rules (workers/connectors/zaver/fixtures/, SOURCES.md
// names each one's source), read as files: the imitation is checked against Zaver's material, not against the
// connector's code (imported nowhere here), so a mistake of the connector's cannot be agreed with.
import express from 'express';
import { readFileSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { IdempotencyStore } from '../../recorder.ts';
import { zaverRouter } from './imitation.ts';

const fixture = (name: string): any => JSON.parse(readFileSync(new URL(`../../../../workers/connectors/zaver/fixtures/${name}.json`, import.meta.url), 'utf8'));
const rules = fixture('rules');
const PAYMENT = fixture('payment-status.created');
const REFUND = fixture('refund.pending-merchant-approval');
const ERROR = fixture('error.validation-error');
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
  await new Promise<void>((r) => {
    server = app.listen(0, '127.0.0.1', () => r());
  });
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(() => server?.close());

const call = async (method: string, path: string, body?: unknown, key = KEY) => {
  const res = await fetch(`${base}/zaver${path}`, {
    method,
    headers: { 'content-type': 'application/json', authorization: `Bearer ${key}` },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  return { status: res.status, body: (await res.json()) as any };
};
/** The SDK README's create example (captureMethod not set: immediate), with our callback address. */
const example = fixture('payment-creation.request');
const sdkPayment = (over: Record<string, unknown> = {}) => ({ ...example, merchantUrls: { ...example.merchantUrls, callbackUrl: `${base}/cb` }, ...over });
const deferred = (over: Record<string, unknown> = {}) => sdkPayment({ merchantCustomizations: { captureMethod: 'deferred' }, ...over });
const fixedRefund = (over: Record<string, unknown> = {}) => ({
  ...fixture('refund-creation.fixed-amount.request'),
  merchantUrls: { callbackUrl: `${base}/cb` },
  ...over,
});
const keysOf = (o: object) => Object.keys(o).sort();
/** Exactly the published example's fields; the statuses from the published lists. */
const isPayment = (b: any) => {
  expect(keysOf(b)).toEqual(keysOf(PAYMENT));
  expect(rules.paymentStatuses).toContain(b.paymentStatus);
  return b;
};
const isRefund = (b: any) => {
  expect(keysOf(b)).toEqual(keysOf(REFUND));
  expect(rules.refundStatuses).toContain(b.status);
  return b;
};
const isError = (res: { status: number; body: any }, code: string, status = 400) => {
  expect(res.status).toBe(status);
  expect(keysOf(res.body)).toEqual(keysOf(ERROR));
  expect(keysOf(res.body.errors[0])).toEqual(keysOf(ERROR.errors[0]));
  if (code !== 'UNAUTHORIZED') expect(rules.errorCodes).toContain(code);
  expect(res.body.errors[0].errorCode).toBe(code);
  return res.body.errors[0];
};
const callbacks = () => received.map((r) => ({ ...r, json: JSON.parse(r.body) }));

/** The payer on the payment link: opens it and posts its approve (or deny) form. */
async function payer(link: string, decision: 'approve' | 'deny') {
  const page = await (await fetch(link)).text();
  const form = new RegExp(`action="([^"]+/${decision})"`).exec(page)?.[1];
  expect(form, page).toBeTruthy();
  return fetch(new URL(form!, link), { method: 'POST', redirect: 'manual' });
}

describe("the sandbox's Zaver", () => {
  it("the SDK README's example (captureMethod not set: immediate): the payment link, the payer pays, SETTLED at once, in the published shapes", async () => {
    const created = await call('POST', '/payments/link/v2', sdkPayment({ idempotencyKey: 'k-1' }));
    expect(created.status).toBe(200);
    const p = isPayment(created.body);
    expect(p).toMatchObject({ paymentStatus: 'CREATED', amount: 2100, currency: 'SEK', merchantPaymentReference: '123456', capturedAmount: 0 });
    // Zaver sets each line item's id.
    expect(p.lineItems.map((l: any) => typeof l.id)).toEqual(['string', 'string']);
    // The same idempotencyKey: the same payment.
    expect((await call('POST', '/payments/link/v2', sdkPayment({ idempotencyKey: 'k-1' }))).body.paymentId).toBe(p.paymentId);
    const back = await payer(p.paymentLink, 'approve');
    expect(back.status).toBe(303);
    expect(back.headers.get('location')).toBe('https://example.com/thank-you');
    expect(isPayment((await call('GET', `/payments/link/v2/${p.paymentId}`)).body)).toMatchObject({ paymentStatus: 'SETTLED', capturedAmount: 2100 });
    // The README's callback: "Output: SETTLED", with the merchant's callback token.
    await expect
      .poll(() =>
        callbacks()
          .filter((c) => c.json.paymentId === p.paymentId)
          .map((c) => c.json.paymentStatus),
      )
      .toEqual(['SETTLED']);
    for (const c of callbacks()) {
      expect(c.authorization).toBe('Bearer zaver_sandbox_callback_token');
      isPayment(c.json);
    }
  });

  it('deferred capture: PENDING_MERCHANT_CAPTURE, partial captures answer the payment (no capture id), then SETTLED; a refund of the SETTLED payment', async () => {
    const p = isPayment((await call('POST', '/payments/link/v2', deferred())).body);
    // Nothing to capture before the payer's approval.
    isError(await call('POST', `/payments/link/v2/${p.paymentId}/capture`, fixture('payment-capture.request')), 'PAYMENT_ILLEGAL_STATE');
    await payer(p.paymentLink, 'approve');
    expect(isPayment((await call('GET', `/payments/link/v2/${p.paymentId}`)).body).paymentStatus).toBe('PENDING_MERCHANT_CAPTURE');
    const first = { amount: 1000.5, currency: 'SEK', captureIdempotencyKey: 'c-1' };
    const partial = await call('POST', `/payments/link/v2/${p.paymentId}/capture`, first);
    // v2: the answer is the payment itself (Checkout::capturePayment returns a PaymentStatusResponse).
    expect(isPayment(partial.body)).toMatchObject({ paymentId: p.paymentId, paymentStatus: 'PENDING_MERCHANT_CAPTURE', capturedAmount: 1000.5 });
    expect(partial.body).not.toHaveProperty('id');
    // The same captureIdempotencyKey: the first capture's answer.
    expect((await call('POST', `/payments/link/v2/${p.paymentId}/capture`, first)).body).toEqual(partial.body);
    // Only a SETTLED payment can be refunded (ErrorCode::PAYMENT_ILLEGAL_STATE).
    isError(await call('POST', '/refund/v1', fixedRefund({ paymentId: p.paymentId })), 'PAYMENT_ILLEGAL_STATE');
    isError(await call('POST', `/payments/link/v2/${p.paymentId}/capture`, { amount: 1200, currency: 'SEK', captureIdempotencyKey: 'c-2' }), 'AMOUNT_INVALID');
    const rest = await call('POST', `/payments/link/v2/${p.paymentId}/capture`, { amount: 1099.5, currency: 'SEK', captureIdempotencyKey: 'c-3' });
    expect(isPayment(rest.body)).toMatchObject({ paymentStatus: 'SETTLED', capturedAmount: 2100 });
    isError(await call('POST', `/payments/link/v2/${p.paymentId}/cancel`), 'PAYMENT_ILLEGAL_STATE');

    // A refund is created waiting for the merchant's approval (SDK README: "Outputs: PENDING_MERCHANT_APPROVAL").
    const refund = await call('POST', '/refund/v1', fixedRefund({ paymentId: p.paymentId, merchantReference: 'R-1' }));
    expect(isRefund(refund.body)).toMatchObject({
      status: rules.refundCreation.createdStatus,
      refundAmount: 100,
      refundTaxAmount: 20,
      invoiceReference: '123456',
      merchantReference: 'R-1',
    });
    // The same merchantReference: the same refund.
    expect((await call('POST', '/refund/v1', fixedRefund({ paymentId: p.paymentId, merchantReference: 'R-1' }))).body.refundId).toBe(refund.body.refundId);
    isError(
      await call('POST', '/refund/v1', fixedRefund({ paymentId: p.paymentId, refundAmount: 2001, merchantReference: 'R-2' })),
      'AMOUNT_EXCEEDS_REFUNDABLE_AMOUNT',
    );
    // Approved (the README's refund callback: "Output: PENDING_EXECUTION"), then executed; each called back, later lastEvent.
    const approved = await call('POST', `/refund/v1/${refund.body.refundId}/approve`);
    expect(isRefund(approved.body).status).toBe('EXECUTED');
    isError(await call('POST', `/refund/v1/${refund.body.refundId}/approve`), 'REFUND_ILLEGAL_STATE');
    await expect
      .poll(() =>
        callbacks()
          .filter((c) => c.json.refundId === refund.body.refundId)
          .map((c) => c.json.status),
      )
      .toEqual(['PENDING_EXECUTION', 'EXECUTED']);
    const [a, b] = callbacks()
      .filter((c) => c.json.refundId === refund.body.refundId)
      .map((c) => isRefund(c.json));
    expect(b.lastEvent > a.lastEvent).toBe(true);
    // One cancelled before its approval: CANCELLED.
    const r2 = await call('POST', '/refund/v1', fixedRefund({ paymentId: p.paymentId, merchantReference: 'R-3' }));
    expect(isRefund((await call('POST', `/refund/v1/${r2.body.refundId}/cancel`)).body).status).toBe('CANCELLED');
  });

  it('the payer is declined (+decline) or cancels on the link: CANCELLED, back to cancelUrl; the cancel of an authorized payment', async () => {
    const declined = (await call('POST', '/payments/link/v2', deferred({ payerData: { email: 'sven+decline@example.se' } }))).body;
    expect((await payer(declined.paymentLink, 'approve')).headers.get('location')).toBe('https://example.com/canceled');
    expect((await call('GET', `/payments/link/v2/${declined.paymentId}`)).body.paymentStatus).toBe('CANCELLED');
    const cancelled = (await call('POST', '/payments/link/v2', deferred())).body;
    expect((await payer(cancelled.paymentLink, 'deny')).headers.get('location')).toBe('https://example.com/canceled');
    const authorized = (await call('POST', '/payments/link/v2', deferred())).body;
    await payer(authorized.paymentLink, 'approve');
    expect(isPayment((await call('POST', `/payments/link/v2/${authorized.paymentId}/cancel`)).body).paymentStatus).toBe('CANCELLED');
  });

  it('checks requests by the published rules: each required field named, market, captureMethod, line items, payerData for DE', async () => {
    expect(isError(await call('POST', '/payments/link/v2', sdkPayment(), 'wrong'), 'UNAUTHORIZED', 401)).toBeTruthy();
    for (const field of rules.paymentCreation.required) {
      const { [field]: _gone, ...without } = sdkPayment();
      expect(isError(await call('POST', '/payments/link/v2', without), 'VALIDATION_ERROR').errorMessage).toBe(`${field}: must not be blank`);
    }
    for (const field of rules.paymentCreation.lineItem.required) {
      const { [field]: _gone, ...line } = example.lineItems[0];
      expect(isError(await call('POST', '/payments/link/v2', sdkPayment({ lineItems: [line] })), 'VALIDATION_ERROR').errorMessage).toBe(
        `lineItems[0].${field}: must not be blank`,
      );
    }
    expect(
      isError(await call('POST', '/payments/link/v2', sdkPayment({ merchantCustomizations: { captureMethod: 'later' } })), 'VALIDATION_ERROR').errorMessage,
    ).toMatch(/^merchantCustomizations\.captureMethod/);
    expect(isError(await call('POST', '/payments/link/v2', sdkPayment({ market: 'DE', currency: 'EUR' })), 'VALIDATION_ERROR').errorMessage).toBe(
      'payerData: is mandatory for market DE',
    );
    const badLine = await call('POST', '/payments/link/v2', sdkPayment({ lineItems: [{ ...example.lineItems[0], totalAmount: 1999 }] }));
    expect(isError(badLine, 'AMOUNT_INVALID').errorMessage).toBe('lineItems[0].totalAmount: must be unitPrice × quantity');
    isError(await call('GET', '/payments/link/v2/nope'), 'PAYMENT_NOT_FOUND', 404);
    const settled = (await call('POST', '/payments/link/v2', sdkPayment())).body;
    await payer(settled.paymentLink, 'approve');
    for (const field of rules.refundCreation.required) {
      const { [field]: _gone, ...without } = fixedRefund({ paymentId: settled.paymentId });
      expect(isError(await call('POST', '/refund/v1', without), 'VALIDATION_ERROR').errorMessage).toBe(`${field}: must not be blank`);
    }
    const p = (await call('POST', '/payments/link/v2', sdkPayment({ payerData: { email: 'sven+refund_fail@example.se' } }))).body;
    await payer(p.paymentLink, 'approve');
    isError(await call('POST', '/refund/v1', fixedRefund({ paymentId: p.paymentId })), 'REFUND_NOT_POSSIBLE');
  });
});
