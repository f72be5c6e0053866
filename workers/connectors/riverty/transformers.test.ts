// riverty's flows, pure: our jobs -> Riverty's requests (checked by Riverty's published rules, fixtures/rules.json),
// and Riverty's published answers and webhooks (fixtures/published/, SOURCES.md) -> outcomes; the sandbox's own
// scenarios (fixtures/answers.json) for its codes. No stack.
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import type { ConnectorJob, ProviderOrder } from '../../../domain/job.ts';
import { FLOWS } from '../manifest.ts';
import { UnexpectedAnswer } from '../types.ts';
import { testSession } from '../kit/testing.ts';
import { connector as riverty } from './index.ts';
import { firstBreach, RequestRules } from '../../../lib/request-rules.ts';
import { major as decimal } from '../kit/money.ts';
import { itemOf, languageOf, splitStreet } from './request.ts';
import { AuthorizeRequest, CaptureRequest, RefundRequest } from './schemas.ts';

const read = (name: string) => JSON.parse(readFileSync(new URL(`./fixtures/${name}`, import.meta.url), 'utf8'));
const answers: Record<string, { status: number; body: unknown }> = read('answers.json');
/** Riverty's published example `name` (fixtures/published/), as an answer with HTTP `status`. */
const published = (name: string, status = 200) => ({ status, body: read(`published/${name}.json`) });
const rules = (call: 'authorize' | 'capture' | 'refund' | 'void') => RequestRules.parse(read('rules.json')[call]);
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
  operation_id: 'op_01234567890123456789012345',
  kind: 'authorize',
  connector: 'riverty',
  merchant_connector_id: 'mca_1',
  amount: 11_900,
  currency: 'EUR',
  capture_method: 'manual',
  connector_transaction_id: null,
  customer_email: 'astrid@example.com',
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
  it("webhooks are unsigned hints: Riverty's CustomerAuthenticationCompleted example carries no signature (was: our HMAC)", () => {
    expect(riverty.manifest.webhook).toEqual({ scheme: 'unsigned' });
  });
  it("declares no mandates: Riverty's eCommerce API v3 has no recurring charge (README.md, Mandates)", () => {
    expect(riverty.manifest.mandates ?? null).toBeNull();
  });
});

describe('riverty requests', () => {
  it('amounts are exact decimals; lines priced per unit, a total that does not divide by its quantity is one item', () => {
    expect(decimal(11_900, 'EUR')).toBe(119);
    expect(decimal(2_521, 'EUR')).toBe(25.21);
    expect(decimal(1, 'EUR')).toBe(0.01);
    expect(itemOf({ product_name: 'Pen', quantity: 3, amount: 1_000, total_tax_amount: 160 }, 0, 'EUR')).toMatchObject({
      description: '3 × Pen',
      quantity: 1,
      grossUnitPrice: 10,
      netUnitPrice: 8.4,
      vatAmount: 1.6,
      vatPercent: 19.05,
    });
    expect(splitStreet('Hauptstr. 12a', undefined)).toEqual({ street: 'Hauptstr.', streetNumber: '12a' });
    expect(splitStreet('Am Markt', '3')).toEqual({ street: 'Am Markt', streetNumber: '3' });
  });

  it("conversationLanguage in Riverty's own codes (SV, DA, NO for Norwegian Bokmål); a language Riverty does not speak is left out", () => {
    const lang = (l: string) => languageOf(order({ metadata: { customer_locale: l } }));
    expect(['de-DE', 'sv-SE', 'da-DK', 'nb-NO', 'nn', 'fi', 'en-GB', 'nl-BE', 'fr-CH', 'es-ES'].map(lang)).toEqual([
      'DE',
      'SV',
      'DA',
      'NO',
      'NO',
      'FI',
      'EN',
      'NL',
      'FR',
      undefined,
    ]);
  });

  it("every request obeys Riverty's published rules (fixtures/rules.json) and our schemas of its requests", () => {
    const business = order({
      metadata: { buyer_type: 'business', company_name: 'ACME GmbH', company_vat_id: 'DE123456789', customer_locale: 'sv-SE' },
      shipping: { address: { line1: 'Lager 5', city: 'Hamburg', zip: '20095', country: 'DE', first_name: 'Max', last_name: 'Muster' } },
    });
    for (const j of [job(), job({ order: business })]) {
      const body = flow(riverty.authorize).request(j, creds, testSession(j)).body;
      expect(firstBreach(rules('authorize'), body)).toBeNull();
      expect(AuthorizeRequest.safeParse(body).success).toBe(true);
    }
    const capture = flow(riverty.capture).request(
      job({
        kind: 'capture',
        connector_transaction_id: 'op_X',
        capture_details: { capture_metadata: { invoice_data: { merchant_invoice_ref: 'INV-1' } }, metadata: null, order_details: null },
      }),
      creds,
    ).body;
    expect(firstBreach(rules('capture'), capture)).toBeNull();
    expect(CaptureRequest.safeParse(capture).success).toBe(true);
    const refund = flow(riverty.refund).request(
      job({ kind: 'refund', connector_transaction_id: 'op_X', amount: 2_380, refund_id: 'ref_1', connector_capture_id: '800090089' }),
      creds,
    ).body;
    expect(firstBreach(rules('refund'), refund)).toBeNull();
    expect(RefundRequest.safeParse(refund).success).toBe(true);
    expect(firstBreach(rules('void'), flow(riverty.void).request(job({ kind: 'void', connector_transaction_id: 'op_X' }), creds).body)).toBeNull();
    // The rules can fail: an invoice number over Riverty's 20 characters, a language Riverty does not list.
    expect(firstBreach(rules('capture'), { ...(capture as object), invoiceNumber: 'INV-2026-000000000001' })).toEqual({
      field: 'invoiceNumber',
      message: 'invoiceNumber must be at most 20 characters',
    });
    expect(
      firstBreach(rules('authorize'), {
        ...read('authorize-request.json').body,
        customer: { ...read('authorize-request.json').body.customer, conversationLanguage: 'SE' },
      }),
    ).toMatchObject({ field: 'customer.conversationLanguage' });
  });

  it('authorize: POST /api/v3/checkout/authorize with X-Auth-Key, the operation id as order number', () => {
    const r = flow(riverty.authorize).request(job(), creds, testSession(job()));
    expect(r).toMatchObject({
      method: 'POST',
      path: '/api/v3/checkout/authorize',
      headers: { 'x-auth-key': 'rk_test' },
      idempotencyKey: 'op_01234567890123456789012345',
    });
    expect(r.body).toEqual({
      payment: { type: 'Invoice' },
      customer: {
        customerCategory: 'Person',
        firstName: 'Astrid',
        lastName: 'Schmidt',
        email: 'astrid@example.com',
        birthDate: '1990-01-02',
        conversationLanguage: 'DE',
        address: { street: 'Hauptstr.', streetNumber: '12a', postalCode: '10115', postalPlace: 'Berlin', countryCode: 'DE' },
        riskData: { ipAddress: '203.0.113.7', profileTrackingId: 'dev-1' },
      },
      order: {
        number: 'op_01234567890123456789012345',
        totalGrossAmount: 119,
        totalNetAmount: 100,
        currency: 'EUR',
        items: [
          {
            productId: 'sku-hat',
            description: 'Hat',
            type: 'PhysicalArticle',
            quantity: 2,
            netUnitPrice: 40,
            grossUnitPrice: 47.6,
            vatPercent: 19,
            vatAmount: 7.6,
          },
          {
            productId: 'line-2',
            description: 'Shipping',
            type: 'ShippingFee',
            quantity: 1,
            netUnitPrice: 20,
            grossUnitPrice: 23.8,
            vatPercent: 19,
            vatAmount: 3.8,
          },
        ],
      },
      merchantUrl: 'https://shop.example/return',
      yourReference: 'order-1',
      ourReference: 'pay_1',
      webhookUrl: expect.stringMatching(/\/webhooks\/mer_1\/mca_1$/),
    });
  });

  it('authorize for a business: Company with name and registration, no birth date; installments; a delivery address', () => {
    const b = flow(riverty.authorize).request(
      job({
        order: order({
          metadata: { buyer_type: 'business', company_name: 'ACME GmbH', company_vat_id: 'DE1', birth_date: '1990-01-02' },
          payment_method_type: 'installment_invoice',
          shipping: { address: { line1: 'Lager 5', city: 'Hamburg', zip: '20095', country: 'DE', first_name: 'Max', last_name: 'Muster' } },
        }),
      }),
      creds,
      testSession(job()),
    ).body as any;
    expect(b.payment).toEqual({ type: 'Installment' });
    expect(b.customer).toMatchObject({ customerCategory: 'Company', companyName: 'ACME GmbH', identificationNumber: 'DE1' });
    expect(b.customer.birthDate).toBeUndefined();
    expect(b.deliveryCustomer).toEqual({
      customerCategory: 'Company',
      firstName: 'Max',
      lastName: 'Muster',
      address: { street: 'Lager', streetNumber: '5', postalCode: '20095', postalPlace: 'Hamburg', countryCode: 'DE' },
    });
  });

  it('sync reads the order; capture, void and refund go to the order number', () => {
    const known = job({ connector_transaction_id: 'op_X', mode: 'sync' });
    expect(flow(riverty.sync).request(known, creds)).toEqual({ method: 'GET', path: '/api/v3/orders/op_X', headers: { 'x-auth-key': 'rk_test' } });
    // The whole order captured: its items; the invoice number from capture_metadata.
    const full = flow(riverty.capture).request(
      job({
        kind: 'capture',
        connector_transaction_id: 'op_X',
        operation_id: 'op_C',
        capture_details: { capture_metadata: { invoice_data: { merchant_invoice_ref: 'INV-1' } }, metadata: null, order_details: null },
      }),
      creds,
    );
    expect(full).toMatchObject({
      method: 'POST',
      path: '/api/v3/orders/op_X/captures',
      body: { invoiceNumber: 'INV-1', transactionReference: 'op_C', orderDetails: { totalGrossAmount: 119, totalNetAmount: 100 } },
    });
    expect((full.body as any).orderDetails.items).toHaveLength(2);
    // Part of it: one item with its share of the tax; metadata.invoice_number as the invoice number.
    const part = flow(riverty.capture).request(
      job({
        kind: 'capture',
        connector_transaction_id: 'op_X',
        amount: 5_950,
        capture_details: { capture_metadata: null, metadata: { invoice_number: 'INV-2' }, order_details: null },
      }),
      creds,
    );
    expect(part.body).toMatchObject({
      invoiceNumber: 'INV-2',
      orderDetails: { totalGrossAmount: 59.5, totalNetAmount: 50, items: [{ quantity: 1, grossUnitPrice: 59.5, netUnitPrice: 50, vatAmount: 9.5 }] },
    });
    expect(flow(riverty.void).request(job({ kind: 'void', connector_transaction_id: 'op_X' }), creds)).toMatchObject({
      method: 'POST',
      path: '/api/v3/orders/op_X/voids',
      body: {},
    });
    const refund = flow(riverty.refund).request(
      job({ kind: 'refund', connector_transaction_id: 'op_X', amount: 2_380, refund_id: 'ref_1', connector_capture_id: '800090089', reason: 'damaged' }),
      creds,
    );
    expect(refund).toMatchObject({
      method: 'POST',
      path: '/api/v3/orders/op_X/refunds',
      body: {
        captureNumber: '800090089',
        refundType: 'Refund',
        transactionReference: 'ref_1',
        items: [{ description: 'damaged', grossUnitPrice: 23.8, netUnitPrice: 20, vatAmount: 3.8 }],
      },
    });
    expect(() => flow(riverty.refund).request(job({ kind: 'refund', connector_transaction_id: 'op_X' }), creds)).toThrow(/names no capture/);
  });
});

describe("riverty answers -> outcomes (Riverty's published examples)", () => {
  const authorize = (res: { status: number; body: unknown }) => flow(riverty.authorize).response(res, job());
  const sync = (res: { status: number; body: unknown }) => flow(riverty.sync).response(res, job({ mode: 'sync', connector_transaction_id: 'riverty1' }));
  /** The published order read with orderDetails.status set to `status`. */
  const orderWith = (status: string) => {
    const o = read('published/order-read.json');
    return { status: 200, body: { ...o, orderDetails: { ...o.orderDetails, status } } };
  };

  it("authorize: Riverty's Accepted example -> authorized, the reservation id as reference", () => {
    expect(authorize(published('authorize-accepted'))).toEqual({
      kind: 'AUTHORIZED',
      connector_transaction_id: 'op_01234567890123456789012345',
      connector_reference_id: 'reservationId12345',
    });
  });

  it("sync reads orderDetails.status of Riverty's order read (was: a top-level outcome, so every waiting payment stayed stuck)", () => {
    expect(sync(published('order-read'))).toEqual({ kind: 'AUTHORIZED', connector_transaction_id: 'riverty1' });
    // Still waiting for the customer's authentication: the payment keeps waiting (its address from the authorization stays).
    expect(sync(orderWith('Pending'))).toEqual({ kind: 'CUSTOMER_ACTION', connector_transaction_id: 'riverty1' });
    expect(sync(orderWith('Cancelled'))).toMatchObject({
      kind: 'DECLINED',
      connector_transaction_id: 'riverty1',
      error_code: 'Cancelled',
      unified_code: 'UE_1000',
    });
    expect(sync(orderWith('Expired'))).toMatchObject({ kind: 'DECLINED', error_code: 'Expired', unified_code: 'UE_1000' });
    expect(sync(orderWith('Rejected'))).toMatchObject({ kind: 'DECLINED', error_code: 'Rejected' });
    // A state Riverty does not list, or an order read without one, is not guessed at.
    expect(() => sync(orderWith('Approved'))).toThrow(UnexpectedAnswer);
    const o = read('published/order-read.json');
    expect(() => sync({ status: 200, body: { ...o, orderDetails: { ...o.orderDetails, status: undefined } } })).toThrow(UnexpectedAnswer);
  });

  it("capture: Riverty's four-field answer (no totals) and the full one -> captured with the captureNumber (was: totals required)", () => {
    expect(flow(riverty.capture).response(published('capture'), job())).toEqual({ kind: 'CAPTURED', connector_transaction_id: '1234657' });
    expect(flow(riverty.capture).response(published('capture-full'), job())).toEqual({ kind: 'CAPTURED', connector_transaction_id: '800090089' });
  });

  it("a 4xx is Riverty's message array: code, message, and the unified code by its actionCode", () => {
    // actionCode Unavailable: Riverty will not do it for this customer (was: UE_9000, the code unknown to us).
    expect(flow(riverty.capture).response(published('capture-error', 400), job())).toMatchObject({
      kind: 'FAILED',
      error_code: '400.117',
      error_message: 'Some ErrorMessage',
      unified_code: 'UE_1000',
    });
  });

  it("void: the answer with the totals, and the two fields Riverty's integrations read (was: all five required)", () => {
    expect(flow(riverty.void).response(published('void'), job())).toEqual({ kind: 'VOIDED' });
    expect(flow(riverty.void).response({ status: 200, body: { totalAuthorizedAmount: 185, totalCapturedAmount: 0 } }, job())).toEqual({ kind: 'VOIDED' });
    expect(flow(riverty.void).response({ status: 200, body: { ...read('published/void.json'), remainingAuthorizedAmount: 10 } }, job())).toEqual({
      kind: 'FAILED',
    });
  });

  it("refund: Riverty's answer -> refunded with the refund number", () => {
    expect(flow(riverty.refund).response(published('refund'), job())).toEqual({ kind: 'REFUNDED', connector_transaction_id: '800090092' });
  });
});

describe("riverty answers -> outcomes (the sandbox's scenarios and codes)", () => {
  const authorize = (name: string) => flow(riverty.authorize).response(a(name), job());
  it('authorize: Pending with and without the authentication page, Rejected with the risk message', () => {
    expect(authorize('pending_sca')).toMatchObject({
      kind: 'CUSTOMER_ACTION',
      redirect_url: 'http://127.0.0.1:8090/riverty/sca/op_01234567890123456789012345',
    });
    expect(authorize('pending_review')).toMatchObject({ kind: 'PENDING', connector_transaction_id: 'op_01234567890123456789012345' });
    expect(authorize('rejected')).toMatchObject({
      kind: 'DECLINED',
      error_code: '300.101',
      error_message: 'The customer did not pass the risk check',
      unified_code: 'UE_1000',
    });
  });
  it("errors: Riverty's message array, credentials refused, a body not Riverty's", () => {
    expect(authorize('birthdate_missing')).toEqual({
      kind: 'DECLINED',
      error_code: '200.101',
      error_message: 'customer.birthDate is required',
      unified_code: 'UE_2000',
      unified_message: 'The provider rejected the request data',
    });
    expect(authorize('unauthorized')).toMatchObject({ kind: 'DECLINED', error_code: '100.001', unified_code: 'UE_4000' });
    expect(flow(riverty.capture).response({ status: 403, body: 'nope' }, job())).toMatchObject({
      kind: 'FAILED',
      error_code: 'http_403',
      unified_code: 'UE_4000',
    });
    expect(flow(riverty.capture).response({ status: 400, body: [] }, job())).toMatchObject({ kind: 'FAILED', error_code: 'http_400', unified_code: 'UE_9000' });
    expect(flow(riverty.sync).response(a('order_not_found'), job())).toMatchObject({ kind: 'DECLINED', error_code: '400.101' });
    expect(flow(riverty.capture).response(a('capture_too_much'), job())).toMatchObject({ kind: 'FAILED', error_code: '400.202', unified_code: 'UE_2000' });
    expect(flow(riverty.void).response(a('void_captured'), job())).toMatchObject({
      kind: 'FAILED',
      error_code: '400.201',
      error_message: 'Order Already Captured',
      unified_code: 'UE_3000',
    });
    expect(flow(riverty.refund).response(a('refund_declined'), job())).toMatchObject({ kind: 'FAILED', error_code: '400.302', unified_code: 'UE_6000' });
  });
  it("an answer that is not Riverty's shape is refused, never cast", () => {
    expect(() => flow(riverty.authorize).response({ status: 200, body: { outcome: 'Approved' } }, job())).toThrow(UnexpectedAnswer);
    expect(() => flow(riverty.capture).response({ status: 200, body: { capturedAmount: 1 } }, job())).toThrow(UnexpectedAnswer);
    expect(() => flow(riverty.refund).response({ status: 200, body: { ...read('published/refund.json'), refundNumbers: [] } }, job())).toThrow(
      UnexpectedAnswer,
    );
  });
});

describe('riverty webhooks -> hints', () => {
  const parse = (body: unknown) => flow(riverty.notification).parse(typeof body === 'string' ? body : JSON.stringify(body));
  it("Riverty's CustomerAuthenticationCompleted example: a hint naming the order (was: refused, MessageType and a signature expected)", () => {
    expect(parse(read('published/customer-authentication-completed.json'))).toEqual({
      object: 'hint',
      connector_transaction_id: '12345',
      event: 'CustomerAuthenticationCompleted:Accepted',
    });
    expect(parse(read('published/webhook-authorize-accepted.json'))).toEqual({
      object: 'hint',
      connector_transaction_id: '6864260723',
      event: 'AuthorizeAccepted',
    });
  });
  it("what is not about an order of ours, or not Riverty's, is unknown, never thrown", () => {
    expect(parse(read('published/webhook-payment-received.json'))).toMatchObject({
      object: 'unknown',
      reason: expect.stringContaining('InvoiceStatus_PaymentReceived'),
    });
    const cac = read('published/customer-authentication-completed.json');
    expect(parse({ ...cac, Body: { Status: 'Accepted' } })).toMatchObject({ object: 'unknown', reason: expect.stringContaining('OrderNumber') });
    expect(parse({ Body: cac.Body })).toMatchObject({ object: 'unknown' });
    expect(parse('not json')).toEqual({ object: 'unknown', reason: 'the body is not JSON' });
    expect(parse('null')).toMatchObject({ object: 'unknown' });
  });
});
