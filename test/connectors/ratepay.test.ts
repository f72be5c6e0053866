// Ratepay through the real processes: the worker gets an OAuth2 token from the sandbox's Ratepay, authorizes with a
// BNPL-style order (EUR, DE billing, order lines, spec 2.5 metadata, the device fingerprint), captures, cancels and
// refunds in decimals; declines and refusals come back with Ratepay's own category and reasons. Ratepay has no redirect
// (its decision is synchronous), so there is no customer step and no review to resolve. The imitation checks every
// body by Ratepay's published rules (workers/connectors/ratepay/fixtures/docs/payment-api.rules.json): a phone sent
// as an object or a person's gender would be refused with 400 SYNTAX.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Stack, sleep } from '../support/stack.ts';
import { manifest } from '../../workers/connectors/ratepay/manifest.ts';

let stack: Stack;
let key: string;
let merchantId: string;
let mca: string;
beforeAll(async () => {
  ({ stack, api_key: key, merchant_id: merchantId } = await Stack.withMerchant({ CONFIRM_WAIT_MS: '4000' }));
  const a = await stack.api(
    'POST',
    `/account/${merchantId}/connectors`,
    {
      connector_name: 'ratepay',
      connector_account_details: manifest.sandbox_account_details,
    },
    stack.adminKey,
  );
  expect(a.status, JSON.stringify(a.body)).toBe(200);
  mca = a.body.merchant_connector_id;
}, 120_000);
afterAll(async () => stack?.stop());

const LINES = [
  { product_name: 'Jacket', product_id: 'jacket-1', quantity: 1, amount: 8_000, tax_percentage: 19 },
  { product_name: 'Socks', product_id: 'socks-2', quantity: 2, amount: 2_000, tax_percentage: 19 },
];
let n = 0;
/** A BNPL payment through Ratepay; `email` carries the sandbox's tags. */
function payment(email: string, extra: Record<string, unknown> = {}) {
  n += 1;
  return {
    amount: 10_000,
    currency: 'EUR',
    confirm: true,
    connector: ['ratepay'],
    payment_method: 'pay_later',
    payment_method_type: 'invoice',
    merchant_order_reference_id: `order-${Date.now()}-${n}`,
    customer: { id: `cus_rp_${n}`, email, name: 'Hanna Schmidt', phone: '177 4445555', phone_country_code: '+49' },
    billing: { address: { line1: 'Allee 84', zip: '10439', city: 'Berlin', country: 'DE', first_name: 'Hanna', last_name: 'Schmidt' }, email },
    order_details: LINES,
    order_tax_amount: 1_597,
    metadata: { birth_date: '1985-02-11', buyer_type: 'private', customer_locale: 'de-DE', gender: 'female' },
    browser_info: { ip_address: '203.0.113.7', user_agent: 'Mozilla/5.0', device_fingerprint: { ratepay: `rp-dfp-${n}-0b7c2a` } },
    ...extra,
  };
}
const pay = async (email: string, extra: Record<string, unknown> = {}) => {
  const r = await stack.api('POST', '/payments', payment(email, extra), key);
  expect(r.status, JSON.stringify(r.body)).toBe(200);
  return r.body;
};
const settle = (id: string) => stack.poll(id, key, (p) => p.status !== 'processing');
const transaction = async (id: string) => {
  const all = (await (await stack.sandbox(`/__sandbox/ratepay/transactions`)).json()) as any[];
  return all.find((t) => t.ratepay_transaction_id === id);
};
const capture = (id: string, body: Record<string, unknown>) => stack.api('POST', `/payments/${id}/capture`, body, key);
const refund = (body: Record<string, unknown>) => stack.api('POST', '/refunds', body, key);
async function refundDone(id: string) {
  for (const deadline = Date.now() + 20_000; ; await sleep(200)) {
    const r = await stack.api('GET', `/refunds/${id}`, undefined, key);
    if (r.body.status !== 'pending') return r.body;
    if (Date.now() > deadline) throw new Error(JSON.stringify(r.body));
  }
}

describe('ratepay: authorize and capture', () => {
  it('automatic capture: authorized, then the status sync reads the transaction and captures it; the whole basket in decimals at Ratepay', async () => {
    const p = await pay('hanna@example.com');
    expect(p.merchant_connector_id).toBe(mca);
    const done = await settle(p.payment_id);
    expect(done).toMatchObject({ status: 'succeeded', amount_received: 10_000, connector: 'ratepay' });
    const t = await transaction(done.connector_transaction_id);
    expect(t).toMatchObject({
      status: 'CAPTURED',
      authorized: 10_000,
      captured: 10_000,
      currency: 'EUR',
      partner_shop_id: 'INTEGRATION_TE_DACH',
      partner_transaction_id: p.merchant_order_reference_id,
    });
    expect(t.captures).toHaveLength(1);
    // One token for every call of the account (cached in Redis).
    const calls = await stack.sandboxCalls({ provider: 'ratepay' });
    expect(calls.filter((c) => c.path === '/ratepay/oauth/token').length).toBeGreaterThanOrEqual(1);
    expect(calls.filter((c) => c.path.endsWith('/captures') && c.status === 201).length).toBeGreaterThanOrEqual(1);
    // The capture came after a read of the transaction (Ratepay's read has no status: no decline, so authorized).
    const tx = `/ratepay/transaction/management/v2/transactions/${done.connector_transaction_id}`;
    const read = calls.findIndex((c) => c.method === 'GET' && c.path === tx);
    const captured = calls.findIndex((c) => c.method === 'POST' && c.path === `${tx}/captures`);
    expect(read).toBeGreaterThanOrEqual(0);
    expect(captured).toBeGreaterThan(read);
  });

  it('manual capture: requires_capture, then the full capture with the invoice number', async () => {
    const p = await settle((await pay('ida@example.com', { capture_method: 'manual' })).payment_id);
    expect(p.status).toBe('requires_capture');
    expect((await transaction(p.connector_transaction_id)).status).toBe('AUTHORIZED');
    const c = await capture(p.payment_id, { amount_to_capture: 10_000, capture_metadata: { invoice_data: { merchant_invoice_ref: 'INV-2026-001' } } });
    expect(c.status, JSON.stringify(c.body)).toBe(200);
    const done = await settle(p.payment_id);
    expect(done).toMatchObject({ status: 'succeeded', amount_received: 10_000 });
    const t = await transaction(p.connector_transaction_id);
    expect(t).toMatchObject({ status: 'CAPTURED', captured: 10_000 });
    expect(t.captures[0]).toMatchObject({ partner_invoice_id: 'INV-2026-001', gross: 10_000 });
  });

  it('partial capture: part of a manual payment, the rest stays with Ratepay', async () => {
    const p = await settle((await pay('jo@example.com', { capture_method: 'manual' })).payment_id);
    await capture(p.payment_id, { amount_to_capture: 6_000 });
    const done = await settle(p.payment_id);
    expect(done).toMatchObject({ status: 'partially_captured', amount_received: 6_000 });
    expect(await transaction(p.connector_transaction_id)).toMatchObject({ status: 'PARTIALLY_CAPTURED', captured: 6_000 });
  });

  it('multiple captures (manual_multiple) by order lines: the socks, then the jacket', async () => {
    const p = await settle((await pay('kai@example.com', { capture_method: 'manual_multiple' })).payment_id);
    expect(p.status).toBe('requires_capture');
    await capture(p.payment_id, { amount_to_capture: 2_000, order_details: [LINES[1]] });
    expect(await settle(p.payment_id)).toMatchObject({ status: 'partially_captured_and_capturable', amount_received: 2_000, amount_capturable: 8_000 });
    await capture(p.payment_id, { amount_to_capture: 8_000, order_details: [LINES[0]] });
    expect(await settle(p.payment_id)).toMatchObject({ status: 'succeeded', amount_received: 10_000 });
    const t = await transaction(p.connector_transaction_id);
    expect(t.captures.map((c: any) => c.gross)).toEqual([2_000, 8_000]);
    expect(t.status).toBe('CAPTURED');
  });

  it('void: a manual payment cancelled releases the authorization at Ratepay', async () => {
    const p = await settle((await pay('lou@example.com', { capture_method: 'manual' })).payment_id);
    const c = await stack.api('POST', `/payments/${p.payment_id}/cancel`, { cancellation_reason: 'out of stock' }, key);
    expect(c.status, JSON.stringify(c.body)).toBe(200);
    expect(await settle(p.payment_id)).toMatchObject({ status: 'cancelled' });
    expect(await transaction(p.connector_transaction_id)).toMatchObject({ status: 'CANCELLED', cancelled: 10_000 });
  });

  it('B2B: a company buyer (metadata.buyer_type business) is authorized', async () => {
    const p = await settle(
      (
        await pay('buyer@acme.example', {
          capture_method: 'manual',
          metadata: { buyer_type: 'business', company_name: 'ACME GmbH', company_vat_id: 'DE123456789', legal_form: 'gmbh', birth_date: '1980-01-01' },
        })
      ).payment_id,
    );
    expect(p.status).toBe('requires_capture');
  });
});

describe('ratepay: refunds', () => {
  it('partial refund, then the rest; a refund over what is left is refused', async () => {
    const p = await settle((await pay('mia@example.com')).payment_id);
    expect(p.status).toBe('succeeded');
    const r1 = await refund({ payment_id: p.payment_id, amount: 2_500, reason: 'returned socks' });
    expect(r1.status, JSON.stringify(r1.body)).toBe(200);
    expect(await refundDone(r1.body.refund_id)).toMatchObject({ status: 'succeeded', amount: 2_500, connector: 'ratepay' });
    const r2 = await refund({ payment_id: p.payment_id });
    expect(await refundDone(r2.body.refund_id)).toMatchObject({ status: 'succeeded', amount: 7_500 });
    const t = await transaction(p.connector_transaction_id);
    expect(t.refunded).toBe(10_000);
    expect(t.refunds.map((r: any) => r.partner_operation_id)).toEqual([r1.body.refund_id, r2.body.refund_id]);
    expect((await refund({ payment_id: p.payment_id, amount: 1 })).body.error).toMatchObject({ code: 'IR_13' });
  });

  it('+refund_fail: Ratepay refuses the refund (REFUND_AMOUNT_TOO_HIGH, its only documented refusal) -> failed with its category and UE_6000', async () => {
    const p = await settle((await pay('nina+refund_fail@example.com')).payment_id);
    const r = await refund({ payment_id: p.payment_id, amount: 1_000 });
    expect(await refundDone(r.body.refund_id)).toMatchObject({
      status: 'failed',
      error_code: 'UNPROCESSABLE_OPERATION',
      error_message: expect.stringContaining('REFUND_AMOUNT_TOO_HIGH'),
      unified_code: 'UE_6000',
    });
  });
});

describe('ratepay: declines, errors, retries', () => {
  it("+decline: 422 RISK_DECISION -> failed with Ratepay's category, UE_1000", async () => {
    const p = await settle((await pay('olga+decline@example.com')).payment_id);
    expect(p).toMatchObject({ status: 'failed', error_code: 'RISK_DECISION', unified_code: 'UE_1000' });
    // Ratepay's read of a declined transaction carries its decline: a status sync says the same.
    const t = await transaction(p.connector_transaction_id);
    expect(t.decline).toEqual({ category: 'RISK_DECISION', reasons: [] });
  });

  it('a payment without the birth date Ratepay needs: refused with its SYNTAX category naming the field', async () => {
    const body = payment('pia@example.com');
    const p = await stack.api('POST', '/payments', { ...body, metadata: { buyer_type: 'private' } }, key);
    // Either refused before the provider (the manifest's required_fields) or by Ratepay with its own category.
    if (p.status === 200) {
      expect(await settle(p.body.payment_id)).toMatchObject({
        status: 'failed',
        error_code: 'SYNTAX',
        error_message: expect.stringContaining('date_of_birth'),
        unified_code: 'UE_2000',
      });
    } else {
      expect(p.status).toBe(400);
    }
  });

  it('+flaky: Ratepay answers 500 twice, the worker retries with the same Idempotency-Key: one transaction', async () => {
    const p = await settle((await pay('quinn+flaky@example.com', { capture_method: 'manual' })).payment_id);
    expect(p.status).toBe('requires_capture');
    const posts = (await stack.sandboxCalls({ provider: 'ratepay' })).filter(
      (c) => c.method === 'POST' && c.path === '/ratepay/transaction/management/v2/transactions',
    );
    const mine = posts.filter((c) => c.idempotency_key && posts.filter((x) => x.idempotency_key === c.idempotency_key).length === 3);
    expect(mine.map((c) => c.status)).toEqual([500, 500, 201]);
    const all = (await (await stack.sandbox(`/__sandbox/ratepay/transactions?idempotency_key=${mine[0]!.idempotency_key}`)).json()) as any[];
    expect(all).toHaveLength(1);
  });

  it("wrong credentials: the token is refused -> failed with Ratepay's OAuth code, UE_4000", async () => {
    const other = await stack.merchant();
    const a = await stack.api(
      'POST',
      `/account/${other.merchant_id}/connectors`,
      {
        connector_name: 'ratepay',
        connector_account_details: { ...manifest.sandbox_account_details, key1: 'not-the-secret' },
      },
      stack.adminKey,
    );
    expect(a.status).toBe(200);
    const r = await stack.api('POST', '/payments', payment('rob@example.com'), other.api_key);
    const p = await stack.poll(r.body.payment_id, other.api_key, (x) => x.status !== 'processing');
    expect(p).toMatchObject({ status: 'failed', error_code: 'access_denied', error_message: 'Unauthorized', unified_code: 'UE_4000' });
  });
});
