// No card data in any request (issue 19, item 10): pay_later takes only the spec's shapes, and no free-form field
// takes a card number. Each refusal names the field, as the gateway answers it (gateway/validate.ts).
import { describe, expect, it } from 'vitest';
import type { z } from 'zod';
import { toApiError } from '../../gateway/validate.ts';
import { CancelPaymentRequest, CapturePaymentRequest, ConfirmPaymentRequest, CreatePaymentRequest, UpdatePaymentRequest } from './payment.ts';
import { CreateCustomerRequest, UpdateCustomerRequest } from './customer.ts';
import { CreateRefundRequest, UpdateRefundRequest } from './refund.ts';
import { CreateApiKeyRequest, CreateMerchantAccountRequest } from './merchant.ts';

const PAN = '4111 1111 1111 1111';
const base = { amount: 1_000, currency: 'EUR' };

function refusal(schema: z.ZodType, body: Record<string, unknown>) {
  const r = schema.safeParse(body);
  expect(r.success, JSON.stringify(body)).toBe(false);
  return toApiError(r.error!.issues, body);
}

describe('payment_method_data.pay_later', () => {
  it.each([CreatePaymentRequest, ConfirmPaymentRequest, UpdatePaymentRequest])('refuses a card and any key the spec does not show', (schema) => {
    const card = refusal(schema, { ...base, payment_method_data: { pay_later: { invoice: {}, card: { card_number: '4111111111111111', cvc: '737' } } } });
    expect(card).toMatchObject({ status: 400, code: 'IR_07', param: 'payment_method_data.pay_later.card' });
    expect(refusal(schema, { ...base, payment_method_data: { pay_later: { card: {} } } }).param).toBe('payment_method_data.pay_later.card');
    expect(refusal(schema, { ...base, payment_method_data: { pay_later: { invoice: { card_number: '4111111111111111' } } } }).param).toBe(
      'payment_method_data.pay_later.invoice.card_number',
    );
    expect(refusal(schema, { ...base, payment_method_data: { card: { card_number: '4111111111111111' } } }).param).toBe('payment_method_data.card');
    expect(refusal(schema, { ...base, payment_method_data: { pay_later: {} } }).param).toBe('payment_method_data.pay_later');
    expect(refusal(schema, { ...base, payment_method_data: { pay_later: { invoice: {}, direct_debit: {} } } }).param).toBe('payment_method_data.pay_later');
    expect(refusal(schema, { ...base, payment_method_type: 'invoice', payment_method_data: { pay_later: { direct_debit: {} } } }).param).toBe(
      'payment_method_data.pay_later.direct_debit',
    );
  });
  it("accepts the spec's shape for every payment method type, with billing", () => {
    for (const t of ['invoice', 'installment_invoice', 'subscription_invoice', 'direct_debit', 'installment_direct_debit', 'subscription_direct_debit']) {
      const body = { ...base, payment_method_type: t, payment_method_data: { pay_later: { [t]: {} }, billing: { address: { line1: 'Hauptstr. 1' } } } };
      expect(CreatePaymentRequest.safeParse(body).success, t).toBe(true);
    }
  });
});

describe('a card number in a free-form field', () => {
  const cases: [string, z.ZodType, Record<string, unknown>, string][] = [
    ['metadata value', CreatePaymentRequest, { ...base, metadata: { note: `card ${PAN}` } }, 'metadata.note'],
    ['metadata, nested', CreatePaymentRequest, { ...base, metadata: { a: { b: [{ c: '4111111111111111' }] } } }, 'metadata.a.b.0.c'],
    ['metadata, an integer', CreatePaymentRequest, { ...base, metadata: { n: 4111111111111111 } }, 'metadata.n'],
    ['metadata key', CreatePaymentRequest, { ...base, metadata: { '4111111111111111': 'x' } }, 'metadata.4111111111111111'],
    ['description', CreatePaymentRequest, { ...base, description: `pay with ${PAN}` }, 'description'],
    ['statement descriptor', CreatePaymentRequest, { ...base, statement_descriptor_suffix: '4111111111111111' }, 'statement_descriptor_suffix'],
    [
      'order line product',
      CreatePaymentRequest,
      { ...base, order_details: [{ product_name: `Gift ${PAN}`, quantity: 1, amount: 1_000 }] },
      'order_details.0.product_name',
    ],
    ['customer name', CreatePaymentRequest, { ...base, customer: { name: PAN } }, 'customer.name'],
    ['billing line', CreatePaymentRequest, { ...base, billing: { address: { line2: PAN } } }, 'billing.address.line2'],
    ['shipping phone', CreatePaymentRequest, { ...base, shipping: { phone: { number: '4111111111111111' } } }, 'shipping.phone.number'],
    ['order reference', CreatePaymentRequest, { ...base, merchant_order_reference_id: 'ord_4111111111111111' }, 'merchant_order_reference_id'],
    ['connector_metadata', CreatePaymentRequest, { ...base, connector_metadata: { x: { y: PAN } } }, 'connector_metadata.x.y'],
    ['feature_metadata', ConfirmPaymentRequest, { feature_metadata: { z: PAN } }, 'feature_metadata.z'],
    ['payment_link_config', UpdatePaymentRequest, { payment_link_config: { theme: PAN } }, 'payment_link_config.theme'],
    [
      'capture invoice ref',
      CapturePaymentRequest,
      { capture_metadata: { invoice_data: { merchant_invoice_ref: PAN } } },
      'capture_metadata.invoice_data.merchant_invoice_ref',
    ],
    ['capture metadata', CapturePaymentRequest, { metadata: { k: PAN } }, 'metadata.k'],
    ['cancellation reason', CancelPaymentRequest, { cancellation_reason: PAN }, 'cancellation_reason'],
    ['customer description', CreateCustomerRequest, { description: PAN }, 'description'],
    ['customer address', UpdateCustomerRequest, { address: { city: PAN } }, 'address.city'],
    ['refund reason', CreateRefundRequest, { payment_id: 'pay_'.padEnd(30, 'x'), reason: PAN }, 'reason'],
    ['refund metadata', UpdateRefundRequest, { metadata: { k: PAN } }, 'metadata.k'],
    ['merchant name', CreateMerchantAccountRequest, { merchant_name: PAN }, 'merchant_name'],
    ['api key description', CreateApiKeyRequest, { name: 'k', expiration: 'never', description: PAN }, 'description'],
  ];
  it.each(cases)('%s: 400 naming the field, saying card numbers are not accepted', (_what, schema, body, param) => {
    const e = refusal(schema, body);
    expect(e).toMatchObject({ status: 400, code: 'IR_05', param });
    expect(e.message).toMatch(/card numbers are not accepted/);
  });

  it('takes ids, amounts, phone numbers, IBANs and timestamps', () => {
    const body = {
      ...base,
      payment_id: 'pay_X4111111111111111ABCDEFGHI',
      customer: { id: 'cus_01HZX9', phone: '+4541111111111111', name: 'Ada' },
      phone: '0041 4111 1111 1111',
      description: 'IBAN DE62 3704 0044 0532 0130 01, order 2024-05-01T12:34:56Z',
      merchant_order_reference_id: 'ORD20240501123456789',
      statement_descriptor_name: 'Shop 1714566896789',
      metadata: {
        amount: 4_111_111_111,
        at: 1714566896789,
        iban: 'DE62370400440532013001',
        ts: '20240501123456789',
        uuid: '550e8400-e29b-41d4-a716-446655440000',
      },
      order_details: [{ product_name: 'Chair', product_id: 'SKU-1234-5678-9012-3456', quantity: 1, amount: 1_000 }],
      billing: { phone: { number: '+1 415 555 2671' }, address: { line1: 'Hauptstr. 1', zip: '10115' } },
    };
    const r = CreatePaymentRequest.safeParse(body);
    expect(r.error?.issues ?? []).toEqual([]);
  });
});
