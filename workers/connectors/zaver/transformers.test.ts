// zaver's flows, pure: our jobs -> Zaver's requests, and Zaver's documented answers and callbacks (fixtures/, the
// reference sheet's shapes) -> outcomes. No stack.
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import type { ConnectorJob, ProviderOrder } from '../../../domain/job.ts';
import { ProviderUnavailable } from '../../provider-http.ts';
import { FLOWS } from '../manifest.ts';
import { UnexpectedAnswer } from '../types.ts';
import { testSession } from '../kit/testing.ts';
import { connector as zaver } from './index.ts';
import { lineItemOf, major, taxRate } from './request.ts';

const answers: Record<string, { status: number; body: unknown }> = JSON.parse(readFileSync(new URL('./fixtures/answers.json', import.meta.url), 'utf8'));
const notifications: Record<string, unknown> = JSON.parse(readFileSync(new URL('./fixtures/notifications.json', import.meta.url), 'utf8'));
const creds = { api_key: 'zk_test' };
const order = (over: Partial<ProviderOrder> = {}): ProviderOrder => ({
  customer: { id: 'cus_1', name: 'Erika Mustermann', email: 'erika@example.com', phone: '+4915112345678', phone_country_code: null },
  billing: { address: { line1: 'Hauptstr. 12a', city: 'Berlin', zip: '10115', country: 'DE', first_name: 'Erika', last_name: 'Mustermann' }, phone: { number: '15112345678', country_code: '+49' } },
  shipping: null,
  order_details: [
    { product_name: 'Lamp', quantity: 2, amount: 9_520, total_tax_amount: 1_520, tax_percentage: 19, product_id: 'sku-lamp', product_type: 'physical' },
    { product_name: 'Shipping', quantity: 1, amount: 2_380, total_tax_amount: 380, tax_percentage: 19, category: 'shipping_costs' },
  ],
  order_tax_amount: 1_900,
  metadata: { birth_date: '1980-02-03', customer_locale: 'de-DE' },
  browser_info: null, description: null, payment_method_type: 'invoice', birth_date: null, gender: null, locale: null,
  ...over,
});
const job = (over: Partial<ConnectorJob> = {}): ConnectorJob => ({
  merchant_id: 'mer_1', payment_id: 'pay_1', operation_id: 'op_1', kind: 'authorize', connector: 'zaver',
  merchant_connector_id: 'mca_1', amount: 11_900, currency: 'EUR', capture_method: 'manual', connector_transaction_id: null,
  customer_email: 'erika@example.com', return_url: 'https://shop.example/return', merchant_order_reference_id: 'order-1', mode: 'execute', sync_round: 0,
  order: order(), ...over,
});
const flow = <T>(f: T | undefined): T => { if (!f) throw new Error('flow absent'); return f; };
const a = (name: string) => answers[name]!;
const PAYMENT = '9f2c4b7e1a3d5f6081726354';
const REFUND = '7e6d5c4b-3a29-4180-9f7e-6d5c4b3a2918';

describe('zaver manifest', () => {
  it('lists exactly the flows it implements; automatic capture is a follow-up call; the callback token in Authorization', () => {
    expect(FLOWS.filter((f) => zaver[f] !== undefined)).toEqual([...zaver.manifest.flows]);
    expect(zaver.manifest).toMatchObject({
      capture_methods: ['automatic', 'manual', 'manual_multiple'], automatic_capture: 'follow_up', amount_unit: 'major',
      currencies: ['SEK', 'EUR'], customers: ['B2C'], webhook: { scheme: 'shared_secret', header: 'authorization' },
    });
    expect(zaver.manifest.credentials.safeParse(zaver.manifest.sandbox_account_details).success).toBe(true);
    expect(zaver.manifest.credentials.safeParse({ auth_type: 'HeaderKey' }).success).toBe(false);
  });
});

describe('zaver requests', () => {
  it('major units exactly; a line\'s total and tax for the whole line, priced per unit; a total not divisible is one item', () => {
    expect(major(11_900, 'EUR')).toBe(119);
    expect(major(2_521, 'SEK')).toBe(25.21);
    expect(taxRate(2_000, 400)).toBe(25);
    expect(lineItemOf({ product_name: 'Pen', quantity: 3, amount: 1_000, total_tax_amount: 160 }, 0, 'EUR'))
      .toEqual({ id: 'line-1', name: '3 × Pen', quantity: 1, unitPrice: 10, totalAmount: 10, taxRatePercent: 19.05, taxAmount: 1.6, itemType: 'PHYSICAL' });
  });

  it('authorize: POST /payments/link/v2 with the Bearer key, our webhook as callbackUrl, the operation id as idempotencyKey', () => {
    const r = flow(zaver.authorize).request(job(), creds, testSession(job()));
    expect(r).toMatchObject({ method: 'POST', path: '/payments/link/v2', idempotencyKey: 'op_1', headers: { authorization: 'Bearer zk_test' } });
    expect(r.body).toEqual({
      merchantPaymentReference: 'order-1', amount: 119, currency: 'EUR', market: 'DE', language: 'de', title: 'Order order-1',
      merchantUrls: { callbackUrl: expect.stringMatching(/\/webhooks\/mer_1\/mca_1$/), successUrl: 'https://shop.example/return', cancelUrl: 'https://shop.example/return' },
      lineItems: [
        { id: 'sku-lamp', name: 'Lamp', quantity: 2, unitPrice: 47.6, totalAmount: 95.2, taxRatePercent: 19, taxAmount: 15.2, itemType: 'PHYSICAL', merchantReference: 'sku-lamp' },
        { id: 'line-2', name: 'Shipping', quantity: 1, unitPrice: 23.8, totalAmount: 23.8, taxRatePercent: 19, taxAmount: 3.8, itemType: 'SHIPPING' },
      ],
      payerData: { email: 'erika@example.com', phoneNumber: '+4915112345678', givenName: 'Erika', familyName: 'Mustermann', dateOfBirth: '1980-02-03' },
      merchantMetadata: { paymentId: 'pay_1' },
      idempotencyKey: 'op_1',
    });
  });

  it('without order lines: one line of the whole amount with the order\'s tax', () => {
    const r = flow(zaver.authorize).request(job({ order: order({ order_details: null, description: 'Lamp order' }) }), creds, testSession(job()));
    expect((r.body as any).lineItems).toEqual([{ id: 'line-1', name: 'Lamp order', quantity: 1, unitPrice: 119, totalAmount: 119, taxRatePercent: 19, taxAmount: 19, itemType: 'PHYSICAL' }]);
  });

  it('sync, capture, void, refund and refund sync: Zaver\'s paths, the capture\'s and the refund\'s own keys', () => {
    const paid = job({ connector_transaction_id: PAYMENT });
    expect(flow(zaver.sync).request(paid, creds)).toMatchObject({ method: 'GET', path: `/payments/link/v2/${PAYMENT}` });
    const c = flow(zaver.capture).request({ ...paid, kind: 'capture', operation_id: 'op_c', amount: 5_000, capture_details: { capture_metadata: { invoice_data: { merchant_invoice_ref: 'INV-1' } }, metadata: null, order_details: null } }, creds);
    expect(c).toMatchObject({ method: 'POST', path: `/payments/link/v2/${PAYMENT}/capture`, body: { amount: 50, currency: 'EUR', captureIdempotencyKey: 'op_c', captureMetadata: { invoiceReference: 'INV-1' } } });
    const v = flow(zaver.void).request({ ...paid, kind: 'void' }, creds);
    expect(v).toMatchObject({ method: 'POST', path: `/payments/link/v2/${PAYMENT}/cancel` });
    expect(v.body).toBeUndefined();
    const r = flow(zaver.refund).request({ ...paid, kind: 'refund', amount: 2_000, refund_id: 'ref_1', reason: 'damaged' }, creds, testSession(job()));
    expect(r).toMatchObject({ method: 'POST', path: '/refund/v1' });
    expect(r.body).toEqual({
      paymentId: PAYMENT, refundAmount: 20, refundTaxAmount: 3.19, refundTaxRatePercent: 19, description: 'damaged', merchantReference: 'ref_1',
      merchantUrls: { callbackUrl: expect.stringMatching(/\/webhooks\/mer_1\/mca_1$/) },
    });
    // The whole amount refunds the whole tax.
    expect((flow(zaver.refund).request({ ...paid, kind: 'refund', refund_id: 'ref_2' }, creds, testSession(job())).body as any).refundTaxAmount).toBe(19);
    expect(flow(zaver.refundSync).request({ ...paid, kind: 'refund', connector_refund_id: REFUND }, creds)).toMatchObject({ method: 'GET', path: `/refund/v1/${REFUND}` });
  });
});

describe('zaver answers', () => {
  it('payment statuses: CREATED is the payer\'s step at the payment link; the others decide or wait', () => {
    const auth = flow(zaver.authorize).response;
    expect(auth(a('created'), job())).toEqual({ kind: 'CUSTOMER_ACTION', connector_transaction_id: PAYMENT, redirect_url: (a('created').body as any).paymentLink });
    expect(auth(a('pending_confirmation'), job())).toEqual({ kind: 'PENDING', connector_transaction_id: PAYMENT });
    expect(auth(a('authorized'), job())).toEqual({ kind: 'AUTHORIZED', connector_transaction_id: PAYMENT });
    expect(auth(a('settled'), job())).toEqual({ kind: 'CAPTURED', connector_transaction_id: PAYMENT });
    expect(auth(a('cancelled'), job())).toMatchObject({ kind: 'DECLINED', error_code: 'CANCELLED', unified_code: 'UE_1000' });
    expect(auth(a('error'), job())).toMatchObject({ kind: 'DECLINED', error_code: 'ERROR', unified_code: 'UE_1000' });
  });

  it('capture, void: the capture id names the capture; the cancel answers CANCELLED', () => {
    expect(flow(zaver.capture).response(a('capture'), job())).toEqual({ kind: 'CAPTURED', connector_transaction_id: 'c1d2e3f4-a5b6-4c7d-8e9f-0a1b2c3d4e5f' });
    expect(flow(zaver.void).response(a('cancelled'), job())).toEqual({ kind: 'VOIDED' });
    expect(flow(zaver.void).response(a('settled'), job())).toMatchObject({ kind: 'FAILED', error_code: 'SETTLED', unified_code: 'UE_3000' });
    expect(flow(zaver.capture).response(a('capture_not_authorized'), job())).toMatchObject({ kind: 'FAILED', error_code: 'PAYMENT_ILLEGAL_STATE', unified_code: 'UE_3000' });
  });

  it('refund states: waiting for approval or execution is pending, executed refunded, cancelled failed', () => {
    for (const f of [flow(zaver.refund), flow(zaver.refundSync)]) {
      expect(f.response(a('refund_pending_approval'), job())).toEqual({ kind: 'PENDING', connector_transaction_id: REFUND });
      expect(f.response(a('refund_pending_execution'), job())).toEqual({ kind: 'PENDING', connector_transaction_id: REFUND });
      expect(f.response(a('refund_executed'), job())).toEqual({ kind: 'REFUNDED', connector_transaction_id: REFUND });
      expect(f.response(a('refund_cancelled'), job())).toMatchObject({ kind: 'FAILED', connector_transaction_id: REFUND, error_code: 'CANCELLED', unified_code: 'UE_6000' });
    }
    expect(flow(zaver.refund).response(a('refund_not_possible'), job())).toMatchObject({ kind: 'FAILED', error_code: 'REFUND_NOT_POSSIBLE', error_message: 'The payment cannot be refunded', unified_code: 'UE_6000' });
    expect(flow(zaver.refund).response(a('refund_too_much'), job())).toMatchObject({ kind: 'FAILED', error_code: 'AMOUNT_EXCEEDS_REFUNDABLE_AMOUNT', unified_code: 'UE_2000' });
  });

  it('errors: Zaver\'s code and message; a refused key is UE_4000; PAYMENT_LOCKED and a shape not Zaver\'s are retried', () => {
    const auth = flow(zaver.authorize).response;
    expect(auth(a('validation_error'), job())).toEqual({ kind: 'FAILED', error_code: 'VALIDATION_ERROR', error_message: 'title: must not be blank', unified_code: 'UE_2000', unified_message: expect.any(String) });
    expect(auth(a('unauthorized'), job())).toMatchObject({ kind: 'FAILED', error_code: 'UNAUTHORIZED', unified_code: 'UE_4000' });
    expect(auth({ status: 401, body: null }, job())).toMatchObject({ kind: 'FAILED', error_code: 'http_401', unified_code: 'UE_4000' });
    expect(flow(zaver.sync).response(a('payment_not_found'), job())).toMatchObject({ kind: 'FAILED', error_code: 'PAYMENT_NOT_FOUND', unified_code: 'UE_2000' });
    expect(() => flow(zaver.capture).response(a('payment_locked'), job())).toThrow(ProviderUnavailable);
    expect(() => auth({ status: 200, body: { paymentId: PAYMENT, paymentStatus: 'APPROVED' } }, job())).toThrow(UnexpectedAnswer);
  });
});

describe('zaver callbacks', () => {
  const parse = (name: string) => flow(zaver.notification).parse(JSON.stringify(notifications[name]));
  it('a payment callback is the authorization\'s outcome; CREATED says nothing', () => {
    expect(parse('payment_authorized')).toEqual({ object: 'payment', connector_transaction_id: PAYMENT, object_id: PAYMENT, provider_updated_at: '', outcome: { kind: 'AUTHORIZED', connector_transaction_id: PAYMENT } });
    expect(parse('payment_pending_confirmation')).toMatchObject({ object: 'payment', outcome: { kind: 'PENDING' } });
    expect(parse('payment_cancelled')).toMatchObject({ object: 'payment', outcome: { kind: 'DECLINED', error_code: 'CANCELLED' } });
    expect(parse('payment_created')).toMatchObject({ object: 'unknown' });
  });
  it('a refund callback names our refund by merchantReference and is ordered by lastEvent', () => {
    expect(parse('refund_executed')).toEqual({
      object: 'refund', connector_transaction_id: PAYMENT, object_id: REFUND, provider_updated_at: '2026-05-01T11:00:00.001Z',
      refund_reference: 'R-123456-1', connector_refund_id: REFUND, outcome: { kind: 'REFUNDED', connector_transaction_id: REFUND },
    });
    expect(parse('refund_pending_execution')).toMatchObject({ object: 'refund', provider_updated_at: '2026-05-01T11:00:00.000Z', outcome: { kind: 'PENDING' } });
    expect(parse('refund_cancelled')).toMatchObject({ object: 'refund', outcome: { kind: 'FAILED', unified_code: 'UE_6000' } });
  });
  it('what is not a Zaver object is unknown', () => {
    const n = flow(zaver.notification);
    expect(n.parse('not json')).toMatchObject({ object: 'unknown' });
    expect(n.parse('{"refundId":"x"}')).toMatchObject({ object: 'unknown' });
    expect(n.parse('{"hello":1}')).toMatchObject({ object: 'unknown' });
  });
});
