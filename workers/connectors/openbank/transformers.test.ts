// openbank's flows, pure: the login, our jobs -> Zinia's requests (decimal euros, the subscription key and the Bearer
// token), and Zinia's answers in the documented-by-design shapes (fixtures/) -> outcomes; notifications -> hints. What
// Zinia (and the gateways that wrap it) published is in fixtures/published/ (sentences, no JSON examples: SOURCES.md);
// the issue-21 block checks the connector against those sentences and the README's counts and go-live list.
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import type { ConnectorJob, ProviderOrder } from '../../../domain/job.ts';
import { FLOWS } from '../manifest.ts';
import { flowFor, UnexpectedAnswer } from '../types.ts';
import { testSession } from '../kit/testing.ts';
import { connector as openbank } from './index.ts';
import { countVerification } from '../../../scripts/connector-verification.ts';
import { verificationLevel } from '../manifest.ts';
import { euros, itemOf, mobileOf } from './request.ts';

const load = (f: string) => JSON.parse(readFileSync(new URL(`./fixtures/${f}`, import.meta.url), 'utf8'));
const answers: Record<string, { status: number; body: unknown }> = load('answers.json');
const requests = load('requests.json');
const notifications = load('notifications.json');
const a = (name: string) => answers[name]!;
const creds = { api_key: 'mak_1', key1: 'client_1', api_secret: 'secret_1' };
const session = { access_token: 'tok_1', ...testSession({ merchant_id: 'mer_1', merchant_connector_id: 'mca_1' }) };
const H = { 'ocp-apim-subscription-key': 'mak_1', authorization: 'Bearer tok_1' };
const ORDER = 'ZIN-6f1c2a9e-4b7d-4e3a-9c1f-2d8b7a6e5f40';
const order = (over: Partial<ProviderOrder> = {}): ProviderOrder => ({
  customer: { id: 'cus_1', name: 'Erika Mustermann', email: 'erika@example.com', phone: '+4915112345678', phone_country_code: null },
  billing: {
    address: { first_name: 'Erika', last_name: 'Mustermann', line1: 'Hauptstr. 12a', city: 'Berlin', zip: '10115', country: 'DE' },
    email: 'erika@example.com',
  },
  shipping: null,
  order_details: [
    { product_name: 'Lamp', quantity: 2, amount: 9_520, total_tax_amount: 1_520, tax_percentage: 19, product_id: 'sku-lamp', product_type: 'physical' },
    { product_name: 'Shipping', quantity: 1, amount: 2_380, total_tax_amount: 380, tax_percentage: 19, category: 'shipping_costs' },
  ],
  order_tax_amount: 1_900,
  metadata: { buyer_type: 'consumer', birth_date: '1980-02-03', customer_locale: 'de-DE' },
  browser_info: null,
  description: null,
  payment_method_type: 'invoice',
  birth_date: null,
  gender: null,
  locale: null,
  ...over,
});
const job = (over: Partial<ConnectorJob> = {}): ConnectorJob => ({
  merchant_id: 'mer_1',
  merchant_connector_id: 'mca_1',
  payment_id: 'pay_000000000000000000000000001',
  operation_id: 'op_01234567890123456789012345',
  kind: 'authorize',
  connector: 'openbank',
  amount: 11_900,
  currency: 'EUR',
  capture_method: 'manual',
  connector_transaction_id: null,
  customer_email: 'erika@example.com',
  return_url: 'https://shop.example/return',
  merchant_order_reference_id: 'order-1001',
  mode: 'execute',
  sync_round: 0,
  order: order(),
  ...over,
});
const flow = <T>(f: T | undefined): T => {
  if (!f) throw new Error('flow absent');
  return f;
};
const { authorize, sync, capture, void: voidFlow, refund, refundSync, token, notification } = openbank;

describe('openbank manifest and login', () => {
  it('lists exactly its flows; a token flow; unsigned notifications; decimal euros; B2C in DE ES NL', () => {
    expect(FLOWS.filter((f) => openbank[f] !== undefined)).toEqual([...openbank.manifest.flows]);
    expect(openbank.manifest).toMatchObject({
      webhook: { scheme: 'unsigned' },
      amount_unit: 'major',
      customers: ['B2C'],
      currencies: ['EUR'],
      countries: ['DE', 'ES', 'NL'],
      automatic_capture: 'follow_up',
    });
    expect(openbank.manifest.credentials.safeParse(openbank.manifest.sandbox_account_details).success).toBe(true);
    expect(openbank.manifest.credentials.safeParse({ auth_type: 'SignatureKey', api_key: 'x', key1: 'y' }).success).toBe(false);
  });
  it("POST /auth/login with the client id and secret and the subscription key; a refusal is the job's outcome", () => {
    expect(flow(token).request(creds)).toEqual({
      method: 'POST',
      path: '/auth/login',
      headers: { 'ocp-apim-subscription-key': 'mak_1' },
      body: { client_id: 'client_1', client_secret: 'secret_1' },
    });
    expect(flow(token).response(a('token'))).toEqual({ access_token: 'zin_Q2xpZW50VG9rZW5TYW5kYm94MDAwMDAwMDE', expires_in_s: 3600 });
    expect(flow(token).response(a('token_refused'))).toEqual({
      kind: 'FAILED',
      error_code: 'INVALID_CLIENT_CREDENTIALS',
      error_message: 'The client ID or client secret is invalid',
      unified_code: 'UE_4000',
      unified_message: expect.any(String),
    });
    expect(flow(token).response(a('subscription_key_refused'))).toMatchObject({
      kind: 'FAILED',
      error_code: 'HTTP_401',
      error_message: expect.stringContaining('invalid subscription key'),
      unified_code: 'UE_4000',
    });
    expect(() => flow(token).response({ status: 200, body: { access_token: 'x' } })).toThrow(UnexpectedAnswer);
  });
});

describe('openbank requests', () => {
  it('amounts are exact decimal euros; items priced per unit, a total that does not divide becomes one item', () => {
    expect([euros(11_900), euros(4_760), euros(1), euros(5_000)]).toEqual([119, 47.6, 0.01, 50]);
    expect(itemOf({ product_name: 'Pen', quantity: 3, amount: 1_000, total_tax_amount: 160 }, 0, 'EUR')).toEqual({
      sku: 'line-1',
      name: '3 × Pen',
      type: 'PRODUCT',
      quantity: 1,
      unit_price: 10,
      total_amount: 10,
      tax_rate: 19.05,
      tax_amount: 1.6,
    });
    expect(mobileOf(order())).toBe('+4915112345678');
    expect(mobileOf(order({ customer: null, billing: { phone: { number: '015112345678', country_code: '+49' } } }))).toBe('+4915112345678');
    expect(mobileOf(order({ customer: null, billing: {} }))).toBeUndefined();
  });
  it("authorize: POST /checkout/orders in the fixture's shape, with our webhook URL and the operation id as merchant_order_id", () => {
    const r = flow(authorize).request(job(), creds, session);
    expect(r).toMatchObject({ method: 'POST', path: '/checkout/orders', idempotencyKey: 'op_01234567890123456789012345', headers: H });
    const expected = requests.create_order;
    expect(r.body).toEqual({ ...expected, urls: { ...expected.urls, notification_url: expect.stringMatching(/\/webhooks\/mer_1\/mca_1$/) } });
    const instalments = flow(authorize).request(
      job({ order: order({ payment_method_type: 'installment_invoice', metadata: { birth_date: '1980-02-03', national_id: '12345678Z' } }) }),
      creds,
      session,
    );
    expect(instalments.body).toMatchObject({ product: 'INSTALMENTS', customer: { national_id: '12345678Z' } });
    expect((instalments.body as any).customer.language).toBeUndefined();
  });
  it('sync reads the order; capture confirms a shipment; void cancels; refund and refund sync', () => {
    const s = job({ mode: 'sync', connector_transaction_id: ORDER });
    expect(flowFor(s)).toBe('sync');
    expect(flow(sync).request(s, creds, session)).toEqual({ method: 'GET', path: `/checkout/orders/${ORDER}`, headers: H });
    const cap = job({
      kind: 'capture',
      operation_id: 'op_2',
      amount: 5_000,
      connector_transaction_id: ORDER,
      capture_details: { capture_metadata: { invoice_data: { merchant_invoice_ref: 'INV-1001' } }, metadata: null, order_details: null },
    });
    expect(flow(capture).request(cap, creds, session)).toEqual({
      method: 'POST',
      path: `/orders/${ORDER}/confirm-shipment`,
      idempotencyKey: 'op_2',
      headers: H,
      body: { shipment_id: 'op_2', amount: 50, invoice_number: 'INV-1001' },
    });
    const withLines = flow(capture).request(
      {
        ...cap,
        capture_details: {
          capture_metadata: null,
          metadata: { invoice_number: 'INV-2' },
          order_details: [{ product_name: 'Lamp', quantity: 1, amount: 5_000, total_tax_amount: 798 }],
        },
      },
      creds,
      session,
    );
    expect(withLines.body).toMatchObject({
      invoice_number: 'INV-2',
      items: [{ name: 'Lamp', quantity: 1, unit_price: 50, total_amount: 50, tax_amount: 7.98 }],
    });
    expect(flow(voidFlow).request(job({ kind: 'void', operation_id: 'op_3', connector_transaction_id: ORDER }), creds, session)).toEqual({
      method: 'POST',
      path: `/orders/${ORDER}/cancel`,
      idempotencyKey: 'op_3',
      headers: H,
      body: {},
    });
    const rf = job({ kind: 'refund', operation_id: 'op_4', amount: 2_000, connector_transaction_id: ORDER, refund_id: 'ref_1', reason: 'damaged' });
    expect(flow(refund).request(rf, creds, session)).toEqual({
      method: 'POST',
      path: `/orders/${ORDER}/refunds`,
      idempotencyKey: 'op_4',
      headers: H,
      body: { merchant_refund_id: 'ref_1', amount: 20, reason: 'damaged' },
    });
    const rs = { ...rf, mode: 'sync' as const, connector_refund_id: 'ZRF-1' };
    expect(flowFor(rs)).toBe('refundSync');
    expect(flow(refundSync).request(rs, creds, session)).toEqual({ method: 'GET', path: `/orders/${ORDER}/refunds/ZRF-1`, headers: H });
  });
});

describe('openbank answers -> outcomes', () => {
  it("CREATED -> the customer's Link-Up; APPROVED -> authorized; PENDING -> pending; REJECTED, CANCELLED, EXPIRED -> declined", () => {
    expect(flow(authorize).response(a('created'), job())).toEqual({
      kind: 'CUSTOMER_ACTION',
      connector_transaction_id: ORDER,
      redirect_url: `http://127.0.0.1:8090/openbank/link-up/${ORDER}`,
    });
    expect(flow(sync).response(a('approved'), job())).toEqual({ kind: 'AUTHORIZED', connector_transaction_id: ORDER });
    expect(flow(sync).response(a('pending'), job())).toMatchObject({ kind: 'PENDING' });
    expect(flow(sync).response(a('rejected'), job())).toMatchObject({
      kind: 'DECLINED',
      error_code: 'CREDIT_CHECK_REJECTED',
      error_message: 'Zinia could not approve the financing',
      unified_code: 'UE_1000',
    });
    expect(flow(sync).response(a('customer_cancelled'), job())).toMatchObject({ kind: 'DECLINED', error_code: 'CUSTOMER_CANCELLED', unified_code: 'UE_1000' });
    expect(flow(sync).response(a('expired'), job())).toMatchObject({ kind: 'DECLINED', error_code: 'ORDER_EXPIRED', unified_code: 'UE_1000' });
    expect(() => flow(sync).response({ status: 200, body: { order_id: ORDER, status: 'MAYBE' } }, job())).toThrow(UnexpectedAnswer);
  });
  it("errors: Zinia's code and message", () => {
    expect(flow(authorize).response(a('validation_birth_date'), job())).toMatchObject({
      kind: 'DECLINED',
      error_code: 'VALIDATION_ERROR',
      error_message: 'customer.birth_date must be YYYY-MM-DD',
      unified_code: 'UE_2000',
    });
    expect(flow(authorize).response(a('amount_out_of_range'), job())).toMatchObject({ error_code: 'AMOUNT_OUT_OF_RANGE', unified_code: 'UE_2000' });
    expect(flow(authorize).response(a('token_invalid'), job())).toMatchObject({ error_code: 'INVALID_TOKEN', unified_code: 'UE_4000' });
    expect(flow(sync).response(a('order_not_found'), job())).toMatchObject({ error_code: 'ORDER_NOT_FOUND' });
    expect(flow(capture).response(a('shipment_too_much'), job())).toMatchObject({
      kind: 'FAILED',
      error_code: 'AMOUNT_EXCEEDS_REMAINING',
      unified_code: 'UE_2000',
    });
    expect(flow(capture).response(a('shipment_not_approved'), job())).toMatchObject({
      kind: 'FAILED',
      error_code: 'INVALID_ORDER_STATUS',
      unified_code: 'UE_3000',
    });
    expect(flow(voidFlow).response(a('cancel_shipped'), job())).toMatchObject({ kind: 'FAILED', error_code: 'INVALID_ORDER_STATUS', unified_code: 'UE_3000' });
    expect(flow(refund).response(a('refund_too_much'), job())).toMatchObject({ kind: 'FAILED', error_code: 'AMOUNT_EXCEEDS_REFUNDABLE' });
    expect(flow(refund).response({ status: 400, body: '<html>' }, job())).toMatchObject({ kind: 'FAILED', error_code: 'HTTP_400', unified_code: 'UE_9000' });
  });
  it('shipment -> captured; cancel -> voided (also of the rest after a shipment); refunds COMPLETED, PENDING, REJECTED', () => {
    expect(flow(capture).response(a('shipment'), job())).toEqual({ kind: 'CAPTURED', connector_transaction_id: 'op_44444444444444444444444444' });
    expect(flow(voidFlow).response(a('cancelled'), job())).toEqual({ kind: 'VOIDED' });
    expect(flow(voidFlow).response(a('cancelled_rest'), job())).toEqual({ kind: 'VOIDED' });
    expect(flow(voidFlow).response(a('approved'), job())).toMatchObject({ kind: 'FAILED', error_code: 'APPROVED' });
    expect(flow(refund).response(a('refund'), job())).toEqual({ kind: 'REFUNDED', connector_transaction_id: 'ZRF-7e6d5c4b-3a29-4180-9f7e-6d5c4b3a2918' });
    expect(flow(refundSync).response(a('refund_pending'), job())).toEqual({
      kind: 'PENDING',
      connector_transaction_id: 'ZRF-8f7e6d5c-4b3a-4291-8a0f-7e6d5c4b3a29',
    });
    expect(flow(refund).response(a('refund_rejected'), job())).toMatchObject({ kind: 'FAILED', error_code: 'REFUND_REJECTED', unified_code: 'UE_6000' });
  });
  it("notifications are hints naming Zinia's order; what is not one is unknown", () => {
    expect(flow(notification).parse(JSON.stringify(notifications.approved))).toEqual({
      object: 'hint',
      connector_transaction_id: ORDER,
      event: 'ORDER_STATUS_CHANGED APPROVED',
    });
    expect(flow(notification).parse(JSON.stringify(notifications.refund_completed))).toEqual({
      object: 'hint',
      connector_transaction_id: ORDER,
      event: 'REFUND_STATUS_CHANGED COMPLETED',
    });
    expect(flow(notification).parse(JSON.stringify(notifications.no_order))).toMatchObject({ object: 'unknown' });
    expect(flow(notification).parse('not json')).toEqual({ object: 'unknown', reason: 'the body is not JSON' });
  });
});

/** The items of a README section `## <title>` (its top-level `- ` lines, continuation lines joined). */
function readmeList(readme: string, title: string): string[] {
  const lines = readme.split('\n');
  const from = lines.indexOf(`## ${title}`);
  if (from < 0) return [];
  const items: string[] = [];
  for (const l of lines.slice(from + 1)) {
    if (l.startsWith('## ')) break;
    if (l.startsWith('- ')) items.push(l.slice(2).trim());
    else if (l.startsWith('  ') && items.length) items[items.length - 1] += ` ${l.trim()}`;
  }
  return items;
}

describe('issue 21: openbank against what Zinia published (fixtures/published/)', () => {
  const guide = load('published/zinia-integration-guide.json');
  const computop = load('published/computop-zinia.json');
  const readme = readFileSync(new URL('./README.md', import.meta.url), 'utf8');

  it("the guide's three credentials: the Client ID and Client Secret log in, the Merchant API Key goes with every call", () => {
    expect(Object.keys(guide.credentials)).toEqual(['Client ID', 'Client Secret', 'Merchant API Key']);
    // Our SignatureKey: key1 = Client ID, api_secret = Client Secret, api_key = Merchant API Key (README, manifest.ts).
    const login = flow(token).request({ key1: 'the-client-id', api_secret: 'the-client-secret', api_key: 'the-merchant-api-key' });
    expect(JSON.stringify(login.body)).toContain('the-client-id');
    expect(JSON.stringify(login.body)).toContain('the-client-secret');
    expect(Object.values(login.headers ?? {})).toContain('the-merchant-api-key');
    const create = flow(authorize).request(job(), { key1: 'the-client-id', api_secret: 'the-client-secret', api_key: 'the-merchant-api-key' }, session);
    expect(Object.values(create.headers ?? {})).toContain('the-merchant-api-key');
  });

  it("Computop's mapping: Authorize is Merchant_login (an access token) then Create_order, which is the guide's POST /checkout/orders", () => {
    expect(computop.request_mapping.Authorize).toEqual(['Merchant_login', 'Create_order']);
    // Merchant_login: our token flow; its access token carries the checkout.
    expect(openbank.token).toBeDefined();
    const access = flow(token).response(a('token'));
    expect(access).toMatchObject({ access_token: expect.any(String) });
    const withToken = flow(authorize).request(job(), creds, { ...session, access_token: 'access_token' in access ? access.access_token : '' });
    expect(JSON.stringify(withToken.headers)).toContain('access_token' in access ? access.access_token : 'missing');
    // Create_order: the guide's sentence names the call.
    const [, method, path] = /\((POST) (\/checkout\/orders)\)/.exec(guide.checkout) ?? [];
    expect({ method: withToken.method, path: withToken.path }).toEqual({ method, path });
  });

  it("the create answer's URL of Zinia's checkout payment screen (the Link-Up) is where the customer goes: requires_customer_action", () => {
    expect(guide.checkout).toContain('will provide a URL to show users the Zinia checkout payment screen (customer Link-Up process)');
    expect(flow(authorize).response(a('created'), job())).toMatchObject({
      kind: 'CUSTOMER_ACTION',
      redirect_url: (a('created').body as { redirect_url: string }).redirect_url,
    });
  });

  it('the README counts its Sources rows and UNVERIFIED items as the manifest states, at level preview, with the same go-live list', () => {
    const counted = countVerification(readme);
    const v = openbank.manifest.verification;
    expect({ verified: v?.verified, unverified: v?.unverified }).toEqual(counted);
    expect(v?.level).toBe(verificationLevel(counted.verified, counted.unverified));
    expect(v?.level).toBe('preview');
    expect(readme.split('\n').slice(0, 4).join(' ')).toMatch(/preview/i);
    expect(v?.go_live_checklist?.length).toBeGreaterThan(10);
    expect(readmeList(readme, 'Before going live')).toEqual([...(v?.go_live_checklist ?? [])]);
  });
});

describe('issue 22: openbank keeps no mandates (Zinia publishes no recurring charge)', () => {
  it('the manifest declares no mandates, and the README says so under ## Mandates, naming what was searched', () => {
    expect(openbank.manifest.mandates ?? null).toBeNull();
    const readme = readFileSync(new URL('./README.md', import.meta.url), 'utf8');
    const mandates = readme.split(/^## /m).filter((s) => s.startsWith('Mandates\n'));
    expect(mandates).toHaveLength(1);
    expect(mandates[0]).toMatch(/^None \(issue 22\): Zinia publishes no(thing about)? recurring/m);
    expect(mandates[0]).toContain('Searched:');
  });
});
