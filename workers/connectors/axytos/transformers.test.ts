// axytos's flows, pure: our jobs -> axytos's requests (the chains of calls), checked against axytos's OpenAPI models
// (fixtures/openapi.json), and axytos's answers in its published shapes (fixtures/answers.json; fixtures/SOURCES.md)
// -> outcomes. No stack.
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import type { ConnectorJob, ProviderOrder } from '../../../domain/job.ts';
import type { ProviderResponse } from '../kit/http.ts';
import { FLOWS } from '../manifest.ts';
import { UnexpectedAnswer } from '../types.ts';
import { connector as axytos } from './index.ts';
import { manifest } from './manifest.ts';
import { ConfirmRequest, InvoiceRequest, PrecheckRequest, RefundRequest } from './schemas.ts';

const answers: Record<string, ProviderResponse> = JSON.parse(readFileSync(new URL('./fixtures/answers.json', import.meta.url), 'utf8'));
const openapi = JSON.parse(readFileSync(new URL('./fixtures/openapi.json', import.meta.url), 'utf8'));
/** axytos's published rules for one operation's request or answer (the OpenAPI model as JSON Schema). */
const published = (model: string) => z.fromJSONSchema({ $defs: openapi.$defs, $ref: `#/$defs/${model}` });
const operation = (r: { method: string; path: string }) => {
  const key = Object.keys(openapi.operations).find((k) => {
    const [m, p] = k.split(' ');
    return m === r.method && new RegExp(`^${p!.replace(/\{[^}]+\}/g, '[^/]+')}$`).test(r.path);
  });
  if (!key) throw new Error(`axytos publishes no ${r.method} ${r.path}`);
  return z.object({ request: z.string().nullable(), responses: z.record(z.string(), z.string().nullable()) }).parse(openapi.operations[key]);
};
/** The request as axytos's OpenAPI model describes it: a path axytos has, a body its model accepts. */
function conforms(r: { method: string; path: string; body?: unknown; headers?: Record<string, string> }) {
  expect(r.headers?.['x-api-key']).toBeTruthy();
  expect(r.path.startsWith('/Payments/')).toBe(true);
  const op = operation(r);
  if (op.request === null) return expect(r.body).toBeUndefined();
  const check = published(op.request).safeParse(JSON.parse(JSON.stringify(r.body)));
  expect(check.success ? 'conforms' : z.prettifyError(check.error), `${r.method} ${r.path}`).toBe('conforms');
}
const a = (name: string) => answers[name]!;
const chain = (...names: string[]) => names.map(a);
const creds = { api_key: 'ax_test' };
const order = (over: Partial<ProviderOrder> = {}, metadata: Record<string, unknown> = {}): ProviderOrder => ({
  customer: { id: 'cus_1', name: 'Erika Mustermann', email: 'erika@example.com', phone: null, phone_country_code: null },
  billing: {
    address: { first_name: 'Erika', last_name: 'Mustermann', line1: 'Hauptstr. 1', zip: '10115', city: 'Berlin', country: 'DE' },
    email: 'erika@example.com',
  },
  shipping: { address: { first_name: 'Max', last_name: 'Mustermann', line1: 'Nebenstr. 2', zip: '80331', city: 'München', country: 'DE' } },
  order_details: [
    { product_name: 'Lamp', quantity: 2, amount: 10000, tax_percentage: 19, product_id: 'sku-1' },
    { product_name: 'Shipping', quantity: 1, amount: 1900, category: 'shipping_costs', tax_percentage: 19 },
  ],
  order_tax_amount: 1900,
  metadata: { birth_date: '1980-02-03', buyer_type: 'private', customer_locale: 'de-DE', gender: 'F', ...metadata },
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
  connector: 'axytos',
  amount: 11900,
  currency: 'EUR',
  capture_method: 'manual',
  connector_transaction_id: null,
  customer_email: 'erika@example.com',
  return_url: null,
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
const { authorize, sync, capture, void: voidFlow, refund } = axytos;
const H = { 'x-api-key': 'ax_test' };

describe('axytos manifest', () => {
  it('lists exactly its flows; no notifications, no refund sync', () => {
    expect(FLOWS.filter((f) => axytos[f] !== undefined)).toEqual([...axytos.manifest.flows]);
    expect(axytos.manifest.webhook).toBeNull();
    expect(axytos.manifest.customers).toEqual(['B2B', 'B2C']);
    expect(axytos.manifest.credentials.safeParse(axytos.manifest.sandbox_account_details).success).toBe(true);
  });
});

describe('axytos requests', () => {
  const A = flow(authorize);
  it('precheck: the buyer, both addresses and the basket with net and gross per position', () => {
    const r = A.request(job(), creds);
    expect(r).toMatchObject({ method: 'POST', path: '/Payments/invoice/order/precheck', headers: H });
    conforms(r);
    expect(r.body).toEqual({
      requestMode: 'SingleStep',
      paymentTypeSecurity: 'U',
      selectedPaymentType: 'INVOICE',
      proofOfInterest: 'AAE',
      customReference: 'pay_1',
      personalData: { externalCustomerId: 'cus_1', language: 'de', dateOfBirth: '1980-02-03T00:00:00Z', gender: 'F', email: 'erika@example.com' },
      invoiceAddress: { firstname: 'Erika', lastname: 'Mustermann', addressLine1: 'Hauptstr. 1', zipCode: '10115', city: 'Berlin', country: 'DE' },
      deliveryAddress: { firstname: 'Max', lastname: 'Mustermann', addressLine1: 'Nebenstr. 2', zipCode: '80331', city: 'München', country: 'DE' },
      basket: {
        netTotal: 100.01,
        grossTotal: 119,
        currency: 'EUR', // net rounded per position: 84.04 + 15.97
        positions: [
          {
            productId: 'sku-1',
            productName: 'Lamp',
            quantity: 2,
            taxPercent: 19,
            netPricePerUnit: 42.02,
            grossPricePerUnit: 50,
            netPositionTotal: 84.04,
            grossPositionTotal: 100,
          },
          {
            productId: 'item-2',
            productName: 'Shipping',
            productCategory: 'shipping',
            quantity: 1,
            taxPercent: 19,
            netPricePerUnit: 15.97,
            grossPricePerUnit: 19,
            netPositionTotal: 15.97,
            grossPositionTotal: 19,
          },
        ],
      },
    });
  });
  it("a guest (no customer id): externalCustomerId, which axytos requires, is the buyer's email; the birth date a date-time", () => {
    const r = A.request(job({ order: order({ customer: null }) }), creds);
    conforms(r);
    expect(r.body).toMatchObject({ personalData: { externalCustomerId: 'erika@example.com', dateOfBirth: '1980-02-03T00:00:00Z' } });
  });
  it('B2B: the company in personalData and both addresses, with its VAT id', () => {
    const r = A.request(
      job({ order: order({}, { buyer_type: 'business', company_name: 'Muster GmbH', legal_form: 'GmbH', company_vat_id: 'DE123456789' }) }),
      creds,
    );
    conforms(r);
    const b = PrecheckRequest.parse(r.body);
    expect(b.personalData.company).toEqual({ name: 'Muster GmbH', legalForm: 'GmbH', uid: 'DE123456789' });
    expect(b.invoiceAddress).toMatchObject({ company: 'Muster GmbH', vatId: 'DE123456789' });
  });
  it('confirm echoes the precheck after a U; nothing after S or R', () => {
    const c = A.next!(job(), creds, chain('precheck_u'))!;
    expect(c).toMatchObject({ method: 'POST', path: '/Payments/invoice/order/confirm', body: { externalOrderId: 'order-1', customReference: 'pay_1' } });
    // Echoed as received, field for field (its transactionMetadata is signed).
    expect(ConfirmRequest.parse(c.body).orderPrecheckResponse).toEqual(a('precheck_u').body);
    conforms(c);
    expect(A.next!(job(), creds, chain('precheck_r'))).toBeNull();
    expect(A.next!(job(), creds, chain('precheck_s'))).toBeNull();
    expect(A.next!(job(), creds, chain('precheck_u', 'empty_ok'))).toBeNull();
  });
  it('automatic capture: shipping reported, then the whole order invoiced', () => {
    const j = job({ capture_method: 'automatic' });
    expect(A.next!(j, creds, chain('precheck_u', 'empty_ok'))).toMatchObject({
      path: '/Payments/invoice/order/reportshipping',
      body: {
        externalOrderId: 'order-1',
        externalSubOrderId: '',
        basketPositions: [
          { productId: 'sku-1', quantity: 2 },
          { productId: 'item-2', quantity: 1 },
        ],
      },
    });
    conforms(A.next!(j, creds, chain('precheck_u', 'empty_ok'))!);
    conforms(A.next!(j, creds, chain('precheck_u', 'empty_ok', 'empty_ok'))!);
    expect(A.next!(j, creds, chain('precheck_u', 'empty_ok', 'empty_ok'))).toMatchObject({
      path: '/Payments/invoice/order/createInvoice',
      body: {
        externalOrderId: 'order-1',
        externalInvoiceNumber: 'op_1',
        externalSubOrderId: '',
        dueDateOffsetDays: 14,
        basket: { grossTotal: 119, netTotal: 100.01, taxGroups: [{ taxPercent: 19, valueToTax: 100.01, total: 18.99 }] },
      },
    });
    expect(A.next!(j, creds, chain('precheck_u', 'empty_ok', 'empty_ok', 'invoice'))).toBeNull();
  });
  it('capture: a shipment of its own sub-order, then its invoice (its own lines, else one position of the amount)', () => {
    const c = job({
      kind: 'capture',
      operation_id: 'op_2',
      amount: 5000,
      connector_transaction_id: 'order-1',
      capture_details: { capture_metadata: { invoice_data: { merchant_invoice_ref: 'INV-7' } }, metadata: null, order_details: null },
    });
    expect(flow(capture).request(c, creds)).toMatchObject({
      path: '/Payments/invoice/order/reportshipping',
      body: { externalSubOrderId: 'op_2', basketPositions: [{ productId: 'partial-delivery', quantity: 1 }] },
    });
    expect(flow(capture).next!(c, creds, chain('empty_ok'))).toMatchObject({
      path: '/Payments/invoice/order/createInvoice',
      body: {
        externalInvoiceNumber: 'INV-7',
        externalSubOrderId: 'op_2',
        basket: {
          grossTotal: 50,
          netTotal: 42.02,
          positions: [{ productId: 'partial-delivery', quantity: 1, taxPercent: 19, grossPositionTotal: 50, netPositionTotal: 42.02 }],
        },
      },
    });
    expect(flow(capture).next!(c, creds, chain('empty_ok', 'invoice'))).toBeNull();
    conforms(flow(capture).request(c, creds));
    conforms(flow(capture).next!(c, creds, chain('empty_ok'))!);
  });
  it('void cancels the order; sync reads its payment state; refund credits the invoice the job names', () => {
    const j = job({ connector_transaction_id: 'order-1' });
    expect(flow(voidFlow).request({ ...j, kind: 'void' }, creds)).toEqual({ method: 'POST', path: '/Payments/invoice/order/cancel/order-1', headers: H });
    expect(flow(sync).request({ ...j, mode: 'sync' }, creds)).toEqual({ method: 'GET', path: '/Payments/invoice/order/paymentstate/order-1', headers: H });
    expect(flow(sync).next!(j, creds, chain('payment_state'))).toBeNull();
    expect(flow(sync).next!({ ...j, capture_method: 'automatic' }, creds, chain('payment_state'))).toMatchObject({
      path: '/Payments/invoice/order/reportshipping',
    });
    const r = flow(refund).request({ ...j, kind: 'refund', refund_id: 'ref_1', amount: 2380, connector_capture_id: 'INV-7' }, creds);
    conforms(r);
    conforms(flow(voidFlow).request({ ...j, kind: 'void' }, creds));
    conforms(flow(sync).request({ ...j, mode: 'sync' }, creds));
    expect(() => flow(refund).request({ ...j, kind: 'refund', refund_id: 'ref_1', amount: 2380 }, creds)).toThrow(/names no invoice/);
    expect(r).toMatchObject({
      path: '/Payments/invoice/order/refund',
      body: {
        externalOrderId: 'order-1',
        originalInvoiceNumber: 'INV-7',
        basket: {
          grossTotal: 23.8,
          netTotal: 20,
          positions: [{ productId: 'refund', netRefundTotal: 20, grossRefundTotal: 23.8 }],
          taxGroups: [{ taxPercent: 19, valueToTax: 20, total: 3.8 }],
        },
      },
    });
  });
});

describe('axytos answers as published', () => {
  it("every fixture is the shape axytos's OpenAPI model gives that answer", () => {
    const models: Record<string, string> = {
      precheck_u: 'AxytosCommonPublicAPIModelsPaymentControlOrderPrecheckResponse',
      precheck_s: 'AxytosCommonPublicAPIModelsPaymentControlOrderPrecheckResponse',
      precheck_r: 'AxytosCommonPublicAPIModelsPaymentControlOrderPrecheckResponse',
      invoice: 'AxytosApiModelsInvoiceCreationResponse',
      payment_state: 'AxytosApiModelsPaymentStateResponseModel',
      payment: 'AxytosApiModelsPaymentResponseModel',
      validation: 'MicrosoftAspNetCoreMvcProblemDetails',
      unauthorized: 'MicrosoftAspNetCoreMvcProblemDetails',
      not_found: 'MicrosoftAspNetCoreMvcProblemDetails',
      refund_refused: 'MicrosoftAspNetCoreMvcProblemDetails',
    };
    for (const [name, model] of Object.entries(models)) expect(published(model).safeParse(a(name).body).success, name).toBe(true);
    expect(a('empty_ok').body).toBeNull();
    // The operations we call answer these models (or nothing) with a 200.
    expect(operation({ method: 'POST', path: '/Payments/invoice/order/createInvoice' }).responses['200']).toBe(models.invoice);
    expect(operation({ method: 'POST', path: '/Payments/invoice/order/refund' }).responses['200']).toBeNull();
  });
});

describe("the refund names the shop's invoice number, not axytos's", () => {
  // axytos's SDK (InvoiceClient::createInvoice, ::refund) puts the shop's invoice number into externalInvoiceNumber and,
  // for the refund, into originalInvoiceNumber; axytos's own invoiceNumber (the answer) is never sent back.
  it("manual capture: the capture's id is the externalInvoiceNumber sent, and its refund names it", () => {
    const c = job({
      kind: 'capture',
      operation_id: 'op_2',
      amount: 5000,
      connector_transaction_id: 'order-1',
      capture_details: { capture_metadata: { invoice_data: { merchant_invoice_ref: 'INV-7' } }, metadata: null, order_details: null },
    });
    const sent = InvoiceRequest.parse(flow(capture).next!(c, creds, chain('empty_ok'))!.body);
    const captured = flow(capture).response(a('invoice'), c, chain('empty_ok', 'invoice'));
    expect(captured).toEqual({ kind: 'CAPTURED', connector_transaction_id: 'INV-7', connector_reference_id: 'AXI-00000001' });
    const r = flow(refund).request(
      job({ kind: 'refund', refund_id: 'ref_1', amount: 1000, connector_transaction_id: 'order-1', connector_capture_id: captured.connector_transaction_id! }),
      creds,
    );
    expect(RefundRequest.parse(r.body).originalInvoiceNumber).toBe(sent.externalInvoiceNumber);
  });
  it("automatic capture: the payment's reference is the invoice number sent in the chain", () => {
    const j = job({ capture_method: 'automatic' });
    const sent = InvoiceRequest.parse(flow(authorize).next!(j, creds, chain('precheck_u', 'empty_ok', 'empty_ok'))!.body);
    const o = flow(authorize).response(a('invoice'), j, chain('precheck_u', 'empty_ok', 'empty_ok', 'invoice'));
    expect(o.connector_reference_id).toBe(sent.externalInvoiceNumber);
    const s = flow(sync).response(a('invoice'), { ...j, mode: 'sync' }, chain('payment_state', 'empty_ok', 'invoice'));
    expect(s.connector_reference_id).toBe(sent.externalInvoiceNumber);
  });
});

describe('axytos answers -> outcomes', () => {
  const read = (j: ConnectorJob, ...names: string[]) => flow(authorize).response(a(names.at(-1)!), j, chain(...names));
  it('authorize: U and confirmed; captured with the invoice number as reference; S and R declined', () => {
    expect(read(job(), 'precheck_u', 'empty_ok')).toEqual({
      kind: 'AUTHORIZED',
      connector_transaction_id: 'order-1',
      connector_reference_id: '4f1d2a9e-0b7c-4e0a-9c51-3a2b1c0d9e8f',
    });
    expect(read(job({ capture_method: 'automatic' }), 'precheck_u', 'empty_ok', 'empty_ok', 'invoice')).toEqual({
      kind: 'CAPTURED',
      connector_transaction_id: 'order-1',
      connector_reference_id: 'op_1',
    });
    expect(read(job(), 'precheck_r')).toMatchObject({
      kind: 'DECLINED',
      error_code: 'DECISION_R',
      error_message: 'axytos rejected the order (decision R)',
      unified_code: 'UE_1000',
    });
    expect(read(job(), 'precheck_s')).toMatchObject({ kind: 'DECLINED', error_code: 'DECISION_S', unified_code: 'UE_1000' });
    expect(() => read(job(), 'precheck_u')).toThrow(UnexpectedAnswer);
    // A decision axytos does not name (U, S, R) is not guessed at.
    const unknown = { status: 200, body: { ...z.record(z.string(), z.unknown()).parse(a('precheck_u').body), decision: 'X' } };
    expect(() => flow(authorize).response(a('empty_ok'), job(), [unknown, a('empty_ok')])).toThrow(UnexpectedAnswer);
  });
  it("authorize: refusals fail with axytos's status, field and text", () => {
    expect(read(job(), 'validation')).toEqual({
      kind: 'FAILED',
      error_code: 'HTTP_400:InvoiceAddress.ZipCode',
      error_message: 'InvoiceAddress.ZipCode: The ZipCode field is required.',
      unified_code: 'UE_2000',
      unified_message: 'The provider rejected the request data',
    });
    // ProblemDetails [OAS]: its detail is the message.
    expect(read(job(), 'unauthorized')).toMatchObject({
      kind: 'FAILED',
      error_code: 'HTTP_401',
      error_message: 'The X-API-KEY is missing or invalid.',
      unified_code: 'UE_4000',
    });
  });
  it('sync, capture, void, refund', () => {
    expect(flow(sync).response(a('payment_state'), job({ connector_transaction_id: 'order-1' }), chain('payment_state'))).toEqual({
      kind: 'AUTHORIZED',
      connector_transaction_id: 'order-1',
    });
    expect(flow(sync).response(a('not_found'), job(), chain('not_found'))).toMatchObject({ kind: 'FAILED', error_code: 'HTTP_404' });
    expect(flow(capture).response(a('invoice'), job(), chain('empty_ok', 'invoice'))).toEqual({
      kind: 'CAPTURED',
      connector_transaction_id: 'op_1',
      connector_reference_id: 'AXI-00000001',
    });
    expect(flow(voidFlow).response(a('empty_ok'), job())).toEqual({ kind: 'VOIDED' });
    expect(flow(refund).response(a('empty_ok'), job({ refund_id: 'ref_1' }))).toEqual({ kind: 'REFUNDED', connector_transaction_id: 'ref_1' });
    expect(flow(refund).response(a('refund_refused'), job())).toMatchObject({
      kind: 'DECLINED',
      error_code: 'HTTP_400',
      error_message: expect.stringContaining('collection agency'),
      unified_code: 'UE_6000',
    });
    expect(flow(refund).response(a('unauthorized'), job())).toMatchObject({ kind: 'FAILED', unified_code: 'UE_4000' });
  });
});

describe('mandates (issue 22)', () => {
  it('declares none, and the README says what was searched: axytos publishes no recurring charge for an invoice order', () => {
    // Absent `mandates`: the gateway refuses a mandate request through axytos before anything is queued.
    expect(manifest.mandates ?? null).toBeNull();
    const readme = readFileSync(new URL('./README.md', import.meta.url), 'utf8');
    const line = /^## Mandates\n\n(.+)$/m.exec(readme)?.[1] ?? '';
    expect(line).toMatch(/^None published\b.*refused up front\. Searched \(\d{4}-\d{2}-\d{2}\): /);
  });
});
