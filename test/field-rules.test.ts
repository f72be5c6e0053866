// Every field rule and limit of spec sections 2 and 8 on every payments endpoint: each bad value answers 400
// naming its field, and nothing is written (the create-only rules are in payments-flow.test.ts).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Stack } from './support/stack.ts';

let stack: Stack;
let key: string;
let open: string; // requires_confirmation
let held: string; // requires_capture, manual_multiple, incremental authorization allowed
beforeAll(async () => {
  ({ stack, api_key: key } = await Stack.withMerchant());
  open = (await stack.api('POST', '/payments', { amount: 10_000, currency: 'EUR' }, key)).body.payment_id;
  held = (
    await stack.api(
      'POST',
      '/payments',
      {
        amount: 10_000,
        currency: 'EUR',
        confirm: true,
        payment_method: 'pay_later',
        capture_method: 'manual_multiple',
        request_incremental_authorization: true,
      },
      key,
    )
  ).body.payment_id;
});
afterAll(async () => stack?.stop());

async function written(): Promise<string> {
  const db = await stack.db();
  const counts = await Promise.all(['transitions', 'payments', 'customers', 'payment_links'].map((c) => db.collection(c).countDocuments({})));
  const seqs = await db
    .collection('payments')
    .find({}, { projection: { _id: 0, payment_id: 1, seq: 1 } })
    .toArray();
  return JSON.stringify([counts, seqs.map((p) => `${p.payment_id}:${p.seq}`).sort()]);
}

const base = { amount: 100, currency: 'EUR' };
const many = (n: number) => Object.fromEntries(Array.from({ length: n }, (_, i) => [`k${i}`, 'v']));

// [endpoint, body, the field the error names, code]
type Case = [string, Record<string, unknown>, string, string?];
const CREATE: Case[] = [
  ['create', { ...base, amount: undefined }, 'amount', 'IR_04'],
  ['create', { ...base, order_tax_amount: -1 }, 'order_tax_amount'],
  ['create', { ...base, amount_to_capture: 1.5 }, 'amount_to_capture'],
  ['create', { ...base, payment_id: 'p'.repeat(31) }, 'payment_id'],
  ['create', { ...base, routing: { type: 'random', data: 'service_test' } }, 'routing.type'],
  ['create', { ...base, connector: 'service_test' }, 'connector'],
  ['create', { ...base, authentication_type: 'sms' }, 'authentication_type'],
  ['create', { ...base, shipping: { address: { country: 'de' } } }, 'shipping.address.country'],
  ['create', { ...base, billing: { email: 'nope' } }, 'billing.email'],
  ['create', { ...base, confirm: 'yes' }, 'confirm'],
  ['create', { ...base, customer: { id: '' } }, 'customer.id'],
  ['create', { ...base, customer_id: '' }, 'customer_id'],
  ['create', { ...base, customer: { birth_date: '1990-01-01T00' } }, 'customer.birth_date'],
  ['create', { ...base, customer: { gender: 'g'.repeat(11) } }, 'customer.gender'],
  ['create', { ...base, email: `${'e'.repeat(250)}@x.com` }, 'email'],
  ['create', { ...base, name: 'n'.repeat(256) }, 'name'],
  ['create', { ...base, phone: '1'.repeat(256) }, 'phone'],
  ['create', { ...base, off_session: 1 }, 'off_session'],
  ['create', { ...base, setup_future_usage: 'always' }, 'setup_future_usage'],
  ['create', { ...base, payment_method: 'card' }, 'payment_method'],
  ['create', { ...base, payment_method_data: { pay_later: 'invoice' } }, 'payment_method_data.pay_later'],
  ['create', { ...base, payment_token: 7 }, 'payment_token'],
  ['create', { ...base, statement_descriptor_suffix: 's'.repeat(256) }, 'statement_descriptor_suffix'],
  ['create', { ...base, order_details: [{ quantity: 1, amount: 100 }] }, 'order_details.0.product_name', 'IR_04'],
  ['create', { ...base, order_details: [{ product_name: 'a', quantity: 1, amount: -100 }] }, 'order_details.0.amount'],
  ['create', { ...base, mandate_data: { customer_acceptance: { acceptance_type: 'telepathy' } } }, 'mandate_data.customer_acceptance.acceptance_type'],
  ['create', { ...base, browser_info: { screen_height: 'tall' } }, 'browser_info.screen_height'],
  ['create', { ...base, payment_experience: 'hologram' }, 'payment_experience'],
  ['create', { ...base, metadata: 'x' }, 'metadata'],
  ['create', { ...base, metadata: { k: { nested: 'v'.repeat(500) } } }, 'metadata.k'],
  ['create', { ...base, payment_link: 'yes' }, 'payment_link'],
  ['create', { ...base, session_expiry: 1.5 }, 'session_expiry'],
  ['create', { ...base, business_label: 'b'.repeat(256) }, 'business_label'],
  ['create', { ...base, business_country: 'Deutschland' }, 'business_country'],
  ['create', { ...base, payment_type: 'gift' }, 'payment_type'],
  ['create', { ...base, retry_action: 'again' }, 'retry_action'],
  ['create', { ...base, allowed_payment_method_types: ['card'] }, 'allowed_payment_method_types.0'],
  ['create', { ...base, surcharge_details: { surcharge_amount: -1 } }, 'surcharge_details.surcharge_amount'],
  ['create', { ...base, psd2_sca_exemption_type: 'none' }, 'psd2_sca_exemption_type'],
];
const OPERATIONS: Case[] = [
  ['confirm', { payment_id: 'short' }, 'payment_id'],
  ['confirm', { payment_method: 'pay_later', amount: -5 }, 'amount'],
  ['confirm', { payment_method: 'pay_later', currency: 'euro' }, 'currency'],
  ['confirm', { payment_method: 'pay_later', metadata: many(51) }, 'metadata'],
  ['confirm', { payment_method: 'pay_later', statement_descriptor_name: '!!!' }, 'statement_descriptor_name'],
  ['confirm', { payment_method: 'pay_later', client_secret: 7 }, 'client_secret'],
  ['confirm', { payment_method: 'pay_later', amount_to_capture: 10_001 }, 'amount_to_capture'],
  ['update', { amount: -1 }, 'amount'],
  ['update', { amount: 5_000, order_details: [{ product_name: 'a', quantity: 1, amount: 4_000 }] }, 'order_details'],
  ['update', { confirm: true }, 'confirm', 'IR_05'], // confirm: false is a no-op (issue 23); true is not taken
  ['update', { customer: { id: 'cus_a' }, customer_id: 'cus_b' }, 'customer_id'],
  ['capture', { amount_to_capture: 0 }, 'amount_to_capture'],
  ['capture', { amount_to_capture: 10_001 }, 'amount_to_capture', 'IR_06'],
  ['capture', { capture_id: 'c'.repeat(29) }, 'capture_id'],
  ['capture', { capture_metadata: { invoice_data: { merchant_invoice_ref: 'r'.repeat(256) } } }, 'capture_metadata.invoice_data.merchant_invoice_ref'],
  ['capture', { metadata: { ['k'.repeat(41)]: 'v' } }, `metadata.${'k'.repeat(41)}`],
  ['capture', { order_details: [{ product_name: 'a', quantity: 1.5, amount: 1 }] }, 'order_details.0.quantity'],
  ['capture', { statement_descriptor: 'x' }, 'statement_descriptor', 'IR_07'],
  ['cancel', { amount_to_cancel: 0 }, 'amount_to_cancel'],
  ['cancel', { amount_to_cancel: 10_001 }, 'amount_to_cancel', 'IR_06'],
  ['cancel', { cancellation_reason: 'r'.repeat(256) }, 'cancellation_reason'],
  ['incremental_authorization', {}, 'amount', 'IR_04'],
  ['incremental_authorization', { amount: 10_000 }, 'amount'],
  ['incremental_authorization', { amount: Number.MAX_SAFE_INTEGER + 1 }, 'amount'],
  ['incremental_authorization', { amount: 20_000, reason: 'r'.repeat(256) }, 'reason'],
  ['approve', { note: 'x' }, 'note', 'IR_07'],
];

async function send(endpoint: string, body: Record<string, unknown>) {
  if (endpoint === 'create') return stack.api('POST', '/payments', body, key);
  const target = endpoint === 'confirm' || endpoint === 'update' ? open : held;
  return stack.api('POST', endpoint === 'update' ? `/payments/${target}` : `/payments/${target}/${endpoint}`, body, key);
}

describe('field rules on every endpoint', () => {
  it.each([...CREATE, ...OPERATIONS])('%s %j -> 400 naming %s, nothing written', async (endpoint, body, param, code) => {
    const before = await written();
    const r = await send(endpoint, body);
    expect(r.status).toBe(400);
    expect(r.body.error.param).toBe(param);
    if (code) expect(r.body.error.code).toBe(code);
    expect(r.body.error.message.length).toBeGreaterThan(0);
    expect(await written()).toBe(before);
  });

  it('parameters the spec names but we do not act on yet are accepted and kept; connector credentials are never stored', async () => {
    const extras = {
      payment_link_config: { theme: '#123456' },
      recurring_details: { type: 'mandate_id', data: 'm_1' },
      skip_external_tax_calculation: true,
      capture_type: 'connector',
    };
    const r = await stack.api('POST', '/payments', { ...base, ...extras, merchant_connector_details: { encoded_data: 'secret-provider-key' } }, key);
    expect(r.status).toBe(200);
    const db = await stack.db();
    const stored = await db.collection('payments').findOne({ payment_id: r.body.payment_id });
    expect(stored!.request_extras).toEqual(extras);
    const everything = JSON.stringify(
      await Promise.all(['payments', 'transitions'].map((c) => db.collection(c).find({ payment_id: r.body.payment_id }).toArray())),
    );
    expect(everything).not.toContain('secret-provider-key');
    const fresh = await stack.api('POST', '/payments', { ...base, confirm: true, payment_method: 'pay_later', capture_method: 'manual' }, key);
    const capture = await stack.api(
      'POST',
      `/payments/${fresh.body.payment_id}/capture`,
      {
        amount_to_capture: 100,
        refund_uncaptured_amount: false,
        statement_descriptor_suffix: 'Order 7',
        statement_descriptor_prefix: 'SHOP',
        capture_type: 'direct',
      },
      key,
    );
    expect(capture.status).toBe(200);
  });

  it('the same payments still take valid requests afterwards', async () => {
    expect((await send('incremental_authorization', { amount: 12_000 })).body).toMatchObject({ amount: 12_000, authorization_count: 1 });
    expect((await send('capture', { amount_to_capture: 12_000 })).body.status).toBe('succeeded');
    expect((await send('confirm', { payment_method: 'pay_later' })).body.status).toBe('succeeded');
  });
});
