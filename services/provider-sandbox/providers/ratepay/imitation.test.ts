// The Ratepay imitation against the same examples the connector's unit tests use (the reference sheet's authorization
// example, workers/connectors/ratepay/fixtures/): what the connector sends is what the imitation accepts, and what
// the imitation answers is what the connector reads. In process, no stack.
import express from 'express';
import { readFileSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { IdempotencyStore } from '../../recorder.ts';
import { ratepayRouter } from './imitation.ts';
import { connector } from '../../../../workers/connectors/ratepay/index.ts';
import { RATEPAY_SANDBOX } from '../../../../workers/connectors/ratepay/manifest.ts';
import type { ConnectorJob } from '../../../../domain/job.ts';

const fixtures = new URL('../../../../workers/connectors/ratepay/fixtures/', import.meta.url);
const answers: Record<string, { status: number; body: any }> = JSON.parse(readFileSync(new URL('answers.json', fixtures), 'utf8'));
const requests: Record<string, any> = JSON.parse(readFileSync(new URL('requests.json', fixtures), 'utf8'));

let base = '';
let close = () => {};
beforeAll(async () => {
  const app = express();
  app.use(express.json());
  app.use('/ratepay', ratepayRouter(new IdempotencyStore(), () => base).router);
  const server = app.listen(0, '127.0.0.1');
  await new Promise((r) => server.once('listening', r));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  close = () => server.close();
});
afterAll(() => close());

const API = '/ratepay/transaction/management/v2/transactions';
const call = async (method: string, path: string, body?: unknown, headers: Record<string, string> = {}) => {
  const res = await fetch(base + path, { method, headers: { 'content-type': 'application/json', ...headers }, body: body === undefined ? undefined : JSON.stringify(body) });
  return { status: res.status, body: await res.json() as any };
};
const token = async (over: Record<string, string> = {}) => call('POST', '/ratepay/oauth/token', {
  client_id: RATEPAY_SANDBOX.client_id, client_secret: RATEPAY_SANDBOX.client_secret,
  audience: `${base}/ratepay/transaction/management`, grant_type: 'client_credentials', ...over,
});
const bearer = async () => ({ authorization: `Bearer ${(await token()).body.access_token}` });
const job = { operation_id: 'op_1', capture_method: 'manual', connector_transaction_id: null } as unknown as ConnectorJob;
const withEmail = (email: string) => ({ ...requests.authorize, buyer: { ...requests.authorize.buyer, contact: { email } } });

describe('ratepay imitation: OAuth', () => {
  it('issues a JWT for the sandbox client; refuses wrong credentials and other audiences in the fixtures\' words', async () => {
    const ok = await token();
    expect(ok.status).toBe(200);
    expect(connector.token!.response(ok)).toEqual({ access_token: expect.stringMatching(/^eyJ/), expires_in_s: 1800 });
    expect(await token({ client_secret: 'wrong' })).toEqual(answers.token_refused);
    const aud = await token({ audience: 'https://api.example.com/other' });
    expect(aud.status).toBe(403);
    expect(aud.body.error).toBe('access_denied');
    expect(await call('GET', `${API}/x`, undefined, { authorization: 'Bearer nope' })).toEqual(answers.invalid_token);
  });
});

describe('ratepay imitation: the sheet\'s authorization example', () => {
  it('is authorized (201, the representation with return=representation) and read back', async () => {
    const h = await bearer();
    const res = await call('POST', API, requests.authorize, { ...h, prefer: 'return=representation' });
    expect(res.status).toBe(201);
    expect(Object.keys(res.body).sort()).toEqual(Object.keys(answers.authorized_representation.body).sort());
    expect(res.body).toMatchObject({ status: 'AUTHORIZED', partner_transaction_id: '1001', currency: 'EUR', authorized_amount: 11.9 });
    expect(connector.authorize!.response(res, job)).toMatchObject({ kind: 'AUTHORIZED', connector_transaction_id: res.body.ratepay_transaction_id });
    const bare = await call('POST', API, requests.authorize, h);
    expect(Object.keys(bare.body).sort()).toEqual(Object.keys(answers.authorized.body).sort());
    const read = await call('GET', `${API}/${res.body.ratepay_transaction_id}`, undefined, h);
    expect(connector.sync!.response(read, { ...job, mode: 'sync' })).toMatchObject({ kind: 'AUTHORIZED' });
  });
  it('declines in the fixtures\' shapes: +decline, Ratepay\'s buyer_identity trigger, a missing birth date, a country off contract', async () => {
    const h = await bearer();
    const risk = await call('POST', API, withEmail('h+decline@example.org'), h);
    expect(risk.status).toBe(422);
    expect(risk.body).toEqual({ ...answers.declined_risk.body, ratepay_transaction_id: expect.any(String) });
    const identity = await call('POST', API, withEmail('buyer_identity@ratepay.com'), h);
    expect(identity.body.decline).toEqual(answers.declined_buyer_identity.body.decline);
    const noDob = structuredClone(requests.authorize);
    delete noDob.buyer.person.date_of_birth;
    expect(await call('POST', API, noDob, h)).toEqual(answers.missing_birth_date);
    const fr = structuredClone(requests.authorize);
    fr.buyer.billing_address.country_code = 'FR';
    expect(await call('POST', API, fr, h)).toEqual(answers.country_not_allowed);
    const noDevice = structuredClone(requests.authorize);
    delete noDevice.device.token;
    expect((await call('POST', API, noDevice, h)).body).toMatchObject({ decline: { category: 'SYNTAX' }, message: 'device.token is required' });
    const wrongSum = structuredClone(requests.authorize);
    wrongSum.shop_baskets[0].gross_amount = 12;
    expect((await call('POST', API, wrongSum, h)).body.decline).toEqual({ category: 'PAYMENT_ATTRIBUTE', reasons: ['BASKET_AMOUNT_MISMATCH'] });
  });
  it('captures, cancels and refunds within the amounts, in the fixtures\' shapes; a repeated Idempotency-Key gets the first answer', async () => {
    const h = await bearer();
    const id = (await call('POST', API, requests.authorize, h)).body.ratepay_transaction_id;
    const part = { partner_shop_id: 'INTEGRATION_TE_DACH', gross_amount: 5 };
    const c1 = await call('POST', `${API}/${id}/captures`, { ...part, partner_invoice_id: 'INV-1' }, { ...h, 'idempotency-key': 'k1' });
    expect(c1.status).toBe(201);
    expect(Object.keys(c1.body)).toEqual(expect.arrayContaining(Object.keys(answers.capture_created.body)));
    expect(await call('POST', `${API}/${id}/captures`, { ...part, partner_invoice_id: 'INV-1' }, { ...h, 'idempotency-key': 'k1' })).toEqual(c1);
    expect((await call('GET', `${API}/${id}`, undefined, h)).body).toMatchObject({ status: 'PARTIALLY_CAPTURED', captured_amount: 5 });
    const tooMuch = await call('POST', `${API}/${id}/captures`, { ...part, gross_amount: 7 }, h);
    expect(tooMuch.body.decline).toEqual(answers.capture_too_much.body.decline);
    expect(connector.void!.response(await call('POST', `${API}/${id}/cancellations`, { ...part, gross_amount: 6.9 }, h), job)).toEqual({ kind: 'VOIDED' });
    expect((await call('GET', `${API}/${id}`, undefined, h)).body).toMatchObject({ status: 'CAPTURED', cancelled_amount: 6.9 });
    expect((await call('POST', `${API}/${id}/cancellations`, part, h)).body.decline).toEqual(answers.cancel_not_possible.body.decline);
    const r = await call('POST', `${API}/${id}/refunds`, { ...part, gross_amount: 2, partner_operation_id: 'ref_1' }, h);
    expect(connector.refund!.response(r, job)).toMatchObject({ kind: 'REFUNDED' });
    expect(connector.refundSync!.response(await call('GET', `${API}/${id}/refunds/${r.body.ratepay_refund_id}`, undefined, h), job)).toMatchObject({ kind: 'REFUNDED' });
    expect((await call('POST', `${API}/${id}/refunds`, { ...part, gross_amount: 3.01 }, h)).body.decline).toEqual(answers.refund_too_much.body.decline);
    expect((await call('GET', `${API}/nope`, undefined, h))).toEqual(answers.not_found);
  });
  it('+refund_fail rejects refunds; +flaky answers 500 twice per Idempotency-Key', async () => {
    const h = await bearer();
    const id = (await call('POST', API, withEmail('h+refund_fail@example.org'), h)).body.ratepay_transaction_id;
    await call('POST', `${API}/${id}/captures`, { partner_shop_id: 'INTEGRATION_TE_DACH', gross_amount: 11.9 }, h);
    const rejected = await call('POST', `${API}/${id}/refunds`, { partner_shop_id: 'INTEGRATION_TE_DACH', gross_amount: 1 }, h);
    expect(rejected.body.decline).toEqual(answers.refund_rejected.body.decline);
    const flaky = withEmail('h+flaky@example.org');
    const k = { ...h, 'idempotency-key': 'flaky-1' };
    expect((await call('POST', API, flaky, k)).status).toBe(500);
    expect((await call('POST', API, flaky, k)).status).toBe(500);
    expect((await call('POST', API, flaky, k)).status).toBe(201);
  });
});
