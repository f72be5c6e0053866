// svea's flows, pure: our jobs -> Svea's signed requests, and Svea's documented answers (fixtures/answers.json; the
// sheet's create-order example and task shape) -> outcomes. No stack.
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import type { ConnectorJob, ProviderOrder } from '../../../domain/job.ts';
import type { ProviderResponse } from '../kit/http.ts';
import { FLOWS } from '../manifest.ts';
import { UnexpectedAnswer } from '../types.ts';
import { testSession } from '../kit/testing.ts';
import { connector as svea } from './index.ts';
import { adminBase, rowOf, unitsFor } from './request.ts';
import { sveaHeaders, sveaToken } from './sign.ts';

const answers: Record<string, ProviderResponse> = JSON.parse(readFileSync(new URL('./fixtures/answers.json', import.meta.url), 'utf8'));
const notifications: Record<string, unknown> = JSON.parse(readFileSync(new URL('./fixtures/notifications.json', import.meta.url), 'utf8'));
const a = (name: string) => answers[name]!;
const creds = { api_key: 'secret', key1: '124842' };
const order = (over: Partial<ProviderOrder> = {}): ProviderOrder => ({
  customer: { id: null, name: 'Erika Mustermann', email: 'erika@example.com', phone: '+46701234567', phone_country_code: null },
  billing: { address: { line1: 'Drottninggatan 1', city: 'Stockholm', zip: '11151', country: 'SE' } },
  shipping: null,
  order_details: [
    { product_name: 'Lamp', quantity: 2, amount: 9_520, total_tax_amount: 1_904, tax_percentage: 25, product_id: 'sku-lamp' },
    { product_name: 'Shipping', quantity: 1, amount: 2_380, total_tax_amount: 476 },
  ],
  order_tax_amount: 2_380, metadata: { customer_locale: 'sv-SE' }, browser_info: null, description: null, payment_method_type: 'invoice',
  birth_date: null, gender: null, locale: null, ...over,
});
const job = (over: Partial<ConnectorJob> = {}): ConnectorJob => ({
  merchant_id: 'mer_1', payment_id: 'pay_1', operation_id: 'op_01234567890123456789012345', kind: 'authorize', connector: 'svea', merchant_connector_id: 'mca_1',
  amount: 11_900, currency: 'SEK', capture_method: 'manual', connector_transaction_id: null, customer_email: 'erika@example.com',
  return_url: 'https://shop.example/return', merchant_order_reference_id: 'order-1', mode: 'execute', sync_round: 0, order: order(), ...over,
});
const flow = <T>(f: T | undefined): T => { if (!f) throw new Error('flow absent'); return f; };

describe('svea manifest and signature', () => {
  it('lists exactly the flows it implements; follow-up capture; BodyKey (secret + merchant id); unsigned pushes', () => {
    expect(FLOWS.filter((f) => svea[f] !== undefined)).toEqual([...svea.manifest.flows]);
    expect(svea.manifest).toMatchObject({ automatic_capture: 'follow_up', amount_unit: 'minor', webhook: { scheme: 'unsigned' } });
    expect(svea.manifest.credentials.safeParse(svea.manifest.sandbox_account_details).success).toBe(true);
    expect(svea.manifest.credentials.safeParse({ api_key: 'x' }).success).toBe(false);
  });
  it('Authorization: Svea base64(merchantId:sha512hex(body + secret + timestamp)), Timestamp yyyy-MM-dd HH:mm:ss UTC', () => {
    const h = sveaHeaders('124842', 'secret', { a: 1 }, new Date('2026-11-23T12:00:00.123Z'));
    expect(h.timestamp).toBe('2026-11-23 12:00:00');
    const digest = createHash('sha512').update('{"a":1}secret2026-11-23 12:00:00').digest('hex');
    expect(h.authorization).toBe(`Svea ${Buffer.from(`124842:${digest}`).toString('base64')}`);
    expect(sveaToken('124842', 'secret', '', '2026-11-23 12:00:00')).not.toBe(sveaToken('124842', 'secret', '', '2026-11-23 12:00:01'));
    expect(adminBase('https://checkoutapistage.svea.com')).toBe('https://paymentadminapistage.svea.com');
    expect(adminBase('http://127.0.0.1:8090/svea')).toBeUndefined();
  });
});

describe('svea requests', () => {
  it('rows: minor units per unit, Quantity and VatPercent ×100; a total not divisible by its quantity is one row', () => {
    expect(rowOf({ product_name: 'Lamp', quantity: 2, amount: 9_520, total_tax_amount: 1_904, tax_percentage: 25, product_id: 'sku' }, 0))
      .toEqual({ ArticleNumber: 'sku', Name: 'Lamp', Quantity: 200, UnitPrice: 4_760, VatPercent: 2_500 });
    expect(rowOf({ product_name: 'Pen', quantity: 3, amount: 1_000, total_tax_amount: 200 }, 0)).toEqual({ Name: '3 × Pen', Quantity: 100, UnitPrice: 1_000, VatPercent: 2_500 });
  });
  it('authorize: POST /api/orders signed over the exact body, the operation id as clientOrderNumber, our push URI', () => {
    const r = flow(svea.authorize).request(job(), creds, testSession(job()));
    expect(r).toMatchObject({ method: 'POST', path: '/api/orders' });
    expect(r.body).toMatchObject({
      countryCode: 'SE', currency: 'SEK', locale: 'sv-SE', clientOrderNumber: 'op_01234567890123456789012345',
      cart: { items: [{ Name: 'Lamp', Quantity: 200, UnitPrice: 4_760, VatPercent: 2_500 }, { Name: 'Shipping', Quantity: 100, UnitPrice: 2_380, VatPercent: 2_500 }] },
      merchantSettings: { confirmationUri: 'https://shop.example/return', pushUri: expect.stringMatching(/\/webhooks\/mer_1\/mca_1\?svea_order=\{checkout\.order\.uri\}$/) },
      presetValues: [
        { typeName: 'EmailAddress', value: 'erika@example.com', isReadOnly: false }, { typeName: 'PhoneNumber', value: '+46701234567', isReadOnly: false },
        { typeName: 'PostalCode', value: '11151', isReadOnly: false }, { typeName: 'IsCompany', value: 'false', isReadOnly: true },
      ],
    });
    const [id, digest] = Buffer.from(r.headers!.authorization!.slice(5), 'base64').toString().split(':');
    expect(id).toBe('124842');
    expect(digest).toBe(createHash('sha512').update(JSON.stringify(r.body) + 'secret' + r.headers!.timestamp).digest('hex'));
  });
  it('capture: rows (or units of rows) adding up to the amount; one partial capture lowers the amount; else none', () => {
    const rows = [{ OrderRowId: 1, UnitPrice: 4_760, Quantity: 200 }, { OrderRowId: 2, UnitPrice: 2_380, Quantity: 100 }];
    expect(unitsFor(rows, 7_140)).toEqual([{ OrderRowId: 1, units: 1 }, { OrderRowId: 2, units: 1 }]);
    expect(unitsFor(rows, 5_000)).toBeNull();
    const known = job({ kind: 'capture', connector_transaction_id: '251147' });
    const c = flow(svea.capture);
    expect(c.request(known, creds)).toMatchObject({ method: 'GET', path: '/api/v1/orders/251147' });
    expect(c.next!(known, creds, [a('admin_open')])).toMatchObject({ method: 'POST', path: '/api/v1/orders/251147/deliveries', body: { orderRowIds: [1, 2] } });
    expect(c.next!({ ...known, amount: 4_760, capture_method: 'manual_multiple' }, creds, [a('admin_open')]))
      .toMatchObject({ body: { orderRowIds: [1], rowDeliveryOptions: [{ orderRowId: 1, quantity: 100 }] } });
    expect(c.next!({ ...known, amount: 5_000 }, creds, [a('admin_open')])).toMatchObject({ path: '/api/v1/orders/251147/deliveries/DeliverAndLowerAmount', body: { deliveredAmount: 5_000 } });
    expect(c.next!({ ...known, amount: 5_000, capture_method: 'manual_multiple' }, creds, [a('admin_open')])).toBeNull();
    expect(c.next!(known, creds, [a('admin_open'), a('delivery_accepted')])).toMatchObject({ method: 'GET', baseUrl: 'http://127.0.0.1:8090', path: '/svea/api/v1/queue/12' });
    // The status sync of a pending capture polls its task.
    expect(c.request({ ...known, mode: 'sync', connector_transaction_id: 'http://127.0.0.1:8090/svea/api/v1/queue/12' }, creds)).toMatchObject({ path: '/svea/api/v1/queue/12' });
  });
  it('void cancels the order; refund credits the delivery with a new row of the amount', () => {
    expect(flow(svea.void).request(job({ kind: 'void', connector_transaction_id: '251147' }), creds)).toMatchObject({ method: 'PATCH', path: '/api/v1/orders/251147', body: { isCancelled: true } });
    const r = flow(svea.refund).request(job({ kind: 'refund', connector_transaction_id: '251147', connector_capture_id: '9201650', amount: 2_380, refund_id: 'ref_1' }), creds);
    expect(r).toMatchObject({ method: 'POST', path: '/api/v1/orders/251147/deliveries/9201650/credits', body: { newCreditOrderRow: { Name: 'Refund', Quantity: 100, UnitPrice: 2_380, VatPercent: 2_500, ArticleNumber: 'ref_1' } } });
    expect(() => flow(svea.refund).request(job({ kind: 'refund', connector_transaction_id: '251147' }), creds)).toThrow(/names no delivery/);
  });
});

describe('svea answers -> outcomes', () => {
  it('authorize: the checkout page from the snippet; errors with Svea\'s code', () => {
    expect(flow(svea.authorize).response(a('order_created'), job())).toEqual({
      kind: 'CUSTOMER_ACTION', connector_transaction_id: '251147', connector_reference_id: 'A-1001', redirect_url: 'http://127.0.0.1:8090/svea/checkout/251147',
    });
    expect(flow(svea.authorize).response(a('unauthorized'), job())).toMatchObject({ kind: 'DECLINED', error_code: '40101', unified_code: 'UE_4000' });
    expect(flow(svea.authorize).response(a('validation'), job())).toMatchObject({ kind: 'DECLINED', error_code: '40001', error_message: expect.stringContaining('pushUri'), unified_code: 'UE_2000' });
    expect(flow(svea.authorize).response({ status: 403, body: null, headers: { errormessage: 'Forbidden' } }, job())).toMatchObject({ error_code: 'http_403', error_message: 'Forbidden', unified_code: 'UE_4000' });
  });
  it('sync: Created waits for the customer, Cancelled is declined, Final reads the admin order (deliverable or pending)', () => {
    const s = flow(svea.sync);
    const known = job({ mode: 'sync', connector_transaction_id: '251147' });
    expect(s.response(a('order_created'), known, [a('order_created')])).toMatchObject({ kind: 'CUSTOMER_ACTION' });
    expect(s.response(a('order_cancelled'), known, [a('order_cancelled')])).toMatchObject({ kind: 'DECLINED', error_code: 'Cancelled', unified_code: 'UE_1000' });
    expect(s.next!(known, creds, [a('order_final')])).toMatchObject({ method: 'GET', path: '/api/v1/orders/251147' });
    expect(s.next!(known, creds, [a('order_created')])).toBeNull();
    expect(s.response(a('admin_open'), known, [a('order_final'), a('admin_open')])).toEqual({ kind: 'AUTHORIZED', connector_transaction_id: '251147', connector_reference_id: 'A-1001' });
    expect(s.response(a('admin_pending'), known, [a('order_final'), a('admin_pending')])).toMatchObject({ kind: 'PENDING', connector_transaction_id: '251147' });
  });
  it('capture: a running task is pending (its Location the id), a finished one the delivery; refusals fail', () => {
    const c = flow(svea.capture);
    const known = job({ kind: 'capture', connector_transaction_id: '251147' });
    const chain = (last: string) => [a('admin_open'), a('delivery_accepted'), a(last)];
    expect(c.response(a('task_in_progress'), known, chain('task_in_progress'))).toEqual({ kind: 'PENDING', connector_transaction_id: 'http://127.0.0.1:8090/svea/api/v1/queue/12' });
    expect(c.response(a('delivery'), known, chain('delivery'))).toEqual({ kind: 'CAPTURED', connector_transaction_id: '9201650' });
    expect(c.response(a('task_failed'), known, chain('task_failed'))).toMatchObject({ kind: 'FAILED', error_code: 'TaskFailed' });
    expect(c.response(a('not_deliverable'), known, [a('admin_open'), a('not_deliverable')])).toMatchObject({ kind: 'FAILED', error_code: '40901', unified_code: 'UE_3000' });
    expect(c.response(a('admin_open'), known, [a('admin_open')])).toMatchObject({ kind: 'FAILED', error_code: 'no_matching_rows' });
    const sync = { ...known, mode: 'sync' as const, connector_transaction_id: 'http://127.0.0.1:8090/svea/api/v1/queue/12' };
    expect(c.response(a('delivery'), sync, [a('delivery')])).toEqual({ kind: 'CAPTURED', connector_transaction_id: '9201650' });
    expect(c.response(a('task_in_progress'), sync, [a('task_in_progress')])).toMatchObject({ kind: 'PENDING' });
  });
  it('void, refund and refund sync', () => {
    expect(flow(svea.void).response(a('cancelled'), job())).toEqual({ kind: 'VOIDED' });
    const r = flow(svea.refund);
    expect(r.response(a('task_in_progress'), job(), [a('delivery_accepted'), a('task_in_progress')])).toMatchObject({ kind: 'PENDING', connector_transaction_id: 'http://127.0.0.1:8090/svea/api/v1/queue/12' });
    expect(r.response(a('credit'), job(), [a('delivery_accepted'), a('credit')])).toEqual({ kind: 'REFUNDED', connector_transaction_id: '9201655' });
    expect(r.response(a('credit_refused'), job(), [a('credit_refused')])).toMatchObject({ kind: 'DECLINED', error_code: '40010', unified_code: 'UE_6000' });
    const pending = job({ kind: 'refund', mode: 'sync', connector_transaction_id: '251147', connector_refund_id: 'http://127.0.0.1:8090/svea/api/v1/queue/12' });
    expect(flow(svea.refundSync).request(pending, creds)).toMatchObject({ baseUrl: 'http://127.0.0.1:8090', path: '/svea/api/v1/queue/12' });
    expect(flow(svea.refundSync).response(a('credit'), pending)).toEqual({ kind: 'REFUNDED', connector_transaction_id: '9201655' });
  });
  it('an answer that is not Svea\'s shape is refused, never cast', () => {
    expect(() => flow(svea.authorize).response({ status: 201, body: { id: 1 } }, job())).toThrow(UnexpectedAnswer);
    expect(() => flow(svea.capture).response({ status: 200, body: { Amount: 1 } }, job({ kind: 'capture' }), [a('admin_open'), a('delivery_accepted'), { status: 200, body: { Amount: 1 } }])).toThrow(UnexpectedAnswer);
  });
});

describe('svea pushes -> hints', () => {
  const parse = (name: string) => flow(svea.notification).parse(JSON.stringify(notifications[name]));
  it('every order event is a hint naming the checkout order; the rest unknown', () => {
    expect(parse('created')).toEqual({ object: 'hint', connector_transaction_id: '9201634', event: 'CheckoutOrder.Created' });
    expect(parse('delivered')).toMatchObject({ object: 'hint', event: 'CheckoutOrder.Delivered' });
    expect(parse('credit_succeeded')).toMatchObject({ object: 'hint', event: 'CheckoutOrder.CreditSucceeded' });
    expect(parse('other')).toMatchObject({ object: 'unknown', reason: expect.stringContaining('Subscription.Renewed') });
    expect(flow(svea.notification).parse('nope')).toEqual({ object: 'unknown', reason: 'the body is not JSON' });
  });
});
