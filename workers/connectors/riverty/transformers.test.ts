// riverty's flows, pure: our jobs -> Riverty's requests, and recorded Riverty answers (fixtures/answers.json, the
// reference sheet's examples where it has them) -> outcomes. No stack.
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import type { ConnectorJob, ProviderOrder } from '../../../domain/job.ts';
import { FLOWS } from '../manifest.ts';
import { UnexpectedAnswer } from '../types.ts';
import { testSession } from '../kit/testing.ts';
import { connector as riverty } from './index.ts';
import { decimal, itemOf, splitStreet } from './request.ts';

const answers: Record<string, { status: number; body: unknown }> = JSON.parse(readFileSync(new URL('./fixtures/answers.json', import.meta.url), 'utf8'));
const notifications: Record<string, unknown> = JSON.parse(readFileSync(new URL('./fixtures/notifications.json', import.meta.url), 'utf8'));
const creds = { api_key: 'rk_test' };
const order = (over: Partial<ProviderOrder> = {}): ProviderOrder => ({
  customer: { id: null, name: 'Astrid Schmidt', email: 'astrid@example.com', phone: null, phone_country_code: null },
  billing: { address: { line1: 'Hauptstr. 12a', city: 'Berlin', zip: '10115', country: 'DE', first_name: 'Astrid', last_name: 'Schmidt' } },
  shipping: null,
  order_details: [
    { product_name: 'Hat', quantity: 2, amount: 9_520, total_tax_amount: 1_520, tax_percentage: 19, product_id: 'sku-hat' },
    { product_name: 'Shipping', quantity: 1, amount: 2_380, total_tax_amount: 380, category: 'shipping_costs' },
  ],
  order_tax_amount: 1_900,
  metadata: { birth_date: '1990-01-02', customer_locale: 'de-DE', device_token: 'dev-1' },
  browser_info: { ip_address: '203.0.113.7' },
  description: null, payment_method_type: 'invoice', birth_date: null, gender: null, locale: null,
  ...over,
});
const job = (over: Partial<ConnectorJob> = {}): ConnectorJob => ({
  merchant_id: 'mer_1', payment_id: 'pay_1', operation_id: 'op_01234567890123456789012345', kind: 'authorize', connector: 'riverty',
  merchant_connector_id: 'mca_1', amount: 11_900, currency: 'EUR', capture_method: 'manual', connector_transaction_id: null,
  customer_email: 'astrid@example.com', return_url: 'https://shop.example/return', merchant_order_reference_id: 'order-1', mode: 'execute', sync_round: 0,
  order: order(), ...over,
});
const flow = <T>(f: T | undefined): T => { if (!f) throw new Error('flow absent'); return f; };
const a = (name: string) => answers[name]!;

describe('riverty manifest', () => {
  it('lists exactly the flows the connector implements; an automatic capture is our follow-up capture call; HeaderKey', () => {
    expect(FLOWS.filter((f) => riverty[f] !== undefined)).toEqual([...riverty.manifest.flows]);
    expect(riverty.manifest.capture_methods).toEqual(['automatic', 'manual', 'manual_multiple']);
    expect(riverty.manifest.automatic_capture).toBe('follow_up');
    expect(riverty.manifest.amount_unit).toBe('major');
    expect(riverty.manifest.credentials.safeParse(riverty.manifest.sandbox_account_details).success).toBe(true);
    expect(riverty.manifest.credentials.safeParse({ auth_type: 'HeaderKey' }).success).toBe(false);
  });
});

describe('riverty requests', () => {
  it('amounts are exact decimals; lines priced per unit, a total that does not divide by its quantity is one item', () => {
    expect(decimal(11_900, 'EUR')).toBe(119);
    expect(decimal(2_521, 'EUR')).toBe(25.21);
    expect(decimal(1, 'EUR')).toBe(0.01);
    expect(itemOf({ product_name: 'Pen', quantity: 3, amount: 1_000, total_tax_amount: 160 }, 0, 'EUR'))
      .toMatchObject({ description: '3 × Pen', quantity: 1, grossUnitPrice: 10, netUnitPrice: 8.4, vatAmount: 1.6, vatPercent: 19.05 });
    expect(splitStreet('Hauptstr. 12a', undefined)).toEqual({ street: 'Hauptstr.', streetNumber: '12a' });
    expect(splitStreet('Am Markt', '3')).toEqual({ street: 'Am Markt', streetNumber: '3' });
  });

  it('authorize: POST /api/v3/checkout/authorize with X-Auth-Key, the operation id as order number', () => {
    const r = flow(riverty.authorize).request(job(), creds, testSession(job()));
    expect(r).toMatchObject({ method: 'POST', path: '/api/v3/checkout/authorize', headers: { 'x-auth-key': 'rk_test' }, idempotencyKey: 'op_01234567890123456789012345' });
    expect(r.body).toEqual({
      payment: { type: 'Invoice' },
      customer: {
        customerCategory: 'Person', firstName: 'Astrid', lastName: 'Schmidt', email: 'astrid@example.com', birthDate: '1990-01-02', conversationLanguage: 'DE',
        address: { street: 'Hauptstr.', streetNumber: '12a', postalCode: '10115', postalPlace: 'Berlin', countryCode: 'DE' },
        riskData: { ipAddress: '203.0.113.7', profileTrackingId: 'dev-1' },
      },
      order: {
        number: 'op_01234567890123456789012345', totalGrossAmount: 119, totalNetAmount: 100, currency: 'EUR',
        items: [
          { productId: 'sku-hat', description: 'Hat', type: 'PhysicalArticle', quantity: 2, netUnitPrice: 40, grossUnitPrice: 47.6, vatPercent: 19, vatAmount: 7.6 },
          { productId: 'line-2', description: 'Shipping', type: 'ShippingFee', quantity: 1, netUnitPrice: 20, grossUnitPrice: 23.8, vatPercent: 19, vatAmount: 3.8 },
        ],
      },
      merchantUrl: 'https://shop.example/return', yourReference: 'order-1', ourReference: 'pay_1',
      webhookUrl: expect.stringMatching(/\/webhooks\/mer_1\/mca_1$/),
    });
  });

  it('authorize for a business: Company with name and registration, no birth date; installments; a delivery address', () => {
    const b = flow(riverty.authorize).request(job({
      order: order({
        metadata: { buyer_type: 'business', company_name: 'ACME GmbH', company_vat_id: 'DE1', birth_date: '1990-01-02' }, payment_method_type: 'installment_invoice',
        shipping: { address: { line1: 'Lager 5', city: 'Hamburg', zip: '20095', country: 'DE', first_name: 'Max', last_name: 'Muster' } },
      }),
    }), creds, testSession(job())).body as any;
    expect(b.payment).toEqual({ type: 'Installment' });
    expect(b.customer).toMatchObject({ customerCategory: 'Company', companyName: 'ACME GmbH', identificationNumber: 'DE1' });
    expect(b.customer.birthDate).toBeUndefined();
    expect(b.deliveryCustomer).toEqual({ customerCategory: 'Company', firstName: 'Max', lastName: 'Muster', address: { street: 'Lager', streetNumber: '5', postalCode: '20095', postalPlace: 'Hamburg', countryCode: 'DE' } });
  });

  it('sync reads the order; capture, void and refund go to the order number', () => {
    const known = job({ connector_transaction_id: 'op_X', mode: 'sync' });
    expect(flow(riverty.sync).request(known, creds)).toEqual({ method: 'GET', path: '/api/v3/orders/op_X', headers: { 'x-auth-key': 'rk_test' } });
    // The whole order captured: its items; the invoice number from capture_metadata.
    const full = flow(riverty.capture).request(job({
      kind: 'capture', connector_transaction_id: 'op_X', operation_id: 'op_C',
      capture_details: { capture_metadata: { invoice_data: { merchant_invoice_ref: 'INV-1' } }, metadata: null, order_details: null },
    }), creds);
    expect(full).toMatchObject({ method: 'POST', path: '/api/v3/orders/op_X/captures', body: { invoiceNumber: 'INV-1', transactionReference: 'op_C', orderDetails: { totalGrossAmount: 119, totalNetAmount: 100 } } });
    expect((full.body as any).orderDetails.items).toHaveLength(2);
    // Part of it: one item with its share of the tax; metadata.invoice_number as the invoice number.
    const part = flow(riverty.capture).request(job({ kind: 'capture', connector_transaction_id: 'op_X', amount: 5_950, capture_details: { capture_metadata: null, metadata: { invoice_number: 'INV-2' }, order_details: null } }), creds);
    expect(part.body).toMatchObject({ invoiceNumber: 'INV-2', orderDetails: { totalGrossAmount: 59.5, totalNetAmount: 50, items: [{ quantity: 1, grossUnitPrice: 59.5, netUnitPrice: 50, vatAmount: 9.5 }] } });
    expect(flow(riverty.void).request(job({ kind: 'void', connector_transaction_id: 'op_X' }), creds)).toMatchObject({ method: 'POST', path: '/api/v3/orders/op_X/voids', body: {} });
    const refund = flow(riverty.refund).request(job({ kind: 'refund', connector_transaction_id: 'op_X', amount: 2_380, refund_id: 'ref_1', connector_capture_id: '800090089', reason: 'damaged' }), creds);
    expect(refund).toMatchObject({
      method: 'POST', path: '/api/v3/orders/op_X/refunds',
      body: { captureNumber: '800090089', refundType: 'Refund', transactionReference: 'ref_1', items: [{ description: 'damaged', grossUnitPrice: 23.8, netUnitPrice: 20, vatAmount: 3.8 }] },
    });
    expect(() => flow(riverty.refund).request(job({ kind: 'refund', connector_transaction_id: 'op_X' }), creds)).toThrow(/names no capture/);
  });
});

describe('riverty answers -> outcomes', () => {
  const authorize = (name: string) => flow(riverty.authorize).response(a(name), job());
  it('authorize: Accepted, Pending with and without the authentication page, Rejected with the risk message', () => {
    expect(authorize('accepted')).toEqual({ kind: 'AUTHORIZED', connector_transaction_id: 'op_01234567890123456789012345', connector_reference_id: '0f0a5d2e-3c1b-4e8a-9f7d-2b6c1a0e9d84' });
    expect(authorize('pending_sca')).toMatchObject({ kind: 'CUSTOMER_ACTION', redirect_url: 'http://127.0.0.1:8090/riverty/sca/op_01234567890123456789012345' });
    expect(authorize('pending_review')).toMatchObject({ kind: 'PENDING', connector_transaction_id: 'op_01234567890123456789012345' });
    expect(authorize('rejected')).toMatchObject({ kind: 'DECLINED', error_code: '300.101', error_message: 'The customer did not pass the risk check', unified_code: 'UE_1000' });
  });
  it('errors: Riverty\'s message array, credentials refused, a body not Riverty\'s', () => {
    expect(authorize('birthdate_missing')).toEqual({ kind: 'DECLINED', error_code: '200.101', error_message: 'customer.birthDate is required', unified_code: 'UE_2000', unified_message: 'The provider rejected the request data' });
    expect(authorize('unauthorized')).toMatchObject({ kind: 'DECLINED', error_code: '100.001', unified_code: 'UE_4000' });
    expect(flow(riverty.capture).response({ status: 403, body: 'nope' }, job())).toMatchObject({ kind: 'FAILED', error_code: 'http_403', unified_code: 'UE_4000' });
    expect(flow(riverty.capture).response({ status: 400, body: [] }, job())).toMatchObject({ kind: 'FAILED', error_code: 'http_400', unified_code: 'UE_9000' });
  });
  it('sync: the order read back', () => {
    expect(flow(riverty.sync).response(a('order_accepted'), job({ mode: 'sync' }))).toMatchObject({ kind: 'AUTHORIZED', connector_transaction_id: 'op_01234567890123456789012345' });
    expect(flow(riverty.sync).response(a('order_not_found'), job())).toMatchObject({ kind: 'DECLINED', error_code: '400.101' });
  });
  it('capture, void, refund', () => {
    expect(flow(riverty.capture).response(a('capture'), job())).toEqual({ kind: 'CAPTURED', connector_transaction_id: '800090089' });
    expect(flow(riverty.capture).response(a('capture_too_much'), job())).toMatchObject({ kind: 'FAILED', error_code: '400.202', unified_code: 'UE_2000' });
    expect(flow(riverty.void).response(a('voided'), job())).toEqual({ kind: 'VOIDED' });
    expect(flow(riverty.void).response({ status: 200, body: { ...(a('voided').body as object), remainingAuthorizedAmount: 10 } }, job())).toEqual({ kind: 'FAILED' });
    expect(flow(riverty.void).response(a('void_captured'), job())).toMatchObject({ kind: 'FAILED', error_code: '400.201', error_message: 'Order Already Captured', unified_code: 'UE_3000' });
    expect(flow(riverty.refund).response(a('refund'), job())).toEqual({ kind: 'REFUNDED', connector_transaction_id: '800090092' });
    expect(flow(riverty.refund).response(a('refund_declined'), job())).toMatchObject({ kind: 'FAILED', error_code: '400.302', unified_code: 'UE_6000' });
  });
  it('an answer that is not Riverty\'s shape is refused, never cast', () => {
    expect(() => flow(riverty.authorize).response({ status: 200, body: { outcome: 'Approved' } }, job())).toThrow(UnexpectedAnswer);
    expect(() => flow(riverty.capture).response({ status: 200, body: { capturedAmount: 1 } }, job())).toThrow(UnexpectedAnswer);
    expect(() => flow(riverty.refund).response({ status: 200, body: { ...(a('refund').body as object), refundNumbers: [] } }, job())).toThrow(UnexpectedAnswer);
  });
});

describe('riverty notifications -> what they say', () => {
  const parse = (name: string) => flow(riverty.notification).parse(JSON.stringify(notifications[name]));
  it('CustomerAuthenticationCompleted / RiskCheckCompleted: the order\'s decision, with Riverty\'s timestamp', () => {
    expect(parse('sca_accepted')).toEqual({
      object: 'payment', connector_transaction_id: 'op_01234567890123456789012345', object_id: 'op_01234567890123456789012345', provider_updated_at: '2026-11-23T10:01:00.000Z',
      outcome: { kind: 'AUTHORIZED', connector_transaction_id: 'op_01234567890123456789012345', connector_reference_id: '7a1e0c9b-2d3f-4e5a-8b6c-1d2e3f4a5b6c' },
    });
    expect(parse('sca_rejected')).toMatchObject({ outcome: { kind: 'DECLINED', error_code: '300.102', unified_code: 'UE_1000' } });
    expect(parse('review_accepted')).toMatchObject({ object: 'payment', object_id: 'op_98765432109876543210987654', outcome: { kind: 'AUTHORIZED' } });
  });
  it('what it cannot read is unknown, never thrown', () => {
    expect(parse('other_type')).toMatchObject({ object: 'unknown', reason: expect.stringContaining('InvoicePaid') });
    expect(parse('bad_status')).toMatchObject({ object: 'unknown' });
    expect(flow(riverty.notification).parse('not json')).toEqual({ object: 'unknown', reason: 'the body is not JSON' });
    expect(flow(riverty.notification).parse('null')).toMatchObject({ object: 'unknown' });
  });
});
