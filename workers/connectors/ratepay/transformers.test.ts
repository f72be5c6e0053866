// ratepay's flows, pure: our jobs -> Ratepay's requests, checked against Ratepay's own examples (fixtures/postman,
// from ratepay/postman-collections) and the request rules transcribed from its API pages (fixtures/docs/
// payment-api.rules.json); Ratepay's published answers (fixtures/docs) -> outcomes. Sources: fixtures/SOURCES.md.
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import type { ConnectorJob } from '../../../domain/job.ts';
import { TEST_SANDBOX_URL, testSession } from '../kit/testing.ts';
import { FLOWS } from '../manifest.ts';
import { flowFor, UnexpectedAnswer } from '../types.ts';
import { connector as ratepay } from './index.ts';
import { manifest } from './manifest.ts';
import { endpoints, itemsOf, splitStreet } from './request.ts';
import { RatepayAuthorizationRequest, RatepayFollowUpRequest, RatepayTokenRequest } from './schemas.ts';

const fixture = (path: string): any => JSON.parse(readFileSync(new URL(`./fixtures/${path}`, import.meta.url), 'utf8'));
const rules = fixture('docs/payment-api.rules.json');
/** Ratepay's published rules for a request body (a JSON Schema of its API pages), as zod. */
const rule = (name: string) => z.fromJSONSchema({ $defs: rules.$defs, $ref: `#/$defs/${name}` });
const expectValid = (name: string, body: unknown) => {
  const r = rule(name).safeParse(body);
  expect(r.success, r.success ? '' : JSON.stringify(r.error.issues)).toBe(true);
};

const b2cExample = fixture('postman/authorize-open-invoice-b2c.request.json');
const b2bExample = fixture('postman/authorize-open-invoice-b2b.request.json');
const declines: Record<string, { status: number; reasons: string[] }> = fixture('docs/declines.json');
const readExample = fixture('docs/transaction.200.json');
const { decline: _declined, ...acceptedRead } = readExample;
const minimal = fixture('docs/transaction-minimal.json');

const creds = { auth_type: 'BodyKey' as const, api_key: 'cid', key1: 'csecret', key2: 'INTEGRATION_TE_DACH' };
const API = '/ratepay/transaction/management/v2/transactions';
const bearer = { authorization: 'Bearer jwt' };
const TX = readExample.ratepay_transaction_id as string;

/** Ratepay's Postman B2C example (Dr. Heinz Steeger, Berlin) as our job. */
const job = (over: Partial<ConnectorJob> = {}): ConnectorJob => ({
  merchant_id: 'mer_1',
  payment_id: 'pay_000000000000000000000000001',
  operation_id: 'op_1',
  kind: 'authorize',
  connector: 'ratepay',
  amount: 1190,
  currency: 'EUR',
  capture_method: 'manual',
  connector_transaction_id: null,
  customer_email: 'heinz.steeger@example.org',
  return_url: 'https://shop.example/return',
  merchant_order_reference_id: 'partner-transaction-id-1234',
  mode: 'execute',
  sync_round: 0,
  order: {
    customer: { id: 'shop-buyer-id-1234', name: 'Heinz Steeger', email: 'heinz.steeger@example.org', phone: '177 4445555', phone_country_code: '+49' },
    billing: {
      address: {
        line1: 'Schönhauser Allee 84',
        line2: 'Seitenflügel, 2. HH',
        zip: '10439',
        city: 'Berlin',
        country: 'DE',
        first_name: 'Heinz',
        last_name: 'Steeger',
      },
    },
    shipping: {
      address: {
        line1: 'Schönhauser Allee 84',
        line2: 'Seitenflügel, 2. HH',
        zip: '10439',
        city: 'Berlin',
        country: 'DE',
        first_name: 'Heinz',
        last_name: 'Steeger',
      },
    },
    order_details: [{ product_name: 'X', product_id: 'a1', quantity: 1, amount: 1190, tax_percentage: 19 }],
    order_tax_amount: 190,
    metadata: { birth_date: '1971-05-19', customer_locale: 'de-DE', gender: 'male' },
    browser_info: { ip_address: '10.17.1.1', device_fingerprint: { ratepay: 'ade028c1-d2a2-4189-9214-e21089cd47f1' } },
    description: null,
    payment_method_type: 'invoice',
    birth_date: null,
    gender: 'male',
    locale: null,
  },
  ...over,
});
const flow = <T>(f: T | undefined): T => {
  if (!f) throw new Error('flow absent');
  return f;
};
const s = testSession({ merchant_id: 'mer_1', merchant_connector_id: null }, { access_token: 'jwt' });
/** A 4xx answer around one of Ratepay's documented declines (the envelope is UNVERIFIED; the decline object is the read's). */
const declined = (category: string, reasons: string[], id?: string) => ({
  status: declines[category]!.status,
  body: { ...(id ? { ratepay_transaction_id: id } : {}), decline: { category, reasons } },
});

describe("Ratepay's published examples against the rules we read from its pages (the rules are not mistranscribed)", () => {
  it('the Postman requests satisfy the rules and our request schemas', () => {
    for (const ex of [b2cExample, b2bExample]) {
      expectValid('Authorization', ex);
      // Ours only ever sends OPEN_INVOICE / BANK_TRANSFER and one basket: the examples are exactly that.
      expect(
        RatepayAuthorizationRequest.safeParse({
          ...ex,
          delivery: { ...ex.delivery, full_name: undefined, in_store_collect: undefined, pick_up_box: undefined, pick_up_shop: undefined },
        }).success,
      ).toBe(true);
    }
    expectValid('Authorization', fixture('postman/authorize-direct-debit-b2c.request.json'));
    for (const f of ['capture', 'refund', 'cancellation']) expectValid('FollowUp', fixture(`postman/${f}.request.json`));
    expect(RatepayFollowUpRequest.safeParse(fixture('postman/capture.request.json')).success).toBe(true);
    expectValid('TokenRequest', fixture('postman/token.request.json'));
  });
});

describe('ratepay manifest', () => {
  it('lists exactly the flows the connector implements; no notifications; BodyKey credentials with an optional shop id', () => {
    expect(FLOWS.filter((f) => ratepay[f] !== undefined)).toEqual([...ratepay.manifest.flows]);
    expect(ratepay.manifest.webhook).toBeNull();
    expect(ratepay.token).toBeDefined();
    const c = ratepay.manifest.credentials;
    expect(c.safeParse({ auth_type: 'BodyKey', api_key: 'id', key1: 'secret' }).success).toBe(true);
    expect(c.safeParse({ auth_type: 'BodyKey', api_key: 'id' }).success).toBe(false);
    expect(c.safeParse(ratepay.manifest.sandbox_account_details).success).toBe(true);
    expect(ratepay.manifest.amount_unit).toBe('major');
  });
});

describe('ratepay token', () => {
  it("client credentials for the API's audience (Postman: https://api-integration.ratepay.com/transaction/management)", () => {
    const req = flow(ratepay.token).request(creds, s);
    expect(req).toEqual({
      method: 'POST',
      path: '/ratepay/oauth/token',
      body: { client_id: 'cid', client_secret: 'csecret', audience: `${TEST_SANDBOX_URL}/ratepay/transaction/management`, grant_type: 'client_credentials' },
    });
    expectValid('TokenRequest', req.body);
    expect(RatepayTokenRequest.parse(req.body)).toEqual(req.body);
    const real = endpoints({ base_url: 'https://api-integration.ratepay.com', sandbox_url: TEST_SANDBOX_URL });
    expect(flow(ratepay.token).request(creds, { base_url: 'https://api.ratepay.com', sandbox_url: TEST_SANDBOX_URL })).toMatchObject({
      baseUrl: 'https://oauth.ratepay.com',
      path: '/oauth/token',
      body: { audience: 'https://api.ratepay.com/transaction/management' },
    });
    expect(real).toEqual({
      api: '/transaction/management',
      audience: fixture('postman/token.request.json').audience,
      token: { baseUrl: 'https://oauth.ratepay.com', path: '/oauth/token' },
    });
  });
  it("Ratepay's 200 sample -> the token and its lifetime; a refusal is a failure with the OAuth code", () => {
    expect(flow(ratepay.token).response({ status: 200, body: fixture('docs/token.200.json') })).toEqual({ access_token: 'ey...', expires_in_s: 1800 });
    expect(flow(ratepay.token).response({ status: 401, body: { error: 'access_denied', error_description: 'Unauthorized' } })).toMatchObject({
      kind: 'FAILED',
      error_code: 'access_denied',
      unified_code: 'UE_4000',
    });
    expect(() => flow(ratepay.token).response({ status: 200, body: { token: 'x' } })).toThrow(UnexpectedAnswer);
  });
});

describe('ratepay requests', () => {
  it("authorize: Ratepay's B2C example, field for field, where our order says the same (contact.phone a plain string)", () => {
    const req = flow(ratepay.authorize).request(job(), creds, s);
    expect(req).toMatchObject({ method: 'POST', path: API, idempotencyKey: 'op_1', headers: { ...bearer, prefer: 'return=representation' } });
    const body = req.body as any;
    const { title: _title, ...person } = b2cExample.buyer.person;
    expect(body.buyer).toEqual({ ...b2cExample.buyer, person });
    expect(body.buyer.contact.phone).toBe('+49 177 4445555');
    // Ratepay's person has no gender (Payment API 2.0: title, names, date of birth).
    expect(body.buyer.person).not.toHaveProperty('gender');
    const { full_name: _f, in_store_collect: _i, pick_up_box: _b, pick_up_shop: _s, ...delivery } = b2cExample.delivery;
    expect(body.delivery).toEqual(delivery);
    expect(body.device).toEqual(b2cExample.device);
    expect(body.payment_method).toEqual(b2cExample.payment_method);
    expect(body.currency).toBe(b2cExample.currency);
    expect(body.partner_transaction_id).toBe(b2cExample.partner_transaction_id);
    expectValid('Authorization', body);
    expect(RatepayAuthorizationRequest.parse(body)).toEqual(body);
  });
  it("B2B: Ratepay's B2B example: the company instead of the person, the company in the delivery; metadata.partner_shop_id wins", () => {
    const base = job();
    const b2b = job({
      order: {
        ...base.order!,
        metadata: {
          buyer_type: 'business',
          company_name: 'Berlin Advertising Agency',
          company_vat_id: 'DE123456789',
          legal_form: 'gmbh',
          partner_shop_id: 'INTEGRATION_TE_B2B',
        },
      },
    });
    const body = flow(ratepay.authorize).request(b2b, creds, s).body as any;
    expect(body.buyer).toEqual(b2bExample.buyer);
    expect(body.delivery.company).toBe(b2bExample.delivery.company);
    expect(body.shop_baskets[0].partner_shop_id).toBe('INTEGRATION_TE_B2B');
    expectValid('Authorization', body);
  });
  it("a shipping address without names: the buyer's in the delivery", () => {
    const o = job().order!;
    const noNames = job({ order: { ...o, shipping: { address: { line1: 'Hafenstr. 3b', zip: '20457', city: 'Hamburg', country: 'DE' } } } });
    expect((flow(ratepay.authorize).request(noNames, creds, s).body as any).delivery).toMatchObject({
      first_name: 'Heinz',
      last_name: 'Steeger',
      address: { street: 'Hafenstr.', street_number: '3b' },
    });
  });
  it('the phone from billing (number + country code); none: no phone', () => {
    const o = job().order!;
    const billingPhone = job({
      order: { ...o, customer: { ...o.customer!, phone: null }, billing: { ...o.billing, phone: { number: '1774445555', country_code: '+49' } } },
    });
    expect((flow(ratepay.authorize).request(billingPhone, creds, s).body as any).buyer.contact).toEqual({
      email: 'heinz.steeger@example.org',
      phone: '+49 1774445555',
    });
    const none = job({ order: { ...o, customer: { ...o.customer!, phone: null } } });
    expect((flow(ratepay.authorize).request(none, creds, s).body as any).buyer.contact).toEqual({ email: 'heinz.steeger@example.org' });
  });
  it('amounts: exact decimals; shipping as a special item; vats per rate; uneven unit prices collapse to one item', () => {
    const b = itemsOf(
      [
        { product_name: 'Shoe', product_id: 's1', quantity: 2, amount: 5998, tax_percentage: 19 },
        { product_name: 'Book', quantity: 3, amount: 1000, tax_percentage: 7 },
        { product_name: 'Shipping', quantity: 1, amount: 495, category: 'shipping_costs', total_tax_amount: 79 },
      ],
      'EUR',
    );
    expect(b.items[0]).toEqual({
      article_number: 's1',
      name: 'Shoe',
      quantity: 2,
      tax_rate: 19,
      gross_unit_price: 29.99,
      net_unit_price: 25.2,
      gross_total_price: 59.98,
      net_total_price: 50.4,
    });
    expect(b.items[1]).toMatchObject({ article_number: 'line-2', name: '3 x Book', quantity: 1, gross_unit_price: 10, net_total_price: 9.35 });
    expect(b.special_items).toEqual([
      {
        article_number: 'line-3',
        name: 'Shipping',
        category: 'shipping_costs',
        quantity: 1,
        tax_rate: 19,
        gross_unit_price: 4.95,
        net_unit_price: 4.16,
        gross_total_price: 4.95,
        net_total_price: 4.16,
      },
    ]);
    expect(b.vats).toEqual([
      { tax_rate: 19, net_amount: 54.56, tax_amount: 10.37 },
      { tax_rate: 7, net_amount: 9.35, tax_amount: 0.65 },
    ]);
    const whole = flow(ratepay.authorize).request(
      job({ amount: 10000, order: { ...job().order!, order_details: null, order_tax_amount: 1597, description: 'Order 7' } }),
      creds,
      s,
    ).body as any;
    expect(whole.shop_baskets[0]).toMatchObject({
      gross_amount: 100,
      items: [{ article_number: 'order', name: 'Order 7', quantity: 1, gross_total_price: 100, net_total_price: 84.03, tax_rate: 19 }],
    });
    expectValid('Authorization', whole);
    expect(splitStreet('Hauptstraße')).toEqual({ street: 'Hauptstraße' });
  });
  it('sync: reads the transaction; for automatic capture, the whole capture follows an authorized read (own key, at most 64 characters)', () => {
    const synced = job({ mode: 'sync', connector_transaction_id: TX });
    expect(flowFor(synced)).toBe('sync');
    const f = flow(ratepay.sync);
    expect(f.request(synced, creds, s)).toEqual({ method: 'GET', path: `${API}/${TX}`, headers: bearer });
    // Manual capture: the read is all.
    expect(f.next!(synced, creds, [{ status: 200, body: acceptedRead }], s)).toBeNull();
    const auto = { ...synced, capture_method: 'automatic' };
    const cap = f.next!(auto, creds, [{ status: 200, body: acceptedRead }], s)!;
    expect(cap).toMatchObject({
      method: 'POST',
      path: `${API}/${TX}/captures`,
      idempotencyKey: 'op_1-capture',
      body: {
        gross_amount: 11.9,
        partner_shop_id: 'INTEGRATION_TE_DACH',
        shop_transaction_id: 'partner-transaction-id-1234',
        partner_operation_id: 'op_1-capture',
      },
    });
    expect(cap.idempotencyKey!.length).toBeLessThanOrEqual(rules.idempotency_key_max_length);
    expectValid('FollowUp', cap.body);
    // A declined transaction (Ratepay's sample read) is not captured; after the capture, nothing more.
    expect(f.next!(auto, creds, [{ status: 200, body: readExample }], s)).toBeNull();
    expect(
      f.next!(
        auto,
        creds,
        [
          { status: 200, body: acceptedRead },
          { status: 201, body: {} },
        ],
        s,
      ),
    ).toBeNull();
    // A read that links a capture (an earlier sync's): none again, whatever the key's age.
    const capturedRead = {
      ...acceptedRead,
      _links: { ...acceptedRead._links, captures: [{ href: `https://api-integration.ratepay.com/transaction/management/v2/transactions/${TX}/captures/c1` }] },
    };
    expect(f.next!(auto, creds, [{ status: 200, body: capturedRead }], s)).toBeNull();
    expect(f.response({ status: 200, body: capturedRead }, auto, [{ status: 200, body: capturedRead }])).toEqual({
      kind: 'CAPTURED',
      connector_transaction_id: TX,
    });
    expect(f.next!(auto, creds, [{ status: 404, body: { decline: { category: 'RESOURCE_NOT_FOUND', reasons: ['TRANSACTION_NOT_FOUND'] } } }], s)).toBeNull();
  });
  it("capture: the lines given (partial), the invoice number; the whole order's lines for the whole amount; the amount alone otherwise", () => {
    const j = job({ kind: 'capture', operation_id: 'op_2', connector_transaction_id: 'tx1' });
    const full = flow(ratepay.capture).request(
      { ...j, capture_details: { capture_metadata: { invoice_data: { merchant_invoice_ref: 'INV-1001' } }, metadata: null, order_details: null } },
      creds,
      s,
    );
    expect(full).toMatchObject({
      method: 'POST',
      path: `${API}/tx1/captures`,
      idempotencyKey: 'op_2',
      body: { gross_amount: 11.9, partner_invoice_id: 'INV-1001', partner_operation_id: 'op_2', vats: [{ tax_rate: 19, net_amount: 10, tax_amount: 1.9 }] },
    });
    expectValid('FollowUp', full.body);
    const lines = [{ product_name: 'X', product_id: 'a1', quantity: 1, amount: 500, tax_percentage: 19 }];
    const part = flow(ratepay.capture).request(
      { ...j, amount: 500, capture_details: { capture_metadata: null, metadata: { invoice_number: 'INV-2' }, order_details: lines } },
      creds,
      s,
    ).body as any;
    expect(part).toMatchObject({ gross_amount: 5, partner_invoice_id: 'INV-2', items: [{ gross_total_price: 5, net_total_price: 4.2 }] });
    const bare = flow(ratepay.capture).request({ ...j, amount: 400 }, creds, s).body;
    expect(bare).toEqual({
      partner_shop_id: 'INTEGRATION_TE_DACH',
      shop_transaction_id: 'partner-transaction-id-1234',
      gross_amount: 4,
      partner_operation_id: 'op_2',
    });
    expectValid('FollowUp', bare);
  });
  it('void cancels what is left; refund names our refund id; refund sync reads the refund', () => {
    const j = job({ connector_transaction_id: 'tx1', operation_id: 'op_3' });
    const v = flow(ratepay.void).request({ ...j, kind: 'void' }, creds, s);
    expect(v).toMatchObject({
      method: 'POST',
      path: `${API}/tx1/cancellations`,
      idempotencyKey: 'op_3',
      body: { gross_amount: 11.9, partner_operation_id: 'op_3' },
    });
    expectValid('FollowUp', v.body);
    const r = job({ kind: 'refund', connector_transaction_id: 'tx1', operation_id: 'op_9', amount: 500, refund_id: 'ref_1' });
    expect(flowFor(r)).toBe('refund');
    const req = flow(ratepay.refund).request(r, creds, s);
    expect(req).toEqual({
      method: 'POST',
      path: `${API}/tx1/refunds`,
      idempotencyKey: 'op_9',
      headers: bearer,
      body: { partner_shop_id: 'INTEGRATION_TE_DACH', shop_transaction_id: 'partner-transaction-id-1234', gross_amount: 5, partner_operation_id: 'ref_1' },
    });
    expectValid('FollowUp', req.body);
    const named = { ...r, mode: 'sync' as const, connector_refund_id: 'Rf0a1' };
    expect(flowFor(named)).toBe('refundSync');
    expect(flow(ratepay.refundSync).request(named, creds, s)).toEqual({ method: 'GET', path: `${API}/tx1/refunds/Rf0a1`, headers: bearer });
  });
});

describe("ratepay answers -> outcomes (Ratepay's published answers)", () => {
  it('authorize: the minimal 201 (no representation) is an authorization; automatic capture waits for its capture', () => {
    expect(flow(ratepay.authorize).response({ status: 201, body: minimal }, job())).toEqual({ kind: 'AUTHORIZED', connector_transaction_id: TX });
    expect(flow(ratepay.authorize).response({ status: 201, body: minimal }, job({ capture_method: 'automatic' }))).toEqual({
      kind: 'PENDING',
      connector_transaction_id: TX,
    });
    // 202: the buyer must enter a one-time passcode first (changelog 2025-10-13): not authorized yet.
    expect(flow(ratepay.authorize).response({ status: 202, body: { ratepay_transaction_id: TX } }, job())).toEqual({
      kind: 'PENDING',
      connector_transaction_id: TX,
    });
    expect(() => flow(ratepay.authorize).response({ status: 201, body: { id: 'x' } }, job())).toThrow(UnexpectedAnswer);
  });
  it('authorize declines: every documented category has its unified code; the transaction id Ratepay generated is kept', () => {
    expect(flow(ratepay.authorize).response(declined('BUYER_DATA', ['INVALID_BILLING_ADDRESS'], TX), job())).toEqual({
      kind: 'DECLINED',
      error_code: 'BUYER_DATA',
      error_message: 'INVALID_BILLING_ADDRESS',
      connector_transaction_id: TX,
      unified_code: 'UE_2000',
      unified_message: 'The provider rejected the request data',
    });
    expect(flow(ratepay.authorize).response(declined('RISK_DECISION', []), job())).toMatchObject({
      kind: 'DECLINED',
      error_code: 'RISK_DECISION',
      error_message: 'RISK_DECISION',
      unified_code: 'UE_1000',
    });
    expect(flow(ratepay.authorize).response(declined('SYNTAX', ['INVALID_FIELDS']), job())).toMatchObject({ error_code: 'SYNTAX', unified_code: 'UE_2000' });
    expect(flow(ratepay.authorize).response(declined('UNPROCESSABLE_OPERATION', ['OTP_VERIFICATION_REQUIRED_BUT_FEATURE_NOT_ENABLED']), job())).toMatchObject({
      unified_code: 'UE_1000',
    });
    for (const category of Object.keys(declines)) {
      expect(flow(ratepay.authorize).response(declined(category, declines[category]!.reasons.slice(0, 1)), job()).unified_code, category).not.toBe('UE_9000');
    }
    expect(flow(ratepay.authorize).response({ status: 401, body: { error: 'invalid_token' } }, job())).toMatchObject({
      kind: 'FAILED',
      unified_code: 'UE_4000',
    });
    expect(flow(ratepay.authorize).response({ status: 400, body: 'nope' }, job())).toMatchObject({
      kind: 'DECLINED',
      error_code: 'http_400',
      unified_code: 'UE_9000',
    });
  });
  it("sync: Ratepay's read has no status: its decline is a decline, no decline an authorization, OTP_REQUIRED still pending", () => {
    const j = job({ mode: 'sync', connector_transaction_id: TX });
    expect(flow(ratepay.sync).response({ status: 200, body: readExample }, j)).toEqual({
      kind: 'DECLINED',
      error_code: 'BUYER_DATA',
      error_message: 'INVALID_BILLING_ADDRESS',
      connector_transaction_id: TX,
      unified_code: 'UE_2000',
      unified_message: expect.any(String),
    });
    expect(flow(ratepay.sync).response({ status: 200, body: acceptedRead }, j)).toEqual({ kind: 'AUTHORIZED', connector_transaction_id: TX });
    expect(flow(ratepay.sync).response({ status: 200, body: { ...acceptedRead, result: 'OTP_REQUIRED' } }, j)).toEqual({
      kind: 'PENDING',
      connector_transaction_id: TX,
    });
    expect(flow(ratepay.sync).response(declined('RESOURCE_NOT_FOUND', ['TRANSACTION_NOT_FOUND']), j)).toMatchObject({
      kind: 'DECLINED',
      error_code: 'RESOURCE_NOT_FOUND',
    });
    expect(() => flow(ratepay.sync).response({ status: 200, body: { status: 'AUTHORIZED' } }, j)).toThrow(UnexpectedAnswer);
  });
  it('sync, automatic capture: the capture after the read decides; a declined read is the decline', () => {
    const auto = job({ mode: 'sync', connector_transaction_id: TX, capture_method: 'automatic' });
    const read = { status: 200, body: acceptedRead };
    const captured = { status: 201, body: { _links: {}, created: '2019-08-24T14:15:22Z', ratepay_capture_id: 'aa7rth5-__GG44rdsasf' } };
    expect(flow(ratepay.sync).response(captured, auto, [read, captured])).toEqual({ kind: 'CAPTURED', connector_transaction_id: TX });
    const tooMuch = declined('UNPROCESSABLE_OPERATION', ['CAPTURE_AMOUNT_TOO_HIGH']);
    expect(flow(ratepay.sync).response(tooMuch, auto, [read, tooMuch])).toMatchObject({
      kind: 'FAILED',
      error_code: 'UNPROCESSABLE_OPERATION',
      unified_code: 'UE_3000',
    });
    expect(flow(ratepay.sync).response({ status: 200, body: readExample }, auto, [{ status: 200, body: readExample }])).toMatchObject({
      kind: 'DECLINED',
      error_code: 'BUYER_DATA',
    });
  });
  it("capture, void: their ids (the cancellation as Ratepay's list sample shows one)", () => {
    expect(flow(ratepay.capture).response({ status: 201, body: { ratepay_capture_id: 'Hc7XgP2m9QeR0sT4uV6w' } }, job())).toEqual({
      kind: 'CAPTURED',
      connector_transaction_id: 'Hc7XgP2m9QeR0sT4uV6w',
    });
    expect(flow(ratepay.capture).response(declined('UNPROCESSABLE_OPERATION', ['CAPTURE_AMOUNT_TOO_HIGH']), job())).toMatchObject({
      kind: 'FAILED',
      error_message: 'CAPTURE_AMOUNT_TOO_HIGH',
    });
    const cancellation = fixture('docs/cancellations.200.json')._embedded.cancellations[0];
    expect(flow(ratepay.void).response({ status: 201, body: cancellation }, job())).toEqual({ kind: 'VOIDED' });
    expect(flow(ratepay.void).response(declined('UNPROCESSABLE_OPERATION', ['CANCELLATION_AMOUNT_TOO_HIGH']), job())).toMatchObject({
      kind: 'FAILED',
      unified_code: 'UE_3000',
    });
    expect(() => flow(ratepay.void).response({ status: 201, body: {} }, job())).toThrow(UnexpectedAnswer);
  });
  it('refunds: refunded; REFUND_AMOUNT_TOO_HIGH is Ratepay declining the refund (UE_6000); other refusals fail', () => {
    expect(flow(ratepay.refund).response({ status: 201, body: { ratepay_refund_id: 'Rf0a1B2c3D4e5F6g7H8i' } }, job())).toEqual({
      kind: 'REFUNDED',
      connector_transaction_id: 'Rf0a1B2c3D4e5F6g7H8i',
    });
    expect(flow(ratepay.refundSync).response({ status: 200, body: { ratepay_refund_id: 'Rf0a1B2c3D4e5F6g7H8i' } }, job())).toMatchObject({ kind: 'REFUNDED' });
    expect(flow(ratepay.refund).response(declined('UNPROCESSABLE_OPERATION', ['REFUND_AMOUNT_TOO_HIGH']), job())).toMatchObject({
      kind: 'DECLINED',
      error_code: 'UNPROCESSABLE_OPERATION',
      error_message: 'REFUND_AMOUNT_TOO_HIGH',
      unified_code: 'UE_6000',
    });
    expect(flow(ratepay.refund).response(declined('UNPROCESSABLE_OPERATION', ['NOT_ALLOWED_FOR_EXPIRED_TRANSACTION']), job())).toMatchObject({
      kind: 'FAILED',
      unified_code: 'UE_3000',
    });
  });
});

describe('mandates (issue 22)', () => {
  it('declares none, and the README says what was searched: Ratepay publishes no recurring charge', () => {
    // Absent `mandates`: the gateway refuses a mandate request through ratepay before anything is queued.
    expect(manifest.mandates ?? null).toBeNull();
    const readme = readFileSync(new URL('./README.md', import.meta.url), 'utf8');
    const line = /^## Mandates\n\n(.+)$/m.exec(readme)?.[1] ?? '';
    expect(line).toMatch(/^None published\b.*refused up front\. Searched \(\d{4}-\d{2}-\d{2}\): /);
  });
});
