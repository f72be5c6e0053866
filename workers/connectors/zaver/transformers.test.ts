// zaver's flows, pure: our jobs -> Zaver's requests (checked against Zaver's published rules, fixtures/rules.json, and
// the schemas of its SDK's request objects), and Zaver's published examples (fixtures/, SOURCES.md) -> outcomes.
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import type { ConnectorJob, ProviderOrder } from '../../../domain/job.ts';
import { FLOWS } from '../manifest.ts';
import { UnexpectedAnswer } from '../types.ts';
import { testSession } from '../kit/testing.ts';
import { connector as zaver } from './index.ts';
import { major } from '../kit/money.ts';
import { addressOf, lineItemOf, taxRate } from './request.ts';
import { PaymentCaptureRequest, PaymentCreationRequest, RefundCreationRequest } from './schemas.ts';

const fixture = (name: string): any => JSON.parse(readFileSync(new URL(`./fixtures/${name}.json`, import.meta.url), 'utf8'));
const rules = fixture('rules');
/** A published example as Zaver answers it (the HTTP status of an answer is not published: 200 and 400 assumed). */
const ok = (name: string) => ({ status: 200, body: fixture(name) });
const err = (name: string, status = 400) => ({ status, body: fixture(`error.${name}`) });
const creds = { api_key: 'zk_test' };
const order = (over: Partial<ProviderOrder> = {}): ProviderOrder => ({
  customer: { id: 'cus_1', name: 'Erika Mustermann', email: 'erika@example.com', phone: '+4915112345678', phone_country_code: null },
  billing: {
    address: { line1: 'Hauptstr. 12a', city: 'Berlin', zip: '10115', country: 'DE', first_name: 'Erika', last_name: 'Mustermann' },
    phone: { number: '15112345678', country_code: '+49' },
  },
  shipping: null,
  order_details: [
    { product_name: 'Lamp', quantity: 2, amount: 9_520, total_tax_amount: 1_520, tax_percentage: 19, product_id: 'sku-lamp', product_type: 'physical' },
    { product_name: 'Shipping', quantity: 1, amount: 2_380, total_tax_amount: 380, tax_percentage: 19, category: 'shipping_costs' },
  ],
  order_tax_amount: 1_900,
  metadata: { birth_date: '1980-02-03', customer_locale: 'de-DE' },
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
  payment_id: 'pay_1',
  operation_id: 'op_1',
  kind: 'authorize',
  connector: 'zaver',
  merchant_connector_id: 'mca_1',
  amount: 11_900,
  currency: 'EUR',
  capture_method: 'manual',
  connector_transaction_id: null,
  customer_email: 'erika@example.com',
  return_url: 'https://shop.example/return',
  merchant_order_reference_id: 'order-1',
  mode: 'execute',
  sync_round: 0,
  order: order(),
  ...over,
});
const flow = <T>(f: T | undefined): T => {
  if (!f) throw new Error('flow absent');
  return f;
};
const PAYMENT = '463d6d10-4c0f-424b-b804-8e95114864dd';
const REFUND = '8a1f2c3d-4e5f-4a6b-9c7d-0e1f2a3b4c5d';
/** The published required fields a body lacks. */
const missing = (body: any, fields: string[]) => fields.filter((f) => body?.[f] === undefined || body[f] === '');

describe('zaver manifest', () => {
  it('lists exactly the flows it implements; automatic capture is a follow-up call; the callback token in Authorization', () => {
    expect(FLOWS.filter((f) => zaver[f] !== undefined)).toEqual([...zaver.manifest.flows]);
    expect(zaver.manifest).toMatchObject({
      capture_methods: ['automatic', 'manual', 'manual_multiple'],
      automatic_capture: 'follow_up',
      amount_unit: 'major',
      currencies: ['SEK', 'EUR'],
      customers: ['B2C'],
      webhook: { scheme: 'shared_secret', header: 'authorization' },
      // market is required by Zaver: our billing country.
      required_fields: ['billing.address.country', 'return_url'],
    });
    expect(zaver.manifest.credentials.safeParse(zaver.manifest.sandbox_account_details).success).toBe(true);
    expect(zaver.manifest.credentials.safeParse({ auth_type: 'HeaderKey' }).success).toBe(false);
  });
});

describe('zaver requests', () => {
  it("major units exactly; a line's total and tax for the whole line, priced per unit; a total not divisible is one item", () => {
    expect(major(11_900, 'EUR')).toBe(119);
    expect(major(2_521, 'SEK')).toBe(25.21);
    expect(taxRate(2_000, 400)).toBe(25);
    expect(lineItemOf({ product_name: 'Pen', quantity: 3, amount: 1_000, total_tax_amount: 160 }, 0, 'EUR')).toEqual({
      name: '3 × Pen',
      quantity: 1,
      unitPrice: 10,
      totalAmount: 10,
      taxRatePercent: 19.05,
      taxAmount: 1.6,
      itemType: 'PHYSICAL',
    });
  });

  it("the SDK README's create example is a PaymentCreationRequest by our schema (the schema is Zaver's, not ours)", () => {
    expect(PaymentCreationRequest.safeParse(fixture('payment-creation.request')).success).toBe(true);
    expect(PaymentCaptureRequest.safeParse(fixture('payment-capture.request')).success).toBe(true);
    expect(RefundCreationRequest.safeParse(fixture('refund-creation.request')).success).toBe(true);
    expect(RefundCreationRequest.safeParse(fixture('refund-creation.fixed-amount.request')).success).toBe(true);
  });

  it('authorize: POST /payments/link/v2 with the Bearer key, our webhook as callbackUrl, the operation id as idempotencyKey', () => {
    const r = flow(zaver.authorize).request(job(), creds, testSession(job()));
    expect(r).toMatchObject({ method: 'POST', path: '/payments/link/v2', idempotencyKey: 'op_1', headers: { authorization: 'Bearer zk_test' } });
    expect(r.body).toEqual({
      merchantPaymentReference: 'order-1',
      amount: 119,
      currency: 'EUR',
      market: 'DE',
      language: 'de',
      title: 'Order order-1',
      merchantUrls: {
        callbackUrl: expect.stringMatching(/\/webhooks\/mer_1\/mca_1$/),
        successUrl: 'https://shop.example/return',
        cancelUrl: 'https://shop.example/return',
      },
      lineItems: [
        {
          name: 'Lamp',
          quantity: 2,
          unitPrice: 47.6,
          totalAmount: 95.2,
          taxRatePercent: 19,
          taxAmount: 15.2,
          itemType: 'PHYSICAL',
          merchantReference: 'sku-lamp',
        },
        { name: 'Shipping', quantity: 1, unitPrice: 23.8, totalAmount: 23.8, taxRatePercent: 19, taxAmount: 3.8, itemType: 'SHIPPING' },
      ],
      payerData: {
        email: 'erika@example.com',
        phoneNumber: '+4915112345678',
        givenName: 'Erika',
        familyName: 'Mustermann',
        dateOfBirth: '1980-02-03',
        billingAddress: { name: 'Erika Mustermann', streetName: 'Hauptstr.', houseNumber: '12a', city: 'Berlin', postalCode: '10115', country: 'DE' },
      },
      paymentMetadata: { paymentId: 'pay_1' },
      merchantCustomizations: { captureMethod: 'deferred' },
      idempotencyKey: 'op_1',
    });
  });

  it("authorize follows Zaver's published rules: required fields, no line item id (Zaver sets it), v2's paymentMetadata, deferred capture", () => {
    const body: any = flow(zaver.authorize).request(job(), creds, testSession(job())).body;
    expect(PaymentCreationRequest.safeParse(body).success).toBe(true);
    expect(missing(body, rules.paymentCreation.required)).toEqual([]);
    for (const item of body.lineItems) {
      expect(missing(item, rules.paymentCreation.lineItem.required)).toEqual([]);
      for (const f of rules.paymentCreation.lineItem.setByZaver) expect(item).not.toHaveProperty(f);
      expect(rules.itemTypes).toContain(item.itemType);
    }
    // merchantMetadata is deprecated since SDK 2.0.0 (PaymentCreationRequest::setMerchantMetadata -> paymentMetadata).
    expect(body).not.toHaveProperty('merchantMetadata');
    // "If not set, defaults to immediate": without deferred, Zaver would settle before our capture.
    expect(rules.captureMethods).toContain(body.merchantCustomizations.captureMethod);
    expect(body.merchantCustomizations.captureMethod).toBe('deferred');
  });

  it("addresses: Zaver's Address fields; for market DE streetName and houseNumber instead of addressLine1", () => {
    const billing = {
      address: { line1: 'Sveavägen 59', line2: 'lgh 1102', city: 'Stockholm', zip: '113 59', country: 'SE', first_name: 'Sara', last_name: 'Svensson' },
    };
    expect(addressOf(billing, 'SE')).toEqual({
      name: 'Sara Svensson',
      addressLine1: 'Sveavägen 59',
      addressLine2: 'lgh 1102',
      city: 'Stockholm',
      postalCode: '113 59',
      country: 'SE',
    });
    expect(addressOf({ address: { line1: 'Unter den Linden 1', city: 'Berlin', zip: '10117', country: 'DE' } }, 'DE')).toEqual({
      streetName: 'Unter den Linden',
      houseNumber: '1',
      city: 'Berlin',
      postalCode: '10117',
      country: 'DE',
    });
    expect(addressOf(null, 'SE')).toBeUndefined();
  });

  it("without order lines: one line of the whole amount with the order's tax", () => {
    const r = flow(zaver.authorize).request(job({ order: order({ order_details: null, description: 'Lamp order' }) }), creds, testSession(job()));
    expect((r.body as any).lineItems).toEqual([
      { name: 'Lamp order', quantity: 1, unitPrice: 119, totalAmount: 119, taxRatePercent: 19, taxAmount: 19, itemType: 'PHYSICAL' },
    ]);
  });

  it("sync, capture, void, refund and refund sync: Zaver's paths, the capture's and the refund's own keys", () => {
    const paid = job({ connector_transaction_id: PAYMENT });
    expect(flow(zaver.sync).request(paid, creds)).toMatchObject({ method: 'GET', path: `/payments/link/v2/${PAYMENT}` });
    const c = flow(zaver.capture).request(
      {
        ...paid,
        kind: 'capture',
        operation_id: 'op_c',
        amount: 5_000,
        capture_details: { capture_metadata: { invoice_data: { merchant_invoice_ref: 'INV-1' } }, metadata: null, order_details: null },
      },
      creds,
    );
    expect(c).toMatchObject({
      method: 'POST',
      path: `/payments/link/v2/${PAYMENT}/capture`,
      body: { amount: 50, currency: 'EUR', captureIdempotencyKey: 'op_c', captureMetadata: { invoiceReference: 'INV-1' } },
    });
    const v = flow(zaver.void).request({ ...paid, kind: 'void' }, creds);
    expect(v).toMatchObject({ method: 'POST', path: `/payments/link/v2/${PAYMENT}/cancel` });
    expect(v.body).toBeUndefined();
    const r = flow(zaver.refund).request({ ...paid, kind: 'refund', amount: 2_000, refund_id: 'ref_1', reason: 'damaged' }, creds, testSession(job()));
    expect(r).toMatchObject({ method: 'POST', path: '/refund/v1' });
    expect(r.body).toEqual({
      paymentId: PAYMENT,
      invoiceReference: 'order-1',
      refundAmount: 20,
      refundTaxAmount: 3.19,
      refundTaxRatePercent: 19,
      description: 'damaged',
      merchantReference: 'ref_1',
      merchantUrls: { callbackUrl: expect.stringMatching(/\/webhooks\/mer_1\/mca_1$/) },
    });
    // RefundCreationRequest::setInvoiceReference is "Required" (the WooCommerce plugin sends its order number).
    expect(missing(r.body, rules.refundCreation.required)).toEqual([]);
    expect(RefundCreationRequest.safeParse(r.body).success).toBe(true);
    expect(PaymentCaptureRequest.safeParse(c.body).success).toBe(true);
    expect(missing(c.body, rules.paymentCapture.required)).toEqual([]);
    // The whole amount refunds the whole tax.
    expect((flow(zaver.refund).request({ ...paid, kind: 'refund', refund_id: 'ref_2' }, creds, testSession(job())).body as any).refundTaxAmount).toBe(19);
    expect(flow(zaver.refundSync).request({ ...paid, kind: 'refund', connector_refund_id: REFUND }, creds)).toMatchObject({
      method: 'GET',
      path: `/refund/v1/${REFUND}`,
    });
  });
});

describe('zaver answers (the published examples)', () => {
  it("payment statuses: CREATED is the payer's step at the payment link; the others decide or wait", () => {
    const auth = flow(zaver.authorize).response;
    const created = fixture('payment-status.created');
    expect(auth(ok('payment-status.created'), job())).toEqual({
      kind: 'CUSTOMER_ACTION',
      connector_transaction_id: PAYMENT,
      redirect_url: created.paymentLink,
    });
    expect(auth(ok('payment-status.pending-confirmation'), job())).toEqual({ kind: 'PENDING', connector_transaction_id: PAYMENT });
    expect(auth(ok('payment-status.pending-merchant-capture'), job())).toEqual({ kind: 'AUTHORIZED', connector_transaction_id: PAYMENT });
    expect(auth(ok('payment-status.settled'), job())).toEqual({ kind: 'CAPTURED', connector_transaction_id: PAYMENT });
    expect(auth(ok('payment-status.cancelled'), job())).toMatchObject({ kind: 'DECLINED', error_code: 'CANCELLED', unified_code: 'UE_1000' });
    expect(auth(ok('payment-status.error'), job())).toMatchObject({ kind: 'DECLINED', error_code: 'ERROR', unified_code: 'UE_1000' });
    // Every status of the published list is one we read.
    for (const st of rules.paymentStatuses) expect(() => auth({ status: 200, body: { ...created, paymentStatus: st } }, job())).not.toThrow();
  });

  it('capture: v2 answers the payment (PaymentStatusResponse, no capture id); our captureIdempotencyKey names the capture', () => {
    const capture = flow(zaver.capture).response;
    const j = job({ kind: 'capture', operation_id: 'op_c', connector_transaction_id: PAYMENT });
    expect(capture(ok('payment-capture.answer'), j)).toEqual({ kind: 'CAPTURED', connector_transaction_id: 'op_c' });
    expect(capture(ok('payment-capture.partial.answer'), j)).toEqual({ kind: 'CAPTURED', connector_transaction_id: 'op_c' });
    // A payment that did not move is no capture: unknown, synced later.
    expect(() => capture(ok('payment-status.pending-merchant-capture'), j)).toThrow(UnexpectedAnswer);
    expect(capture(err('payment-illegal-state'), j)).toMatchObject({ kind: 'FAILED', error_code: 'PAYMENT_ILLEGAL_STATE', unified_code: 'UE_3000' });
  });

  it('void: the cancel answers the payment, CANCELLED', () => {
    expect(flow(zaver.void).response(ok('payment-status.cancelled'), job())).toEqual({ kind: 'VOIDED' });
    expect(flow(zaver.void).response(ok('payment-status.settled'), job())).toMatchObject({ kind: 'FAILED', error_code: 'SETTLED', unified_code: 'UE_3000' });
  });

  it('refund states: waiting for approval or execution is pending, executed refunded, cancelled failed', () => {
    for (const f of [flow(zaver.refund), flow(zaver.refundSync)]) {
      expect(f.response(ok('refund.pending-merchant-approval'), job())).toEqual({ kind: 'PENDING', connector_transaction_id: REFUND });
      expect(f.response(ok('refund.pending-execution'), job())).toEqual({ kind: 'PENDING', connector_transaction_id: REFUND });
      expect(f.response(ok('refund.executed'), job())).toEqual({ kind: 'REFUNDED', connector_transaction_id: REFUND });
      expect(f.response(ok('refund.cancelled'), job())).toMatchObject({
        kind: 'FAILED',
        connector_transaction_id: REFUND,
        error_code: 'CANCELLED',
        unified_code: 'UE_6000',
      });
    }
    const refund = flow(zaver.refund).response;
    expect(refund(err('refund-not-possible'), job())).toMatchObject({
      kind: 'FAILED',
      error_code: 'REFUND_NOT_POSSIBLE',
      error_message: 'The payment can not be refunded using Zaver',
      unified_code: 'UE_6000',
    });
    expect(refund(err('amount-exceeds-refundable-amount'), job())).toMatchObject({
      kind: 'FAILED',
      error_code: 'AMOUNT_EXCEEDS_REFUNDABLE_AMOUNT',
      unified_code: 'UE_2000',
    });
    expect(refund(err('payment-illegal-state'), job())).toMatchObject({ kind: 'FAILED', error_code: 'PAYMENT_ILLEGAL_STATE', unified_code: 'UE_3000' });
  });

  it("errors: Zaver's code and message; a refused key is UE_4000; PAYMENT_LOCKED is a state error, not retried", () => {
    const auth = flow(zaver.authorize).response;
    expect(auth(err('validation-error'), job())).toEqual({
      kind: 'FAILED',
      error_code: 'VALIDATION_ERROR',
      error_message: 'title: must not be blank',
      unified_code: 'UE_2000',
      unified_message: expect.any(String),
    });
    expect(auth({ status: 401, body: null }, job())).toMatchObject({ kind: 'FAILED', error_code: 'http_401', unified_code: 'UE_4000' });
    expect(flow(zaver.sync).response(err('payment-not-found', 404), job())).toMatchObject({
      kind: 'FAILED',
      error_code: 'PAYMENT_NOT_FOUND',
      unified_code: 'UE_2000',
    });
    // ErrorCode::PAYMENT_LOCKED: "An attempt was made to change a payment in an unchangable state".
    expect(flow(zaver.capture).response(err('payment-locked'), job())).toMatchObject({ kind: 'FAILED', error_code: 'PAYMENT_LOCKED', unified_code: 'UE_3000' });
    expect(() => auth({ status: 200, body: { paymentId: PAYMENT, paymentStatus: 'APPROVED' } }, job())).toThrow(UnexpectedAnswer);
  });
});

describe('zaver callbacks (the published objects themselves)', () => {
  const parse = (name: string) => flow(zaver.notification).parse(JSON.stringify(fixture(name)));
  it("a payment callback is the authorization's outcome; CREATED says nothing", () => {
    expect(parse('payment-status.pending-merchant-capture')).toEqual({
      object: 'payment',
      connector_transaction_id: PAYMENT,
      object_id: PAYMENT,
      provider_updated_at: '',
      outcome: { kind: 'AUTHORIZED', connector_transaction_id: PAYMENT },
    });
    expect(parse('payment-status.pending-confirmation')).toMatchObject({ object: 'payment', outcome: { kind: 'PENDING' } });
    expect(parse('payment-status.settled')).toMatchObject({ object: 'payment', outcome: { kind: 'CAPTURED' } });
    expect(parse('payment-status.cancelled')).toMatchObject({ object: 'payment', outcome: { kind: 'DECLINED', error_code: 'CANCELLED' } });
    expect(parse('payment-status.created')).toMatchObject({ object: 'unknown' });
  });
  it('a refund callback names our refund by merchantReference and is ordered by lastEvent', () => {
    expect(parse('refund.executed')).toEqual({
      object: 'refund',
      connector_transaction_id: PAYMENT,
      object_id: REFUND,
      provider_updated_at: '2026-05-01T11:00:00.001Z',
      refund_reference: 'R-123456-1',
      connector_refund_id: REFUND,
      outcome: { kind: 'REFUNDED', connector_transaction_id: REFUND },
    });
    expect(parse('refund.pending-execution')).toMatchObject({
      object: 'refund',
      provider_updated_at: '2026-05-01T11:00:00.000Z',
      outcome: { kind: 'PENDING' },
    });
    expect(parse('refund.cancelled')).toMatchObject({ object: 'refund', outcome: { kind: 'FAILED', unified_code: 'UE_6000' } });
  });
  it('what is not a Zaver object is unknown', () => {
    const n = flow(zaver.notification);
    expect(n.parse('not json')).toMatchObject({ object: 'unknown' });
    expect(n.parse('{"refundId":"x"}')).toMatchObject({ object: 'unknown' });
    expect(n.parse('{"hello":1}')).toMatchObject({ object: 'unknown' });
  });
});
