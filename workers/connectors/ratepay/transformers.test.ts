// ratepay's flows, pure: our jobs -> Ratepay's requests, and recorded answers (fixtures/answers.json, shaped after the
// reference sheet's examples; fixtures/requests.json is the sheet's authorization example) -> outcomes. No stack.
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import type { ConnectorJob } from '../../../domain/job.ts';
import { FLOWS } from '../manifest.ts';
import { flowFor, UnexpectedAnswer } from '../types.ts';
import { TEST_SANDBOX_URL, testSession } from '../kit/testing.ts';
import { connector as ratepay } from './index.ts';
import { endpoints, itemsOf, splitStreet } from './request.ts';

const answers: Record<string, { status: number; body: unknown }> = JSON.parse(readFileSync(new URL('./fixtures/answers.json', import.meta.url), 'utf8'));
const requests: Record<string, any> = JSON.parse(readFileSync(new URL('./fixtures/requests.json', import.meta.url), 'utf8'));
const creds = { auth_type: 'BodyKey' as const, api_key: 'cid', key1: 'csecret', key2: 'INTEGRATION_TE_DACH' };
const API = '/ratepay/transaction/management/v2/transactions';
const bearer = { authorization: 'Bearer jwt' };

/** The sheet's example order as our job. */
const job = (over: Partial<ConnectorJob> = {}): ConnectorJob => ({
  merchant_id: 'mer_1', payment_id: 'pay_000000000000000000000000001', operation_id: 'op_1', kind: 'authorize', connector: 'ratepay',
  amount: 1190, currency: 'EUR', capture_method: 'manual', connector_transaction_id: null, customer_email: 'h@example.org',
  return_url: 'https://shop.example/return', merchant_order_reference_id: '1001', mode: 'execute', sync_round: 0,
  order: {
    customer: { id: null, name: 'H S', email: 'h@example.org', phone: null, phone_country_code: null },
    billing: { address: { line1: 'Allee 84', zip: '10439', city: 'Berlin', country: 'DE', first_name: 'H', last_name: 'S' }, email: 'h@example.org' },
    shipping: null,
    order_details: [{ product_name: 'X', product_id: 'a1', quantity: 1, amount: 1190, tax_percentage: 19 }],
    order_tax_amount: 190,
    metadata: { birth_date: '1971-05-19', customer_locale: 'de-DE' },
    browser_info: { ip_address: '10.0.0.1', device_fingerprint: { ratepay: 'ade028c1-0000-4000-8000-000000000001' } },
    description: null, payment_method_type: 'invoice', birth_date: null, gender: null, locale: null,
  },
  ...over,
});
const flow = <T>(f: T | undefined): T => { if (!f) throw new Error('flow absent'); return f; };
const s = { access_token: 'jwt', ...testSession({ merchant_id: 'mer_1', merchant_connector_id: 'mca_1' }) };
const a = (name: string) => answers[name]!;

describe('ratepay manifest', () => {
  it('lists exactly the flows the connector implements; no notifications; BodyKey credentials with an optional shop id', () => {
    expect(FLOWS.filter((f) => ratepay[f] !== undefined)).toEqual([...ratepay.manifest.flows]);
    expect(ratepay.manifest.webhook).toBeNull();
    expect(ratepay.token).toBeDefined();
    const c = ratepay.manifest.credentials;
    expect(c.safeParse({ auth_type: 'BodyKey', api_key: 'id', key1: 'secret' }).success).toBe(true);
    expect(c.safeParse({ auth_type: 'BodyKey', api_key: 'id' }).success).toBe(false);
    expect(c.safeParse({ auth_type: 'HeaderKey', api_key: 'id', key1: 's' }).success).toBe(false);
    expect(c.safeParse(ratepay.manifest.sandbox_account_details).success).toBe(true);
    expect(ratepay.manifest.amount_unit).toBe('major');
  });
});

describe('ratepay token', () => {
  it('client credentials for the API\'s audience: the sandbox under /ratepay, the real API at oauth.ratepay.com', () => {
    expect(flow(ratepay.token).request(creds, s)).toEqual({
      method: 'POST', path: '/ratepay/oauth/token',
      body: { client_id: 'cid', client_secret: 'csecret', audience: `${TEST_SANDBOX_URL}/ratepay/transaction/management`, grant_type: 'client_credentials' },
    });
    expect(endpoints({ base_url: 'https://api-integration.ratepay.com', sandbox_url: TEST_SANDBOX_URL })).toEqual({
      api: '/transaction/management', audience: 'https://api-integration.ratepay.com/transaction/management',
      token: { baseUrl: 'https://oauth.ratepay.com', path: '/oauth/token' },
    });
  });
  it('answers: the JWT and its lifetime; a refusal is a failure with the OAuth code', () => {
    expect(flow(ratepay.token).response(a('token'))).toEqual({ access_token: expect.stringMatching(/^eyJ/), expires_in_s: 1800 });
    expect(flow(ratepay.token).response(a('token_refused'))).toEqual({
      kind: 'FAILED', error_code: 'access_denied', error_message: 'Unauthorized', unified_code: 'UE_4000', unified_message: expect.any(String),
    });
    expect(flow(ratepay.token).response(a('token_wrong_audience'))).toMatchObject({ kind: 'FAILED', error_code: 'access_denied', unified_code: 'UE_4000' });
    expect(() => flow(ratepay.token).response({ status: 200, body: { token: 'x' } })).toThrow(UnexpectedAnswer);
  });
});

describe('ratepay requests', () => {
  it('authorize: the sheet\'s example body exactly (plus our operation id), Bearer JWT, Idempotency-Key, return=representation', () => {
    const req = flow(ratepay.authorize).request(job(), creds, s);
    expect(req).toMatchObject({ method: 'POST', path: API, idempotencyKey: 'op_1', headers: { ...bearer, prefer: 'return=representation' } });
    expect(req.body).toEqual({ ...requests.authorize, partner_operation_id: 'op_1' });
  });
  it('B2B: the company instead of the person; the shipping address as delivery; metadata.partner_shop_id wins', () => {
    const b2b = job({
      order: {
        ...job().order!, metadata: { buyer_type: 'business', company_name: 'ACME GmbH', company_vat_id: 'DE123456789', partner_shop_id: 'INTEGRATION_TE_B2B' },
        shipping: { address: { line1: 'Hafenstr. 3b', line2: 'Hinterhaus', zip: '20457', city: 'Hamburg', country: 'DE', first_name: 'Ann', last_name: 'Lee' } },
      },
    });
    const body = flow(ratepay.authorize).request(b2b, creds, s).body as any;
    expect(body.buyer.company).toEqual({ name: 'ACME GmbH', vat_id: 'DE123456789' });
    expect(body.buyer.person).toBeUndefined();
    expect(body.delivery).toEqual({
      first_name: 'Ann', last_name: 'Lee', company: 'ACME GmbH',
      address: { street: 'Hafenstr.', street_number: '3b', street_addition: 'Hinterhaus', zip_code: '20457', city: 'Hamburg', country_code: 'DE' },
    });
    expect(body.shop_baskets[0].partner_shop_id).toBe('INTEGRATION_TE_B2B');
  });
  it('amounts: exact decimals; shipping as a special item; vats per rate; uneven unit prices collapse to one item', () => {
    const b = itemsOf([
      { product_name: 'Shoe', product_id: 's1', quantity: 2, amount: 5998, tax_percentage: 19 },
      { product_name: 'Book', quantity: 3, amount: 1000, tax_percentage: 7 },
      { product_name: 'Shipping', quantity: 1, amount: 495, category: 'shipping_costs', total_tax_amount: 79 },
    ], 'EUR');
    expect(b.items[0]).toEqual({ article_number: 's1', name: 'Shoe', quantity: 2, tax_rate: 19, gross_unit_price: 29.99, net_unit_price: 25.2, gross_total_price: 59.98, net_total_price: 50.4 });
    expect(b.items[1]).toMatchObject({ article_number: 'line-2', name: '3 x Book', quantity: 1, gross_unit_price: 10, net_total_price: 9.35 });
    expect(b.special_items).toEqual([{ article_number: 'line-3', name: 'Shipping', category: 'shipping_costs', quantity: 1, tax_rate: 19, gross_unit_price: 4.95, net_unit_price: 4.16, gross_total_price: 4.95, net_total_price: 4.16 }]);
    expect(b.vats).toEqual([{ tax_rate: 19, net_amount: 54.56, tax_amount: 10.37 }, { tax_rate: 7, net_amount: 9.35, tax_amount: 0.65 }]);
    // No order lines: one item for the amount, its tax from order_tax_amount.
    const whole = flow(ratepay.authorize).request(job({ amount: 10000, order: { ...job().order!, order_details: null, order_tax_amount: 1597, description: 'Order 7' } }), creds, s).body as any;
    expect(whole.shop_baskets[0]).toMatchObject({ gross_amount: 100, items: [{ article_number: 'order', name: 'Order 7', quantity: 1, gross_total_price: 100, net_total_price: 84.03, tax_rate: 19 }] });
    expect(splitStreet('Hauptstraße')).toEqual({ street: 'Hauptstraße' });
  });
  it('sync: manual capture reads the transaction; automatic capture sends its capture once (own key)', () => {
    const synced = job({ mode: 'sync', connector_transaction_id: 'scwBgARW-nE93I7_ywhp' });
    expect(flowFor(synced)).toBe('sync');
    expect(flow(ratepay.sync).request(synced, creds, s)).toEqual({ method: 'GET', path: `${API}/scwBgARW-nE93I7_ywhp`, headers: bearer });
    const auto = flow(ratepay.sync).request({ ...synced, capture_method: 'automatic' }, creds, s);
    expect(auto).toMatchObject({ method: 'POST', path: `${API}/scwBgARW-nE93I7_ywhp/captures`, idempotencyKey: 'op_1-capture', body: { gross_amount: 11.9, partner_shop_id: 'INTEGRATION_TE_DACH', shop_transaction_id: '1001', partner_operation_id: 'op_1-capture' } });
    expect((auto.body as any).items).toHaveLength(1);
  });
  it('capture: the lines given (partial), the invoice number; the whole order\'s lines for the whole amount; the amount alone otherwise', () => {
    const j = job({ kind: 'capture', operation_id: 'op_2', connector_transaction_id: 'tx1' });
    const full = flow(ratepay.capture).request({ ...j, capture_details: { capture_metadata: { invoice_data: { merchant_invoice_ref: 'INV-1001' } }, metadata: null, order_details: null } }, creds, s);
    expect(full).toMatchObject({ method: 'POST', path: `${API}/tx1/captures`, idempotencyKey: 'op_2', body: { gross_amount: 11.9, partner_invoice_id: 'INV-1001', partner_operation_id: 'op_2', vats: [{ tax_rate: 19, net_amount: 10, tax_amount: 1.9 }] } });
    const lines = [{ product_name: 'X', product_id: 'a1', quantity: 1, amount: 500, tax_percentage: 19 }];
    const part = flow(ratepay.capture).request({ ...j, amount: 500, capture_details: { capture_metadata: null, metadata: { invoice_number: 'INV-2' }, order_details: lines } }, creds, s).body as any;
    expect(part).toMatchObject({ gross_amount: 5, partner_invoice_id: 'INV-2', items: [{ gross_total_price: 5, net_total_price: 4.2 }] });
    const bare = flow(ratepay.capture).request({ ...j, amount: 400 }, creds, s).body as any;
    expect(bare).toEqual({ partner_shop_id: 'INTEGRATION_TE_DACH', shop_transaction_id: '1001', gross_amount: 4, partner_operation_id: 'op_2' });
  });
  it('void cancels what is left; refund names our refund id; refund sync reads the refund', () => {
    const j = job({ connector_transaction_id: 'tx1', operation_id: 'op_3' });
    expect(flow(ratepay.void).request({ ...j, kind: 'void' }, creds, s)).toMatchObject({ method: 'POST', path: `${API}/tx1/cancellations`, idempotencyKey: 'op_3', body: { gross_amount: 11.9, partner_operation_id: 'op_3' } });
    const r = job({ kind: 'refund', connector_transaction_id: 'tx1', operation_id: 'op_9', amount: 500, refund_id: 'ref_1' });
    expect(flowFor(r)).toBe('refund');
    expect(flow(ratepay.refund).request(r, creds, s)).toEqual({
      method: 'POST', path: `${API}/tx1/refunds`, idempotencyKey: 'op_9', headers: bearer,
      body: { partner_shop_id: 'INTEGRATION_TE_DACH', shop_transaction_id: '1001', gross_amount: 5, partner_operation_id: 'ref_1' },
    });
    const named = { ...r, mode: 'sync' as const, connector_refund_id: 'Rf0a1' };
    expect(flowFor(named)).toBe('refundSync');
    expect(flow(ratepay.refundSync).request(named, creds, s)).toEqual({ method: 'GET', path: `${API}/tx1/refunds/Rf0a1`, headers: bearer });
  });
});

describe('ratepay answers -> outcomes', () => {
  it('authorize: 201 authorized (manual) or pending its capture (automatic); 4xx declines with the category', () => {
    expect(flow(ratepay.authorize).response(a('authorized'), job())).toEqual({ kind: 'AUTHORIZED', connector_transaction_id: 'scwBgARW-nE93I7_ywhp', connector_reference_id: undefined });
    expect(flow(ratepay.authorize).response(a('authorized_representation'), job())).toMatchObject({ kind: 'AUTHORIZED', connector_reference_id: '1001' });
    expect(flow(ratepay.authorize).response(a('authorized'), job({ capture_method: 'automatic' }))).toMatchObject({ kind: 'PENDING', connector_transaction_id: 'scwBgARW-nE93I7_ywhp' });
    expect(flow(ratepay.authorize).response(a('declined_risk'), job())).toEqual({
      kind: 'DECLINED', error_code: 'RISK_DECISION', error_message: 'RISK_SCORE_TOO_LOW: The transaction was declined by the risk check',
      unified_code: 'UE_1000', unified_message: 'The customer was declined by the provider', connector_transaction_id: 'q3hT0dKm4b2uGc9xPzLw',
    });
    expect(flow(ratepay.authorize).response(a('declined_buyer_identity'), job())).toMatchObject({ kind: 'DECLINED', error_code: 'BUYER_IDENTITY', error_message: 'BUYER_IDENTITY_NOT_VERIFIABLE', unified_code: 'UE_1000' });
    expect(flow(ratepay.authorize).response(a('missing_birth_date'), job())).toMatchObject({ kind: 'DECLINED', error_code: 'SYNTAX', error_message: 'MISSING_FIELD: buyer.person.date_of_birth is required', unified_code: 'UE_2000' });
    expect(flow(ratepay.authorize).response(a('country_not_allowed'), job())).toMatchObject({ error_code: 'CONTRACT', unified_code: 'UE_2000' });
    expect(flow(ratepay.authorize).response(a('invalid_token'), job())).toMatchObject({ kind: 'FAILED', error_code: 'invalid_token', unified_code: 'UE_4000' });
    expect(flow(ratepay.authorize).response({ status: 400, body: 'nope' }, job())).toMatchObject({ kind: 'DECLINED', error_code: 'http_400', unified_code: 'UE_9000' });
    expect(() => flow(ratepay.authorize).response({ status: 201, body: { id: 'x' } }, job())).toThrow(UnexpectedAnswer);
  });
  it('sync: the transaction\'s status (manual); the capture that completes an automatic payment', () => {
    const j = job({ mode: 'sync', connector_transaction_id: 'scwBgARW-nE93I7_ywhp' });
    expect(flow(ratepay.sync).response(a('authorized_representation'), j)).toEqual({ kind: 'AUTHORIZED', connector_transaction_id: 'scwBgARW-nE93I7_ywhp' });
    expect(flow(ratepay.sync).response(a('read_partially_captured'), j)).toMatchObject({ kind: 'AUTHORIZED' });
    expect(flow(ratepay.sync).response(a('read_cancelled'), j)).toMatchObject({ kind: 'VOIDED' });
    expect(flow(ratepay.sync).response(a('read_declined'), j)).toMatchObject({ kind: 'DECLINED' });
    expect(flow(ratepay.sync).response(a('not_found'), j)).toMatchObject({ kind: 'DECLINED', error_code: 'RESOURCE_NOT_FOUND' });
    expect(() => flow(ratepay.sync).response(a('authorized'), j)).toThrow(UnexpectedAnswer);
    const auto = { ...j, capture_method: 'automatic' };
    expect(flow(ratepay.sync).response(a('capture_created'), auto)).toEqual({ kind: 'CAPTURED', connector_transaction_id: 'scwBgARW-nE93I7_ywhp' });
    expect(flow(ratepay.sync).response(a('capture_too_much'), auto)).toMatchObject({ kind: 'FAILED', error_code: 'UNPROCESSABLE_OPERATION', unified_code: 'UE_3000' });
  });
  it('capture, void', () => {
    expect(flow(ratepay.capture).response(a('capture_created'), job())).toEqual({ kind: 'CAPTURED', connector_transaction_id: 'Hc7XgP2m9QeR0sT4uV6w' });
    expect(flow(ratepay.capture).response(a('capture_too_much'), job())).toMatchObject({ kind: 'FAILED', error_message: expect.stringContaining('AMOUNT_EXCEEDS_AUTHORIZATION') });
    expect(flow(ratepay.void).response(a('cancellation_created'), job())).toEqual({ kind: 'VOIDED' });
    expect(flow(ratepay.void).response(a('cancel_not_possible'), job())).toMatchObject({ kind: 'FAILED', error_code: 'UNPROCESSABLE_OPERATION', unified_code: 'UE_3000' });
    expect(() => flow(ratepay.void).response({ status: 201, body: {} }, job())).toThrow(UnexpectedAnswer);
  });
  it('refunds: refunded; rejected is declined (UE_6000); too much fails', () => {
    expect(flow(ratepay.refund).response(a('refund_created'), job())).toEqual({ kind: 'REFUNDED', connector_transaction_id: 'Rf0a1B2c3D4e5F6g7H8i' });
    expect(flow(ratepay.refundSync).response(a('refund_created'), job())).toMatchObject({ kind: 'REFUNDED' });
    expect(flow(ratepay.refund).response(a('refund_rejected'), job())).toMatchObject({ kind: 'DECLINED', error_code: 'UNPROCESSABLE_OPERATION', error_message: 'REFUND_REJECTED: The refund was rejected', unified_code: 'UE_6000' });
    expect(flow(ratepay.refund).response(a('refund_too_much'), job())).toMatchObject({ kind: 'FAILED', unified_code: 'UE_3000' });
  });
});
