// The Ratepay imitation against Ratepay's own examples (workers/connectors/ratepay/fixtures/: the Postman collection's
// requests, docs.ratepay.com's answers; sources in its SOURCES.md): it accepts what Ratepay's examples send, answers
// in the shapes Ratepay publishes, and refuses what Ratepay's rules refuse, with Ratepay's categories and reasons. It
// imports no connector code: the stack test (test/connectors/ratepay.test.ts) runs the connector against it.
import express from 'express';
import { readFileSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { IdempotencyStore } from '../../recorder.ts';
import { ratepayRouter, SANDBOX_CLIENT } from './imitation.ts';

const fixtures = new URL('../../../../workers/connectors/ratepay/fixtures/', import.meta.url);
const fixture = (path: string): any => JSON.parse(readFileSync(new URL(path, fixtures), 'utf8'));
const b2c = fixture('postman/authorize-open-invoice-b2c.request.json');
const b2b = fixture('postman/authorize-open-invoice-b2b.request.json');
const declines: Record<string, { status: number; reasons: string[] }> = fixture('docs/declines.json');
const minimal = fixture('docs/transaction-minimal.json');
const read = fixture('docs/transaction.200.json');
const cancellation = fixture('docs/cancellations.200.json')._embedded.cancellations[0];
const keysOf = (o: object) => Object.keys(o).sort();

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
  const res = await fetch(base + path, {
    method,
    headers: { 'content-type': 'application/json', ...headers },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  return { status: res.status, body: (await res.json()) as any };
};
/** Ratepay's Postman token request, with the sandbox's client and audience. */
const token = async (over: Record<string, string> = {}) =>
  call('POST', '/ratepay/oauth/token', {
    ...fixture('postman/token.request.json'),
    client_id: SANDBOX_CLIENT.client_id,
    client_secret: SANDBOX_CLIENT.client_secret,
    audience: `${base}/ratepay/transaction/management`,
    ...over,
  });
const bearer = async () => ({ authorization: `Bearer ${(await token()).body.access_token}` });
const withEmail = (email: string) => ({ ...b2c, buyer: { ...b2c.buyer, contact: { ...b2c.buyer.contact, email } } });
/** A documented decline: its category's HTTP status, the category, reasons Ratepay lists for it. */
const expectDecline = (res: { status: number; body: any }, category: string, reason?: string) => {
  expect(res.status, JSON.stringify(res.body)).toBe(declines[category]!.status);
  expect(res.body.decline.category).toBe(category);
  for (const r of res.body.decline.reasons) expect(declines[category]!.reasons).toContain(r);
  if (reason) expect(res.body.decline.reasons).toEqual([reason]);
};

describe('ratepay imitation: OAuth', () => {
  it("answers Ratepay's token shape for the sandbox client; refuses wrong credentials and other audiences", async () => {
    const ok = await token();
    expect(ok.status).toBe(200);
    expect(keysOf(ok.body)).toEqual(keysOf(fixture('docs/token.200.json')));
    expect(ok.body).toMatchObject({ expires_in: 1800, token_type: 'Bearer' });
    expect((await token({ client_secret: 'wrong' })).status).toBe(401);
    expect((await token({ audience: 'https://api.example.com/other' })).status).toBe(403);
    expect((await call('GET', `${API}/x`, undefined, { authorization: 'Bearer nope' })).status).toBe(401);
  });
});

describe("ratepay imitation: Ratepay's own authorization examples", () => {
  it('authorizes the Postman B2C and B2B examples (phone a string, items with unit discounts): the minimal answer, or the representation', async () => {
    const h = await bearer();
    const res = await call('POST', API, b2c, h);
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    expect(keysOf(res.body)).toEqual(keysOf(minimal));
    expect(keysOf(res.body._links)).toEqual(keysOf(minimal._links));
    const full = await call('POST', API, b2b, { ...h, prefer: 'return=representation' });
    expect(full.status, JSON.stringify(full.body)).toBe(201);
    // The read: the sample's fields, no status (an accepted transaction carries no decline).
    const got = await call('GET', `${API}/${full.body.ratepay_transaction_id}`, undefined, h);
    expect(got.status).toBe(200);
    expect(got.body).not.toHaveProperty('status');
    const { decline: _d, payment_details: _p, ...accepted } = read;
    for (const k of Object.keys(accepted)) expect(got.body).toHaveProperty(k);
  });
  it("refuses what Ratepay's rules refuse, naming the field: phone as an object, a person's gender, no date of birth", async () => {
    const h = await bearer();
    const phone = await call('POST', API, { ...b2c, buyer: { ...b2c.buyer, contact: { email: 'a@example.org', phone: { direct_dial: '030123456' } } } }, h);
    expectDecline(phone, 'SYNTAX', 'INVALID_FIELDS');
    expect(phone.body.message).toContain('buyer.contact.phone');
    const gender = await call('POST', API, { ...b2c, buyer: { ...b2c.buyer, person: { ...b2c.buyer.person, gender: 'M' } } }, h);
    expectDecline(gender, 'SYNTAX', 'INVALID_FIELDS');
    expect(gender.body.message).toContain('gender');
    const noDob = structuredClone(b2c);
    delete noDob.buyer.person.date_of_birth;
    expectDecline(await call('POST', API, noDob, h), 'SYNTAX', 'INVALID_FIELDS');
    const longId = await call('POST', API, { ...b2c, partner_transaction_id: 'x'.repeat(51) }, h);
    expect(longId.body.message).toContain('partner_transaction_id');
  });
  it("declines with Ratepay's categories and reasons: +decline, Ratepay's buyer_identity trigger, a country off contract, a wrong sum", async () => {
    const h = await bearer();
    const risk = await call('POST', API, withEmail('h+decline@example.org'), h);
    expectDecline(risk, 'RISK_DECISION');
    expect(risk.body.ratepay_transaction_id).toEqual(expect.any(String));
    // The declined transaction's read carries its decline, as Ratepay's sample does.
    const declinedRead = await call('GET', `${API}/${risk.body.ratepay_transaction_id}`, undefined, h);
    expect(declinedRead.body.decline).toEqual(risk.body.decline);
    expectDecline(await call('POST', API, withEmail('buyer_identity@ratepay.com'), h), 'BUYER_IDENTITY');
    const fr = structuredClone(b2c);
    fr.buyer.billing_address.country_code = 'FR';
    expectDecline(await call('POST', API, fr, h), 'CONTRACT', 'BILLING_COUNTRY_NOT_ALLOWED');
    const wrongSum = structuredClone(b2c);
    wrongSum.shop_baskets[0].gross_amount = 44;
    expectDecline(await call('POST', API, wrongSum, h), 'UNPROCESSABLE_OPERATION', 'SUM_OF_ITEM_AMOUNTS_NOT_MATCHING_OPERATION_AMOUNT');
    const shop = structuredClone(b2c);
    shop.shop_baskets[0].partner_shop_id = 'SOMEONE_ELSES';
    expectDecline(await call('POST', API, shop, h), 'UNPROCESSABLE_OPERATION', 'BASKET_WITH_UNKNOWN_SHOP');
  });
});

describe('ratepay imitation: follow-ups', () => {
  it("Ratepay's capture, cancellation and refund examples within the amounts; answers as Ratepay's list sample shows one", async () => {
    const h = await bearer();
    const id = (await call('POST', API, b2c, h)).body.ratepay_transaction_id;
    // The Postman capture: the whole basket (43.8).
    const c1 = await call('POST', `${API}/${id}/captures`, fixture('postman/capture.request.json'), { ...h, 'idempotency-key': 'k1' });
    expect(c1.status, JSON.stringify(c1.body)).toBe(201);
    expect(keysOf(c1.body)).toEqual(
      keysOf(cancellation)
        .map((k) => k.replace('cancellation', 'capture'))
        .sort(),
    );
    expect(await call('POST', `${API}/${id}/captures`, fixture('postman/capture.request.json'), { ...h, 'idempotency-key': 'k1' })).toEqual(c1);
    // The same key with another body: 409 CONFLICT (docs: Idempotency).
    expect((await call('POST', `${API}/${id}/captures`, { gross_amount: 1 }, { ...h, 'idempotency-key': 'k1' })).status).toBe(409);
    expectDecline(await call('POST', `${API}/${id}/captures`, { gross_amount: 1 }, h), 'UNPROCESSABLE_OPERATION', 'CAPTURE_AMOUNT_TOO_HIGH');
    expectDecline(await call('POST', `${API}/${id}/cancellations`, { gross_amount: 1 }, h), 'UNPROCESSABLE_OPERATION', 'CANCELLATION_AMOUNT_TOO_HIGH');
    // The Postman refund (the whole basket), by amount alone first for part of it.
    const r = await call('POST', `${API}/${id}/refunds`, { gross_amount: 3.8, partner_operation_id: 'ref_1' }, h);
    expect(r.status, JSON.stringify(r.body)).toBe(201);
    expect(r.body.ratepay_refund_id).toEqual(expect.any(String));
    expect((await call('GET', `${API}/${id}/refunds/${r.body.ratepay_refund_id}`, undefined, h)).body).toEqual(r.body);
    expectDecline(await call('POST', `${API}/${id}/refunds`, fixture('postman/refund.request.json'), h), 'UNPROCESSABLE_OPERATION', 'REFUND_AMOUNT_TOO_HIGH');
    expectDecline(await call('GET', `${API}/nope`, undefined, h), 'RESOURCE_NOT_FOUND', 'TRANSACTION_NOT_FOUND');
  });
  it("Ratepay's cancellation example on an authorization; the list answers as Ratepay's sample", async () => {
    const h = await bearer();
    const id = (await call('POST', API, b2c, h)).body.ratepay_transaction_id;
    const c = await call('POST', `${API}/${id}/cancellations`, fixture('postman/cancellation.request.json'), h);
    expect(c.status, JSON.stringify(c.body)).toBe(201);
    expect(keysOf(c.body)).toEqual(keysOf(cancellation));
    const list = await call('GET', `${API}/${id}/cancellations`, undefined, h);
    expect(keysOf(list.body)).toEqual(keysOf(fixture('docs/cancellations.200.json')));
    expect(keysOf(list.body._embedded.cancellations[0])).toEqual(keysOf(cancellation));
    const rules = fixture('docs/payment-api.rules.json');
    expect(
      (await call('POST', `${API}/${id}/captures`, { gross_amount: 1 }, { ...h, 'idempotency-key': 'k'.repeat(rules.idempotency_key_max_length + 1) })).status,
    ).toBe(400);
  });
  it('+refund_fail refuses refunds (REFUND_AMOUNT_TOO_HIGH); +flaky answers 500 twice per Idempotency-Key', async () => {
    const h = await bearer();
    const id = (await call('POST', API, withEmail('h+refund_fail@example.org'), h)).body.ratepay_transaction_id;
    await call('POST', `${API}/${id}/captures`, { gross_amount: 43.8 }, h);
    expectDecline(await call('POST', `${API}/${id}/refunds`, { gross_amount: 1 }, h), 'UNPROCESSABLE_OPERATION', 'REFUND_AMOUNT_TOO_HIGH');
    const flaky = withEmail('h+flaky@example.org');
    const k = { ...h, 'idempotency-key': 'flaky-1' };
    expect((await call('POST', API, flaky, k)).status).toBe(500);
    expect((await call('POST', API, flaky, k)).status).toBe(500);
    expect((await call('POST', API, flaky, k)).status).toBe(201);
  });
});
