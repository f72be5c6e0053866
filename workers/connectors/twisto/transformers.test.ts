// twisto's flows, pure: our jobs -> Twisto's requests (the reference sheet's examples in fixtures/requests.json), and
// Twisto's answers (fixtures/answers.json) -> outcomes; webhook bodies (fixtures/notifications.json) -> hints.
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import type { ConnectorJob, ProviderOrder } from '../../../domain/job.ts';
import type { ProviderResponse } from '../kit/http.ts';
import { FLOWS } from '../manifest.ts';
import { flowFor, UnexpectedAnswer } from '../types.ts';
import { connector as twisto } from './index.ts';
import { decimal, items } from './request.ts';
import { firstBreach, RequestRules } from '../../../lib/request-rules.ts';
import { TwistoCharge, TwistoCheckout, TwistoRefundList } from './schemas.ts';

const requests = JSON.parse(readFileSync(new URL('./fixtures/requests.json', import.meta.url), 'utf8'));
const answers: Record<string, ProviderResponse> = JSON.parse(readFileSync(new URL('./fixtures/answers.json', import.meta.url), 'utf8'));
const a = (name: string) => answers[name]!;
const creds = { api_key: 'twisto_test_key' };
const H = { authorization: 'Bearer twisto_test_key' };
const CHK = 'chk_4f1e2d3c4b5a69788796a5b4';
const ROOT = '/twisto/psp/v4';
const order = (over: Partial<ProviderOrder> = {}): ProviderOrder => ({
  customer: { id: null, name: 'Jan Novak', email: 'a@b.cz', phone: null, phone_country_code: null },
  billing: null,
  shipping: null,
  order_details: [{ product_name: 'Shirt', quantity: 1, amount: 29_400 }],
  order_tax_amount: null,
  metadata: null,
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
  connector: 'twisto',
  amount: 29_400,
  currency: 'CZK',
  capture_method: 'manual',
  connector_transaction_id: null,
  customer_email: 'a@b.cz',
  return_url: 'https://shop/return',
  merchant_order_reference_id: 'ORD-1',
  mode: 'execute',
  sync_round: 0,
  order: order(),
  ...over,
});
const flow = <T>(f: T | undefined): T => {
  if (!f) throw new Error('flow absent');
  return f;
};
const { authorize, sync, capture, void: voidFlow, refund, refundSync } = twisto;

describe('twisto manifest', () => {
  it('lists exactly the flows the connector implements; full captures only; unsigned webhooks; decimal amounts', () => {
    expect(FLOWS.filter((f) => twisto[f] !== undefined)).toEqual([...twisto.manifest.flows]);
    expect(twisto.token).toBeUndefined();
    expect(twisto.manifest).toMatchObject({
      partial_capture: false,
      multiple_capture: false,
      partial_refund: true,
      capture_methods: ['automatic', 'manual'],
      automatic_capture: 'follow_up',
      webhook: { scheme: 'unsigned' },
      amount_unit: 'major',
      customers: ['B2C'],
      countries: ['CZ', 'PL'],
    });
  });
  it("declares no mandates: a Twisto charge's only authority is an approved checkout (README.md, Mandates)", () => {
    expect(twisto.manifest.mandates ?? null).toBeNull();
    const rules = JSON.parse(readFileSync(new URL('./fixtures/rules.json', import.meta.url), 'utf8'));
    expect(rules.charge.enum['authority.type']).toEqual(['checkout_id']);
  });
});

describe('twisto requests', () => {
  it('amounts: decimal strings with two places, exact', () => {
    expect([29_400, 5, 11_900, -1_500, 0, 123_456_789].map((m) => decimal(m, 'CZK'))).toEqual(['294.00', '0.05', '119.00', '-15.00', '0.00', '1234567.89']);
  });
  it("authorize: the sheet's example checkout, from our payment", () => {
    expect(flow(authorize).request(job(), creds)).toEqual({
      method: 'POST',
      path: `${ROOT}/checkouts`,
      idempotencyKey: 'op_1',
      headers: H,
      body: requests.create_checkout,
    });
  });
  it('authorize: billing address, phone, birth date; installments are pay-in-three; the payment id without a reference', () => {
    const body = flow(authorize).request(
      job({
        merchant_order_reference_id: null,
        order: order({
          customer: { id: 'c', name: 'Jan Novak', email: 'jan@x.cz', phone: '+420601123456', phone_country_code: null },
          billing: { address: { first_name: 'Jan', last_name: 'Novák', line1: 'Národní 1', city: 'Praha', zip: '11000', country: 'CZ' } },
          metadata: { birth_date: '1980-02-03' },
          payment_method_type: 'installment_invoice',
        }),
      }),
      creds,
    ).body as any;
    expect(body).toMatchObject({
      type: 'pay-in-three',
      order: { reference: 'pay_000000000000000000000000001' },
      merchant_reference: 'mer_1',
      shopper: {
        email: 'jan@x.cz',
        first_name: 'Jan',
        last_name: 'Novák',
        phone: '+420601123456',
        birth_date: '1980-02-03',
        billing_address: { line1: 'Národní 1', city: 'Praha', postal_code: '11000', country: 'CZ' },
      },
    });
  });
  it("order items: gross line totals, shipping and a voucher as Twisto's types; lines that do not add up -> one item", () => {
    const lines = [
      { product_name: 'Lamp', quantity: 2, amount: 9_520, product_id: 'sku-lamp' },
      { product_name: 'Shipping', quantity: 1, amount: 2_380, category: 'shipping_costs' },
      { product_name: 'Voucher', quantity: 1, amount: 1_000, category: 'voucher' },
    ];
    expect(items(job({ amount: 10_900, order: order({ order_details: lines }) }))).toEqual([
      { name: 'Lamp', amount: '95.20', quantity: 2, type: 'sku', reference: 'sku-lamp' },
      { name: 'Shipping', amount: '23.80', quantity: 1, type: 'shipping' },
      { name: 'Voucher', amount: '-10.00', quantity: 1, type: 'discount' },
    ]);
    expect(items(job({ amount: 11_900, order: order({ order_details: lines }) }))).toEqual([
      { name: 'Order ORD-1', amount: '119.00', quantity: 1, type: 'sku' },
    ]);
  });
  it('status sync: the checkout read; a sync before the checkout exists repeats the create', () => {
    const synced = job({ mode: 'sync', connector_transaction_id: CHK });
    expect(flowFor(synced)).toBe('sync');
    expect(flow(sync).request(synced, creds)).toEqual({ method: 'GET', path: `${ROOT}/checkouts/${CHK}`, headers: H });
    expect(flowFor(job({ mode: 'sync' }))).toBe('authorize');
  });
  it('capture: the checkout read, then a full charge with capture of an approved one; nothing more for a completed one', () => {
    const cap = job({
      kind: 'capture',
      operation_id: 'op_2',
      connector_transaction_id: CHK,
      capture_details: { capture_metadata: null, metadata: null, order_details: null },
    });
    const c = flow(capture);
    expect(c.request(cap, creds)).toEqual({ method: 'GET', path: `${ROOT}/checkouts/${CHK}`, headers: H });
    expect(c.next!(cap, creds, [a('checkout_approved')])).toEqual({
      method: 'POST',
      path: `${ROOT}/charges`,
      idempotencyKey: 'op_2',
      headers: H,
      body: { ...requests.create_charge, authority: { type: 'checkout_id', value: CHK }, capture: true },
    });
    expect(c.next!(cap, creds, [a('checkout_completed')])).toBeNull();
    expect(c.next!(cap, creds, [a('checkout_approved'), a('charge_captured')])).toBeNull();
    const invoiced = {
      ...cap,
      capture_details: { capture_metadata: { invoice_data: { merchant_invoice_ref: 'INV-7' } }, metadata: null, order_details: null },
    };
    expect((c.next!(invoiced, creds, [a('checkout_approved')])!.body as any).reference).toBe('INV-7');
  });
  it('void: the checkout read, then its cancel unless it is cancelled already', () => {
    const v = job({ kind: 'void', operation_id: 'op_3', connector_transaction_id: CHK });
    expect(flow(voidFlow).next!(v, creds, [a('checkout_approved')])).toEqual({
      method: 'POST',
      path: `${ROOT}/checkouts/${CHK}/cancel`,
      idempotencyKey: 'op_3',
      headers: H,
    });
    expect(flow(voidFlow).next!(v, creds, [a('checkout_cancelled')])).toBeNull();
  });
  it("refund: the checkout's refunds, then POST /refunds with our refund id as reference unless it is listed", () => {
    const r = job({ kind: 'refund', operation_id: 'op_4', amount: 10_000, connector_transaction_id: CHK, refund_id: 'RF-1', reason: 'return' });
    expect(flowFor(r)).toBe('refund');
    expect(flow(refund).request(r, creds)).toEqual({ method: 'GET', path: `${ROOT}/refunds?checkoutId=${CHK}&limit=200&skip=0`, headers: H });
    expect(flow(refund).next!(r, creds, [a('refund_list_empty')])).toEqual({
      method: 'POST',
      path: `${ROOT}/refunds`,
      idempotencyKey: 'op_4',
      headers: H,
      body: { ...requests.create_refund, checkout_id: CHK },
    });
    expect(flow(refund).next!(r, creds, [a('refund_list')])).toBeNull();
    const s = { ...r, mode: 'sync' as const, connector_refund_id: 'rf_1' };
    expect(flowFor(s)).toBe('refundSync');
    expect(flow(refundSync).request(s, creds)).toEqual({ method: 'GET', path: `${ROOT}/refunds/rf_1`, headers: H });
  });
});

describe('twisto answers -> outcomes', () => {
  it('checkout states: created waits for the shopper at its uri; approved -> authorized; completed -> captured; cancelled -> declined', () => {
    expect(flow(authorize).response(a('checkout_created'), job())).toEqual({
      kind: 'CUSTOMER_ACTION',
      connector_transaction_id: CHK,
      redirect_url: `https://gw.twisto.cz/checkout/${CHK}`,
    });
    expect(flow(sync).response(a('checkout_approved'), job())).toEqual({ kind: 'AUTHORIZED', connector_transaction_id: CHK });
    expect(flow(sync).response(a('checkout_completed'), job())).toEqual({ kind: 'CAPTURED', connector_transaction_id: CHK });
    expect(flow(sync).response(a('checkout_cancelled'), job())).toMatchObject({ kind: 'DECLINED', error_code: 'cancelled', unified_code: 'UE_1000' });
    expect(flow(sync).response(a('checkout_error'), job())).toMatchObject({ kind: 'FAILED', error_code: 'error', unified_code: 'UE_9000' });
  });
  it('capture: the captured charge (its id); a repeat finds the checkout completed; a rejected charge is declined', () => {
    const c = flow(capture);
    expect(c.response(a('charge_captured'), job(), [a('checkout_approved'), a('charge_captured')])).toEqual({
      kind: 'CAPTURED',
      connector_transaction_id: 'ch_9a8b7c6d5e4f30211203f4e5',
      connector_reference_id: '100001',
    });
    expect(c.response(a('checkout_completed'), job(), [a('checkout_completed')])).toEqual({ kind: 'CAPTURED' });
    expect(c.response(a('checkout_cancelled'), job(), [a('checkout_cancelled')])).toMatchObject({
      kind: 'FAILED',
      error_code: 'invalid_state',
      unified_code: 'UE_3000',
    });
    expect(c.response(a('charge_rejected'), job(), [a('checkout_approved'), a('charge_rejected')])).toMatchObject({ kind: 'DECLINED', error_code: 'rejected' });
    expect(c.response(a('not_chargeable'), job(), [a('checkout_approved'), a('not_chargeable')])).toMatchObject({
      kind: 'FAILED',
      error_code: 'invalid_state',
      unified_code: 'UE_3000',
    });
    expect(c.response(a('partial_charge'), job(), [a('checkout_approved'), a('partial_charge')])).toMatchObject({
      kind: 'FAILED',
      error_code: 'amount',
      unified_code: 'UE_2000',
    });
  });
  it('void: cancelled -> voided; a completed checkout cannot be cancelled', () => {
    expect(flow(voidFlow).response(a('checkout_cancelled'), job())).toEqual({ kind: 'VOIDED' });
    expect(flow(voidFlow).response(a('cancel_refused'), job())).toMatchObject({
      kind: 'FAILED',
      error_code: 'invalid_state',
      error_message: 'Checkout in state completed cannot be cancelled.',
      unified_code: 'UE_3000',
    });
  });
  it("refund: made is done (no state); a listed one is ours; a refused one fails with Twisto's code", () => {
    const r = job({ kind: 'refund', refund_id: 'RF-1' });
    expect(flow(refund).response(a('refund_created'), r, [a('refund_list_empty'), a('refund_created')])).toEqual({
      kind: 'REFUNDED',
      connector_transaction_id: 'rf_1a2b3c4d5e6f708192a3b4c5',
    });
    expect(flow(refund).response(a('refund_list'), r, [a('refund_list')])).toEqual({
      kind: 'REFUNDED',
      connector_transaction_id: 'rf_1a2b3c4d5e6f708192a3b4c5',
    });
    expect(() => flow(refund).response(a('refund_list_empty'), r, [a('refund_list_empty')])).toThrow(UnexpectedAnswer);
    expect(flow(refund).response(a('refund_rejected'), r, [a('refund_list_empty'), a('refund_rejected')])).toMatchObject({
      kind: 'FAILED',
      error_code: 'refund_rejected',
      error_message: 'The refund was rejected by Twisto.',
      unified_code: 'UE_6000',
    });
    expect(flow(refundSync).response(a('refund_created'), r)).toEqual({ kind: 'REFUNDED', connector_transaction_id: 'rf_1a2b3c4d5e6f708192a3b4c5' });
  });
  it("errors: DRF field errors by dotted path, {detail, code} with DRF's default code by status", () => {
    expect(flow(authorize).response(a('validation_error'), job())).toEqual({
      kind: 'FAILED',
      error_code: 'config.redirect_uri',
      error_message: 'config.redirect_uri: This field is required.; shopper.email: Enter a valid email address.',
      unified_code: 'UE_2000',
      unified_message: expect.any(String),
    });
    expect(flow(authorize).response(a('item_error'), job())).toMatchObject({ error_code: 'order.items.1.quantity' });
    expect(flow(authorize).response(a('unauthorized'), job())).toMatchObject({
      kind: 'FAILED',
      error_code: 'authentication_failed',
      error_message: 'Invalid token.',
      unified_code: 'UE_4000',
    });
    expect(flow(authorize).response(a('unauthorized_plain'), job())).toMatchObject({ error_code: 'authentication_failed', unified_code: 'UE_4000' });
    expect(flow(sync).response(a('not_found'), job())).toMatchObject({ kind: 'FAILED', error_code: 'not_found', unified_code: 'UE_2000' });
    expect(flow(authorize).response({ status: 400, body: 'oops' }, job())).toMatchObject({ kind: 'FAILED', error_code: 'http_400', unified_code: 'UE_9000' });
  });
  it('an answer in another shape is unexpected (retried like an unavailable provider)', () => {
    expect(() => flow(authorize).response({ status: 201, body: { id: CHK, state: 'scoring' } }, job())).toThrow(UnexpectedAnswer);
    expect(() =>
      flow(capture).response({ status: 201, body: { id: 'ch_1', amount: 294 } }, job(), [a('checkout_approved'), { status: 201, body: {} }]),
    ).toThrow(UnexpectedAnswer);
  });
});

describe('twisto webhooks -> hints', () => {
  const bodies: Record<string, unknown> = JSON.parse(readFileSync(new URL('./fixtures/notifications.json', import.meta.url), 'utf8'));
  const parse = (name: string) => flow(twisto.notification).parse(JSON.stringify(bodies[name]));
  it('every webhook names the checkout: a hint, never an outcome (Twisto signs nothing)', () => {
    expect(parse('approved')).toEqual({ object: 'hint', connector_transaction_id: CHK, event: 'approved' });
    expect(parse('cancelled')).toEqual({ object: 'hint', connector_transaction_id: CHK, event: 'cancelled' });
    expect(parse('refunded')).toEqual({ object: 'hint', connector_transaction_id: CHK, event: 'completed' });
  });
  it('a body without a checkout, or not JSON: unknown', () => {
    expect(parse('no_checkout')).toMatchObject({ object: 'unknown', reason: expect.stringContaining('checkout_id') });
    expect(flow(twisto.notification).parse('nope')).toEqual({ object: 'unknown', reason: 'the body is not JSON' });
  });
});

// Issue 21: Twisto's own published material (fixtures/published/, SOURCES.md) and rules (fixtures/rules.json).
const read = (name: string) => JSON.parse(readFileSync(new URL(`./fixtures/${name}`, import.meta.url), 'utf8'));
const rules = (call: 'checkout' | 'charge' | 'refund') => RequestRules.parse(read('rules.json')[call]);
const published = (name: string, status = 200): ProviderResponse => ({ status, body: read(`published/${name}.json`) });

describe("twisto requests against Twisto's published rules (issue 21)", () => {
  const long = 'x'.repeat(300);
  const capJob = (ref: string) =>
    job({
      kind: 'capture',
      connector_transaction_id: CHK,
      capture_details: { capture_metadata: { invoice_data: { merchant_invoice_ref: ref } }, metadata: null, order_details: null },
    });
  it("Twisto's own request examples obey rules.json", () => {
    expect(firstBreach(rules('charge'), read('published/charge-create-request.json'))).toBeNull();
    expect(firstBreach(rules('refund'), read('published/refund-create-request.json'))).toBeNull();
  });
  it('every request we build obeys rules.json, even with over-long names, references and products', () => {
    const body = flow(authorize).request(
      job({
        merchant_order_reference_id: long,
        order: order({
          customer: { id: null, name: `${long} ${long}`, email: 'a@b.cz', phone: null, phone_country_code: null },
          order_details: [{ product_name: long, quantity: 1, amount: 29_400, product_id: long }],
        }),
      }),
      creds,
    ).body;
    expect(firstBreach(rules('checkout'), body)).toBeNull();
    expect(firstBreach(rules('checkout'), requests.create_checkout)).toBeNull();
    expect(firstBreach(rules('charge'), flow(capture).next!(capJob(long), creds, [a('checkout_approved')])!.body)).toBeNull();
    const r = job({ kind: 'refund', amount: 100, connector_transaction_id: CHK, refund_id: long, reason: long });
    expect(firstBreach(rules('refund'), flow(refund).next!(r, creds, [a('refund_list_empty')])!.body)).toBeNull();
  });
  it('issue 21: shopper names at most 40 characters (the old code sent them whole)', () => {
    const body = flow(authorize).request(job({ order: order({ billing: { address: { first_name: 'F'.repeat(41), last_name: 'L'.repeat(60) } } }) }), creds)
      .body as any;
    expect(body.shopper.first_name).toHaveLength(40);
    expect(body.shopper.last_name).toHaveLength(40);
    // The rule can fail: 41 characters are refused.
    expect(firstBreach(rules('checkout'), { ...body, shopper: { ...body.shopper, first_name: 'F'.repeat(41) } })).toEqual({
      field: 'shopper.first_name',
      message: 'shopper.first_name must be at most 40 characters',
    });
  });
  it("issue 21: the charge's reference is at most 140 characters (the old code cut at 200)", () => {
    const body = flow(capture).next!(capJob('I'.repeat(180)), creds, [a('checkout_approved')])!.body as any;
    expect(body.reference).toBe('I'.repeat(140));
    expect(body.order.reference).toBe('ORD-1');
    expect(firstBreach(rules('charge'), { ...body, reference: 'I'.repeat(141) })).toMatchObject({ field: 'reference' });
  });
  it("issue 21: merchant_reference is the merchant's reference at Twisto (key1, else our merchant id), not the order's", () => {
    const body = (c: typeof creds & { key1?: string }) => flow(authorize).request(job(), c).body as any;
    expect(body(creds)).toMatchObject({ merchant_reference: 'mer_1', order: { reference: 'ORD-1' } });
    expect(body({ ...creds, key1: 'shop-at-twisto' }).merchant_reference).toBe('shop-at-twisto');
  });
  it('issue 21: the transactional calls carry the operation id as Idempotency-Key (Twisto documents it)', () => {
    const cap = { ...capJob('INV-1'), operation_id: 'op_c' };
    expect(flow(capture).next!(cap, creds, [a('checkout_approved')])!.idempotencyKey).toBe('op_c');
    expect(
      flow(voidFlow).next!(job({ kind: 'void', operation_id: 'op_v', connector_transaction_id: CHK }), creds, [a('checkout_approved')])!.idempotencyKey,
    ).toBe('op_v');
    const r = job({ kind: 'refund', operation_id: 'op_r', connector_transaction_id: CHK, refund_id: 'RF-1' });
    expect(flow(refund).next!(r, creds, [a('refund_list_empty')])!.idempotencyKey).toBe('op_r');
  });
});

describe("twisto reads Twisto's published answers (issue 21)", () => {
  it('the checkout (checkout-retrieve fields): created -> the shopper at its uri, merchant_reference kept', () => {
    expect(TwistoCheckout.parse(read('published/checkout.json'))).toMatchObject({ state: 'created', merchant_reference: 'string' });
    expect(flow(sync).response(published('checkout'), job())).toEqual({
      kind: 'CUSTOMER_ACTION',
      connector_transaction_id: 'string',
      connector_reference_id: 'string',
      redirect_url: 'string',
    });
  });
  it("the charge (charge-create example): parses; issue 21: the guide's spelling `authorized` is read too", () => {
    expect(TwistoCharge.parse(read('published/charge.json')).state).toBe('authorised');
    // The old enum had only `authorised`: this threw UnexpectedAnswer.
    expect(TwistoCharge.parse({ ...read('published/charge.json'), state: 'authorized' }).state).toBe('authorized');
    const captured = { status: 201, body: { ...read('published/charge.json'), state: 'captured' } };
    expect(flow(capture).response(captured, job(), [a('checkout_approved'), captured])).toEqual({
      kind: 'CAPTURED',
      connector_transaction_id: 'string',
      connector_reference_id: 'string',
    });
  });
  it('the refund (refund-create example) and the refund list (refund-list example)', () => {
    expect(flow(refundSync).response(published('refund'), job())).toEqual({ kind: 'REFUNDED', connector_transaction_id: 'string' });
    const r = job({ kind: 'refund', refund_id: 'string' });
    expect(flow(refund).response(published('refund', 201), r, [a('refund_list_empty'), published('refund', 201)])).toEqual({
      kind: 'REFUNDED',
      connector_transaction_id: 'string',
    });
    expect(TwistoRefundList.parse(read('published/refund-list.json')).count).toBe(123);
    expect(flow(refund).response(published('refund-list'), r, [published('refund-list')])).toEqual({ kind: 'REFUNDED', connector_transaction_id: 'string' });
    expect(flow(refund).next!(r, creds, [published('refund-list')])).toBeNull();
  });
  it('the webhook (psp-api webhooks example, as JSON): a hint naming the checkout', () => {
    expect(flow(twisto.notification).parse(JSON.stringify(read('published/webhook.json')))).toEqual({
      object: 'hint',
      connector_transaction_id: 'string',
      event: 'approved',
    });
  });
});
