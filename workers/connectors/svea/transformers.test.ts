// svea's flows, pure: our jobs -> Svea's signed requests, and Svea's own published answers (fixtures/, SOURCES.md names
// each: the .NET SDK's DataSample, php-checkout's README, docs.payments.svea.com) -> outcomes. No stack.
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import type { ConnectorJob, ProviderOrder } from '../../../domain/job.ts';
import type { ProviderResponse } from '../kit/http.ts';
import { FLOWS } from '../manifest.ts';
import { UnexpectedAnswer } from '../types.ts';
import { connector as svea } from './index.ts';
import { adminBase, rowOf, unitsFor } from './request.ts';
import { checkoutUrlOf } from './response.ts';
import { CheckoutOrder, CreateOrderRequest, TokenOrderRequest, UpdateTokenRequest } from './schemas.ts';
import { sveaHeaders, sveaToken } from './sign.ts';
import { testSession } from '../kit/testing.ts';

/** A published example (fixtures/SOURCES.md), as the body of an answer with `status`. */
const fixture = (name: string): any => JSON.parse(readFileSync(new URL(`./fixtures/${name}.json`, import.meta.url), 'utf8'));
const answer = (name: string, status = 200, over: Record<string, unknown> = {}): ProviderResponse => ({ status, body: { ...fixture(name), ...over } });
const TASK = 'https://paymentadminapistage.svea.com/api/v1/queue/9';
const accepted: ProviderResponse = { status: 202, body: null, headers: { location: TASK } };
const creds = { api_key: 'secret', key1: '124842' };
const order = (over: Partial<ProviderOrder> = {}): ProviderOrder => ({
  customer: { id: null, name: 'Erika Mustermann', email: 'erika@example.com', phone: '+46701234567', phone_country_code: null },
  billing: { address: { line1: 'Drottninggatan 1', city: 'Stockholm', zip: '11151', country: 'SE' } },
  shipping: null,
  order_details: [
    { product_name: 'Lamp', quantity: 2, amount: 9_520, total_tax_amount: 1_904, tax_percentage: 25, product_id: 'sku-lamp' },
    { product_name: 'Shipping', quantity: 1, amount: 2_380, total_tax_amount: 476 },
  ],
  order_tax_amount: 2_380,
  metadata: { customer_locale: 'sv-SE' },
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
  operation_id: 'op_01234567890123456789012345',
  kind: 'authorize',
  connector: 'svea',
  merchant_connector_id: 'mca_1',
  amount: 11_900,
  currency: 'SEK',
  capture_method: 'manual',
  connector_transaction_id: null,
  customer_email: 'erika@example.com',
  return_url: 'https://shop.example/return',
  merchant_order_reference_id: 'order-1',
  mode: 'execute',
  sync_round: 0,
  order: order(),
  ...over,
});
/** The session the runtime gives every call (kit/testing.ts): the sandbox as base URL, our notification address. */
const S = testSession({ merchant_id: 'mer_1', merchant_connector_id: 'mca_1' });
const flow = <T>(f: T | undefined): T => {
  if (!f) throw new Error('flow absent');
  return f;
};
const lowerKeys = (o: object) =>
  Object.keys(o)
    .map((k) => k.toLowerCase())
    .sort();

describe('svea manifest and signature', () => {
  it('lists exactly the flows it implements; follow-up capture; BodyKey (secret + merchant id); unsigned pushes', () => {
    expect(FLOWS.filter((f) => svea[f] !== undefined)).toEqual([...svea.manifest.flows]);
    expect(svea.manifest).toMatchObject({ automatic_capture: 'follow_up', amount_unit: 'minor', webhook: { scheme: 'unsigned' } });
    expect(svea.manifest.credentials.safeParse(svea.manifest.sandbox_account_details).success).toBe(true);
    expect(svea.manifest.credentials.safeParse({ api_key: 'x' }).success).toBe(false);
  });
  it('Authorization: Svea base64(merchantId:sha512hex(body + secret + timestamp)), Timestamp yyyy-MM-dd HH:mm:ss UTC (php-checkout Connector.php, .NET SveaHttpClient)', () => {
    const h = sveaHeaders('124842', 'secret', { a: 1 }, new Date('2026-11-23T12:00:00.123Z'));
    expect(h.timestamp).toBe('2026-11-23 12:00:00');
    const digest = createHash('sha512').update('{"a":1}secret2026-11-23 12:00:00').digest('hex');
    expect(h.authorization).toBe(`Svea ${Buffer.from(`124842:${digest}`).toString('base64')}`);
    expect(sveaToken('124842', 'secret', '', '2026-11-23 12:00:00')).not.toBe(sveaToken('124842', 'secret', '', '2026-11-23 12:00:01'));
    expect(adminBase('https://checkoutapistage.svea.com')).toBe('https://paymentadminapistage.svea.com');
    expect(adminBase('https://checkoutapi.svea.com')).toBe('https://paymentadminapi.svea.com');
    expect(adminBase('http://127.0.0.1:8090/svea')).toBeUndefined();
    // Against Svea itself, Payment Admin calls go to its own host; the checkout's stay on the base URL.
    const stage = testSession({ merchant_id: 'mer_1', merchant_connector_id: 'mca_1' }, { base_url: 'https://checkoutapistage.svea.com' });
    const known = job({ kind: 'void', connector_transaction_id: '2291662' });
    expect(flow(svea.void).request(known, creds, stage)).toMatchObject({ baseUrl: 'https://paymentadminapistage.svea.com', path: '/api/v1/orders/2291662' });
    expect(flow(svea.sync).request({ ...known, kind: 'authorize', mode: 'sync' }, creds, stage)).not.toHaveProperty('baseUrl');
  });
});

describe('svea requests', () => {
  it('rows: minor units per unit, quantity and vatPercent ×100; a total not divisible by its quantity is one row', () => {
    expect(rowOf({ product_name: 'Lamp', quantity: 2, amount: 9_520, total_tax_amount: 1_904, tax_percentage: 25, product_id: 'sku' }, 0)).toEqual({
      articleNumber: 'sku',
      name: 'Lamp',
      quantity: 200,
      unitPrice: 4_760,
      vatPercent: 2_500,
    });
    expect(rowOf({ product_name: 'Pen', quantity: 3, amount: 1_000, total_tax_amount: 200 }, 0)).toEqual({
      name: '3 × Pen',
      quantity: 100,
      unitPrice: 1_000,
      vatPercent: 2_500,
    });
    expect(rowOf({ product_name: 'x'.repeat(60), quantity: 1, amount: 100, product_id: 'a'.repeat(300) }, 0)).toMatchObject({
      name: 'x'.repeat(40),
      articleNumber: 'a'.repeat(256),
    });
  });
  it("authorize: POST /api/orders in the published example's fields and rules, signed over the exact body; our push URI names the order", () => {
    const r = flow(svea.authorize).request(job(), creds, S);
    expect(r).toMatchObject({ method: 'POST', path: '/api/orders' });
    const body = CreateOrderRequest.parse(r.body);
    // The fields of php-checkout's create-order example (README §3), compared as Svea's server does: without case.
    const published = fixture('create_order_request');
    expect(lowerKeys(body)).toEqual(expect.arrayContaining(lowerKeys(published).filter((k) => k !== 'merchantdata' || body.merchantData)));
    expect(lowerKeys(body.cart.items[0]!)).toEqual(expect.arrayContaining(['name', 'quantity', 'unitprice', 'vatpercent']));
    expect(lowerKeys(published.cart.items[0])).toEqual(expect.arrayContaining(lowerKeys(body.cart.items[0]!)));
    expect(lowerKeys(published.merchantSettings)).toEqual(lowerKeys(body.merchantSettings));
    expect(body).toMatchObject({
      countryCode: 'SE',
      currency: 'SEK',
      locale: 'sv-SE',
      clientOrderNumber: 'op_01234567890123456789012345',
      cart: {
        items: [
          { name: 'Lamp', quantity: 200, unitPrice: 4_760, vatPercent: 2_500 },
          { name: 'Shipping', quantity: 100, unitPrice: 2_380, vatPercent: 2_500 },
        ],
      },
      merchantSettings: {
        confirmationUri: 'https://shop.example/return',
        pushUri: 'https://gateway.example/webhooks/mer_1/mca_1?svea_order={checkout.order.uri}',
      },
      presetValues: [
        { typeName: 'EmailAddress', value: 'erika@example.com', isReadOnly: false },
        { typeName: 'PhoneNumber', value: '+46701234567', isReadOnly: false },
        { typeName: 'PostalCode', value: '11151', isReadOnly: false },
        { typeName: 'IsCompany', value: 'false', isReadOnly: true },
      ],
    });
    const [id, digest] = Buffer.from(r.headers!.authorization!.slice(5), 'base64').toString().split(':');
    expect(id).toBe('124842');
    expect(digest).toBe(
      createHash('sha512')
        .update(`${JSON.stringify(r.body)}secret${r.headers!.timestamp}`)
        .digest('hex'),
    );
  });
  it('presets by §11.4: an email over 50 characters or a phone Svea does not take is left out (the customer types it)', () => {
    const r = flow(svea.authorize).request(
      job({
        customer_email: `${'e'.repeat(45)}@example.com`,
        order: order({ customer: { id: null, name: null, email: null, phone: '+46 (70) 123', phone_country_code: null } }),
      }),
      creds,
      S,
    );
    const types = CreateOrderRequest.parse(r.body).presetValues!.map((p) => p.typeName);
    expect(types).toEqual(['PostalCode', 'IsCompany']);
  });
  it("capture: rows (or units of rows) adding up to the amount, read from Svea's admin order; one partial capture lowers the amount", () => {
    const rows = [
      { OrderRowId: 1, UnitPrice: 4_760, Quantity: 200 },
      { OrderRowId: 2, UnitPrice: 2_380, Quantity: 100 },
    ];
    expect(unitsFor(rows, 7_140)).toEqual([
      { OrderRowId: 1, units: 1 },
      { OrderRowId: 2, units: 1 },
    ]);
    expect(unitsFor(rows, 5_000)).toBeNull();
    // DataSample AdminGetOrder: rows 1 (2 × 899.00) and 2 (3 × 1190.00), 5368.00 in all.
    const known = job({ kind: 'capture', connector_transaction_id: '2291662', amount: 536_800 });
    const c = flow(svea.capture);
    expect(c.request(known, creds, S)).toMatchObject({ method: 'GET', path: '/api/v1/orders/2291662' });
    expect(c.next!(known, creds, [answer('admin_order_open')], S)).toMatchObject({
      method: 'POST',
      path: '/api/v1/orders/2291662/deliveries',
      body: { orderRowIds: [1, 2] },
    });
    expect(c.next!({ ...known, amount: 89_900, capture_method: 'manual_multiple' }, creds, [answer('admin_order_open')], S)).toMatchObject({
      body: { orderRowIds: [1], rowDeliveryOptions: [{ orderRowId: 1, quantity: 100 }] },
    });
    expect(c.next!({ ...known, amount: 5_000 }, creds, [answer('admin_order_open')], S)).toMatchObject({
      path: '/api/v1/orders/2291662/deliveries/DeliverAndLowerAmount',
      body: { deliveredAmount: 5_000 },
    });
    expect(c.next!({ ...known, amount: 5_000, capture_method: 'manual_multiple' }, creds, [answer('admin_order_open')], S)).toBeNull();
    expect(c.next!(known, creds, [answer('admin_order_open'), accepted], S)).toMatchObject({
      method: 'GET',
      baseUrl: 'https://paymentadminapistage.svea.com',
      path: '/api/v1/queue/9',
    });
    // A finished task that names its resource (DataSample TaskResponse) -> the resource is read next.
    expect(c.next!(known, creds, [answer('admin_order_open'), accepted, answer('task_completed')], S)).toMatchObject({
      method: 'GET',
      baseUrl: 'https://paymentadminapi.svea.com',
      path: '/api/v1/orders/1',
    });
    expect(c.next!(known, creds, [answer('admin_order_open'), accepted, answer('task_in_progress')], S)).toBeNull();
    expect(c.request({ ...known, mode: 'sync', connector_transaction_id: TASK }, creds, S)).toMatchObject({ path: '/api/v1/queue/9' });
  });
  it('void cancels the order; refund credits the delivery with a new row of the amount', () => {
    expect(flow(svea.void).request(job({ kind: 'void', connector_transaction_id: '2291662' }), creds, S)).toMatchObject({
      method: 'PATCH',
      path: '/api/v1/orders/2291662',
      body: { isCancelled: true },
    });
    const r = flow(svea.refund).request(
      job({ kind: 'refund', connector_transaction_id: '2291662', connector_capture_id: '5588817', amount: 2_380, refund_id: 'ref_1' }),
      creds,
      S,
    );
    expect(r).toMatchObject({
      method: 'POST',
      path: '/api/v1/orders/2291662/deliveries/5588817/credits',
      body: { newCreditOrderRow: { name: 'Refund', quantity: 100, unitPrice: 2_380, vatPercent: 2_500, articleNumber: 'ref_1' } },
    });
    expect(() => flow(svea.refund).request(job({ kind: 'refund', connector_transaction_id: '2291662' }), creds, S)).toThrow(/names no delivery/);
  });
});

describe("svea answers (Svea's published examples) -> outcomes", () => {
  it("the snippet: the checkout's address is the iframe's data-sco-sveacheckout-iframeSrc (Svea's snippet has no src)", () => {
    const snippet: string = fixture('checkout_order_created').Gui.Snippet;
    expect(snippet).not.toMatch(/<iframe[^>]*\ssrc=/i);
    expect(checkoutUrlOf(snippet)).toBe(
      'https://checkoutapistage.svea.com/b/index.html?orderId=2461925&authToken=SveaCheckout+aLs4Zd%2bOBynWBr%2bNGpSVsNE7Sts%3d&token=9D5B49C2B8553149868937DB288B3C7C&locale=sv-SE',
    );
    expect(checkoutUrlOf('<iframe data-sco-sveacheckout-iframeSrc="https://x.example/b?a=1&amp;b=2"></iframe>')).toBe('https://x.example/b?a=1&b=2');
    expect(checkoutUrlOf('<div></div>')).toBeUndefined();
  });
  it("authorize: the created order sends the customer to Svea's checkout; errors in Svea's body, naming the field", () => {
    expect(flow(svea.authorize).response(answer('checkout_order_created', 201), job())).toEqual({
      kind: 'CUSTOMER_ACTION',
      connector_transaction_id: '2461925',
      connector_reference_id: '637285981136373230',
      redirect_url: expect.stringMatching(/^https:\/\/checkoutapistage\.svea\.com\/b\/index\.html\?orderId=2461925&/),
    });
    expect(flow(svea.authorize).response(answer('error_validation', 400), job())).toMatchObject({
      kind: 'DECLINED',
      error_code: '40001',
      error_message: 'MerchantSettings.PushUri: The PushUri field is required.',
      unified_code: 'UE_2000',
    });
    expect(flow(svea.authorize).response({ status: 401, body: null }, job())).toMatchObject({ error_code: 'http_401', unified_code: 'UE_4000' });
    expect(flow(svea.authorize).response({ status: 403, body: null, headers: { errormessage: 'Forbidden' } }, job())).toMatchObject({
      error_code: 'http_403',
      error_message: 'Forbidden',
      unified_code: 'UE_4000',
    });
  });
  it('sync: Created waits for the customer, Cancelled is declined, Final reads the admin order (CanDeliverPartially, Processing)', () => {
    const s = flow(svea.sync);
    const known = job({ mode: 'sync', connector_transaction_id: '8932787' });
    const created = answer('checkout_order_created');
    const cancelled = answer('checkout_order_created', 200, { Status: 'Cancelled' });
    const final = answer('checkout_order_final');
    expect(s.response(created, known, [created])).toMatchObject({ kind: 'CUSTOMER_ACTION' });
    expect(s.response(cancelled, known, [cancelled])).toMatchObject({ kind: 'DECLINED', error_code: 'Cancelled', unified_code: 'UE_1000' });
    expect(s.next!(known, creds, [final], S)).toMatchObject({ method: 'GET', path: '/api/v1/orders/8932787' });
    expect(s.next!(known, creds, [created], S)).toBeNull();
  });
  it("sync of a Final order: the admin order in Svea's spellings (CanDeliverPartially, Processing, Failed)", () => {
    const s = flow(svea.sync);
    const known = job({ mode: 'sync', connector_transaction_id: '8932787' });
    const final = answer('checkout_order_final');
    expect(s.response(answer('admin_order_open'), known, [final, answer('admin_order_open')])).toEqual({
      kind: 'AUTHORIZED',
      connector_transaction_id: '8932787',
      connector_reference_id: '638297691863676770',
    });
    // Deliverable by Svea's own spelling of the partial action only (DataSample: CanDeliverPartially).
    const partialOnly = answer('admin_order_open', 200, { Actions: ['CanDeliverPartially'] });
    expect(s.response(partialOnly, known, [final, partialOnly])).toMatchObject({ kind: 'AUTHORIZED' });
    const checking = answer('admin_order_open', 200, { Actions: [] });
    expect(s.response(checking, known, [final, checking])).toMatchObject({ kind: 'PENDING' });
    const processing = answer('admin_order_open', 200, { OrderStatus: 'Processing', Actions: [] });
    expect(s.response(processing, known, [final, processing])).toMatchObject({ kind: 'PENDING', connector_transaction_id: '8932787' });
    const failed = answer('admin_order_open', 200, { OrderStatus: 'Failed', Actions: [] });
    expect(s.response(failed, known, [final, failed])).toMatchObject({ kind: 'DECLINED', error_code: 'Failed' });
  });
  it('capture: a running task is pending (its Location the id); the finished task leads to the order, whose delivery is the capture', () => {
    const c = flow(svea.capture);
    const known = job({ kind: 'capture', connector_transaction_id: '2291662', amount: 536_800 });
    const chain = (last: ProviderResponse) => [answer('admin_order_open'), accepted, last];
    expect(c.response(answer('task_in_progress'), known, chain(answer('task_in_progress')))).toEqual({ kind: 'PENDING', connector_transaction_id: TASK });
    // The 303 followed: the order (DataSample AdminDeliveredOrder, delivery 5588817).
    expect(c.response(answer('admin_order_delivered'), known, chain(answer('admin_order_delivered')))).toEqual({
      kind: 'CAPTURED',
      connector_transaction_id: '5588817',
    });
    // The task's body naming its resource, then the resource.
    expect(c.response(answer('admin_order_delivered'), known, [...chain(answer('task_completed')), answer('admin_order_delivered')])).toEqual({
      kind: 'CAPTURED',
      connector_transaction_id: '5588817',
    });
    // A partial delivery: the delivery of the amount (DataSample AdminPartiallyDeliveredOrder: 179800).
    expect(c.response(answer('admin_order_partially_delivered'), { ...known, amount: 179_800 }, chain(answer('admin_order_partially_delivered')))).toEqual({
      kind: 'CAPTURED',
      connector_transaction_id: '5588814',
    });
    expect(
      c.response(answer('task_in_progress', 200, { Status: 'Failed' }), known, chain(answer('task_in_progress', 200, { Status: 'Failed' }))),
    ).toMatchObject({ kind: 'FAILED', error_code: 'TaskFailed' });
    expect(c.response(answer('error_validation', 400), known, [answer('admin_order_open'), answer('error_validation', 400)])).toMatchObject({
      kind: 'FAILED',
      error_code: '40001',
    });
    expect(c.response(answer('admin_order_open'), { ...known, amount: 5_000, capture_method: 'manual_multiple' }, [answer('admin_order_open')])).toMatchObject({
      kind: 'FAILED',
      error_code: 'no_matching_rows',
    });
    const sync = { ...known, mode: 'sync' as const, connector_transaction_id: TASK };
    expect(c.response(answer('admin_order_delivered'), sync, [answer('admin_order_delivered')])).toEqual({
      kind: 'CAPTURED',
      connector_transaction_id: '5588817',
    });
    expect(c.response(answer('task_in_progress'), sync, [answer('task_in_progress')])).toMatchObject({ kind: 'PENDING' });
    expect(c.next!(sync, creds, [answer('task_completed')], S)).toMatchObject({ path: '/api/v1/orders/1' });
  });
  it('void, refund and refund sync: a finished credit task leads to {CreditId} (a string)', () => {
    expect(flow(svea.void).response({ status: 204, body: null }, job())).toEqual({ kind: 'VOIDED' });
    const r = flow(svea.refund);
    expect(r.response(answer('task_in_progress'), job(), [accepted, answer('task_in_progress')])).toMatchObject({
      kind: 'PENDING',
      connector_transaction_id: TASK,
    });
    expect(r.response(answer('credit'), job(), [accepted, answer('credit')])).toEqual({ kind: 'REFUNDED', connector_transaction_id: '1783' });
    expect(r.next!(job(), creds, [accepted, answer('task_completed')], S)).toMatchObject({ path: '/api/v1/orders/1' });
    const refused = answer('error_validation', 400, { Code: 40010 });
    expect(r.response(refused, job(), [refused])).toMatchObject({ kind: 'DECLINED', error_code: '40010', unified_code: 'UE_6000' });
    const pending = job({ kind: 'refund', mode: 'sync', connector_transaction_id: '2291662', connector_refund_id: TASK });
    expect(flow(svea.refundSync).request(pending, creds, S)).toMatchObject({ baseUrl: 'https://paymentadminapistage.svea.com', path: '/api/v1/queue/9' });
    expect(flow(svea.refundSync).response(answer('credit'), pending)).toEqual({ kind: 'REFUNDED', connector_transaction_id: '1783' });
  });
  it("an answer that is not Svea's shape is refused, never cast", () => {
    expect(() => flow(svea.authorize).response({ status: 201, body: { id: 1 } }, job())).toThrow(UnexpectedAnswer);
    const odd = { status: 200, body: { Amount: 1 } };
    expect(() => flow(svea.capture).response(odd, job({ kind: 'capture' }), [answer('admin_order_open'), accepted, odd])).toThrow(UnexpectedAnswer);
    expect(() => flow(svea.refund).response(odd, job(), [accepted, odd])).toThrow(UnexpectedAnswer);
  });
});

describe('svea notices -> hints', () => {
  const parse = (body: string, query?: Record<string, string>) => flow(svea.notification).parse(body, query ? { query } : {});
  it('the push names the order in the URL Svea filled in ({checkout.order.uri} -> ?svea_order=), whatever its body', () => {
    expect(parse('', { svea_order: '9201634' })).toEqual({ object: 'hint', connector_transaction_id: '9201634', event: 'push' });
    expect(parse('{"anything":1}', { svea_order: '9201634' })).toMatchObject({ object: 'hint', connector_transaction_id: '9201634' });
    expect(parse('', { svea_order: '{checkout.order.uri}' })).toMatchObject({ object: 'unknown' });
    expect(parse('')).toMatchObject({ object: 'unknown' });
  });
  it("Svea's documented callback events are hints naming the checkout order; others unknown", () => {
    for (const [name, event] of [
      ['callback_created', 'CheckoutOrder.Created'],
      ['callback_delivered', 'CheckoutOrder.Delivered'],
      ['callback_credit_succeeded', 'CheckoutOrder.CreditSucceeded'],
      ['callback_credit_failed', 'CheckoutOrder.CreditFailed'],
    ]) {
      expect(parse(JSON.stringify(fixture(name!)))).toEqual({ object: 'hint', connector_transaction_id: '9201634', event });
    }
    expect(parse(JSON.stringify({ ...fixture('callback_created'), EventName: 'Subscription.Renewed' }))).toMatchObject({
      object: 'unknown',
      reason: expect.stringContaining('Subscription.Renewed'),
    });
    expect(parse('nope')).toMatchObject({ object: 'unknown' });
  });
});

describe('svea mandates (recurring orders: php-checkout §6-§9, docs checkout/recurring-orders)', () => {
  const mandate = (kind: 'new' | 'setup' | 'recurring', connector_mandate_id: string | null = null) => ({ kind, mandate_id: 'man_1', connector_mandate_id });
  const TOKEN = '12345678-90ab-cdef-1234-567890abcdef';

  it('the manifest declares recurring orders on invoice, without a zero authorization (a recurring cart must total above 0)', () => {
    expect(svea.manifest.mandates).toEqual({ payment_method_types: ['invoice', 'subscription_invoice'], setup_mandate: false });
  });

  it('a payment setting up a mandate creates a recurring checkout order (`recurring: true`, §3); others do not', () => {
    const a = flow(svea.authorize);
    expect(CreateOrderRequest.parse(a.request(job({ mandate: mandate('new') }), creds, S).body)).toMatchObject({ recurring: true });
    expect(a.request(job(), creds, S).body).not.toHaveProperty('recurring');
  });

  it("the first order's RecurringToken (§9, once Final) is the mandate's reference when the order is authorized", () => {
    const s = flow(svea.sync);
    const known = job({ mode: 'sync', connector_transaction_id: '8932787', mandate: mandate('new') });
    const final = answer('checkout_order_final_recurring');
    expect(CheckoutOrder.parse(fixture('checkout_order_final_recurring')).RecurringToken).toBe(TOKEN);
    expect(s.response(answer('admin_order_open'), known, [final, answer('admin_order_open')])).toEqual({
      kind: 'AUTHORIZED',
      connector_transaction_id: '8932787',
      connector_reference_id: '638297691863676770',
      connector_mandate_id: TOKEN,
    });
    // Not yet deliverable: no reference yet; an order that is not recurring has none.
    const checking = answer('admin_order_open', 200, { Actions: [] });
    expect(s.response(checking, known, [final, checking])).not.toHaveProperty('connector_mandate_id');
    const plain = answer('checkout_order_final');
    expect(s.response(answer('admin_order_open'), known, [plain, answer('admin_order_open')])).not.toHaveProperty('connector_mandate_id');
  });

  it('a recurring charge: POST /api/tokens/{token}/orders, signed, with currency, clientOrderNumber, pushUri and the cart', () => {
    const req = flow(svea.authorize).request(job({ mandate: mandate('recurring', TOKEN) }), creds, S);
    expect(req).toMatchObject({ method: 'POST', path: `/api/tokens/${TOKEN}/orders` });
    const body = TokenOrderRequest.parse(req.body);
    expect(body).toEqual({
      currency: 'SEK',
      clientOrderNumber: 'op_01234567890123456789012345',
      merchantSettings: { pushUri: 'https://gateway.example/webhooks/mer_1/mca_1?svea_order={checkout.order.uri}', checkoutUri: 'https://shop.example/return' },
      cart: {
        items: [
          { articleNumber: 'sku-lamp', name: 'Lamp', quantity: 200, unitPrice: 4_760, vatPercent: 2500 },
          { name: 'Shipping', quantity: 100, unitPrice: 2_380, vatPercent: 2500 },
        ],
      },
    });
    const signature = Buffer.from(String(req.headers?.authorization).slice(5), 'base64').toString().split(':')[1];
    expect(signature).toBe(
      createHash('sha512')
        .update(`${JSON.stringify(req.body)}secret${req.headers?.timestamp}`)
        .digest('hex'),
    );
    // php-checkout's own example data (its token goes into the path; its clientOrderNumber printed as a number).
    const { token, ...published } = fixture('token_order_request');
    expect(token).toBe(TOKEN);
    expect(TokenOrderRequest.parse({ ...published, clientOrderNumber: String(published.clientOrderNumber) })).toMatchObject({ currency: 'SEK' });
    expect(UpdateTokenRequest.parse(fixture('token_update_request'))).toEqual({ status: 'Cancelled' });
    expect(() => flow(svea.authorize).request(job({ mandate: mandate('recurring') }), creds, S)).toThrow(/no RecurringToken/);
  });

  it('the 201 answer is the new order: pending until the status sync reads it Final and deliverable; no customer step', () => {
    const a = flow(svea.authorize);
    const j = job({ mandate: mandate('recurring', TOKEN) });
    expect(a.response(answer('token_order_created', 201), j)).toEqual({
      kind: 'PENDING',
      connector_transaction_id: '8932790',
      connector_reference_id: '12356',
    });
    expect(a.response(answer('token_order_created', 201, { Status: 'Cancelled' }), j)).toMatchObject({ kind: 'DECLINED', unified_code: 'UE_1000' });
    expect(() => a.response({ status: 201, body: {} }, j)).toThrow(UnexpectedAnswer);
  });

  it('refusals come in the X-SVEACHECKOUT-ERRORCODE / -ERRORMESSAGE headers; an unknown or cancelled token is the mandate gone at Svea (UE_7000)', () => {
    const a = flow(svea.authorize);
    const j = job({ mandate: mandate('recurring', TOKEN) });
    expect(a.response({ status: 404, body: null, headers: {} }, j)).toMatchObject({
      kind: 'DECLINED',
      error_code: 'http_404',
      error_message: 'No token with the requested ID was found',
      unified_code: 'UE_7000',
    });
    const cancelled = { status: 400, body: null, headers: { 'x-sveacheckout-errorcode': '118', 'x-sveacheckout-errormessage': 'Invalid token status.' } };
    expect(a.response(cancelled, j)).toMatchObject({ kind: 'DECLINED', error_code: '118', error_message: 'Invalid token status.', unified_code: 'UE_7000' });
    const bad = { status: 400, body: null, headers: { 'x-sveacheckout-errorcode': '126', 'x-sveacheckout-errormessage': 'Invalid client order number.' } };
    expect(a.response(bad, j)).toMatchObject({ kind: 'DECLINED', error_code: '126', unified_code: 'UE_2000' });
  });
});
