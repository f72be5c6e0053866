// unzer's flows, pure: our jobs -> Unzer's requests (the authorization's chain of calls), and recorded Unzer answers
// (fixtures/answers.json) and Unzer's own published examples (fixtures/published/, SOURCES.md) -> outcomes; our
// requests checked against Unzer's published rules (fixtures/rules.json). No stack.
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import type { ConnectorJob, ProviderOrder } from '../../../domain/job.ts';
import type { ProviderResponse } from '../kit/http.ts';
import { FLOWS } from '../manifest.ts';
import { UnexpectedAnswer } from '../types.ts';
import { connector as unzer } from './index.ts';
import { firstBreach, RequestRules } from '../../../lib/request-rules.ts';
import { unifiedFor } from './errors.ts';
import { basketItems, companyType } from './request.ts';

const answers: Record<string, ProviderResponse> = JSON.parse(readFileSync(new URL('./fixtures/answers.json', import.meta.url), 'utf8'));
const a = (name: string) => answers[name]!;
const fixture = (name: string) => JSON.parse(readFileSync(new URL(`./fixtures/${name}`, import.meta.url), 'utf8'));
/** Unzer's own published example, as an answer with HTTP status 200 unless told. */
const published = (name: string, status = 200): ProviderResponse => ({ status, body: fixture(`published/${name}.json`) });
const rules = (call: string) => RequestRules.parse(fixture('rules.json')[call]);
const creds = { api_key: 's-priv-test' };
const BASIC = `Basic ${Buffer.from('s-priv-test:').toString('base64')}`;
const order = (over: Partial<ProviderOrder> = {}, metadata: Record<string, unknown> = {}): ProviderOrder => ({
  customer: { id: 'cus_1', name: 'Erika Mustermann', email: 'erika@example.com', phone: null, phone_country_code: null },
  billing: {
    address: { first_name: 'Erika', last_name: 'Mustermann', line1: 'Hauptstr. 1', zip: '10115', city: 'Berlin', country: 'DE' },
    phone: { number: '301234567', country_code: '+49' },
    email: 'erika@example.com',
  },
  shipping: null,
  order_details: [
    { product_name: 'Lamp', quantity: 2, amount: 10000, tax_percentage: 19, product_id: 'sku-1' },
    { product_name: 'Bulb', quantity: 3, amount: 1000, tax_percentage: 19 },
    { product_name: 'Shipping', quantity: 1, amount: 900, category: 'shipping_costs', tax_percentage: 19 },
  ],
  order_tax_amount: null,
  metadata: { birth_date: '1980-02-03', buyer_type: 'private', customer_locale: 'de-DE', gender: 'F', ...metadata },
  browser_info: { ip_address: '203.0.113.7', device_fingerprint: { unzer: 'tmx-session-1' } },
  description: 'Order 1001',
  payment_method_type: 'invoice',
  birth_date: null,
  gender: null,
  locale: null,
  ...over,
});
const job = (over: Partial<ConnectorJob> = {}): ConnectorJob => ({
  merchant_id: 'mer_1',
  payment_id: 'pay_000000000000000000000000001',
  operation_id: 'op_1',
  kind: 'authorize',
  connector: 'unzer',
  amount: 11900,
  currency: 'EUR',
  capture_method: 'manual',
  connector_transaction_id: null,
  customer_email: 'erika@example.com',
  return_url: 'https://shop.example/return',
  merchant_order_reference_id: '1001',
  mode: 'execute',
  sync_round: 0,
  order: order(),
  ...over,
});
const flow = <T>(f: T | undefined): T => {
  if (!f) throw new Error('flow absent');
  return f;
};
const { authorize, sync, capture, void: voidFlow, refund, refundSync } = unzer;
const chain = (...names: string[]) => names.map(a);

describe('unzer manifest', () => {
  it('lists exactly the flows the connector implements; unsigned notifications, taken as hints', () => {
    expect(FLOWS.filter((f) => unzer[f] !== undefined)).toEqual([...unzer.manifest.flows]);
    expect(unzer.manifest.webhook).toEqual({ scheme: 'unsigned' });
    expect(unzer.manifest.amount_unit).toBe('major');
    expect(unzer.manifest.settings.base_url.default).toBe('sandbox/unzer');
  });
  it('takes HeaderKey credentials (the private key), and its sandbox account fits them', () => {
    expect(unzer.manifest.credentials.safeParse({ auth_type: 'HeaderKey', api_key: 's-priv-x' }).success).toBe(true);
    expect(unzer.manifest.credentials.safeParse({ auth_type: 'HeaderKey' }).success).toBe(false);
    expect(unzer.manifest.credentials.safeParse(unzer.manifest.sandbox_account_details).success).toBe(true);
  });
  it('declares no mandates: Unzer publishes no recurring charge for paylater-invoice (README.md, Mandates)', () => {
    expect(unzer.manifest.mandates ?? null).toBeNull();
    expect(fixture('published/type-created.json')).toMatchObject({
      method: '/paylater-invoice',
      recurring: false,
    });
  });
});

describe('unzer requests: the authorization chain', () => {
  const A = flow(authorize);
  it('starts with the payment type, Basic auth with the key as the user, the shopper IP and language', () => {
    expect(A.request(job(), creds)).toEqual({
      method: 'POST',
      path: '/v1/types/paylater-invoice',
      body: {},
      headers: { authorization: BASIC, clientip: '203.0.113.7', 'accept-language': 'de' },
    });
  });
  it('then a B2C customer with its birth date and both addresses', () => {
    const c = A.next!(job(), creds, chain('type'))!;
    expect(c).toMatchObject({ method: 'POST', path: '/v1/customers' });
    expect(c.body).toEqual({
      firstname: 'Erika',
      lastname: 'Mustermann',
      salutation: 'mrs',
      birthDate: '1980-02-03',
      email: 'erika@example.com',
      phone: '+49301234567',
      language: 'de',
      billingAddress: { name: 'Erika Mustermann', street: 'Hauptstr. 1', zip: '10115', city: 'Berlin', country: 'DE' },
      shippingAddress: { name: 'Erika Mustermann', street: 'Hauptstr. 1', zip: '10115', city: 'Berlin', country: 'DE', shippingType: 'equals-billing' },
    });
  });
  it('a B2B customer carries the company (Unzer infers B2B from it)', () => {
    const b2b = job({ order: order({}, { buyer_type: 'business', company_name: 'Muster GmbH', legal_form: 'GmbH' }) });
    expect(A.next!(b2b, creds, chain('type'))!.body).toMatchObject({
      company: 'Muster GmbH',
      companyInfo: {
        registrationType: 'not_registered',
        function: 'OWNER',
        commercialSector: 'OTHER',
        companyType: 'company',
        owner: { firstname: 'Erika', lastname: 'Mustermann' },
      },
    });
  });
  it('then the basket: exact decimals, per unit only where the line divides, shipping as shipment', () => {
    const b = A.next!(job(), creds, chain('type', 'customer'))!;
    expect(b).toMatchObject({ method: 'POST', path: '/v2/baskets' });
    expect(b.body).toEqual({
      totalValueGross: '119.00',
      currencyCode: 'EUR',
      orderId: 'pay_000000000000000000000000001',
      basketItems: [
        { basketItemReferenceId: 'sku-1', title: 'Lamp', quantity: 2, vat: 19, amountPerUnitGross: '50.00', type: 'goods', unit: 'pc' },
        { basketItemReferenceId: 'item-2', title: '3 x Bulb', quantity: 1, vat: 19, amountPerUnitGross: '10.00', type: 'goods', unit: 'pc' },
        { basketItemReferenceId: 'item-3', title: 'Shipping', quantity: 1, vat: 19, amountPerUnitGross: '9.00', type: 'shipment', unit: 'pc' },
      ],
    });
    // Without order lines: one line of the whole amount; a voucher is a discount.
    expect(basketItems(job({ order: order({ order_details: null }) }))).toEqual([
      { basketItemReferenceId: 'item-1', title: 'Order 1001', quantity: 1, vat: 0, amountPerUnitGross: '119.00', type: 'goods' },
    ]);
    expect(basketItems(job({ order: order({ order_details: [{ product_name: 'Promo', quantity: 1, amount: -500, category: 'voucher' }] }) }))[0]).toMatchObject(
      { amountPerUnitGross: '0.00', amountDiscountPerUnitGross: '5.00', type: 'voucher' },
    );
  });
  it('then the authorization with the three resources and the device fingerprint as threatMetrixId', () => {
    const r = A.next!(job(), creds, chain('type', 'customer', 'basket'))!;
    expect(r).toMatchObject({ method: 'POST', path: '/v1/payments/authorize' });
    expect(r.body).toEqual({
      amount: '119.00',
      currency: 'EUR',
      orderId: 'pay_000000000000000000000000001',
      returnUrl: 'https://shop.example/return',
      paymentReference: 'Order 1001',
      resources: { typeId: 's-piv-voi3gcbwinos', customerId: 's-cst-8cbf627620c7', basketId: 's-bsk-2c6e104c1dba' },
      additionalTransactionData: { riskData: { threatMetrixId: 'tmx-session-1', customerGroup: 'NEUTRAL', registrationLevel: '1' } },
    });
    // issue 21: the orderId is our payment id, never the merchant's order reference (which a second payment may share):
    // Unzer's API.320.200.138 then always means our own earlier attempt. The reference goes to paymentReference.
    const other = job({ payment_id: 'pay_000000000000000000000000002', order: order({ description: null }) });
    expect(A.next!(other, creds, chain('type', 'customer', 'basket'))!.body).toMatchObject({
      orderId: 'pay_000000000000000000000000002',
      paymentReference: '1001',
    });
    expect(A.next!(other, creds, chain('type', 'customer'))!.body).toMatchObject({ orderId: 'pay_000000000000000000000000002' });
  });
  it('charges an approved authorization at once for automatic capture, and stops otherwise', () => {
    expect(A.next!(job(), creds, chain('type', 'customer', 'basket', 'authorized'))).toBeNull();
    expect(A.next!(job({ capture_method: 'automatic' }), creds, chain('type', 'customer', 'basket', 'authorized'))).toMatchObject({
      method: 'POST',
      path: '/v1/payments/s-pay-4404/charges',
      body: { amount: '119.00', invoiceId: 'op_1', orderId: 'pay_000000000000000000000000001' },
    });
    for (const n of ['declined', 'review', 'redirect'])
      expect(A.next!(job({ capture_method: 'automatic' }), creds, chain('type', 'customer', 'basket', n))).toBeNull();
    expect(A.next!(job({ capture_method: 'automatic' }), creds, chain('type', 'customer', 'basket', 'authorized', 'charged'))).toBeNull();
  });
  it('a major-unit amount is exact for every currency exponent', () => {
    expect(
      (
        A.next!(job({ amount: 1, currency: 'EUR', order: order({ order_details: null }) }), creds, chain('type', 'customer'))!.body as {
          totalValueGross: string;
        }
      ).totalValueGross,
    ).toBe('0.01');
    expect(
      (
        A.next!(job({ amount: 123456789, currency: 'CHF', order: order({ order_details: null }) }), creds, chain('type', 'customer'))!.body as {
          totalValueGross: string;
        }
      ).totalValueGross,
    ).toBe('1234567.89');
  });
});

describe('unzer requests: the payment afterwards', () => {
  const j = job({ connector_transaction_id: 's-pay-4404', operation_id: 'op_2', amount: 4000 });
  it('sync reads the payment; an automatic capture approved since is charged', () => {
    expect(flow(sync).request({ ...j, mode: 'sync' }, creds)).toMatchObject({ method: 'GET', path: '/v1/payments/s-pay-4404' });
    expect(flow(sync).next!({ ...j, capture_method: 'automatic' }, creds, chain('payment_authorized'))).toMatchObject({
      method: 'POST',
      path: '/v1/payments/s-pay-4405/charges',
    });
    expect(flow(sync).next!(j, creds, chain('payment_authorized'))).toBeNull();
    expect(flow(sync).next!({ ...j, capture_method: 'automatic' }, creds, chain('payment_review'))).toBeNull();
    expect(flow(sync).next!({ ...j, capture_method: 'automatic' }, creds, chain('payment_completed'))).toBeNull();
  });
  it('capture is a charge with the invoice number of the capture (else the operation id)', () => {
    const c = {
      ...j,
      kind: 'capture' as const,
      capture_details: { capture_metadata: { invoice_data: { merchant_invoice_ref: 'INV-7' } }, metadata: null, order_details: null },
    };
    expect(flow(capture).request(c, creds)).toMatchObject({
      method: 'POST',
      path: '/v1/payments/s-pay-4404/charges',
      body: { amount: '40.00', invoiceId: 'INV-7', orderId: 'pay_000000000000000000000000001' },
    });
    expect(flow(capture).request({ ...j, kind: 'capture' }, creds).body).toMatchObject({ invoiceId: 'op_2' });
  });
  it('void cancels the authorization; refund cancels charges at payment level with a reason code and our refund id', () => {
    expect(flow(voidFlow).request({ ...j, kind: 'void' }, creds)).toMatchObject({
      method: 'POST',
      path: '/v1/payments/s-pay-4404/authorize/cancels',
      body: {},
    });
    const r = { ...j, kind: 'refund' as const, refund_id: 'ref_1', reason: 'Customer returned the goods' };
    expect(flow(refund).request(r, creds)).toMatchObject({
      method: 'POST',
      path: '/v1/payments/s-pay-4404/charges/cancels',
      body: { amount: '40.00', reasonCode: 'RETURN', paymentReference: 'ref_1' },
    });
    expect(flow(refund).request({ ...r, reason: undefined }, creds).body).toMatchObject({ reasonCode: 'CANCEL' });
    expect(flow(refundSync).request({ ...r, mode: 'sync', connector_refund_id: 's-cnl-2' }, creds)).toMatchObject({
      method: 'GET',
      path: '/v1/payments/s-pay-4404/charges/cancels/s-cnl-2',
    });
  });
});

describe('unzer answers -> outcomes', () => {
  const read = (...names: string[]) => flow(authorize).response(a(names.at(-1)!), job(), chain(...names));
  const steps = ['type', 'customer', 'basket'];
  it('authorize: approved, charged, pending review, the customer step, declined by the risk check', () => {
    expect(read(...steps, 'authorized')).toEqual({ kind: 'AUTHORIZED', connector_transaction_id: 's-pay-4404', connector_reference_id: 's-aut-1' });
    expect(read(...steps, 'authorized', 'charged')).toEqual({ kind: 'CAPTURED', connector_transaction_id: 's-pay-4404', connector_reference_id: 's-aut-1' });
    expect(read(...steps, 'review')).toEqual({ kind: 'PENDING', connector_transaction_id: 's-pay-4405', connector_reference_id: 's-aut-2' });
    expect(read(...steps, 'redirect')).toMatchObject({
      kind: 'CUSTOMER_ACTION',
      redirect_url: 'http://127.0.0.1:8090/unzer/redirect/s-pay-4406',
      connector_transaction_id: 's-pay-4406',
    });
    expect(read(...steps, 'declined')).toEqual({
      kind: 'DECLINED',
      error_code: 'COR.400.100.101',
      error_message: 'The customer was declined by the risk check of Unzer Invoice',
      unified_code: 'UE_1000',
      unified_message: 'The customer was declined by the provider',
      connector_transaction_id: 's-pay-4407',
      connector_reference_id: 's-aut-4',
    });
  });
  it("authorize: a refused step fails the payment with Unzer's code (wrong key, invalid data)", () => {
    expect(read('unauthorized')).toMatchObject({ kind: 'FAILED', error_code: 'API.710.000.002', unified_code: 'UE_4000' });
    expect(read('type', 'birthdate_missing')).toMatchObject({
      kind: 'FAILED',
      error_code: 'API.710.200.100',
      error_message: expect.stringContaining('birthDate'),
      unified_code: 'UE_2000',
    });
    expect(read(...steps, 'error_body')).toMatchObject({
      kind: 'FAILED',
      error_code: 'API.360.000.004',
      error_message: 'The amount is not valid.',
      unified_code: 'UE_2000',
    });
    expect(() => read('type', 'customer')).toThrow(UnexpectedAnswer);
    expect(() =>
      flow(authorize).response({ status: 200, body: { surprise: true } }, job(), [
        a('type'),
        a('customer'),
        a('basket'),
        { status: 200, body: { surprise: true } },
      ]),
    ).toThrow(UnexpectedAnswer);
  });
  it("sync: the payment's state and its authorization", () => {
    const s = (name: string) => flow(sync).response(a(name), job(), [a(name)]);
    expect(s('payment_authorized')).toEqual({ kind: 'AUTHORIZED', connector_transaction_id: 's-pay-4405' });
    expect(s('payment_review')).toEqual({ kind: 'PENDING', connector_transaction_id: 's-pay-4405' });
    expect(s('payment_completed')).toEqual({ kind: 'CAPTURED', connector_transaction_id: 's-pay-4404' });
    expect(s('payment_declined')).toMatchObject({ kind: 'DECLINED', unified_code: 'UE_1000', connector_transaction_id: 's-pay-4406' });
    expect(flow(sync).response(a('charged'), job(), chain('payment_authorized', 'charged'))).toEqual({
      kind: 'CAPTURED',
      connector_transaction_id: 's-pay-4405',
    });
  });
  it('capture, void, refund and refund sync', () => {
    expect(flow(capture).response(a('charged'), job())).toEqual({ kind: 'CAPTURED', connector_transaction_id: 's-chg-1' });
    expect(flow(capture).response(a('error_body'), job())).toMatchObject({ kind: 'FAILED', error_code: 'API.360.000.004' });
    expect(flow(voidFlow).response(a('canceled'), job())).toEqual({ kind: 'VOIDED' });
    expect(flow(refund).response(a('canceled'), job())).toEqual({ kind: 'REFUNDED', connector_transaction_id: 's-cnl-1' });
    expect(flow(refundSync).response(a('refund_pending'), job())).toEqual({ kind: 'PENDING', connector_transaction_id: 's-cnl-2' });
    expect(flow(refund).response(a('refund_refused'), job())).toMatchObject({
      kind: 'DECLINED',
      error_code: 'COR.400.200.101',
      unified_code: 'UE_6000',
      connector_transaction_id: 's-cnl-3',
    });
    expect(flow(refund).response(a('unauthorized'), job())).toMatchObject({ kind: 'FAILED', unified_code: 'UE_4000' });
  });
});

describe('unzer webhooks -> hints', () => {
  it('the documented body names the payment; its event and URL are not taken as facts', () => {
    const body = JSON.stringify({
      event: 'authorize.succeeded',
      publicKey: 's-pub-2a10sandbox',
      retrieveUrl: 'https://sbx-api.unzer.com/v1/payments/s-pay-12345',
      paymentId: 's-pay-12345',
    });
    expect(unzer.notification!.parse(body)).toEqual({ object: 'hint', connector_transaction_id: 's-pay-12345', event: 'authorize.succeeded' });
  });
  it('no payment id, another resource, or not JSON: left (unknown)', () => {
    expect(unzer.notification!.parse(JSON.stringify({ event: 'types', retrieveUrl: 'https://x/v1/types/s-piv-1' }))).toMatchObject({ object: 'unknown' });
    expect(unzer.notification!.parse(JSON.stringify({ event: 'customer.created', paymentId: 's-cst-1' }))).toMatchObject({ object: 'unknown' });
    expect(unzer.notification!.parse('paymentId=s-pay-1')).toMatchObject({ object: 'unknown' });
  });
});

describe("Unzer's published examples (fixtures/published/) through our schemas", () => {
  it('transactions: an authorization approved, one pending, a charge, a cancel', () => {
    const j = job();
    const steps = [a('type'), a('customer'), a('basket')];
    expect(flow(authorize).response(published('authorize-success'), j, [...steps, published('authorize-success')])).toEqual({
      kind: 'AUTHORIZED',
      connector_transaction_id: 's-pay-286',
      connector_reference_id: 's-aut-1',
    });
    // redirectUrl "" (Unzer sends it empty): pending, not a customer step.
    expect(flow(authorize).response(published('authorize-pending'), j, [...steps, published('authorize-pending')])).toMatchObject({ kind: 'PENDING' });
    expect(flow(capture).response(published('charge-success'), j)).toEqual({ kind: 'CAPTURED', connector_transaction_id: 's-chg-1' });
    expect(flow(voidFlow).response(published('cancel-success'), j)).toEqual({ kind: 'VOIDED' });
    expect(flow(refund).response(published('cancel-success'), j)).toEqual({ kind: 'REFUNDED', connector_transaction_id: 's-cnl-1' });
    expect(flow(authorize).next!(j, creds, [published('type-created')])).toMatchObject({ path: '/v1/customers' });
  });
  it('payment reads: pending with its authorization, canceled, chargeback', () => {
    const s = (name: string) => flow(sync).response(published(name), job(), [published(name)]);
    expect(s('payment-pending')).toEqual({ kind: 'AUTHORIZED', connector_transaction_id: 's-pay-286' });
    expect(s('payment-chargeback')).toEqual({ kind: 'CAPTURED', connector_transaction_id: 's-pay-123' });
    // A preauthorized card payment has no authorize transaction: not an answer this connector's payments give.
    expect(() => s('payment-canceled')).toThrow(UnexpectedAnswer);
  });
  it('error bodies: a decline (COR.400.100.101), a refused request, one without a code (the PHP SDK reads it too)', () => {
    const steps = [a('type'), a('customer'), a('basket')];
    const decline = published('error-decline', 400);
    expect(flow(authorize).response(decline, job(), [...steps, decline])).toMatchObject({
      kind: 'DECLINED',
      error_code: 'COR.400.100.101',
      error_message: 'Address untraceable',
      unified_code: 'UE_1000',
    });
    expect(flow(capture).response(published('error-request', 400), job())).toMatchObject({
      kind: 'FAILED',
      error_code: 'API.410.200.010',
      unified_code: 'UE_2000',
    });
    expect(flow(refund).response(decline, job())).toMatchObject({ kind: 'DECLINED', unified_code: 'UE_6000' });
    // issue 21: the schema required a code and a merchant message; Unzer's PHP SDK test sends neither a code.
    expect(flow(capture).response(published('error-no-code', 400), job())).toMatchObject({
      kind: 'FAILED',
      error_code: 'HTTP_400',
      error_message: 'This is an error message for the merchant!',
    });
  });
  it('notifications: the documented payment.pending and chargeback name the payment; a types event is left', () => {
    const parse = (name: string) => unzer.notification!.parse(JSON.stringify(fixture(`published/${name}.json`)));
    expect(parse('notification-payment-pending')).toEqual({ object: 'hint', connector_transaction_id: 's-pay-774', event: 'payment.pending' });
    expect(parse('notification-chargeback')).toEqual({ object: 'hint', connector_transaction_id: 's-pay-42', event: 'chargeback' });
    expect(parse('notification-types')).toMatchObject({ object: 'unknown' });
  });
});

describe("our requests obey Unzer's published rules (fixtures/rules.json)", () => {
  const A = flow(authorize);
  it('customer (B2C and B2B), basket, authorization, cancel of charges', () => {
    expect(firstBreach(rules('customer'), A.next!(job(), creds, chain('type'))!.body)).toBeNull();
    for (const legal_form of ['GmbH', 'e.K.', 'e.V.', 'GmbH & Co. KG', 'Stiftung', undefined]) {
      const b2b = job({ order: order({}, { buyer_type: 'business', company_name: 'Muster', legal_form }) });
      expect(firstBreach(rules('customer'), A.next!(b2b, creds, chain('type'))!.body), String(legal_form)).toBeNull();
    }
    expect(firstBreach(rules('basket'), A.next!(job(), creds, chain('type', 'customer'))!.body)).toBeNull();
    const auth = A.next!(job(), creds, chain('type', 'customer', 'basket'))!.body;
    expect(firstBreach(rules('authorize'), auth)).toBeNull();
    expect(firstBreach(rules('authorize'), A.next!(job({ order: order({ customer: null }) }), creds, chain('type', 'customer', 'basket'))!.body)).toBeNull();
    for (const reason of ['return', 'goodwill', undefined]) {
      const body = flow(refund).request(job({ kind: 'refund', connector_transaction_id: 's-pay-1', refund_id: 'ref_1', reason }), creds).body;
      expect(firstBreach(rules('refund'), body)).toBeNull();
    }
  });
  it('the rules can fail: a legal form as it came, a salutation or item type Unzer does not list, no reason code', () => {
    expect(firstBreach(rules('customer'), { companyInfo: { companyType: 'GmbH' } })).toMatchObject({ field: 'companyInfo.companyType' });
    expect(firstBreach(rules('customer'), { salutation: 'ms' })).toMatchObject({ field: 'salutation' });
    expect(firstBreach(rules('basket'), { totalValueGross: '1', currencyCode: 'EUR', basketItems: [{ type: 'service' }] })).toMatchObject({
      field: 'basketItems[0].type',
    });
    expect(firstBreach(rules('refund'), { amount: '1.00' })).toMatchObject({ field: 'reasonCode' });
  });
});

describe("issue 21: what the review against Unzer's material changed", () => {
  it("companyInfo.companyType is Unzer's enum (authority, association, sole, company, other), not our legal form", () => {
    expect(companyType('GmbH')).toBe('company');
    expect(companyType('GmbH & Co. KG')).toBe('company');
    expect(companyType('e.K.')).toBe('sole');
    expect(companyType('e.V.')).toBe('association');
    expect(companyType('Behörde')).toBe('authority');
    expect(companyType('Stiftung')).toBe('other');
    expect(companyType(undefined)).toBeUndefined();
  });
  it("error codes as Unzer's PHP SDK names them: API.710.000.002 is the wrong key; API.320.000.004 is an authorization not allowed", () => {
    expect(unifiedFor('API.710.000.002').unified_code).toBe('UE_4000');
    expect(unifiedFor('API.320.000.004').unified_code).toBe('UE_3000');
    expect(unifiedFor('API.320.100.008').unified_code).toBe('UE_2000'); // customer id required: not a key problem
    expect(unifiedFor('API.340.100.014').unified_code).toBe('UE_3000'); // already cancelled
    expect(unifiedFor('API.340.100.018').unified_code).toBe('UE_3000'); // already charged
  });
  it('an orderId already in use (API.320.200.138) is our earlier attempt: PENDING, the status sync reads the payment by its orderId', () => {
    const j = job();
    expect(flow(authorize).response(a('order_id_in_use'), j, chain('type', 'customer', 'basket', 'order_id_in_use'))).toEqual({
      kind: 'PENDING',
      connector_transaction_id: 'pay_000000000000000000000000001',
    });
    expect(flow(sync).request({ ...j, mode: 'sync', connector_transaction_id: j.payment_id }, creds)).toMatchObject({
      method: 'GET',
      path: '/v1/payments/pay_000000000000000000000000001',
    });
    // The read names the payment by its id, which the outcome carries from then on.
    expect(flow(sync).response(a('payment_authorized'), j, [a('payment_authorized')])).toEqual({ kind: 'AUTHORIZED', connector_transaction_id: 's-pay-4405' });
  });
  it('the payment state is read by its id; 4 (payment review) is an overpayment to check, not a pending risk review', () => {
    const s = (name: string) => flow(sync).response(a(name), job(), [a(name)]);
    // Unzer's PHP SDK spells state 4 "payment review": the old schema's enum refused that answer.
    expect(s('payment_overpaid')).toEqual({ kind: 'CAPTURED', connector_transaction_id: 's-pay-4404' });
    // A review is a pending authorize transaction in a pending payment (docs.unzer.com payment-states: 0 pending).
    expect(s('payment_review')).toEqual({ kind: 'PENDING', connector_transaction_id: 's-pay-4405' });
  });
  it('a production payment id (p-pay-…) in a notification is read; only s-pay- was before', () => {
    const body = JSON.stringify({
      event: 'payment.completed',
      publicKey: 'p-pub-x',
      retrieveUrl: 'https://api.unzer.com/v1/payments/p-pay-123',
      paymentId: 'p-pay-123',
    });
    expect(unzer.notification!.parse(body)).toEqual({ object: 'hint', connector_transaction_id: 'p-pay-123', event: 'payment.completed' });
  });
});
