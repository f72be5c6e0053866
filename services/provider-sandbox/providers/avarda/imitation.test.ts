// The Avarda imitation against the examples the connector's unit tests use (the reference sheet's bodies in
// workers/connectors/avarda/fixtures/): what the connector sends is what the imitation accepts, and what the
// imitation answers has the shapes the connector reads. In process, no stack.
import express from 'express';
import { readFileSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { IdempotencyStore } from '../../recorder.ts';
import { avardaRouter } from './imitation.ts';
import { connector } from '../../../../workers/connectors/avarda/index.ts';
import { testSession } from '../../../../workers/connectors/kit/testing.ts';
import type { ConnectorJob } from '../../../../domain/job.ts';

const fixtures = new URL('../../../../workers/connectors/avarda/fixtures/', import.meta.url);
const answers: Record<string, { status: number; body: any }> = JSON.parse(readFileSync(new URL('answers.json', fixtures), 'utf8'));
const requests: Record<string, any> = JSON.parse(readFileSync(new URL('requests.json', fixtures), 'utf8'));

let base = '';
let close = () => {};
const received: unknown[] = [];
beforeAll(async () => {
  const app = express();
  app.use(express.json());
  app.use(express.urlencoded({ extended: false }));
  app.use('/avarda', avardaRouter(new IdempotencyStore(), () => base).router);
  app.post('/cb', (req, res) => { received.push(req.body); res.json({ ok: true }); });
  const server = app.listen(0, '127.0.0.1');
  await new Promise((r) => server.once('listening', r));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  close = () => server.close();
});
afterAll(() => close());

const API = '/avarda/api/partner/payments';
const call = async (method: string, path: string, body?: unknown, headers: Record<string, string> = {}) => {
  const res = await fetch(base + path, { method, headers: { 'content-type': 'application/json', ...headers }, body: body === undefined ? undefined : JSON.stringify(body) });
  return { status: res.status, body: await res.json() as any };
};
const bearer = async () => ({ authorization: `Bearer ${(await call('POST', '/avarda/api/partner/tokens', requests.token)).body.token}` });
const withoutTrace = ({ traceId: _t, ...b }: any) => b;
const job = { operation_id: 'op_1', capture_method: 'manual', connector_transaction_id: null, return_url: 'https://shop.example/return' } as unknown as ConnectorJob;
/** The sheet's example with our callback receiver and a customer email (magic tags). */
const example = (email = 'a@example.se') => ({
  ...requests.initialize,
  checkoutSetup: { ...requests.initialize.checkoutSetup, completedNotificationUrl: `${base}/cb` },
  b2C: { ...requests.initialize.b2C, userInputs: { ...requests.initialize.b2C.userInputs, email } },
});
/** The customer posts one of the checkout page's forms, as a browser would. */
async function customer(jwt: string, action: 'complete' | 'leave') {
  const page = await (await fetch(`${base}/avarda/checkout?purchaseJwt=${encodeURIComponent(jwt)}&redirectUrl=${encodeURIComponent('https://shop.example/return')}`)).text();
  const action_ = new RegExp(`action="(/avarda/checkout/${action})"`).exec(page)?.[1];
  expect(action_, page).toBeTruthy();
  return fetch(base + action_!, { method: 'POST', redirect: 'manual', body: new URLSearchParams({ purchaseJwt: jwt, redirectUrl: 'https://shop.example/return' }) });
}
const until = async (check: () => boolean) => { for (let i = 0; i < 100 && !check(); i++) await new Promise((r) => setTimeout(r, 20)); };

describe('avarda imitation: partner tokens', () => {
  it('issues a token with its expiry for the sandbox client; refuses wrong credentials and missing fields in the fixtures\' shapes', async () => {
    const ok = await call('POST', '/avarda/api/partner/tokens', requests.token);
    expect(Object.keys(ok.body).sort()).toEqual(Object.keys(answers.token.body).sort());
    expect(connector.token!.response(ok)).toEqual({ access_token: ok.body.token, expires_in_s: expect.any(Number) });
    const refused = await call('POST', '/avarda/api/partner/tokens', { ...requests.token, clientSecret: 'wrong' });
    expect(refused.status).toBe(401);
    expect(withoutTrace(refused.body)).toEqual(withoutTrace(answers.token_refused.body));
    const missing = await call('POST', '/avarda/api/partner/tokens', { clientId: 'x' });
    expect(missing.status).toBe(400);
    expect(missing.body.errors).toEqual({ ClientSecret: ['The ClientSecret field is required.'] });
  });

  it('refuses an expired token with the fixture\'s 401 body, and a foreign one', async () => {
    const h = await bearer();
    expect((await call('GET', `${API}/nope`, undefined, h)).status).toBe(404);
    vi.useFakeTimers({ toFake: ['Date'], now: Date.now() + 3601_000 });
    try {
      const expired = await call('GET', `${API}/nope`, undefined, h);
      expect(expired.status).toBe(401);
      expect(withoutTrace(expired.body)).toEqual(withoutTrace(answers.token_expired.body));
      expect(connector.sync!.response(expired, job)).toMatchObject({ kind: 'FAILED', unified_code: 'UE_4000' });
    } finally {
      vi.useRealTimers();
    }
    expect((await call('GET', `${API}/nope`, undefined, { authorization: 'Bearer a.b.c' })).body.detail).toBe('The token is missing or invalid');
  });
});

describe('avarda imitation: the sheet\'s purchase', () => {
  it('initializes (the fixture\'s keys), the customer completes the form, the purchase reads Completed and the callback comes', async () => {
    const h = await bearer();
    const init = await call('POST', API, example(), h);
    expect(init.status).toBe(200);
    expect(Object.keys(init.body).sort()).toEqual(Object.keys(answers.initialized.body).sort());
    const o = connector.authorize!.response(init, job, undefined, testSession(job));
    expect(o).toMatchObject({ kind: 'CUSTOMER_ACTION', connector_transaction_id: init.body.purchaseId });
    const id = init.body.purchaseId as string;
    const before = await call('GET', `${API}/${id}`, undefined, h);
    expect(before.body.b2C.step.current).toBe('Initialized');
    expect(connector.sync!.response(before, job)).toMatchObject({ kind: 'CUSTOMER_ACTION' });
    const done = await customer(init.body.jwt, 'complete');
    expect(done.status).toBe(303);
    expect(done.headers.get('location')).toBe(`https://shop.example/return?purchaseId=${id}`);
    const read = await call('GET', `${API}/${id}`, undefined, h);
    expect(Object.keys(read.body).filter((k) => k in answers.read_completed.body).sort()).toEqual(Object.keys(answers.read_completed.body).sort());
    expect(connector.sync!.response(read, job)).toEqual({ kind: 'AUTHORIZED', connector_transaction_id: id });
    await until(() => received.some((r: any) => r.purchaseId === id));
    expect(received.filter((r: any) => r.purchaseId === id)).toEqual([{ purchaseId: id }]);
    expect(connector.notification!.parse(JSON.stringify({ purchaseId: id }))).toMatchObject({ object: 'hint', connector_transaction_id: id });

    // Activation (the sheet's body), then what is left is nothing: the fixture's refusal.
    const act = await call('POST', `${API}/${id}/order`, requests.activate, h);
    expect(act.status).toBe(200);
    expect(connector.capture!.response(act, job)).toEqual({ kind: 'CAPTURED' });
    const over = await call('POST', `${API}/${id}/order`, requests.activate, h);
    expect(over.status).toBe(422);
    expect(Object.keys(over.body.errors)).toEqual(Object.keys(answers.activation_over.body.errors));
    // Refunds: by amount (the sheet's body) and by items, up to the activated 299.00.
    const r1 = await call('POST', `${API}/${id}/refund`, requests.refund, h);
    expect(connector.refund!.response(r1, job)).toEqual({ kind: 'REFUNDED' });
    const r2 = await call('POST', `${API}/${id}/return`, requests.return, h);
    expect(r2.status).toBe(422);
    expect(connector.refund!.response(r2, job)).toMatchObject({ kind: 'FAILED', error_code: 'Amount', unified_code: 'UE_6000' });
    expect((await call('POST', `${API}/${id}/refund`, { ...requests.refund, amount: '199.00' }, h)).status).toBe(200);
    expect((await call('POST', `${API}/${id}/refund`, { ...requests.refund, amount: '100' }, h)).body.errors).toEqual({ Amount: ['The field Amount must be a decimal string with 2 decimals.'] });
  });

  it('refuses the sheet\'s example with a missing description and tax code in the fixture\'s shape', async () => {
    const h = await bearer();
    const bad = example();
    bad.items = [{ ...bad.items[0], description: '', taxCode: undefined }];
    const res = await call('POST', API, bad, h);
    expect(res.status).toBe(400);
    expect(withoutTrace(res.body)).toEqual(withoutTrace(answers.validation_error.body));
    const fr = example();
    fr.checkoutSetup = { ...fr.checkoutSetup, invoicingCountries: ['DE'] };
    expect((await call('POST', API, fr, h)).body.errors).toEqual({ 'CheckoutSetup.InvoicingCountries': ['Only SE, NO, DK, FI are enabled for this client.'] });
  });

  it('+decline: the form declines and the customer can only leave -> TimedOut, which the connector declines', async () => {
    const h = await bearer();
    const init = await call('POST', API, example('a+decline@example.se'), h);
    const declined = await customer(init.body.jwt, 'complete');
    expect(declined.status).toBe(200);
    const page = await declined.text();
    expect(page).toContain('cannot offer you this payment method');
    expect(page).not.toContain('/avarda/checkout/complete');
    const mid = await call('GET', `${API}/${init.body.purchaseId}`, undefined, h);
    expect(connector.sync!.response(mid, job)).toMatchObject({ kind: 'CUSTOMER_ACTION' });
    expect((await customer(init.body.jwt, 'leave')).status).toBe(303);
    const read = await call('GET', `${API}/${init.body.purchaseId}`, undefined, h);
    expect(read.body.b2C.step.current).toBe('TimedOut');
    expect(connector.sync!.response(read, job)).toMatchObject({ kind: 'DECLINED', error_code: 'TimedOut', unified_code: 'UE_1000' });
    expect((await call('POST', `${API}/${init.body.purchaseId}/order`, requests.activate, h)).status).toBe(422);
  });

  it('+flaky: 500 twice per orderReference, then the purchase', async () => {
    const h = await bearer();
    const body = { ...example('a+flaky@example.se'), extraIdentifiers: { orderReference: 'flaky-1' } };
    expect((await call('POST', API, body, h)).status).toBe(500);
    expect((await call('POST', API, body, h)).status).toBe(500);
    expect((await call('POST', API, body, h)).status).toBe(200);
  });
});
