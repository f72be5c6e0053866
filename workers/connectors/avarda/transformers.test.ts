// avarda's flows, pure: our jobs -> Avarda's requests, checked against the schemas that parse Avarda's own published
// request examples (fixtures/, sources in fixtures/SOURCES.md), and Avarda's published answers -> outcomes. No stack.
import { readFileSync } from 'node:fs';
import { describe, expect, it, vi } from 'vitest';
import type { ConnectorJob } from '../../../domain/job.ts';
import { testSession } from '../kit/testing.ts';
import { FLOWS } from '../manifest.ts';
import { UnexpectedAnswer } from '../types.ts';
import { connector as avarda } from './index.ts';
import { itemsOf, orderReference } from './request.ts';
import {
  CancelRequest,
  camelKeys,
  InitializeAnswer,
  InitializeRequest,
  OrderRequest,
  PaymentStatus,
  PurchaseState,
  RecurringRequest,
  RefundRequest,
  TokenAnswer,
  TokenRequest,
} from './schemas.ts';

/** A published example, as Avarda printed it. */
const fixture = (name: string): any => JSON.parse(readFileSync(new URL(`./fixtures/${name}`, import.meta.url), 'utf8'));
const ok = (body: unknown, status = 200) => ({ status, body });
/** The published payment-status example with its step set to `current` (one of Avarda's state names). */
const status = (current: string, mode: 'B2C' | 'B2B' = 'B2C') => {
  const ex = fixture('payment-status.json');
  const { b2C, ...rest } = ex;
  return ok({ ...rest, mode, [mode === 'B2B' ? 'b2B' : 'b2C']: { ...b2C, step: { ...b2C.step, current } } });
};

const creds = { auth_type: 'BodyKey' as const, api_key: 'avarda_sandbox_client', key1: 'avarda_sandbox_client_secret' };
const s = { access_token: 'jwt', ...testSession({ merchant_id: 'mer_1', merchant_connector_id: 'mca_1' }) };
const flow = <T>(f: T | undefined): T => {
  if (!f) throw new Error('flow absent');
  return f;
};

/** One shirt, 299.00 SEK incl. 25 % VAT, as our job; our payment ids are `pay_` + 26 characters (30). */
const job = (over: Partial<ConnectorJob> = {}): ConnectorJob => ({
  merchant_id: 'mer_1',
  payment_id: 'pay_0123456789abcdefghijABCDEF',
  operation_id: 'op_0123456789abcdefghijABCDEF',
  kind: 'authorize',
  connector: 'avarda',
  merchant_connector_id: 'mca_1',
  amount: 29_900,
  currency: 'SEK',
  capture_method: 'manual',
  connector_transaction_id: null,
  customer_email: 'a@example.se',
  return_url: 'https://shop.example/return',
  merchant_order_reference_id: null,
  mode: 'execute',
  sync_round: 0,
  order: {
    customer: { id: null, name: 'A B', email: 'a@example.se', phone: '+46701234567', phone_country_code: null },
    billing: { address: { first_name: 'A', last_name: 'B', line1: 'Storgatan 1', zip: '11122', city: 'Stockholm', country: 'SE' } },
    shipping: { address: { first_name: 'A', last_name: 'B', line1: 'Storgatan 1', zip: '11122', city: 'Stockholm', country: 'SE' } },
    order_details: [{ product_name: 'Shirt', product_id: 'SKU1', quantity: 1, amount: 29_900, total_tax_amount: 5_980, tax_percentage: 25 }],
    order_tax_amount: 5_980,
    metadata: { customer_locale: 'en-SE', terms_and_conditions_url: 'https://shop.example/terms' },
    browser_info: null,
    description: null,
    payment_method_type: 'invoice',
    birth_date: null,
    gender: null,
    locale: null,
  },
  ...over,
});
const PURCHASE = '19ac0d1ee909c302d212b4324d9194b5';
const after = (over: Partial<ConnectorJob> = {}) => job({ connector_transaction_id: PURCHASE, ...over });

describe("the schemas read Avarda's own published examples", () => {
  it("requests: token, initialize (Avarda's demo), order and return (docs, PascalCase), refund, cancel", () => {
    expect(TokenRequest.parse(fixture('token-request.json'))).toBeTruthy();
    expect(InitializeRequest.parse(camelKeys(fixture('initialize-request.json')))).toBeTruthy();
    expect(OrderRequest.parse(camelKeys(fixture('order-request.json')))).toMatchObject({ orderReference: '4000124352', items: [{ quantity: 2 }] });
    expect(OrderRequest.parse(camelKeys(fixture('return-request.json')))).toMatchObject({ orderReference: 'ue12345', posId: 'Id123456' });
    expect(RefundRequest.parse(fixture('refund-request.json'))).toEqual({ amount: 10 });
    expect(CancelRequest.parse(fixture('cancel-request.json'))).toEqual({ reason: 'Cancelling order upon customer request.' });
    // The docs' own invalid request (amount with 4 decimals as a string) is refused by the same rules.
    expect(InitializeRequest.safeParse(camelKeys({ checkoutSetup: {}, ...fixture('error-400-request.json') })).success).toBe(false);
  });
  it('answers: token, initialized purchase, payment status; every published state name', () => {
    expect(TokenAnswer.parse(fixture('token-response.json')).tokenExpirationUtc).toBe('2026-05-04T11:00:00Z');
    expect(InitializeAnswer.parse(fixture('initialize-response.json')).purchaseId).toBe(PURCHASE);
    expect(PaymentStatus.parse(fixture('payment-status.json'))).toMatchObject({ mode: 'B2C', b2C: { step: { current: 'Initialized' } } });
    expect(PurchaseState.options).toEqual(fixture('purchase-states.json'));
  });
});

describe('avarda manifest', () => {
  it('lists exactly the flows the connector implements; token flow; unsigned callback; follow-up automatic capture', () => {
    const implemented = FLOWS.filter((f) => (f === 'notification' ? !!avarda.notification : !!avarda[f]));
    expect([...avarda.manifest.flows].sort()).toEqual([...implemented].sort());
    expect(avarda.manifest).toMatchObject({
      webhook: { scheme: 'unsigned' },
      automatic_capture: 'follow_up',
      amount_unit: 'major',
      currencies: ['SEK', 'NOK', 'DKK', 'EUR'],
    });
    expect(avarda.manifest.credentials.safeParse(creds).success).toBe(true);
    expect(avarda.manifest.credentials.safeParse({ auth_type: 'BodyKey', api_key: 'x' }).success).toBe(false);
  });
});

describe('avarda token', () => {
  it('asks with clientId and clientSecret and reads the published answer with its lifetime', () => {
    const req = avarda.token!.request(creds);
    expect(req).toMatchObject({ method: 'POST', path: '/api/partner/tokens' });
    expect(Object.keys(TokenRequest.parse(req.body))).toEqual(Object.keys(fixture('token-request.json')));
    vi.useFakeTimers({ now: Date.parse('2026-05-04T10:00:00.000Z') });
    try {
      expect(avarda.token!.response(ok(fixture('token-response.json')))).toEqual({ access_token: fixture('token-response.json').token, expires_in_s: 3600 });
    } finally {
      vi.useRealTimers();
    }
  });
  it("without an expiry takes the plugin's 55 minutes; a refusal (the Magento module's error_description) is the job's failure", () => {
    expect(avarda.token!.response(ok({ token: 'x' }))).toEqual({ access_token: 'x', expires_in_s: 3300 });
    expect(avarda.token!.response(ok({ error: 'invalid_client', error_description: 'Invalid client credentials' }, 401))).toMatchObject({
      kind: 'FAILED',
      error_code: 'invalid_client',
      error_message: 'Invalid client credentials',
      unified_code: 'UE_4000',
    });
  });
});

describe('avarda authorize (initialize purchase)', () => {
  it("checkoutSetup, items in decimals with taxCode/taxAmount, extraIdentifiers.orderReference, b2C: valid by Avarda's rules", () => {
    const req = flow(avarda.authorize).request(job(), creds, s);
    expect(req).toMatchObject({ method: 'POST', path: '/api/partner/payments', headers: { authorization: 'Bearer jwt' } });
    const body = InitializeRequest.parse(req.body);
    expect(body.items).toEqual([{ description: 'Shirt', notes: 'SKU1', amount: 299, taxCode: '25', taxAmount: 59.8, quantity: 1 }]);
    expect(body.b2C).toEqual({
      invoicingAddress: { firstName: 'A', lastName: 'B', address1: 'Storgatan 1', zip: '11122', city: 'Stockholm', country: 'SE' },
      deliveryAddress: { firstName: 'A', lastName: 'B', address1: 'Storgatan 1', zip: '11122', city: 'Stockholm', country: 'SE' },
      userInputs: { phone: '+46701234567', email: 'a@example.se' },
    });
    expect(body.checkoutSetup).toMatchObject({
      mode: 'B2C',
      language: 'English',
      invoicingCountries: ['SE'],
      deliveryCountries: ['SE'],
      termsAndConditionsUrl: 'https://shop.example/terms',
    });
    expect(body.checkoutSetup.completedNotificationUrl).toBe('https://gateway.example/webhooks/mer_1/mca_1');
  });
  it('OrderReference is at most 20 characters (docs: "max length: 20"): our 30-character payment id is not sent as it is', () => {
    const body = flow(avarda.authorize).request(job(), creds, s).body as { extraIdentifiers: { orderReference: string } };
    expect(body.extraIdentifiers.orderReference).toHaveLength(20);
    expect(body.extraIdentifiers.orderReference).toBe('0123456789abcdefghijABCDEF'.slice(-20));
    // The merchant's own reference when it fits; a longer one is not cut (two could collide): the derived one instead.
    expect(orderReference(job({ merchant_order_reference_id: '1001' }))).toBe('1001');
    expect(orderReference(job({ merchant_order_reference_id: 'ORDER-2026-11-25-000001' }))).toBe('0123456789abcdefghijABCDEF'.slice(-20));
  });
  it("prefilled names and addresses over Avarda's limits (error codes 126–131) are left to the form", () => {
    const long = 'x'.repeat(41);
    const o = job().order!;
    const body = InitializeRequest.parse(
      flow(avarda.authorize).request(
        job({ order: { ...o, billing: { address: { first_name: long, last_name: 'B', line1: long, zip: '11122', city: 'y'.repeat(31), country: 'SE' } } } }),
        creds,
        s,
      ).body,
    );
    expect(body.b2C!.invoicingAddress).toEqual({ lastName: 'B', zip: '11122', country: 'SE' });
  });
  it('B2B: b2B with the company as invoicingAddress.name; Swedish locale -> Swedish', () => {
    const b2b = job({ order: { ...job().order!, metadata: { buyer_type: 'business', company_name: 'ACME AB', customer_locale: 'sv-SE' } } });
    const body = InitializeRequest.parse(flow(avarda.authorize).request(b2b, creds, s).body);
    expect(body.checkoutSetup).toMatchObject({ mode: 'B2B', language: 'Swedish' });
    expect(body.b2C).toBeUndefined();
    expect(body.b2B!.invoicingAddress).toMatchObject({ name: 'ACME AB', address1: 'Storgatan 1', country: 'SE' });
  });
  it('items: unit gross and VAT; a line not dividing by its quantity is one item "3 x …"; texts cut at 35', () => {
    expect(itemsOf([{ product_name: 'Lamp', quantity: 2, amount: 9_520, total_tax_amount: 1_520, tax_percentage: 19, product_id: 'sku-lamp' }], 'EUR')).toEqual(
      [{ description: 'Lamp', notes: 'sku-lamp', amount: 47.6, taxCode: '19', taxAmount: 7.6, quantity: 2 }],
    );
    expect(itemsOf([{ product_name: 'Shoe', quantity: 3, amount: 1_000, tax_percentage: 25 }], 'SEK')).toEqual([
      { description: '3 x Shoe', amount: 10, taxCode: '25', taxAmount: 2, quantity: 1 },
    ]);
    // The docs' own example row is 35 characters ("Carrey-hybriditakki, naisten, punai").
    const published = fixture('order-request.json').Items[0].Description;
    expect(itemsOf([{ product_name: `${published}nen`, amount: 100, total_tax_amount: 20 }], 'SEK')[0]!.description).toBe(published);
  });
  it('the answer is the customer step: the purchase id, and the page embedding the form with the purchase JWT', () => {
    const answer = fixture('initialize-response.json');
    const o = flow(avarda.authorize).response(ok(answer), job(), undefined, s);
    expect(o).toMatchObject({ kind: 'CUSTOMER_ACTION', connector_transaction_id: PURCHASE });
    const u = new URL(o.redirect_url!);
    expect(u.searchParams.get('purchaseJwt')).toBe(answer.jwt);
    expect(u.searchParams.get('redirectUrl')).toBe('https://shop.example/return');
    expect(() => flow(avarda.authorize).response(ok({ purchaseId: 'x' }), job())).toThrow(UnexpectedAnswer);
  });
  it("Avarda's published validation error: its property and message (not an invented problem body)", () => {
    expect(flow(avarda.authorize).response(ok(fixture('error-400.json'), 400), job())).toMatchObject({
      kind: 'FAILED',
      error_code: 'Items[0].Amount',
      error_message: 'Items[0].Amount: Maximum number of decimal places allowed is 2.',
      unified_code: 'UE_2000',
    });
  });
});

describe('avarda sync (the payment status)', () => {
  const sync = flow(avarda.sync);
  it('GETs the purchase with the token', () => {
    expect(sync.request(after({ mode: 'sync' }), creds, s)).toEqual({
      method: 'GET',
      path: `/api/partner/payments/${PURCHASE}`,
      headers: { authorization: 'Bearer jwt' },
    });
  });
  it("maps every published state: Completed authorized; TimedOut, Outdated, Canceled declined; waiting ones pending; form steps the customer's", () => {
    const id = { connector_transaction_id: 'string' };
    expect(sync.response(status('Completed'), after())).toEqual({ kind: 'AUTHORIZED', ...id });
    expect(sync.response(status('Completed', 'B2B'), after())).toEqual({ kind: 'AUTHORIZED', ...id });
    for (const dead of ['TimedOut', 'Outdated', 'Canceled']) {
      expect(sync.response(status(dead), after())).toMatchObject({ kind: 'DECLINED', error_code: dead, unified_code: 'UE_1000' });
    }
    for (const waiting of [
      'WaitingForBankId',
      'WaitingForSwish',
      'AwaitingCreditApproval',
      'RedirectedToNets',
      'RedirectedToDirectPaymentBank',
      'RedirectedToTupas',
      'HandledByMerchant',
    ]) {
      expect(sync.response(status(waiting), after())).toEqual({ kind: 'PENDING', ...id });
    }
    for (const form of ['Initialized', 'EmailZipEntry', 'SsnEntry', 'PersonalInfo', 'PhoneNumberEntry']) {
      expect(sync.response(status(form), after())).toEqual({ kind: 'CUSTOMER_ACTION', ...id });
    }
    // The published example itself (Initialized).
    expect(sync.response(ok(fixture('payment-status.json')), after())).toEqual({ kind: 'CUSTOMER_ACTION', ...id });
  });
  it('a state Avarda does not publish, or no step, is an unknown outcome (synced again), never a guess', () => {
    expect(() => sync.response(status('SelectPaymentMethod'), after())).toThrow(UnexpectedAnswer);
    expect(() => sync.response(ok({ purchaseId: PURCHASE, mode: 'B2C' }), after())).toThrow(UnexpectedAnswer);
    expect(sync.response(ok({ error: 'invalid_token', error_description: 'The token is expired' }, 401), after())).toMatchObject({
      kind: 'FAILED',
      unified_code: 'UE_4000',
    });
  });
});

describe('avarda capture (activation), void (cancel)', () => {
  it('capture of the whole order activates its items with OrderReference (≤ 20) and our operation as TranId (≤ 36)', () => {
    const req = flow(avarda.capture).request(after({ kind: 'capture' }), creds, s);
    expect(req).toMatchObject({ method: 'POST', path: `/api/partner/payments/${PURCHASE}/order` });
    const body = OrderRequest.parse(req.body);
    expect(body).toEqual({
      orderReference: '0123456789abcdefghijABCDEF'.slice(-20),
      tranId: 'op_0123456789abcdefghijABCDEF',
      items: [{ description: 'Shirt', notes: 'SKU1', amount: 299, taxCode: '25', taxAmount: 59.8, quantity: 1 }],
    });
    // Same keys as Avarda's example body (TrackingCode and PosId are optional and we have none).
    expect(Object.keys(body).every((k) => k in (camelKeys(fixture('order-request.json')) as object))).toBe(true);
  });
  it("the activation answers 200 with no content: captured, named by its TranId; a refusal is Avarda's error", () => {
    expect(flow(avarda.capture).response(ok(''), after({ kind: 'capture' }))).toEqual({
      kind: 'CAPTURED',
      connector_transaction_id: 'op_0123456789abcdefghijABCDEF',
    });
    expect(
      flow(avarda.capture).response(
        ok({ Errors: [{ Property: '', ErrorCode: 100, ErrorMessage: 'Purchase must be in completed state' }], StatusCode: 400 }, 400),
        after(),
      ),
    ).toMatchObject({ kind: 'FAILED', error_code: '100', error_message: 'Purchase must be in completed state', unified_code: 'UE_3000' });
  });
  it("a partial capture: the capture's lines, else one delivery item with the tax in proportion", () => {
    const lines = [{ product_name: 'Socks', product_id: 'S2', quantity: 2, amount: 10_000, total_tax_amount: 2_000, tax_percentage: 25 }];
    const byLines = OrderRequest.parse(
      flow(avarda.capture).request(
        after({ kind: 'capture', amount: 10_000, capture_details: { capture_metadata: null, metadata: null, order_details: lines } }),
        creds,
        s,
      ).body,
    );
    expect(byLines.items).toEqual([{ description: 'Socks', notes: 'S2', amount: 50, taxCode: '25', taxAmount: 10, quantity: 2 }]);
    const byAmount = OrderRequest.parse(flow(avarda.capture).request(after({ kind: 'capture', amount: 10_000 }), creds, s).body);
    expect(byAmount.items).toEqual([{ description: 'Delivery', amount: 100, taxCode: '25', taxAmount: 20, quantity: 1 }]);
  });
  it('void cancels what is left with a reason, which Avarda requires ("None. Must be specified.")', () => {
    const req = flow(avarda.void).request(after({ kind: 'void' }), creds, s);
    expect(req).toMatchObject({ method: 'POST', path: `/api/partner/payments/${PURCHASE}/cancel` });
    expect(CancelRequest.parse(req.body)).toEqual({ reason: 'Cancelled by the merchant' });
    expect(CancelRequest.parse(flow(avarda.void).request(after({ kind: 'void', reason: 'out of stock' }), creds, s).body)).toEqual({ reason: 'out of stock' });
    expect(flow(avarda.void).response(ok(''), after())).toEqual({ kind: 'VOIDED' });
    expect(flow(avarda.void).response(ok(fixture('cancel-error-400.json'), 400), after())).toMatchObject({
      kind: 'FAILED',
      error_code: '10005',
      error_message: 'Invalid or missing external ID.',
      unified_code: 'UE_2000',
    });
  });
});

describe('avarda refund (a return of activated rows)', () => {
  it('after activation a refund is POST …/return with items (docs: return-order), not …/refund (money not yet delivered)', () => {
    const req = flow(avarda.refund).request(
      after({ kind: 'refund', amount: 29_900, refund_id: 'ref_1', operation_id: 'op_refund_00000000000000000001' }),
      creds,
      s,
    );
    expect(req).toMatchObject({ method: 'POST', path: `/api/partner/payments/${PURCHASE}/return` });
    expect(OrderRequest.parse(req.body)).toEqual({
      orderReference: '0123456789abcdefghijABCDEF'.slice(-20),
      tranId: 'op_refund_00000000000000000001',
      items: [{ description: 'Shirt', notes: 'SKU1', amount: 299, taxCode: '25', taxAmount: 59.8, quantity: 1 }],
    });
  });
  it('a partial refund: one "Return" row for the amount with the order\'s VAT in proportion', () => {
    const body = OrderRequest.parse(flow(avarda.refund).request(after({ kind: 'refund', amount: 10_000, refund_id: 'ref_2' }), creds, s).body);
    expect(body.items).toEqual([{ description: 'Return', amount: 100, taxCode: '25', taxAmount: 20, quantity: 1 }]);
  });
  it("the return answers 204 with no content: refunded; a refusal is UE_6000 with Avarda's message", () => {
    expect(flow(avarda.refund).response(ok('', 204), after({ kind: 'refund' }))).toMatchObject({ kind: 'REFUNDED' });
    // Avarda answers refusals 400; one naming no field of ours is Avarda declining the refund.
    expect(
      flow(avarda.refund).response(
        ok({ Errors: [{ Property: '', ErrorCode: 0, ErrorMessage: 'The invoice is with debt collection' }], StatusCode: 400 }, 400),
        after(),
      ),
    ).toMatchObject({
      kind: 'FAILED',
      error_code: '0',
      error_message: 'The invoice is with debt collection',
      unified_code: 'UE_6000',
    });
    expect(flow(avarda.refund).response(ok(fixture('error-400.json'), 400), after())).toMatchObject({ error_code: 'Items[0].Amount', unified_code: 'UE_2000' });
  });
});

describe('avarda completion callback', () => {
  it('the published {purchaseId} is a hint to read that purchase; anything else is left', () => {
    expect(avarda.notification!.parse(JSON.stringify(fixture('callback.json')))).toEqual({
      object: 'hint',
      connector_transaction_id: 'XXXXXX',
      event: 'purchase_completed',
    });
    expect(avarda.notification!.parse('not json')).toMatchObject({ object: 'unknown' });
    expect(avarda.notification!.parse('{"orderId":"1"}')).toMatchObject({ object: 'unknown' });
  });
});

describe("avarda mandates (recurring payments: the WooCommerce plugin's subscription support)", () => {
  const mandate = (kind: 'new' | 'setup' | 'recurring', connector_mandate_id: string | null = null) => ({ kind, mandate_id: 'man_1', connector_mandate_id });
  const REF = `${PURCHASE}:5a64a5847abedb9aab8eca79ff54fb59`;

  it('the manifest declares recurring payments on invoice, without a zero authorization (none published)', () => {
    expect(avarda.manifest.mandates).toEqual({ payment_method_types: ['invoice', 'subscription_invoice'], setup_mandate: false });
  });

  it('a payment setting up a mandate offers recurring payments in its checkout (recurringPayments "checked"); others do not', () => {
    const body = InitializeRequest.parse(flow(avarda.authorize).request(job({ mandate: mandate('new') }), creds, s).body);
    expect(body.checkoutSetup).toMatchObject({ recurringPayments: 'checked', hideUnsupportedRecurringPaymentMethods: true });
    const plain = InitializeRequest.parse(flow(avarda.authorize).request(job(), creds, s).body);
    expect(plain.checkoutSetup).not.toHaveProperty('recurringPayments');
    expect(plain.checkoutSetup).not.toHaveProperty('hideUnsupportedRecurringPaymentMethods');
  });

  it("once Completed, the purchase's recurring payment token (the plugin's path) is the mandate's reference, with its purchase", () => {
    const sync = flow(avarda.sync);
    const read = ok(fixture('payment-status-recurring.json'));
    expect(PaymentStatus.parse(fixture('payment-status-recurring.json')).paymentMethods?.selectedPayment?.recurringPaymentToken).toBe(
      '5a64a5847abedb9aab8eca79ff54fb59',
    );
    expect(sync.response(read, after({ mandate: mandate('new') }))).toEqual({
      kind: 'AUTHORIZED',
      connector_transaction_id: 'string',
      connector_mandate_id: 'string:5a64a5847abedb9aab8eca79ff54fb59',
    });
    // Read from the answer (a sync job need not carry the mandate part); without a token (recurring payments not
    // offered, or the customer unticked the consent), no reference.
    expect(sync.response(read, after())).toMatchObject({ connector_mandate_id: 'string:5a64a5847abedb9aab8eca79ff54fb59' });
    expect(sync.response(status('Completed'), after({ mandate: mandate('new') }))).toEqual({ kind: 'AUTHORIZED', connector_transaction_id: 'string' });
  });

  it("a recurring charge: POST …/{first purchase}/authorizerecurringpayment with the token, items and OrderReference (the plugin's body)", () => {
    const req = flow(avarda.authorize).request(job({ mandate: mandate('recurring', REF) }), creds, s);
    expect(req).toMatchObject({
      method: 'POST',
      path: `/api/partner/payments/${PURCHASE}/authorizerecurringpayment`,
      headers: { authorization: 'Bearer jwt' },
    });
    const body = RecurringRequest.parse(req.body);
    expect(body).toEqual({
      recurringPaymentToken: '5a64a5847abedb9aab8eca79ff54fb59',
      items: [{ description: 'Shirt', notes: 'SKU1', amount: 299, taxCode: '25', taxAmount: 59.8, quantity: 1 }],
      orderReference: '0123456789abcdefghijABCDEF'.slice(-20),
    });
    // The plugin's own body parses by the same schema (its purchase_id, also in the path, is not ours to send).
    expect(RecurringRequest.parse(fixture('recurring-request.json'))).toMatchObject({ recurringPaymentToken: '5a64a5847abedb9aab8eca79ff54fb59' });
    // A mandate without an Avarda reference is not sent.
    expect(() => flow(avarda.authorize).request(job({ mandate: mandate('recurring', 'nonsense') }), creds, s)).toThrow(/no Avarda reference/);
  });

  it("the answer names the new purchase: authorized without the customer; a refused token is declined with Avarda's words", () => {
    const authorize = flow(avarda.authorize);
    const j = job({ mandate: mandate('recurring', REF) });
    expect(authorize.response(ok(fixture('recurring-response.json')), j)).toEqual({ kind: 'AUTHORIZED', connector_transaction_id: '5f1b6e0c2a9d4e7f8a3b1c2d' });
    const refused = {
      Errors: [{ Property: 'RecurringPaymentToken', ErrorCode: 0, ErrorMessage: 'The recurring payment token is not valid' }],
      StatusCode: 400,
    };
    expect(authorize.response(ok(refused, 400), j)).toMatchObject({
      kind: 'DECLINED',
      error_code: 'RecurringPaymentToken',
      error_message: 'RecurringPaymentToken: The recurring payment token is not valid',
    });
    // Avarda's published recurring codes (checkout-3/error-codes): 110 (token not valid) and 120 (token expired) end
    // the mandate (UE_7000); 121 (limit reached) and 122 (origin purchase not completed) leave it standing.
    const coded = (code: number, message: string) =>
      ok({ Errors: [{ Property: 'RecurringPaymentToken', ErrorCode: code, ErrorMessage: message }], StatusCode: 400 }, 400);
    const invalid =
      'Authorize recurring payment can not be processed. Invalid recurring payment token or origin purchase does not meet conditions for recurring payments';
    expect(authorize.response(coded(110, invalid), j)).toMatchObject({ kind: 'DECLINED', error_code: '110', unified_code: 'UE_7000' });
    expect(authorize.response(coded(120, 'Authorize recurring payment can not be processed. Recurring payment token expired.'), j)).toMatchObject({
      kind: 'DECLINED',
      error_code: '120',
      unified_code: 'UE_7000',
    });
    expect(authorize.response(coded(121, 'Authorize recurring payment can not be processed. Recurring payment limit reached'), j)).toMatchObject({
      kind: 'DECLINED',
      error_code: '121',
      unified_code: 'UE_3000',
    });
    expect(authorize.response(ok({ errorMessage: 'down' }, 500), j)).toMatchObject({ kind: 'FAILED' });
    expect(() => authorize.response(ok({}), j)).toThrow(UnexpectedAnswer);
  });
});
