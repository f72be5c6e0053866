// mondu's flows, pure: our jobs -> Mondu's requests, and recorded Mondu answers (fixtures/answers.json, the reference
// sheet's examples where it has them) -> outcomes; webhook bodies (fixtures/notifications.json) -> what they say.
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import type { ConnectorJob, ProviderOrder } from '../../../domain/job.ts';
import { verifySignature, signBody } from '../kit/verify.ts';
import { FLOWS } from '../manifest.ts';
import { flowFor, UnexpectedAnswer } from '../types.ts';
import { connector as mondu } from './index.ts';
import { taxShare } from '../kit/order.ts';
import { firstBreach, RequestRules } from '../../../lib/request-rules.ts';

const answers: Record<string, { status: number; body: unknown }> = JSON.parse(readFileSync(new URL('./fixtures/answers.json', import.meta.url), 'utf8'));
const a = (name: string) => answers[name]!;
const read = (file: string) => JSON.parse(readFileSync(new URL(`./fixtures/${file}`, import.meta.url), 'utf8'));
/** Mondu's published example `name` (fixtures/published/, SOURCES.md), as an answer with HTTP `status`. */
const published = (name: string, status = 200) => ({ status, body: read(`published/${name}.json`) });
const rules = (call: 'order' | 'confirm' | 'invoice') => RequestRules.parse(read('rules.json')[call]);
const creds = { api_key: 'mondu_test_token' };
const H = { 'api-token': 'mondu_test_token' };
const ORDER = '6f3c9a8e-2b1d-4c7e-9f0a-1b2c3d4e5f60';
const INVOICE = '0b1c2d3e-4f50-4617-8293-a4b5c6d7e8f9';
const order = (over: Partial<ProviderOrder> = {}): ProviderOrder => ({
  customer: { id: 'cus_1', name: 'Jane Roe', email: 'jane@acme.example', phone: '+49301234567', phone_country_code: null },
  billing: { address: { line1: 'Str 1', city: 'Berlin', zip: '10115', country: 'DE', first_name: 'Jane', last_name: 'Roe' }, email: 'jane@acme.example' },
  shipping: null,
  order_details: [
    { product_name: 'Desk', quantity: 2, amount: 9520, total_tax_amount: 1520, product_id: 'sku-desk', product_type: 'physical' },
    { product_name: 'Shipping', quantity: 1, amount: 2380, total_tax_amount: 380, category: 'shipping_costs' },
  ],
  order_tax_amount: 1900,
  metadata: {
    buyer_type: 'business',
    company_name: 'ACME GmbH',
    legal_form: 'GmbH',
    net_term: 30,
    customer_locale: 'de-DE',
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
  connector: 'mondu',
  amount: 11900,
  currency: 'EUR',
  capture_method: 'manual',
  connector_transaction_id: null,
  customer_email: 'jane@acme.example',
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
const { authorize, sync, capture, void: voidFlow, refund } = mondu;

describe('mondu manifest', () => {
  it('lists exactly the flows the connector implements; no token flow (a static Api-Token)', () => {
    expect(FLOWS.filter((f) => mondu[f] !== undefined)).toEqual([...mondu.manifest.flows]);
    expect(mondu.token).toBeUndefined();
    expect(mondu.manifest.customers).toEqual(['B2B']);
    expect(mondu.manifest.amount_unit).toBe('minor');
  });
  it('HeaderKey credentials; the sandbox account fits them', () => {
    expect(mondu.manifest.credentials.safeParse(mondu.manifest.sandbox_account_details).success).toBe(true);
    expect(mondu.manifest.credentials.safeParse({ auth_type: 'HeaderKey' }).success).toBe(false);
  });
  it('webhooks: X-MONDU-SIGNATURE, lowercase hex HMAC-SHA256 of the raw body', () => {
    const spec = mondu.manifest.webhook as Extract<typeof mondu.manifest.webhook, { scheme: 'hmac' }>;
    expect(spec).toEqual({ scheme: 'hmac', signature_header: 'x-mondu-signature', algorithm: 'sha256', encoding: 'hex' });
    const body = '{"topic":"order/confirmed"}';
    // What the WooCommerce plugin's SignatureVerifier computes, hash_hmac('sha256', body, secret) (here by openssl).
    expect(signBody(spec, 'whsec', body)).toBe('4a9a790d7d8dd44f8e3020530fc03442fc8c64d32d589175cf81c52151fbe3f5');
    expect(verifySignature(spec, 'whsec', body, signBody(spec, 'whsec', body).toUpperCase())).toBe(true);
  });
});

describe('mondu requests', () => {
  it('authorize: POST /orders in cents, gross = amount, tax = order_tax_amount, lines from order_details, the authorization flow', () => {
    const req = flow(authorize).request(job(), creds);
    expect(req).toEqual({
      method: 'POST',
      path: '/mondu/api/v1/orders',
      idempotencyKey: 'op_1',
      headers: H,
      body: {
        payment_method: 'invoice',
        currency: 'EUR',
        external_reference_id: '1001',
        gross_amount_cents: 11900,
        net_price_cents: 10000,
        tax_cents: 1900,
        net_term: 30,
        buyer: {
          email: 'jane@acme.example',
          first_name: 'Jane',
          last_name: 'Roe',
          company_name: 'ACME GmbH',
          legal_form: 'GmbH',
          phone: '+49301234567',
          external_reference_id: 'cus_1',
          is_registered: true,
        },
        billing_address: { address_line1: 'Str 1', city: 'Berlin', zip_code: '10115', country_code: 'DE' },
        shipping_address: { address_line1: 'Str 1', city: 'Berlin', zip_code: '10115', country_code: 'DE' },
        lines: [
          {
            shipping_price_cents: 2000,
            discount_cents: 0,
            line_items: [
              {
                title: 'Desk',
                quantity: 2,
                external_reference_id: 'sku-desk',
                product_id: 'sku-desk',
                item_type: 'PHYSICAL',
                net_price_per_item_cents: 4000,
                net_price_cents: 8000,
                tax_cents: 1520,
              },
            ],
          },
        ],
        success_url: 'https://shop.example/return',
        cancel_url: 'https://shop.example/return',
        declined_url: 'https://shop.example/return',
        state_flow: 'authorization_flow',
        source: 'hosted',
        language: 'de',
      },
    });
  });
  it("the payment method type picks Mondu's payment_method; the payment id is the reference without merchant_order_reference_id", () => {
    const body = flow(authorize).request(
      job({ merchant_order_reference_id: null, order: order({ payment_method_type: 'installment_direct_debit', order_tax_amount: null }) }),
      creds,
    ).body as any;
    expect(body.payment_method).toBe('installment');
    expect(body.external_reference_id).toBe('pay_000000000000000000000000001');
    expect(body.tax_cents).toBe(1900);
  });
  it('a status sync reads the order first; a sync before the order exists repeats the create with the same key', () => {
    const synced = job({ mode: 'sync', connector_transaction_id: ORDER });
    expect(flowFor(synced)).toBe('sync');
    // issue 21: the first call of a sync is GET /orders/{uuid} (the plugins read before they confirm), never a confirm.
    expect(flow(sync).request(synced, creds)).toEqual({ method: 'GET', path: `/mondu/api/v1/orders/${ORDER}`, headers: H });
    expect(flowFor(job({ mode: 'sync' }))).toBe('authorize');
  });
  it('issue 21: the sync confirms only an order the buyer authorized, once, with our order number', () => {
    const synced = job({ mode: 'sync', connector_transaction_id: ORDER });
    const next = flow(flow(sync).next);
    const read = (state: string) => ({ status: 200, body: { order: { uuid: ORDER, state, external_reference_id: '1001' } } });
    expect(next(synced, creds, [read('authorized')])).toEqual({
      method: 'POST',
      path: `/mondu/api/v1/orders/${ORDER}/confirm`,
      headers: H,
      body: { external_reference_id: '1001' },
    });
    // Already decided, under review, or not yet authorized: no confirm (the old code confirmed on every sync).
    for (const state of ['created', 'data_required', 'pending', 'confirmed', 'declined', 'canceled', 'shipped']) {
      expect(next(synced, creds, [read(state)])).toBeNull();
    }
    // After the confirm: no third call.
    expect(next(synced, creds, [read('authorized'), a('order_confirmed')])).toBeNull();
    // An answer that does not parse asks for no confirm (the response then names it).
    expect(next(synced, creds, [{ status: 200, body: { nope: true } }])).toBeNull();
  });
  it("the requests obey Mondu's published rules (fixtures/rules.json) and match its published confirm request", () => {
    const created = flow(authorize).request(job(), creds).body;
    expect(firstBreach(rules('order'), created)).toBeNull();
    for (const t of ['installment_invoice', 'installment_direct_debit', 'direct_debit']) {
      expect(firstBreach(rules('order'), flow(authorize).request(job({ order: order({ payment_method_type: t }) }), creds).body)).toBeNull();
    }
    // A language Mondu's enum lacks is left out (Mondu's default, en, applies).
    const pl = flow(authorize).request(job({ order: order({ metadata: { company_name: 'ACME GmbH', customer_locale: 'pl-PL' } }) }), creds).body;
    expect(pl).not.toHaveProperty('language');
    expect(firstBreach(rules('order'), { ...(pl as object), language: 'pl' })).toMatchObject({ field: 'language' });
    const confirm = flow(flow(sync).next)(job({ mode: 'sync', connector_transaction_id: ORDER }), creds, [
      { status: 200, body: { order: { uuid: ORDER, state: 'authorized' } } },
    ])!.body;
    expect(Object.keys(confirm as object)).toEqual(Object.keys(read('published/confirm-request.json')));
    expect(firstBreach(rules('confirm'), confirm)).toBeNull();
    const inv = flow(capture).request(
      job({
        kind: 'capture',
        connector_transaction_id: ORDER,
        capture_details: {
          capture_metadata: null,
          metadata: null,
          order_details: [{ product_name: 'Desk', quantity: 1, amount: 4760, total_tax_amount: 760, product_id: 'sku-desk' }],
        },
      }),
      creds,
    ).body;
    expect(firstBreach(rules('invoice'), inv)).toBeNull();
    // Mondu's own example invoice obeys the same rules; the rules can fail.
    expect(firstBreach(rules('invoice'), read('published/invoice-request.json'))).toBeNull();
    expect(firstBreach(rules('invoice'), { ...(inv as object), invoice_url: undefined })).toEqual({ field: 'invoice_url', message: 'invoice_url is required' });
    // The payload examples' comment says `installments`; the schema's enum and the three plugins say `installment`.
    expect(firstBreach(rules('order'), { ...(created as object), payment_method: 'installments' })).toMatchObject({ field: 'payment_method' });
  });
  it("capture: an invoice with the merchant's invoice number and URL, gross and tax in cents", () => {
    const cap = job({
      kind: 'capture',
      operation_id: 'op_2',
      amount: 5950,
      connector_transaction_id: ORDER,
      capture_details: {
        capture_metadata: { invoice_data: { merchant_invoice_ref: 'INV-1001-1' } },
        metadata: { invoice_url: 'https://shop.example/INV-1001-1.pdf' },
        order_details: null,
      },
    });
    expect(flow(capture).request(cap, creds)).toEqual({
      method: 'POST',
      path: `/mondu/api/v1/orders/${ORDER}/invoices`,
      idempotencyKey: 'op_2',
      headers: H,
      body: {
        external_reference_id: 'INV-1001-1',
        invoice_url: 'https://shop.example/INV-1001-1.pdf',
        gross_amount_cents: 5950,
        tax_cents: 950,
        discount_cents: 0,
        shipping_price_cents: 0,
      },
    });
    // Without invoice data: the operation id as the number, the payment's metadata.invoice_url; the lines captured.
    const lines = job({
      kind: 'capture',
      operation_id: 'op_3',
      amount: 4760,
      connector_transaction_id: ORDER,
      capture_details: {
        capture_metadata: null,
        metadata: null,
        order_details: [{ product_name: 'Desk', quantity: 1, amount: 4760, total_tax_amount: 760, product_id: 'sku-desk' }],
      },
    });
    expect(flow(capture).request(lines, creds).body).toEqual({
      external_reference_id: 'op_3',
      invoice_url: 'https://shop.example/inv.pdf',
      gross_amount_cents: 4760,
      tax_cents: 760,
      discount_cents: 0,
      shipping_price_cents: 0,
      line_items: [{ external_reference_id: 'sku-desk', quantity: 1 }],
    });
  });
  it("tax of a part of the order: the order's tax in proportion, exact for the whole", () => {
    expect(taxShare(11900, order())).toBe(1900);
    expect(taxShare(5950, order())).toBe(950);
    expect(taxShare(100, order({ order_details: null }))).toBe(0);
  });
  it('void: POST /orders/{uuid}/cancel; refund: a credit note on the invoice, our refund id as its number', () => {
    expect(flow(voidFlow).request(job({ kind: 'void', operation_id: 'op_4', connector_transaction_id: ORDER }), creds)).toEqual({
      method: 'POST',
      path: `/mondu/api/v1/orders/${ORDER}/cancel`,
      idempotencyKey: 'op_4',
      headers: H,
      body: {},
    });
    const r = job({
      kind: 'refund',
      operation_id: 'op_5',
      amount: 2000,
      connector_transaction_id: ORDER,
      refund_id: 'ref_1',
      reason: 'damaged',
      connector_capture_id: INVOICE,
    });
    expect(flowFor(r)).toBe('refund');
    expect(flow(refund).request(r, creds)).toEqual({
      method: 'POST',
      path: `/mondu/api/v1/invoices/${INVOICE}/credit_notes`,
      idempotencyKey: 'op_5',
      headers: H,
      body: { external_reference_id: 'ref_1', gross_amount_cents: 2000, tax_cents: 319, notes: 'damaged' },
    });
    expect(() => flow(refund).request({ ...r, connector_capture_id: undefined }, creds)).toThrow(/no invoice/);
  });
});

describe('mondu answers -> outcomes', () => {
  it('a created order waits for the buyer at the hosted checkout', () => {
    expect(flow(authorize).response(a('order_created'), job())).toEqual({
      kind: 'CUSTOMER_ACTION',
      connector_transaction_id: ORDER,
      connector_reference_id: '1001',
      redirect_url: `https://checkout.demo.mondu.ai/${ORDER}`,
    });
  });
  it('sync: the read (or the confirm) answers: confirmed -> authorized, pending (review) -> pending, declined with its reason, cancelled by the buyer -> declined', () => {
    expect(flow(sync).response(a('order_confirmed'), job())).toEqual({ kind: 'AUTHORIZED', connector_transaction_id: ORDER, connector_reference_id: '1001' });
    expect(flow(sync).response(a('order_pending'), job())).toMatchObject({ kind: 'PENDING', connector_transaction_id: ORDER });
    expect(flow(sync).response(a('order_declined'), job())).toMatchObject({ kind: 'DECLINED', error_code: 'buyer_not_creditworthy', unified_code: 'UE_1000' });
    expect(flow(sync).response(a('order_canceled'), job())).toMatchObject({ kind: 'DECLINED', error_code: 'canceled' });
  });
  it("sync: Mondu's published confirm answer parses; an order still at the checkout is the buyer's turn", () => {
    expect(flow(sync).response(published('confirm-answer'), job())).toEqual({
      kind: 'CUSTOMER_ACTION',
      connector_transaction_id: '504fd996-9620-4e7d-aa75-55fbb1e79796',
      connector_reference_id: 'string',
    });
  });
  it("sync: a confirm refused on the state leaves the read order's word (the next sync reads again)", () => {
    const read = { status: 200, body: { order: { uuid: ORDER, state: 'authorized', external_reference_id: '1001' } } };
    const refused = a('confirm_not_authorized');
    expect(flow(sync).response(refused, job(), [read, refused])).toEqual({ kind: 'PENDING', connector_transaction_id: ORDER, connector_reference_id: '1001' });
  });
  it("errors: Mondu's field and details as error code and message", () => {
    expect(flow(authorize).response(published('error-validation', 422), job())).toMatchObject({
      kind: 'FAILED',
      error_code: 'currency',
      error_message: expect.stringContaining('buyer.email is missing; lines.0.lineItems.1.externalReferenceId is missing'),
      unified_code: 'UE_2000',
    });
    expect(flow(authorize).response(a('validation_error'), job())).toEqual({
      kind: 'FAILED',
      error_code: 'buyer.email',
      error_message: 'buyer.email is missing; lines.0.lineItems.1.quantity must be an integer',
      unified_code: 'UE_2000',
      unified_message: expect.any(String),
    });
    expect(flow(authorize).response(a('unauthorized'), job())).toMatchObject({
      kind: 'FAILED',
      error_code: 'api_token',
      error_message: 'api_token is invalid',
      unified_code: 'UE_4000',
    });
    expect(flow(sync).response(a('not_found'), job())).toMatchObject({ kind: 'FAILED', error_code: 'order', unified_code: 'UE_2000' });
    expect(flow(authorize).response({ status: 400, body: 'oops' }, job())).toMatchObject({ kind: 'FAILED', error_code: 'http_400', unified_code: 'UE_9000' });
  });
  it("capture: the invoice is the capture; more than is left fails with Mondu's error", () => {
    expect(flow(capture).response(a('invoice_created'), job())).toEqual({
      kind: 'CAPTURED',
      connector_transaction_id: INVOICE,
      connector_reference_id: 'INV-1001-1',
    });
    // The invoice as Mondu shows it names the merchant's number `invoice_number` (woocommerce Presenters/PaymentInfo.php).
    expect(flow(capture).response({ status: 201, body: { invoice: { uuid: INVOICE, state: 'created', invoice_number: 'RE-7' } } }, job())).toEqual({
      kind: 'CAPTURED',
      connector_transaction_id: INVOICE,
      connector_reference_id: 'RE-7',
    });
    expect(flow(capture).response(a('invoice_too_much'), job())).toMatchObject({ kind: 'FAILED', error_code: 'gross_amount_cents', unified_code: 'UE_2000' });
  });
  it('void: cancelled -> voided; an invoiced order cannot be cancelled', () => {
    expect(flow(voidFlow).response(a('order_canceled'), job())).toEqual({ kind: 'VOIDED' });
    expect(flow(voidFlow).response(a('cancel_after_invoice'), job())).toMatchObject({ kind: 'FAILED', error_code: 'state', unified_code: 'UE_3000' });
    expect(flow(voidFlow).response(a('order_confirmed'), job())).toMatchObject({ kind: 'FAILED', error_code: 'state' });
  });
  it('refund: the credit note is in effect at once; a refused one fails', () => {
    expect(flow(refund).response(a('credit_note_created'), job())).toEqual({
      kind: 'REFUNDED',
      connector_transaction_id: '9a8b7c6d-5e4f-4321-9876-0fedcba98765',
    });
    expect(flow(refund).response(a('credit_note_refused'), job())).toMatchObject({ kind: 'FAILED', error_code: 'invoice', unified_code: 'UE_6000' });
  });
  it('an answer in another shape is unexpected (retried like an unavailable provider)', () => {
    expect(() => flow(authorize).response({ status: 201, body: { order: { uuid: ORDER, state: 'approved' } } }, job())).toThrow(UnexpectedAnswer);
    expect(() => flow(capture).response({ status: 201, body: {} }, job())).toThrow(UnexpectedAnswer);
  });
});

describe('mondu webhooks -> what they say', () => {
  const bodies: Record<string, unknown> = JSON.parse(readFileSync(new URL('./fixtures/notifications.json', import.meta.url), 'utf8'));
  const parse = (name: string) => flow(mondu.notification).parse(JSON.stringify(bodies[name]));
  it("order/confirmed, order/pending, order/declined: the authorization's outcome, by the order uuid", () => {
    expect(parse('order_confirmed')).toEqual({
      object: 'payment',
      connector_transaction_id: ORDER,
      object_id: ORDER,
      provider_updated_at: '2026-11-23T10:05:00.000Z',
      outcome: { kind: 'AUTHORIZED', connector_transaction_id: ORDER, connector_reference_id: '1001' },
    });
    expect(parse('order_pending')).toMatchObject({ outcome: { kind: 'PENDING' } });
    expect(parse('order_declined')).toMatchObject({ outcome: { kind: 'DECLINED', error_code: 'buyer_not_creditworthy', unified_code: 'UE_1000' } });
  });
  it("Mondu's published order webhooks (magento2-checkout's shapes): the decline's `reason` is read (issue 21)", () => {
    const pub = (name: string) => flow(mondu.notification).parse(JSON.stringify(published(name).body));
    expect(pub('webhook-order-confirmed')).toEqual({
      object: 'payment',
      connector_transaction_id: ORDER,
      object_id: ORDER,
      provider_updated_at: '',
      outcome: { kind: 'AUTHORIZED', connector_transaction_id: ORDER, connector_reference_id: '1001' },
    });
    expect(pub('webhook-order-pending')).toMatchObject({ outcome: { kind: 'PENDING' } });
    // The old code read `decline_reason` and so reported every decline as plain `declined`.
    expect(pub('webhook-order-declined')).toMatchObject({ outcome: { kind: 'DECLINED', error_code: 'risk_policy', unified_code: 'UE_1000' } });
  });
  it('order/authorized is a hint (the status sync runs: it reads the order and confirms it); invoice topics, other shapes and non-JSON are unknown', () => {
    expect(parse('order_authorized')).toEqual({ object: 'hint', connector_transaction_id: ORDER, event: 'order/authorized' });
    // Both spellings of the cancellation topic (the WooCommerce plugin handles order/canceled and order/cancelled).
    expect(
      flow(mondu.notification).parse(JSON.stringify({ topic: 'order/cancelled', order_uuid: ORDER, external_reference_id: '1001', order_state: 'canceled' })),
    ).toMatchObject({ object: 'payment', outcome: { kind: 'DECLINED', error_code: 'canceled' } });
    expect(parse('invoice_created')).toMatchObject({ object: 'unknown', reason: expect.stringContaining('invoice/created') });
    expect(parse('order_bad_state')).toMatchObject({ object: 'unknown' });
    expect(flow(mondu.notification).parse('nope')).toEqual({ object: 'unknown', reason: 'the body is not JSON' });
  });
});

describe('issue 22: mondu keeps no mandates (Mondu publishes no recurring charge)', () => {
  it('the manifest declares no mandates, and the README says so under ## Mandates, naming what was searched', () => {
    expect(mondu.manifest.mandates ?? null).toBeNull();
    const readme = readFileSync(new URL('./README.md', import.meta.url), 'utf8');
    const mandates = readme.split(/^## /m).filter((s) => s.startsWith('Mandates\n'));
    expect(mandates).toHaveLength(1);
    expect(mandates[0]).toMatch(/^None \(issue 22\): Mondu publishes no(thing about)? recurring/m);
    expect(mandates[0]).toContain('Searched:');
  });
});
