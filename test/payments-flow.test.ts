// The payment path end to end through the real processes: gateway -> MongoDB -> payment-state (gRPC) -> BullMQ ->
// service_test worker -> provider sandbox -> gRPC -> payment-state -> MongoDB.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Stack, operationIds } from './support/stack.ts';

let stack: Stack;
let key: string;
let merchantId: string;
beforeAll(async () => ({ stack, api_key: key, merchant_id: merchantId } = await Stack.withMerchant()));
afterAll(async () => stack?.stop());

const create = (body: Record<string, unknown>) => stack.api('POST', '/payments', { amount: 10_000, currency: 'EUR', ...body }, key);
const confirm = (id: string, body: Record<string, unknown> = {}) =>
  stack.api('POST', `/payments/${id}/confirm`, { payment_method: 'pay_later', payment_method_type: 'invoice', ...body }, key);
const email = (tag = '') => ({ customer: { email: `jane${tag}@example.com` } });

describe('manual capture', () => {
  it('create -> confirm -> requires_capture -> capture -> succeeded, with amounts and captures right', async () => {
    const created = await create({ capture_method: 'manual', ...email() });
    expect(created.status).toBe(200);
    expect(created.body.status).toBe('requires_confirmation');
    expect(created.body.payment_id).toMatch(/^pay_[A-Za-z0-9]{26}$/);
    expect(created.body.client_secret).toMatch(new RegExp(`^${created.body.payment_id}_secret_[A-Za-z0-9]{20}$`));
    expect(created.body.amount_received).toBeNull();

    const confirmed = await confirm(created.body.payment_id);
    expect(confirmed.status).toBe(200);
    expect(confirmed.body.status).toBe('requires_capture');
    expect(confirmed.body.amount_capturable).toBe(10_000);
    expect(confirmed.body.amount_received).toBeNull();
    expect(confirmed.body.connector).toBe('service_test');
    expect(confirmed.body.connector_transaction_id).toMatch(/^stp_/);
    expect(confirmed.body.attempt_count).toBe(1);
    expect(confirmed.body.attempts[0]).toMatchObject({ status: 'authorized', amount: 10_000, connector: 'service_test' });

    const captured = await stack.api('POST', `/payments/${created.body.payment_id}/capture`, { amount_to_capture: 10_000 }, key);
    expect(captured.status).toBe(200);
    expect(captured.body.status).toBe('succeeded');
    expect(captured.body.amount_received).toBe(10_000);
    expect(captured.body.amount_capturable).toBe(0);
    expect(captured.body.captures).toHaveLength(1);
    expect(captured.body.captures[0]).toMatchObject({ status: 'charged', amount: 10_000, capture_sequence: 1, currency: 'EUR' });
    expect(captured.body.captures[0].capture_id).toHaveLength(30);

    const got = await stack.api('GET', `/payments/${created.body.payment_id}`, undefined, key);
    expect(got.body).toEqual(captured.body);
  });

  it('a capture of less than the authorized amount leaves a manual payment partially_captured', async () => {
    const { body: p } = await create({ capture_method: 'manual', ...email() });
    await confirm(p.payment_id);
    const cap = await stack.api('POST', `/payments/${p.payment_id}/capture`, { amount_to_capture: 2_500 }, key);
    expect(cap.body).toMatchObject({ status: 'partially_captured', amount_received: 2_500, amount_capturable: 0 });
  });

  it('capture on a payment that is not capturable -> 400 IR_14, and nothing changes', async () => {
    const { body: p } = await create({ capture_method: 'manual', ...email() });
    const before = await stack.api('GET', `/payments/${p.payment_id}`, undefined, key);
    const cap = await stack.api('POST', `/payments/${p.payment_id}/capture`, {}, key);
    expect(cap.status).toBe(400);
    expect(cap.body.error).toMatchObject({ type: 'invalid_request', code: 'IR_14' });
    expect(cap.body.error.message).toContain('requires_confirmation');
    const after = await stack.api('GET', `/payments/${p.payment_id}`, undefined, key);
    expect(after.body).toEqual(before.body);
  });

  it('capture of more than is capturable -> 400 IR_06 naming amount_to_capture', async () => {
    const { body: p } = await create({ capture_method: 'manual', ...email() });
    await confirm(p.payment_id);
    const cap = await stack.api('POST', `/payments/${p.payment_id}/capture`, { amount_to_capture: 10_001 }, key);
    expect(cap.status).toBe(400);
    expect(cap.body.error).toMatchObject({ code: 'IR_06', param: 'amount_to_capture' });
    expect((await stack.api('GET', `/payments/${p.payment_id}`, undefined, key)).body.status).toBe('requires_capture');
  });
});

describe('manual_multiple', () => {
  it('two captures: partially_captured_and_capturable, then succeeded', async () => {
    const { body: p } = await create({ capture_method: 'manual_multiple', ...email() });
    await confirm(p.payment_id);
    const first = await stack.api('POST', `/payments/${p.payment_id}/capture`, { amount_to_capture: 3_000 }, key);
    expect(first.body).toMatchObject({ status: 'partially_captured_and_capturable', amount_received: 3_000, amount_capturable: 7_000 });
    const second = await stack.api('POST', `/payments/${p.payment_id}/capture`, {}, key);
    expect(second.body).toMatchObject({ status: 'succeeded', amount_received: 10_000, amount_capturable: 0 });
    expect(second.body.captures.map((c: { capture_sequence: number; amount: number; status: string }) => [c.capture_sequence, c.amount, c.status])).toEqual([
      [1, 3_000, 'charged'],
      [2, 7_000, 'charged'],
    ]);
  });

  it('a repeated capture_id returns the same capture instead of capturing twice', async () => {
    const { body: p } = await create({ capture_method: 'manual_multiple', ...email() });
    await confirm(p.payment_id);
    const capture_id = `cap_${'Z'.repeat(22)}${Date.now().toString().slice(-4)}`;
    const a = await stack.api('POST', `/payments/${p.payment_id}/capture`, { capture_id, amount_to_capture: 1_000 }, key);
    const b = await stack.api('POST', `/payments/${p.payment_id}/capture`, { capture_id, amount_to_capture: 1_000 }, key);
    expect(a.status).toBe(200);
    expect(b.body).toEqual(a.body);
    expect(b.body.captures).toHaveLength(1);
    expect(b.body.captures[0].capture_id).toBe(capture_id);
    expect(b.body.amount_received).toBe(1_000);
    const calls = (await stack.sandboxCalls()).filter((c) => c.path === `/service_test/v1/payments/${b.body.connector_transaction_id}/captures`);
    expect(calls).toHaveLength(1);
  });

  it('capture_id must be exactly 30 characters (400 naming it)', async () => {
    const { body: p } = await create({ capture_method: 'manual_multiple', ...email() });
    await confirm(p.payment_id);
    const r = await stack.api('POST', `/payments/${p.payment_id}/capture`, { capture_id: 'short' }, key);
    expect(r.status).toBe(400);
    expect(r.body.error.param).toBe('capture_id');
  });
});

describe('net_amount', () => {
  it('is amount + surcharge + surcharge tax + order tax', async () => {
    const r = await create({ order_tax_amount: 700, surcharge_details: { surcharge_amount: 250, tax_amount: 50 } });
    expect(r.body).toMatchObject({ amount: 10_000, net_amount: 11_000, order_tax_amount: 700, surcharge_details: { surcharge_amount: 250, tax_amount: 50 } });
  });
});

describe('automatic capture', () => {
  it('confirm with automatic capture -> succeeded', async () => {
    const { body: p } = await create({ capture_method: 'automatic', ...email() });
    const c = await confirm(p.payment_id);
    expect(c.body).toMatchObject({ status: 'succeeded', amount_received: 10_000, amount_capturable: 0 });
    expect(c.body.attempts[0].status).toBe('charged');
  });

  it('create with confirm=true and payment_method is processed in the create call', async () => {
    const c = await create({ confirm: true, payment_method: 'pay_later', payment_method_type: 'invoice', ...email() });
    expect(c.status).toBe(200);
    expect(c.body).toMatchObject({ status: 'succeeded', capture_method: 'automatic', amount_received: 10_000, attempt_count: 1 });
  });

  it('capture on an automatic payment is refused with IR_14', async () => {
    const c = await create({ confirm: true, payment_method: 'pay_later', ...email() });
    const cap = await stack.api('POST', `/payments/${c.body.payment_id}/capture`, {}, key);
    expect(cap.status).toBe(400);
    expect(cap.body.error.code).toBe('IR_14');
  });
});

describe('provider outcomes forced by magic values', () => {
  it('+decline -> failed with error_code, error_message, unified_code, unified_message', async () => {
    const c = await create({ confirm: true, payment_method: 'pay_later', ...email('+decline') });
    expect(c.status).toBe(200);
    expect(c.body.status).toBe('failed');
    expect(c.body.error_code).toBe('credit_declined');
    expect(c.body.error_message).toBeTruthy();
    expect(c.body.unified_code).toBe('UE_1000');
    expect(c.body.unified_message).toBeTruthy();
    expect(c.body.manual_retry_allowed).toBe(true);
    expect(c.body.attempts[0]).toMatchObject({ status: 'failure', error_code: 'credit_declined' });
  });

  it('the decline is read from email when there is no customer object, and from billing.email last', async () => {
    const a = await create({ confirm: true, payment_method: 'pay_later', email: 'bob+decline@example.com' });
    expect(a.body.status).toBe('failed');
    const b = await create({ confirm: true, payment_method: 'pay_later', billing: { email: 'bob+decline@example.com' } });
    expect(b.body.status).toBe('failed');
  });

  it('+redirect -> requires_customer_action with next_action.redirect_to_url; the customer approves -> succeeded', async () => {
    const c = await create({ confirm: true, payment_method: 'pay_later', ...email('+redirect') });
    expect(c.body.status).toBe('requires_customer_action');
    expect(c.body.next_action.type).toBe('redirect_to_url');
    expect(c.body.next_action.redirect_to_url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/service_test\/checkout\/stp_/);
    // The customer completes the provider's page; the status sync picks the result up.
    const page = await fetch(c.body.next_action.redirect_to_url);
    expect(page.status).toBe(200);
    const approve = await fetch(`${c.body.next_action.redirect_to_url}/approve`, { method: 'POST', redirect: 'manual' });
    expect(approve.status).toBeLessThan(400);
    const done = await stack.poll(c.body.payment_id, key, (p) => p.status !== 'requires_customer_action');
    expect(done).toMatchObject({ status: 'succeeded', next_action: null, amount_received: 10_000 });
  });

  it('+review -> processing (pending at the provider), then the status sync resolves it', async () => {
    const c = await create({ confirm: true, payment_method: 'pay_later', capture_method: 'manual', ...email('+review') });
    expect(c.body.status).toBe('processing');
    const done = await stack.poll(c.body.payment_id, key, (p) => p.status !== 'processing');
    expect(done.status).toBe('requires_capture');
  });

  it('+slow -> the confirm answers processing, and a later GET shows the final status', async () => {
    const slow = await Stack.start({ CONFIRM_WAIT_MS: '1000', SANDBOX_SLOW_MS: '3000' });
    try {
      const m = await slow.merchant();
      const started = Date.now();
      const c = await slow.api(
        'POST',
        '/payments',
        { amount: 500, currency: 'EUR', confirm: true, payment_method: 'pay_later', customer: { email: 'jane+slow@example.com' } },
        m.api_key,
      );
      expect(c.status).toBe(200);
      expect(c.body.status).toBe('processing');
      expect(Date.now() - started).toBeLessThan(3_000);
      const done = await slow.poll(c.body.payment_id, m.api_key, (p) => p.status !== 'processing');
      expect(done.status).toBe('succeeded');
    } finally {
      await slow.stop();
    }
  });

  it('+flaky -> succeeded after retries, with one authorization at the provider', async () => {
    const c = await create({ confirm: true, payment_method: 'pay_later', ...email('+flaky') });
    const done = c.body.status === 'succeeded' ? c.body : await stack.poll(c.body.payment_id, key, (p) => p.status !== 'processing');
    expect(done.status).toBe('succeeded');
    const [op] = await operationIds(stack, merchantId, c.body.payment_id);
    const calls = await stack.sandboxCalls({ idempotency_key: op.operation_id });
    expect(calls.map((x) => x.status)).toEqual([500, 500, 201]);
    expect(await stack.sandboxPayments(op.operation_id)).toHaveLength(1);
  });
});

describe('bad input changes nothing', () => {
  const count = async () => (await stack.db()).collection('transitions').countDocuments({});

  it.each([
    ['amount', { currency: 'EUR' }],
    ['currency', { amount: 100 }],
  ])('missing %s -> 400 naming the field, nothing stored', async (field, body) => {
    const before = await count();
    const r = await stack.api('POST', '/payments', body, key);
    expect(r.status).toBe(400);
    expect(r.body.error).toMatchObject({ type: 'invalid_request', code: 'IR_04', param: field });
    expect(r.body.error.message).toContain(field);
    expect(await count()).toBe(before);
  });

  it.each([
    ['amount', { amount: -1, currency: 'EUR' }],
    ['amount', { amount: 1.5, currency: 'EUR' }],
    ['amount', { amount: Number.MAX_SAFE_INTEGER + 2, currency: 'EUR' }],
    ['amount', { amount: '100', currency: 'EUR' }],
    ['currency', { amount: 100, currency: 'eur' }],
    ['currency', { amount: 100, currency: 'XXX' }],
    ['payment_id', { amount: 100, currency: 'EUR', payment_id: 'short' }],
    ['capture_method', { amount: 100, currency: 'EUR', capture_method: 'later' }],
    ['connector.0', { amount: 100, currency: 'EUR', connector: ['stripe'] }],
    ['customer.email', { amount: 100, currency: 'EUR', customer: { email: 'not-an-email' } }],
    ['amount_to_capture', { amount: 100, currency: 'EUR', amount_to_capture: 101 }],
    ['metadata', { amount: 100, currency: 'EUR', metadata: Object.fromEntries(Array.from({ length: 51 }, (_, i) => [`k${i}`, 'v'])) }],
    ['unknown_field', { amount: 100, currency: 'EUR', unknown_field: 1 }],
    [
      'order_details',
      {
        amount: 100,
        currency: 'EUR',
        order_details: [
          { product_name: 'a', quantity: 1, amount: 60 },
          { product_name: 'b', quantity: 2, amount: 30 },
        ],
      },
    ],
    ['order_details.0.quantity', { amount: 100, currency: 'EUR', order_details: [{ product_name: 'a', quantity: 0, amount: 100 }] }],
    ['statement_descriptor_name', { amount: 100, currency: 'EUR', statement_descriptor_name: 'A'.repeat(23) }],
    ['statement_descriptor_name', { amount: 100, currency: 'EUR', statement_descriptor_name: '12345' }],
    ['statement_descriptor_suffix', { amount: 100, currency: 'EUR', statement_descriptor_name: 'Shop GmbH', statement_descriptor_suffix: 'x'.repeat(14) }],
    ['billing.address.country', { amount: 100, currency: 'EUR', billing: { address: { country: 'Germany' } } }],
    ['return_url', { amount: 100, currency: 'EUR', return_url: 'not a url' }],
    ['session_expiry', { amount: 100, currency: 'EUR', session_expiry: -1 }],
    ['customer_id', { amount: 100, currency: 'EUR', customer_id: 'c'.repeat(65) }],
    ['metadata.k', { amount: 100, currency: 'EUR', metadata: { k: 'v'.repeat(501) } }],
    [`metadata.${'k'.repeat(41)}`, { amount: 100, currency: 'EUR', metadata: { ['k'.repeat(41)]: 'v' } }],
    ['mandate_id', { amount: 100, currency: 'EUR', mandate_id: 'm'.repeat(256) }],
    ['merchant_order_reference_id', { amount: 100, currency: 'EUR', merchant_order_reference_id: 'r'.repeat(256) }],
    ['customer.ssn', { amount: 100, currency: 'EUR', customer: { ssn: 's'.repeat(21) } }],
    ['customer.locale', { amount: 100, currency: 'EUR', customer: { locale: 'de-DE-x' } }],
    ['payment_method_type', { amount: 100, currency: 'EUR', payment_method_type: 'card' }],
    ['capture_on', { amount: 100, currency: 'EUR', capture_on: 'tomorrow' }],
  ])('invalid %s -> 400 naming it, nothing stored', async (field, body) => {
    const before = await count();
    const r = await stack.api('POST', '/payments', body, key);
    expect(r.status).toBe(400);
    expect(r.body.error.param).toBe(field);
    expect(await count()).toBe(before);
  });

  it('malformed JSON -> 400; a body over the limit -> 413', async () => {
    expect((await stack.api('POST', '/payments', '{"amount": ', key)).status).toBe(400);
    const big = await stack.api('POST', '/payments', { amount: 1, currency: 'EUR', description: 'x'.repeat(300_000) }, key);
    expect(big.status).toBe(413);
  });

  it('no key, or a wrong key -> 401; an unknown payment -> 404', async () => {
    expect((await stack.api('POST', '/payments', { amount: 1, currency: 'EUR' })).status).toBe(401);
    expect((await stack.api('POST', '/payments', { amount: 1, currency: 'EUR' }, 'snd_wrong')).body.error.code).toBe('IR_01');
    const nf = await stack.api('GET', '/payments/pay_doesnotexist0000000000000000', undefined, key);
    expect(nf.status).toBe(404);
    expect(nf.body.error.code).toBe('HE_02');
  });

  it('confirm=true without payment_method -> 400 naming payment_method, nothing stored', async () => {
    const before = await count();
    const r = await create({ confirm: true });
    expect(r.status).toBe(400);
    expect(r.body.error.param).toBe('payment_method');
    expect(await count()).toBe(before);
  });
});

describe('field rules that hold', () => {
  it('order lines that add up to the amount, and descriptors within 22 characters, are accepted and echoed', async () => {
    const order_details = [
      { product_name: 'Chair', quantity: 2, amount: 6_000 },
      { product_name: 'Shipping', quantity: 1, amount: 4_000, category: 'shipping_costs' },
    ];
    const r = await create({ order_details, statement_descriptor_name: 'Shop GmbH', statement_descriptor_suffix: 'Order 42' });
    expect(r.status).toBe(200);
    expect(r.body.order_details).toMatchObject(order_details);
    // Spec 2.4: the optional line fields not supplied come back as null.
    expect(r.body.order_details[0]).toMatchObject({ category: null, brand: null, tax_amount: null, requires_shipping: null });
    expect(r.body.statement_descriptor_name).toBe('Shop GmbH');
  });

  it('a confirm that leaves the order lines not adding up is refused, naming order_details, and changes nothing', async () => {
    const { body: p } = await create({ order_details: [{ product_name: 'Chair', quantity: 1, amount: 10_000 }] });
    const r = await confirm(p.payment_id, { amount: 12_000 });
    expect(r.status).toBe(400);
    expect(r.body.error.param).toBe('order_details');
    expect((await stack.api('GET', `/payments/${p.payment_id}`, undefined, key)).body).toEqual(p);
  });
});

describe('update before confirmation (POST /payments/{id})', () => {
  it('changes the fields, recomputes the derived amounts, keeps the status; the confirm then uses them', async () => {
    const { body: p } = await create({ capture_method: 'manual' });
    const u = await stack.api(
      'POST',
      `/payments/${p.payment_id}`,
      {
        amount: 12_000,
        currency: 'SEK',
        order_tax_amount: 500,
        metadata: { order: '42' },
        customer: { email: 'upd@example.com' },
      },
      key,
    );
    expect(u.status).toBe(200);
    expect(u.body).toMatchObject({
      status: 'requires_confirmation',
      amount: 12_000,
      currency: 'SEK',
      net_amount: 12_500,
      amount_capturable: 12_000,
      metadata: { order: '42' },
      email: 'upd@example.com',
    });
    const c = await confirm(p.payment_id);
    expect(c.body).toMatchObject({ status: 'requires_capture', amount_capturable: 12_000 });
  });

  it('refused once confirmed (IR_16), and bad values -> 400 naming the field, nothing changed', async () => {
    const { body: p } = await create({ order_details: [{ product_name: 'a', quantity: 1, amount: 10_000 }] });
    expect((await stack.api('POST', `/payments/${p.payment_id}`, { amount: 9_000 }, key)).body.error.param).toBe('order_details');
    expect((await stack.api('POST', `/payments/${p.payment_id}`, { currency: 'XXX' }, key)).body.error.param).toBe('currency');
    // confirm: false is taken as a no-op (issue 23, the leading switch's clients send it); true is refused, naming it.
    expect((await stack.api('POST', `/payments/${p.payment_id}`, { confirm: true }, key)).body.error).toMatchObject({ code: 'IR_05', param: 'confirm' });
    expect((await stack.api('GET', `/payments/${p.payment_id}`, undefined, key)).body).toEqual(p);
    await confirm(p.payment_id);
    const late = await stack.api('POST', `/payments/${p.payment_id}`, { description: 'late' }, key);
    expect(late.status).toBe(400);
    expect(late.body.error.code).toBe('IR_16');
  });
});

describe('manual retry', () => {
  it('a declined payment may be confirmed again: a second attempt, and this time it succeeds', async () => {
    const { body: p } = await create({ customer: { email: 'retry+decline@example.com' } });
    const first = await confirm(p.payment_id);
    expect(first.body).toMatchObject({ status: 'failed', manual_retry_allowed: true });
    const second = await confirm(p.payment_id, { customer: { email: 'retry@example.com' } });
    expect(second.body).toMatchObject({ status: 'succeeded', attempt_count: 2, manual_retry_allowed: false, error_code: null });
    expect(second.body.attempts.map((a: { status: string }) => a.status)).toEqual(['failure', 'charged']);
    const third = await confirm(p.payment_id);
    expect(third.status).toBe(400);
    expect(third.body.error.code).toBe('IR_16');
  });
});

describe('idempotent create by payment_id', () => {
  it('the same body replays the stored payment; a different body -> 409 HE_01', async () => {
    const payment_id = `pay_${'A'.repeat(20)}${Date.now().toString().slice(-6)}`;
    const a = await create({ payment_id, ...email() });
    const b = await create({ payment_id, ...email() });
    expect(b.status).toBe(200);
    expect(b.body).toEqual(a.body);
    const c = await stack.api('POST', '/payments', { amount: 1, currency: 'EUR', payment_id }, key);
    expect(c.status).toBe(409);
    expect(c.body.error.code).toBe('HE_01');
  });
});

describe('the Payment resource', () => {
  it('carries every field of spec 2.2, null where unset', async () => {
    const { Payment } = await import('../lib/schemas/payment.ts');
    const { body } = await create({});
    expect(Object.keys(body).sort()).toEqual(Object.keys(Payment.shape).sort());
    expect(Payment.safeParse(body).success).toBe(true);
    expect(body.order_tax_amount).toBeNull();
    expect(body.net_amount).toBe(10_000);
    expect(body.authentication_type).toBe('no_three_ds');
  });
});
