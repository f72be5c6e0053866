// axytos's flows, pure: our jobs -> axytos's requests (the chains of calls), and recorded axytos answers
// (fixtures/answers.json; the sheet's examples where it has them) -> outcomes. No stack.
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import type { ConnectorJob, ProviderOrder } from '../../../domain/job.ts';
import type { ProviderResponse } from '../kit/http.ts';
import { FLOWS } from '../manifest.ts';
import { UnexpectedAnswer } from '../types.ts';
import { connector as axytos } from './index.ts';

const answers: Record<string, ProviderResponse> = JSON.parse(readFileSync(new URL('./fixtures/answers.json', import.meta.url), 'utf8'));
const a = (name: string) => answers[name]!;
const chain = (...names: string[]) => names.map(a);
const creds = { api_key: 'ax_test' };
const order = (over: Partial<ProviderOrder> = {}, metadata: Record<string, unknown> = {}): ProviderOrder => ({
  customer: { id: 'cus_1', name: 'Erika Mustermann', email: 'erika@example.com', phone: null, phone_country_code: null },
  billing: { address: { first_name: 'Erika', last_name: 'Mustermann', line1: 'Hauptstr. 1', zip: '10115', city: 'Berlin', country: 'DE' }, email: 'erika@example.com' },
  shipping: { address: { first_name: 'Max', last_name: 'Mustermann', line1: 'Nebenstr. 2', zip: '80331', city: 'München', country: 'DE' } },
  order_details: [
    { product_name: 'Lamp', quantity: 2, amount: 10000, tax_percentage: 19, product_id: 'sku-1' },
    { product_name: 'Shipping', quantity: 1, amount: 1900, category: 'shipping_costs', tax_percentage: 19 },
  ],
  order_tax_amount: 1900,
  metadata: { birth_date: '1980-02-03', buyer_type: 'private', customer_locale: 'de-DE', gender: 'F', ...metadata },
  browser_info: null, description: null, payment_method_type: 'invoice', birth_date: null, gender: null, locale: null, ...over,
});
const job = (over: Partial<ConnectorJob> = {}): ConnectorJob => ({
  merchant_id: 'mer_1', payment_id: 'pay_1', operation_id: 'op_1', kind: 'authorize', connector: 'axytos', amount: 11900, currency: 'EUR',
  capture_method: 'manual', connector_transaction_id: null, customer_email: 'erika@example.com', return_url: null, merchant_order_reference_id: 'order-1',
  mode: 'execute', sync_round: 0, order: order(), ...over,
});
const flow = <T>(f: T | undefined): T => { if (!f) throw new Error('flow absent'); return f; };
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
    expect(r.body).toEqual({
      requestMode: 'SingleStep', paymentTypeSecurity: 'U', selectedPaymentType: '', proofOfInterest: 'AAE', customReference: 'pay_1',
      personalData: { externalCustomerId: 'cus_1', language: 'de', dateOfBirth: '1980-02-03T00:00:00', gender: 'F', email: 'erika@example.com' },
      invoiceAddress: { firstname: 'Erika', lastname: 'Mustermann', addressLine1: 'Hauptstr. 1', zipCode: '10115', city: 'Berlin', country: 'DE' },
      deliveryAddress: { firstname: 'Max', lastname: 'Mustermann', addressLine1: 'Nebenstr. 2', zipCode: '80331', city: 'München', country: 'DE' },
      basket: {
        netTotal: 100.01, grossTotal: 119, currency: 'EUR', // net rounded per position: 84.04 + 15.97
        positions: [
          { productId: 'sku-1', productName: 'Lamp', quantity: 2, taxPercent: 19, netPricePerUnit: 42.02, grossPricePerUnit: 50, netPositionTotal: 84.04, grossPositionTotal: 100 },
          { productId: 'item-2', productName: 'Shipping', productCategory: 'shipping', quantity: 1, taxPercent: 19, netPricePerUnit: 15.97, grossPricePerUnit: 19, netPositionTotal: 15.97, grossPositionTotal: 19 },
        ],
      },
    });
  });
  it('B2B: the company in personalData and both addresses, with its VAT id', () => {
    const b = A.request(job({ order: order({}, { buyer_type: 'business', company_name: 'Muster GmbH', legal_form: 'GmbH', company_vat_id: 'DE123456789' }) }), creds).body as any;
    expect(b.personalData.company).toEqual({ name: 'Muster GmbH', legalForm: 'GmbH', uid: 'DE123456789' });
    expect(b.invoiceAddress).toMatchObject({ company: 'Muster GmbH', vatId: 'DE123456789' });
  });
  it('confirm echoes the precheck after a U; nothing after S or R', () => {
    const c = A.next!(job(), creds, chain('precheck_u'))!;
    expect(c).toMatchObject({ method: 'POST', path: '/Payments/invoice/order/confirm', body: { externalOrderId: 'order-1', customReference: 'pay_1', orderPrecheckResponse: a('precheck_u').body } });
    expect(A.next!(job(), creds, chain('precheck_r'))).toBeNull();
    expect(A.next!(job(), creds, chain('precheck_s'))).toBeNull();
    expect(A.next!(job(), creds, chain('precheck_u', 'empty_ok'))).toBeNull();
  });
  it('automatic capture: shipping reported, then the whole order invoiced', () => {
    const j = job({ capture_method: 'automatic' });
    expect(A.next!(j, creds, chain('precheck_u', 'empty_ok'))).toMatchObject({
      path: '/Payments/invoice/order/reportshipping', body: { externalOrderId: 'order-1', externalSubOrderId: '', basketPositions: [{ productId: 'sku-1', quantity: 2 }, { productId: 'item-2', quantity: 1 }] },
    });
    expect(A.next!(j, creds, chain('precheck_u', 'empty_ok', 'empty_ok'))).toMatchObject({
      path: '/Payments/invoice/order/createInvoice',
      body: {
        externalOrderId: 'order-1', externalInvoiceNumber: 'op_1', externalSubOrderId: '', dueDateOffsetDays: 14,
        basket: { grossTotal: 119, netTotal: 100.01, taxGroups: [{ taxPercent: 19, valueToTax: 100.01, total: 18.99 }] },
      },
    });
    expect(A.next!(j, creds, chain('precheck_u', 'empty_ok', 'empty_ok', 'invoice'))).toBeNull();
  });
  it('capture: a shipment of its own sub-order, then its invoice (its own lines, else one position of the amount)', () => {
    const c = job({ kind: 'capture', operation_id: 'op_2', amount: 5000, connector_transaction_id: 'order-1', capture_details: { capture_metadata: { invoice_data: { merchant_invoice_ref: 'INV-7' } }, metadata: null, order_details: null } });
    expect(flow(capture).request(c, creds)).toMatchObject({ path: '/Payments/invoice/order/reportshipping', body: { externalSubOrderId: 'op_2', basketPositions: [{ productId: 'partial-delivery', quantity: 1 }] } });
    expect(flow(capture).next!(c, creds, chain('empty_ok'))).toMatchObject({
      path: '/Payments/invoice/order/createInvoice',
      body: { externalInvoiceNumber: 'INV-7', externalSubOrderId: 'op_2', basket: { grossTotal: 50, netTotal: 42.02, positions: [{ productId: 'partial-delivery', quantity: 1, taxPercent: 19, grossPositionTotal: 50, netPositionTotal: 42.02 }] } },
    });
    expect(flow(capture).next!(c, creds, chain('empty_ok', 'invoice'))).toBeNull();
  });
  it('void cancels the order; sync reads its payment state; refund credits the invoice the job names', () => {
    const j = job({ connector_transaction_id: 'order-1' });
    expect(flow(voidFlow).request({ ...j, kind: 'void' }, creds)).toEqual({ method: 'POST', path: '/Payments/invoice/order/cancel/order-1', headers: H });
    expect(flow(sync).request({ ...j, mode: 'sync' }, creds)).toEqual({ method: 'GET', path: '/Payments/invoice/order/paymentstate/order-1', headers: H });
    expect(flow(sync).next!(j, creds, chain('payment_state'))).toBeNull();
    expect(flow(sync).next!({ ...j, capture_method: 'automatic' }, creds, chain('payment_state'))).toMatchObject({ path: '/Payments/invoice/order/reportshipping' });
    const r = flow(refund).request({ ...j, kind: 'refund', refund_id: 'ref_1', amount: 2380, connector_capture_id: 'AXI-00000001' }, creds);
    expect(r).toMatchObject({
      path: '/Payments/invoice/order/refund',
      body: {
        externalOrderId: 'order-1', originalInvoiceNumber: 'AXI-00000001',
        basket: { grossTotal: 23.8, netTotal: 20, positions: [{ productId: 'refund', netRefundTotal: 20, grossRefundTotal: 23.8 }], taxGroups: [{ taxPercent: 19, valueToTax: 20, total: 3.8 }] },
      },
    });
  });
});

describe('axytos answers -> outcomes', () => {
  const read = (j: ConnectorJob, ...names: string[]) => flow(authorize).response(a(names.at(-1)!), j, chain(...names));
  it('authorize: U and confirmed; captured with the invoice number as reference; S and R declined', () => {
    expect(read(job(), 'precheck_u', 'empty_ok')).toEqual({ kind: 'AUTHORIZED', connector_transaction_id: 'order-1', connector_reference_id: '4f1d2a9e-0b7c-4e0a-9c51-3a2b1c0d9e8f' });
    expect(read(job({ capture_method: 'automatic' }), 'precheck_u', 'empty_ok', 'empty_ok', 'invoice')).toEqual({ kind: 'CAPTURED', connector_transaction_id: 'order-1', connector_reference_id: 'AXI-00000001' });
    expect(read(job(), 'precheck_r')).toMatchObject({ kind: 'DECLINED', error_code: 'DECISION_R', error_message: 'axytos rejected the order (decision R)', unified_code: 'UE_1000' });
    expect(read(job(), 'precheck_s')).toMatchObject({ kind: 'DECLINED', error_code: 'DECISION_S', unified_code: 'UE_1000' });
    expect(() => read(job(), 'precheck_u')).toThrow(UnexpectedAnswer);
  });
  it('authorize: refusals fail with axytos\'s status, field and text', () => {
    expect(read(job(), 'validation')).toEqual({
      kind: 'FAILED', error_code: 'HTTP_400:InvoiceAddress.ZipCode', error_message: 'InvoiceAddress.ZipCode: The ZipCode field is required.', unified_code: 'UE_2000', unified_message: 'The provider rejected the request data',
    });
    expect(read(job(), 'unauthorized')).toMatchObject({ kind: 'FAILED', error_code: 'HTTP_401', error_message: 'Unauthorized: the X-API-KEY is missing or invalid', unified_code: 'UE_4000' });
  });
  it('sync, capture, void, refund', () => {
    expect(flow(sync).response(a('payment_state'), job({ connector_transaction_id: 'order-1' }), chain('payment_state'))).toEqual({ kind: 'AUTHORIZED', connector_transaction_id: 'order-1' });
    expect(flow(sync).response(a('not_found'), job(), chain('not_found'))).toMatchObject({ kind: 'FAILED', error_code: 'HTTP_404' });
    expect(flow(capture).response(a('invoice'), job(), chain('empty_ok', 'invoice'))).toEqual({ kind: 'CAPTURED', connector_transaction_id: 'AXI-00000001' });
    expect(flow(voidFlow).response(a('empty_ok'), job())).toEqual({ kind: 'VOIDED' });
    expect(flow(refund).response(a('empty_ok'), job({ refund_id: 'ref_1' }))).toEqual({ kind: 'REFUNDED', connector_transaction_id: 'ref_1' });
    expect(flow(refund).response(a('refund_refused'), job())).toMatchObject({ kind: 'DECLINED', error_code: 'HTTP_400', unified_code: 'UE_6000' });
    expect(flow(refund).response(a('unauthorized'), job())).toMatchObject({ kind: 'FAILED', unified_code: 'UE_4000' });
  });
});
