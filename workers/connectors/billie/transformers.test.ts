// billie's flows, pure: the token request and answer, our jobs -> Billie's requests (decimal amounts {net, gross, tax}),
// Billie's published examples and shapes (fixtures/published/) and our scenario answers (fixtures/answers.json) ->
// outcomes; every request checked by Billie's rules (fixtures/rules.json).
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import type { ConnectorJob, ProviderOrder } from '../../../domain/job.ts';
import { FLOWS } from '../manifest.ts';
import { flowFor, UnexpectedAnswer } from '../types.ts';
import { connector as billie } from './index.ts';
import { amountOf, streetAndNumber } from './request.ts';
import { firstBreach, RequestRules } from '../../../lib/request-rules.ts';

const answers: Record<string, { status: number; body: unknown }> = JSON.parse(readFileSync(new URL('./fixtures/answers.json', import.meta.url), 'utf8'));
const a = (name: string) => answers[name]!;
/** Billie's published examples and shapes (fixtures/published/, listed in fixtures/SOURCES.md) and request rules. */
const published = (name: string) => readFileSync(new URL(`./fixtures/published/${name}`, import.meta.url), 'utf8');
const answer = (name: string, status = 200) => ({ status, body: JSON.parse(published(name)) as unknown, headers: {} });
const RULES = JSON.parse(readFileSync(new URL('./fixtures/rules.json', import.meta.url), 'utf8'));
const rules = (call: 'create_order' | 'create_invoice' | 'create_credit_note' | 'token') => RequestRules.parse(RULES[call]);
const creds = { api_key: 'client_1', key1: 'secret_1' };
const session = { access_token: 'tok_1' };
const H = { authorization: 'Bearer tok_1' };
const ORDER = '5ffdc1ad-7a3b-4c2e-9d1f-0a1b2c3d4e5f';
const INVOICE = '7d6c5b4a-3f2e-4d1c-8b7a-6f5e4d3c2b1a';
const order = (over: Partial<ProviderOrder> = {}): ProviderOrder => ({
  customer: { id: null, name: 'Jane Roe', email: 'jane@acme.example', phone: null, phone_country_code: null },
  billing: { address: { line1: 'Hauptstr. 1a', city: 'Berlin', zip: '10115', country: 'DE', first_name: 'Jane', last_name: 'Roe' } },
  shipping: null,
  order_details: [{ product_name: 'Desk', quantity: 2, amount: 11900, total_tax_amount: 1900, product_id: 'sku-desk' }],
  order_tax_amount: 1900,
  metadata: {
    buyer_type: 'business',
    company_name: 'ACME GmbH',
    legal_form: 'GmbH',
    company_vat_id: 'DE123456789',
    net_term: 60,
    invoice_url: 'https://shop.example/inv.pdf',
  },
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
  payment_id: 'pay_000000000000000000000000001',
  operation_id: 'op_1',
  kind: 'authorize',
  connector: 'billie',
  amount: 11900,
  currency: 'EUR',
  capture_method: 'manual',
  connector_transaction_id: null,
  customer_email: 'jane@acme.example',
  return_url: null,
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
const { authorize, sync, capture, void: voidFlow, refund, token } = billie;

describe('billie manifest and token', () => {
  it('lists exactly its flows; a token flow; webhooks carry the agreed secret in X-Api-Key (no signature)', () => {
    expect(FLOWS.filter((f) => billie[f] !== undefined)).toEqual([...billie.manifest.flows]);
    expect(billie.manifest.webhook).toEqual({ scheme: 'shared_secret', header: 'x-api-key' });
    expect(billie.manifest.amount_unit).toBe('major');
    expect(billie.manifest.credentials.safeParse(billie.manifest.sandbox_account_details).success).toBe(true);
    expect(billie.manifest.credentials.safeParse({ auth_type: 'BodyKey', api_key: 'x' }).success).toBe(false);
  });
  it("POST /oauth/token with the client credentials; the answer is the token and its lifetime, a refusal the job's outcome", () => {
    expect(flow(token).request(creds)).toEqual({
      method: 'POST',
      path: '/billie/api/v2/oauth/token',
      body: { grant_type: 'client_credentials', client_id: 'client_1', client_secret: 'secret_1' },
    });
    expect(flow(token).response(a('token'))).toEqual({ access_token: 'eyJ0eXAiOiJKV1QiLCJhbGciOiJSUzI1NiJ9.sandbox.sig', expires_in_s: 28800 });
    expect(flow(token).response(a('token_refused'))).toMatchObject({
      kind: 'FAILED',
      error_code: 'invalid_client',
      error_message: 'Client authentication failed',
      unified_code: 'UE_4000',
    });
    expect(() => flow(token).response({ status: 200, body: { access_token: 'x' } })).toThrow(UnexpectedAnswer);
  });
});

describe('billie requests', () => {
  it('decimal amounts are exact: net = gross − tax', () => {
    expect(amountOf(11900, 1900, 'EUR')).toEqual({ net: 100, gross: 119, tax: 19 });
    expect(amountOf(5950, 950, 'EUR')).toEqual({ net: 50, gross: 59.5, tax: 9.5 });
    expect(amountOf(1, 0, 'EUR')).toEqual({ net: 0.01, gross: 0.01, tax: 0 });
    expect(streetAndNumber('Hauptstr. 1a', undefined)).toEqual({ street: 'Hauptstr.', house_number: '1a' });
    expect(streetAndNumber('Am Markt', '5')).toEqual({ street: 'Am Markt', house_number: '5' });
  });
  it('authorize: POST /orders with the bearer token, the debtor company and person, duration = net_term', () => {
    expect(flow(authorize).request(job(), creds, session)).toEqual({
      method: 'POST',
      path: '/billie/api/v2/orders',
      idempotencyKey: 'op_1',
      headers: H,
      body: {
        amount: { net: 100, gross: 119, tax: 19 },
        duration: 60,
        external_code: '1001',
        debtor: {
          merchant_customer_id: 'jane@acme.example',
          name: 'ACME GmbH',
          legal_form: 'GmbH',
          tax_id: 'DE123456789',
          company_address: { street: 'Hauptstr.', house_number: '1a', city: 'Berlin', postal_code: '10115', country: 'DE' },
        },
        debtor_person: { email: 'jane@acme.example', first_name: 'Jane', last_name: 'Roe' },
        line_items: [{ external_id: 'sku-desk', title: 'Desk', quantity: 2, amount: { net: 100, gross: 119, tax: 19 } }],
      },
    });
  });
  it('sync reads the order; capture is an invoice; void cancels; refund is a credit note on the invoice', () => {
    const s = job({ mode: 'sync', connector_transaction_id: ORDER });
    expect(flowFor(s)).toBe('sync');
    expect(flow(sync).request(s, creds, session)).toEqual({ method: 'GET', path: `/billie/api/v2/orders/${ORDER}`, headers: H });
    const cap = job({
      kind: 'capture',
      operation_id: 'op_2',
      amount: 5950,
      connector_transaction_id: ORDER,
      capture_details: { capture_metadata: { invoice_data: { merchant_invoice_ref: 'INV-1' } }, metadata: null, order_details: null },
    });
    expect(flow(capture).request(cap, creds, session)).toEqual({
      method: 'POST',
      path: '/billie/api/v2/invoices',
      idempotencyKey: 'op_2',
      headers: H,
      body: {
        orders: [ORDER],
        external_code: 'INV-1',
        invoice_url: 'https://shop.example/inv.pdf',
        shipping_info: {},
        amount: { net: 50, gross: 59.5, tax: 9.5 },
      },
    });
    expect(flow(voidFlow).request(job({ kind: 'void', operation_id: 'op_3', connector_transaction_id: ORDER }), creds, session)).toEqual({
      method: 'POST',
      path: `/billie/api/v2/orders/${ORDER}/cancel`,
      idempotencyKey: 'op_3',
      headers: H,
      body: {},
    });
    const r = job({
      kind: 'refund',
      operation_id: 'op_4',
      amount: 2000,
      connector_transaction_id: ORDER,
      refund_id: 'ref_1',
      reason: 'damaged',
      connector_capture_id: INVOICE,
    });
    expect(flow(refund).request(r, creds, session)).toEqual({
      method: 'POST',
      path: `/billie/api/v2/invoices/${INVOICE}/credit-notes`,
      idempotencyKey: 'op_4',
      headers: H,
      body: { external_code: 'ref_1', amount: { net: 16.81, gross: 20, tax: 3.19 }, comment: 'damaged' },
    });
  });
});

describe('billie answers -> outcomes', () => {
  it('created -> authorized; declined (HTTP 200) with its decline_reason; waiting (review) -> pending', () => {
    expect(flow(authorize).response(a('order_created'), job())).toEqual({
      kind: 'AUTHORIZED',
      connector_transaction_id: ORDER,
      connector_reference_id: '1001',
    });
    expect(flow(authorize).response(a('order_declined'), job())).toMatchObject({ kind: 'DECLINED', error_code: 'risk_policy', unified_code: 'UE_1000' });
    expect(flow(sync).response(a('order_waiting'), job())).toMatchObject({ kind: 'PENDING', connector_transaction_id: ORDER });
  });
  it("errors: Billie's code and title (with its source)", () => {
    expect(flow(authorize).response(a('validation_error'), job())).toMatchObject({
      kind: 'FAILED',
      error_code: 'request_validation_error',
      error_message: 'debtor.name: This value should not be blank.',
      unified_code: 'UE_2000',
    });
    expect(flow(authorize).response(a('unauthorized'), job())).toMatchObject({ kind: 'FAILED', error_code: 'unauthorized', unified_code: 'UE_4000' });
    expect(flow(voidFlow).response(a('cancel_refused'), job())).toMatchObject({
      kind: 'FAILED',
      error_code: 'order_cancel_not_allowed',
      unified_code: 'UE_3000',
    });
    expect(flow(capture).response(a('invoice_too_much'), job())).toMatchObject({ kind: 'FAILED', error_code: 'request_validation_error' });
    expect(flow(refund).response(a('credit_note_refused'), job())).toMatchObject({
      kind: 'FAILED',
      error_code: 'invoice_not_creditable',
      unified_code: 'UE_6000',
    });
  });
  it('invoice -> captured; cancel 204 -> voided; credit note -> refunded', () => {
    expect(flow(capture).response(a('invoice_created'), job())).toEqual({ kind: 'CAPTURED', connector_transaction_id: INVOICE });
    expect(flow(voidFlow).response({ status: 204, body: null }, job())).toEqual({ kind: 'VOIDED' });
    expect(flow(refund).response(a('credit_note_created'), job())).toEqual({
      kind: 'REFUNDED',
      connector_transaction_id: '1a2b3c4d-5e6f-4a7b-8c9d-0e1f2a3b4c5d',
    });
    expect(() => flow(authorize).response({ status: 200, body: { uuid: ORDER, state: 'approved' } }, job())).toThrow(UnexpectedAnswer);
  });
});

describe('billie webhooks -> notifications', () => {
  // The payload Billie's webhooks page documents: {event, created_at "Y-m-d H:i:s", order_id, order_uuid, ...}.
  const hook = (event: string, extra: Record<string, unknown> = {}) =>
    JSON.stringify({ event, created_at: '2026-11-23 10:15:00', order_id: '1001', order_uuid: ORDER, amount: { net: 100, gross: 119, tax: 19 }, ...extra });
  it('order_approved decides the review: authorized, ordered by created_at', () => {
    expect(billie.notification!.parse(hook('order_approved'))).toEqual({
      object: 'payment',
      connector_transaction_id: ORDER,
      object_id: ORDER,
      provider_updated_at: '2026-11-23T10:15:00Z',
      outcome: { kind: 'AUTHORIZED', connector_transaction_id: ORDER, connector_reference_id: '1001' },
    });
  });
  it('order_declined -> declined with the reason when given', () => {
    expect(billie.notification!.parse(hook('order_declined', { decline_reason: 'risk_policy' }))).toMatchObject({
      outcome: { kind: 'DECLINED', error_code: 'risk_policy', unified_code: 'UE_1000' },
    });
  });
  it('other events, other shapes and non-JSON are left (unknown)', () => {
    expect(billie.notification!.parse(hook('invoice_paid_out'))).toMatchObject({ object: 'unknown' });
    expect(billie.notification!.parse(JSON.stringify({ event: 'order_approved' }))).toMatchObject({ object: 'unknown' });
    expect(billie.notification!.parse('event=order_approved')).toMatchObject({ object: 'unknown' });
  });
});

describe("billie against Billie's own material (issue 21)", () => {
  const body = (r: { body?: unknown }) => r.body;
  it('issue 21: debtor.merchant_customer_id is required; a guest order sends the buyer email (the old code sent none)', () => {
    const guest = body(flow(authorize).request(job(), creds, session));
    expect(guest).toMatchObject({ debtor: { merchant_customer_id: 'jane@acme.example' } });
    expect(firstBreach(rules('create_order'), guest)).toBeNull();
    const known = body(flow(authorize).request(job({ order: order({ customer: { ...order().customer!, id: 'cus_42' } }) }), creds, session));
    expect(known).toMatchObject({ debtor: { merchant_customer_id: 'cus_42' } });
    // What the old code sent for a guest: no merchant_customer_id, which Billie's rules refuse.
    expect(firstBreach(rules('create_order'), { ...(guest as object), debtor: { name: 'ACME GmbH' } })).toMatchObject({
      field: 'debtor.merchant_customer_id',
    });
  });
  it('issue 21 (review): an invoice carries shipping_info, which Billie requires (an empty object will do)', () => {
    const cap = job({ kind: 'capture', operation_id: 'op_2', amount: 5950, connector_transaction_id: ORDER });
    const inv = body(flow(capture).request(cap, creds, session));
    expect(inv).toMatchObject({ shipping_info: {} });
    expect(firstBreach(rules('create_invoice'), inv)).toBeNull();
    const withLines = job({
      kind: 'capture',
      operation_id: 'op_3',
      connector_transaction_id: ORDER,
      capture_details: { capture_metadata: null, metadata: null, order_details: order().order_details },
    });
    expect(firstBreach(rules('create_invoice'), body(flow(capture).request(withLines, creds, session)))).toBeNull();
    const { shipping_info: _, ...old } = inv as Record<string, unknown>;
    expect(firstBreach(rules('create_invoice'), old)).toMatchObject({ field: 'shipping_info' });
  });
  it("the credit note and the token request obey Billie's rules", () => {
    const r = job({ kind: 'refund', operation_id: 'op_4', amount: 2000, connector_transaction_id: ORDER, refund_id: 'ref_1', connector_capture_id: INVOICE });
    expect(firstBreach(rules('create_credit_note'), body(flow(refund).request(r, creds, session)))).toBeNull();
    expect(firstBreach(rules('token'), body(flow(token).request(creds)))).toBeNull();
  });
  it("Billie's published answers parse: token, order, invoice, credit note, error", () => {
    expect(flow(token).response(answer('token.json'))).toEqual({ access_token: expect.stringMatching(/^eyJ/), expires_in_s: 28800 });
    expect(flow(sync).response(answer('order.json'), job())).toEqual({
      kind: 'AUTHORIZED',
      connector_transaction_id: '5ffdc1ad-7898-46f9-b604-499e03b4fcf7',
      connector_reference_id: '1234567890',
    });
    expect(flow(capture).response(answer('invoice-created.json', 201), job())).toEqual({
      kind: 'CAPTURED',
      connector_transaction_id: '03f74b37-3a04-4f76-aa88-221d01520e08',
    });
    expect(flow(refund).response(answer('credit-note-created.json', 201), job())).toMatchObject({ kind: 'REFUNDED' });
    expect(flow(authorize).response(answer('error.json', 400), job())).toMatchObject({
      kind: 'FAILED',
      error_code: 'request_validation_error',
      error_message: 'debtor.merchant_customer_id: This value should not be blank.',
      unified_code: 'UE_2000',
    });
  });
  it('issue 21 (review): Billie\'s order-states page spells "cancelled" (its SDK "canceled"): both are read', () => {
    const read = (state: string) => flow(sync).response({ status: 200, body: { ...JSON.parse(published('order.json')), state }, headers: {} }, job());
    expect(read('cancelled')).toMatchObject({ kind: 'DECLINED', error_code: 'canceled' });
    expect(read('canceled')).toMatchObject({ kind: 'DECLINED', error_code: 'canceled' });
    expect(flow(voidFlow).response({ status: 200, body: { ...JSON.parse(published('order.json')), state: 'cancelled' }, headers: {} }, job())).toEqual({
      kind: 'VOIDED',
    });
  });
  it("Billie's published webhooks: order_approved authorizes; order_waiting and invoice_paid_out are left", () => {
    expect(billie.notification!.parse(published('webhook-order-approved.json'))).toEqual({
      object: 'payment',
      connector_transaction_id: '5ffdc1ad-7898-46f9-b604-499e03b4fcf7',
      object_id: '5ffdc1ad-7898-46f9-b604-499e03b4fcf7',
      provider_updated_at: '2023-07-24T14:19:32Z',
      outcome: { kind: 'AUTHORIZED', connector_transaction_id: '5ffdc1ad-7898-46f9-b604-499e03b4fcf7', connector_reference_id: '1234567890' },
    });
    expect(billie.notification!.parse(published('webhook-order-waiting.json'))).toMatchObject({ object: 'unknown' });
    expect(billie.notification!.parse(published('webhook-invoice-paid-out.json'))).toMatchObject({ object: 'unknown' });
  });
});

describe('issue 22: billie keeps no mandates (Billie publishes no recurring charge)', () => {
  it('the manifest declares no mandates, and the README says so under ## Mandates, naming what was searched', () => {
    expect(billie.manifest.mandates ?? null).toBeNull();
    const readme = readFileSync(new URL('./README.md', import.meta.url), 'utf8');
    const mandates = readme.split(/^## /m).filter((s) => s.startsWith('Mandates\n'));
    expect(mandates).toHaveLength(1);
    expect(mandates[0]).toMatch(/^None \(issue 22\): Billie publishes no(thing about)? recurring/m);
    expect(mandates[0]).toContain('Searched:');
  });
});
