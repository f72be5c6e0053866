// avarda's flows, pure: our jobs -> Avarda's requests (compared with the reference sheet's examples in
// fixtures/requests.json), and Avarda's documented answers (fixtures/answers.json) -> outcomes. No stack.
import { readFileSync } from 'node:fs';
import { describe, expect, it, vi } from 'vitest';
import type { ConnectorJob } from '../../../domain/job.ts';
import { FLOWS } from '../manifest.ts';
import { UnexpectedAnswer } from '../types.ts';
import { testSession } from '../kit/testing.ts';
import { connector as avarda } from './index.ts';
import { itemsOf } from './request.ts';

const answers: Record<string, { status: number; body: any }> = JSON.parse(readFileSync(new URL('./fixtures/answers.json', import.meta.url), 'utf8'));
const requests: Record<string, any> = JSON.parse(readFileSync(new URL('./fixtures/requests.json', import.meta.url), 'utf8'));
const creds = { auth_type: 'BodyKey' as const, api_key: 'avarda_sandbox_client', key1: 'avarda_sandbox_client_secret' };
const s = { access_token: 'jwt', ...testSession({ merchant_id: 'mer_1', merchant_connector_id: 'mca_1' }) };
const a = (name: string) => answers[name]!;
const flow = <T>(f: T | undefined): T => { if (!f) throw new Error('flow absent'); return f; };

/** The sheet's example purchase (one shirt, 299.00 SEK incl. 25 % VAT) as our job. */
const job = (over: Partial<ConnectorJob> = {}): ConnectorJob => ({
  merchant_id: 'mer_1', payment_id: 'pay_000000000000000000000000001', operation_id: 'op_1', kind: 'authorize', connector: 'avarda',
  merchant_connector_id: 'mca_1', amount: 29_900, currency: 'SEK', capture_method: 'manual', connector_transaction_id: null,
  customer_email: 'a@example.se', return_url: 'https://shop.example/return', merchant_order_reference_id: '1001', mode: 'execute', sync_round: 0,
  order: {
    customer: { id: null, name: 'A B', email: 'a@example.se', phone: '+46701234567', phone_country_code: null },
    billing: { address: { first_name: 'A', last_name: 'B', line1: 'Storgatan 1', zip: '11122', city: 'Stockholm', country: 'SE' } },
    shipping: { address: { first_name: 'A', last_name: 'B', line1: 'Storgatan 1', zip: '11122', city: 'Stockholm', country: 'SE' } },
    order_details: [{ product_name: 'Shirt', product_id: 'SKU1', quantity: 1, amount: 29_900, total_tax_amount: 5_980, tax_percentage: 25 }],
    order_tax_amount: 5_980, metadata: { customer_locale: 'en-SE', terms_and_conditions_url: 'https://shop.example/terms' },
    browser_info: null, description: null, payment_method_type: 'invoice', birth_date: null, gender: null, locale: null,
  },
  ...over,
});
const after = (over: Partial<ConnectorJob> = {}) => job({ connector_transaction_id: '2b7e2f7c0f2a4c5e9d1a3b4c', ...over });

describe('avarda manifest', () => {
  it('lists exactly the flows the connector implements; token flow; unsigned callback; follow-up automatic capture', () => {
    const implemented = FLOWS.filter((f) => f === 'notification' ? !!avarda.notification : !!avarda[f]);
    expect([...avarda.manifest.flows].sort()).toEqual([...implemented].sort());
    expect(avarda.token).toBeDefined();
    expect(avarda.manifest).toMatchObject({ webhook: { scheme: 'unsigned' }, automatic_capture: 'follow_up', amount_unit: 'major', currencies: ['SEK', 'NOK', 'DKK', 'EUR'] });
    expect(avarda.manifest.credentials.safeParse(creds).success).toBe(true);
    expect(avarda.manifest.credentials.safeParse({ auth_type: 'BodyKey', api_key: 'x' }).success).toBe(false);
  });
});

describe('avarda token', () => {
  it('asks with clientId and clientSecret (the sheet\'s body) and reads the token with its lifetime', () => {
    expect(avarda.token!.request(creds)).toMatchObject({ method: 'POST', path: '/api/partner/tokens', body: requests.token });
    vi.useFakeTimers({ now: Date.parse('2026-05-04T10:00:00.000Z') });
    try {
      // tokenExpirationUtc (11:00) minus now (10:00).
      expect(avarda.token!.response(a('token'))).toEqual({ access_token: a('token').body.token, expires_in_s: 3600 });
      vi.setSystemTime(Date.parse('2026-05-04T11:00:30.000Z'));
      expect(avarda.token!.response(a('token'))).toMatchObject({ expires_in_s: 1 });
    } finally {
      vi.useRealTimers();
    }
  });
  it('without an expiry takes the plugin\'s 55 minutes; a refusal is the job\'s failure with Avarda\'s title and detail', () => {
    expect(avarda.token!.response(a('token_without_expiry'))).toEqual({ access_token: a('token').body.token, expires_in_s: 3300 });
    expect(avarda.token!.response(a('token_refused'))).toEqual({
      kind: 'FAILED', error_code: 'Unauthorized', error_message: 'Invalid client credentials', unified_code: 'UE_4000', unified_message: expect.any(String),
    });
  });
});

describe('avarda authorize (initialize purchase)', () => {
  it('is the sheet\'s example: checkoutSetup, items in decimals with taxCode/taxAmount, orderReference, b2C', () => {
    const req = flow(avarda.authorize).request(job(), creds, s);
    expect(req).toMatchObject({ method: 'POST', path: '/api/partner/payments', headers: { authorization: 'Bearer jwt' } });
    const body = req.body as any;
    expect(body.items).toEqual(requests.initialize.items);
    expect(body.extraIdentifiers).toEqual(requests.initialize.extraIdentifiers);
    expect(body.b2C).toEqual(requests.initialize.b2C);
    expect(body.checkoutSetup).toMatchObject({ mode: 'B2C', language: 'English', invoicingCountries: ['SE'], deliveryCountries: ['SE'], termsAndConditionsUrl: 'https://shop.example/terms' });
    expect(body.checkoutSetup.completedNotificationUrl).toBe('https://gateway.example/webhooks/mer_1/mca_1');
    expect(Object.keys(body).sort()).toEqual(Object.keys(requests.initialize).sort());
  });
  it('B2B: b2B with the company as invoicingAddress.name; Swedish locale -> Swedish', () => {
    const b2b = job({ order: { ...job().order!, metadata: { buyer_type: 'business', company_name: 'ACME AB', customer_locale: 'sv-SE' } } });
    const body = flow(avarda.authorize).request(b2b, creds, s).body as any;
    expect(body.checkoutSetup).toMatchObject({ mode: 'B2B', language: 'Swedish' });
    expect(body.b2C).toBeUndefined();
    expect(body.b2B.invoicingAddress).toMatchObject({ name: 'ACME AB', address1: 'Storgatan 1', country: 'SE' });
  });
  it('items: unit gross and VAT; a line that does not divide by its quantity becomes one item "3 x …"', () => {
    expect(itemsOf([{ product_name: 'Lamp', quantity: 2, amount: 9_520, total_tax_amount: 1_520, tax_percentage: 19, product_id: 'sku-lamp' }], 'EUR'))
      .toEqual([{ description: 'Lamp', notes: 'sku-lamp', amount: 47.6, taxCode: '19', taxAmount: 7.6, quantity: 2 }]);
    expect(itemsOf([{ product_name: 'Shoe', quantity: 3, amount: 1_000, tax_percentage: 25 }], 'SEK'))
      .toEqual([{ description: '3 x Shoe', amount: 10, taxCode: '25', taxAmount: 2, quantity: 1 }]);
    expect(itemsOf([{ product_name: 'A very long product name that Avarda cuts', amount: 100, total_tax_amount: 20 }], 'SEK')[0]!.description).toHaveLength(34);
  });
  it('without lines (or lines not adding up to the amount): one item for the whole amount with the order\'s tax', () => {
    const body = flow(avarda.authorize).request(job({ order: { ...job().order!, order_details: null, description: 'Order 1001' } }), creds, s).body as any;
    expect(body.items).toEqual([{ description: 'Order 1001', amount: 299, taxCode: '25', taxAmount: 59.8, quantity: 1 }]);
  });
  it('the answer is the customer step: the purchase id, and the page embedding the form with the purchase JWT', () => {
    const o = flow(avarda.authorize).response(a('initialized'), job(), undefined, s);
    expect(o).toMatchObject({ kind: 'CUSTOMER_ACTION', connector_transaction_id: '2b7e2f7c0f2a4c5e9d1a3b4c' });
    const u = new URL(o.redirect_url!);
    expect(u.pathname).toMatch(/\/checkout$/);
    expect(u.searchParams.get('purchaseJwt')).toBe(a('initialized').body.jwt);
    expect(u.searchParams.get('redirectUrl')).toBe('https://shop.example/return');
  });
  it('a validation error: the first field as the code, every field\'s messages as the text, UE_2000', () => {
    expect(flow(avarda.authorize).response(a('validation_error'), job())).toMatchObject({
      kind: 'FAILED', error_code: 'Items[0].Description',
      error_message: 'Items[0].Description: The Description field is required.; Items[0].TaxCode: The TaxCode field is required.', unified_code: 'UE_2000',
    });
    expect(() => flow(avarda.authorize).response({ status: 200, body: { purchaseId: 'x' } }, job())).toThrow(UnexpectedAnswer);
  });
});

describe('avarda sync (read the purchase)', () => {
  const sync = flow(avarda.sync);
  it('GETs the purchase with the token', () => {
    expect(sync.request(after({ mode: 'sync' }), creds, s)).toEqual({ method: 'GET', path: '/api/partner/payments/2b7e2f7c0f2a4c5e9d1a3b4c', headers: { authorization: 'Bearer jwt' } });
  });
  it('maps <mode>.step.current: Completed authorized, TimedOut declined, WaitingFor… pending, others the customer\'s turn', () => {
    const id = '2b7e2f7c0f2a4c5e9d1a3b4c';
    expect(sync.response(a('read_completed'), after())).toEqual({ kind: 'AUTHORIZED', connector_transaction_id: id });
    expect(sync.response(a('read_completed_b2b'), after())).toEqual({ kind: 'AUTHORIZED', connector_transaction_id: '3c8f' });
    expect(sync.response(a('read_timed_out'), after())).toMatchObject({ kind: 'DECLINED', error_code: 'TimedOut', unified_code: 'UE_1000' });
    expect(sync.response(a('read_waiting_bankid'), after())).toEqual({ kind: 'PENDING', connector_transaction_id: id });
    expect(sync.response(a('read_initialized'), after())).toEqual({ kind: 'CUSTOMER_ACTION', connector_transaction_id: id });
    expect(sync.response(a('read_not_found'), after())).toMatchObject({ kind: 'FAILED', error_code: 'Not Found', error_message: 'Purchase not found', unified_code: 'UE_2000' });
    expect(sync.response(a('token_expired'), after())).toMatchObject({ kind: 'FAILED', error_code: 'Unauthorized', unified_code: 'UE_4000' });
    expect(() => sync.response({ status: 200, body: { purchaseId: id, mode: 'B2C' } }, after())).toThrow(UnexpectedAnswer);
  });
});

describe('avarda capture, void, refund', () => {
  it('capture of the whole order activates its items (the sheet\'s activation body)', () => {
    const req = flow(avarda.capture).request(after({ kind: 'capture' }), creds, s);
    expect(req).toMatchObject({ method: 'POST', path: '/api/partner/payments/2b7e2f7c0f2a4c5e9d1a3b4c/order', body: requests.activate });
    expect(flow(avarda.capture).response(a('activated'), after())).toEqual({ kind: 'CAPTURED' });
    expect(flow(avarda.capture).response(a('activation_over'), after())).toMatchObject({ kind: 'FAILED', error_code: 'Items', unified_code: 'UE_3000' });
  });
  it('a partial capture: the capture\'s lines, else one delivery item with the tax in proportion', () => {
    const lines = [{ product_name: 'Socks', product_id: 'S2', quantity: 2, amount: 10_000, total_tax_amount: 2_000, tax_percentage: 25 }];
    const byLines = flow(avarda.capture).request(after({ kind: 'capture', amount: 10_000, capture_details: { capture_metadata: null, metadata: null, order_details: lines } }), creds, s).body as any;
    expect(byLines.items).toEqual([{ description: 'Socks', notes: 'S2', amount: 50, taxCode: '25', taxAmount: 10, quantity: 2 }]);
    const byAmount = flow(avarda.capture).request(after({ kind: 'capture', amount: 10_000 }), creds, s).body as any;
    expect(byAmount.items).toEqual([{ description: 'Delivery', amount: 100, taxCode: '25', taxAmount: 20, quantity: 1 }]);
  });
  it('void cancels what is left', () => {
    expect(flow(avarda.void).request(after({ kind: 'void' }), creds, s)).toMatchObject({ method: 'POST', path: '/api/partner/payments/2b7e2f7c0f2a4c5e9d1a3b4c/cancel', body: requests.cancel });
    expect(flow(avarda.void).response(a('cancelled'), after())).toEqual({ kind: 'VOIDED' });
  });
  it('refund by amount: a 2-decimal string, the reason as the note (the sheet\'s body)', () => {
    const req = flow(avarda.refund).request(after({ kind: 'refund', amount: 10_000, refund_id: 'ref_1', reason: 'reason' }), creds, s);
    expect(req).toMatchObject({ method: 'POST', path: '/api/partner/payments/2b7e2f7c0f2a4c5e9d1a3b4c/refund', body: requests.refund });
    expect((flow(avarda.refund).request(after({ kind: 'refund', amount: 5, refund_id: 'ref_2' }), creds, s).body as any)).toMatchObject({ amount: '0.05', note: 'Refund ref_2' });
    expect(flow(avarda.refund).response(a('refunded'), after())).toEqual({ kind: 'REFUNDED' });
    expect(flow(avarda.refund).response(a('refund_rejected'), after())).toMatchObject({
      kind: 'FAILED', error_code: 'Amount', error_message: 'Amount: The refund was rejected: the invoice is with debt collection', unified_code: 'UE_6000',
    });
  });
});

describe('avarda completion callback', () => {
  it('{purchaseId} is a hint to read that purchase; anything else is left', () => {
    expect(avarda.notification!.parse(JSON.stringify(a('callback')))).toEqual({ object: 'hint', connector_transaction_id: '2b7e2f7c0f2a4c5e9d1a3b4c', event: 'purchase_completed' });
    expect(avarda.notification!.parse('not json')).toMatchObject({ object: 'unknown' });
    expect(avarda.notification!.parse('{"orderId":"1"}')).toMatchObject({ object: 'unknown' });
  });
});
