// The dashboard's payments, refunds and disputes pages over real HTTP (issue 23): lists with filters, one payment's
// page with its timeline, and capture, cancel and refund from it: the same operations as the API (read back through
// the API), CSRF required, a form sent twice applied once, another merchant's payment 404.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DashboardClient, formFields, textOf } from './support/dashboard.ts';
import { Stack, until } from './support/stack.ts';

let stack: Stack;
let shop: DashboardClient;
let key: string;
beforeAll(async () => {
  // A trace viewer configured: the payment page links its trace ids there.
  stack = await Stack.start({ TRACE_VIEWER_URL: 'http://127.0.0.1:16686/trace/{trace_id}' });
  shop = new DashboardClient(stack);
  ({ secretKey: key } = await shop.signUp('Payments shop'));
}, 120_000);
afterAll(async () => stack?.stop());

/** A payment authorized and waiting for its capture (manual capture), through the API. */
async function authorized(body: Record<string, unknown> = {}) {
  const r = await stack.api(
    'POST',
    '/payments',
    { amount: 10_000, currency: 'EUR', confirm: true, capture_method: 'manual', payment_method: 'pay_later', customer_id: 'cus_dash_1', ...body },
    key,
  );
  expect(r.body.status, JSON.stringify(r.body)).toBe('requires_capture');
  return r.body as { payment_id: string };
}
const apiPayment = async (id: string) => (await stack.api('GET', `/payments/${id}`, undefined, key)).body;
const page = (id: string) => shop.get(`/dashboard/payments/${id}`);

describe('dashboard lists', () => {
  it("lists the merchant's payments newest first, filtered by status, connector, day and id; a bad filter is named", async () => {
    const a = await authorized({ customer_id: 'cus_list_a' });
    const b = await authorized({ customer_id: 'cus_list_b' });
    await stack.api('POST', `/payments/${b.payment_id}/cancel`, {}, key);
    const all = await shop.get('/dashboard/payments');
    expect(all.status).toBe(200);
    expect(all.html.indexOf(b.payment_id)).toBeLessThan(all.html.indexOf(a.payment_id));
    expect(all.html.indexOf(a.payment_id)).toBeGreaterThan(-1);

    const cancelled = await shop.get('/dashboard/payments?status=cancelled&connector=');
    expect(cancelled.html).toContain(b.payment_id);
    expect(cancelled.html).not.toContain(a.payment_id);
    expect(cancelled.html).toMatch(/<option value="cancelled" selected>/);
    expect((await shop.get('/dashboard/payments?q=cus_list_a')).html).not.toContain(b.payment_id);
    expect((await shop.get(`/dashboard/payments?q=${a.payment_id}`)).html).toContain(`data-payment-id="${a.payment_id}"`);
    expect((await shop.get('/dashboard/payments?connector=service_test')).html).toContain(a.payment_id);
    const today = new Date().toISOString().slice(0, 10);
    expect((await shop.get(`/dashboard/payments?from=${today}&to=${today}`)).html).toContain(a.payment_id);
    expect((await shop.get('/dashboard/payments?to=2020-01-01')).html).not.toContain(a.payment_id);

    const bad = await shop.get('/dashboard/payments?from=2026-02-30');
    expect(bad.status).toBe(400);
    expect(bad.html).toContain('From: is not a day of the calendar');
    expect(bad.html).not.toContain(a.payment_id);
  });

  it('refunds and disputes pages list with their own filters', async () => {
    const r = await shop.get('/dashboard/refunds?status=pending');
    expect(r.status).toBe(200);
    expect(r.html).toContain('No refunds match.');
    const d = await shop.get('/dashboard/disputes?stage=dispute');
    expect(d.status).toBe(200);
    expect(d.html).toContain('No disputes match.');
    expect((await shop.get('/dashboard/disputes?stage=final')).status).toBe(400);
  });

  it('the pages need a session: without one, the sign-in page', async () => {
    const stranger = new DashboardClient(stack);
    for (const path of ['/dashboard/payments', '/dashboard/refunds', '/dashboard/disputes', '/dashboard/payments/pay_xxxxxxxxxxxxxxxxxxxxxxxxxx']) {
      const r = await stranger.get(path);
      expect(r.status, path).toBe(303);
      expect(r.res.headers.get('location')).toBe('/dashboard/signin');
    }
  });
});

describe('one payment', () => {
  it('shows the amounts, the connector, the customer and the timeline: transitions, provider calls, events', async () => {
    const p = await authorized({ merchant_order_reference_id: 'ORD-<1>' });
    // The authorization's event is derived by the webhook relay soon after.
    const r = await until("the authorization's event on the page", async () => {
      const got = await page(p.payment_id);
      return got.html.includes('Event payment_authorized') ? got : null;
    });
    expect(r.status).toBe(200);
    expect(textOf(r.html, 'payment-id')).toBe(p.payment_id);
    expect(r.html).toContain('ORD-&#60;1&#62;');
    expect(r.html).toContain('cus_dash_1');
    expect(r.html).toMatch(/100\.00 EUR<\/div>Authorized/);
    expect(r.html).toMatch(/0\.00 EUR<\/div>Captured/);
    const kinds = [...r.html.matchAll(/<tr data-kind="([a-z_]+)"/g)].map((m) => m[1]);
    expect(kinds.filter((k) => k === 'transition').length).toBeGreaterThanOrEqual(3);
    expect(kinds).toContain('provider_call');
    expect(r.html).toContain('Provider answered: authorized');
    expect(r.html).toContain('Event payment_authorized');
    // The trace ids the transitions were recorded under, linked to the trace viewer.
    expect(r.html).toMatch(/id="trace-ids"><a href="http:\/\/127\.0\.0\.1:16686\/trace\/[0-9a-f]{32}"/);
    // Capture (the capturable amount by default) and cancel are offered; refund is not (nothing captured).
    expect(formFields(r.html, 'capture-form').amount).toBe('100.00');
    expect(r.html).toContain('id="cancel-form"');
    expect(r.html).not.toContain('id="refund-form"');
  });

  it('capture from the page: CSRF required (on every form); the same form sent twice captures once', async () => {
    const p = await authorized();
    const form = formFields((await page(p.payment_id)).html, 'capture-form');
    expect(form.idempotency_key).toMatch(/^[A-Za-z0-9_-]{16,}$/);

    // Every form of the page: without the session's token, or with another, refused before anything is done.
    for (const action of ['capture', 'cancel', 'refund']) {
      for (const csrf of [null, 'forged']) {
        const refused = await shop.post(`/dashboard/payments/${p.payment_id}/${action}`, { ...form, _csrf: csrf });
        expect(refused.status, `${action} with ${csrf}`).toBe(403);
      }
    }
    expect((await apiPayment(p.payment_id)).status).toBe('requires_capture');

    const first = await shop.post(`/dashboard/payments/${p.payment_id}/capture`, { ...form, amount: '100.00' });
    expect(first.status, first.html.slice(0, 2000)).toBe(200);
    expect(first.html).toContain('Captured: 100.00 EUR in all');
    const again = await shop.post(`/dashboard/payments/${p.payment_id}/capture`, { ...form, amount: '100.00' });
    expect(again.status).toBe(200);
    expect(again.html).toContain('Captured: 100.00 EUR in all');
    const after = await apiPayment(p.payment_id);
    expect(after).toMatchObject({ status: 'succeeded', amount_received: 10_000 });
    const db = await stack.db();
    const stored = await db.collection('payments').findOne({ payment_id: p.payment_id });
    expect(stored!.operations.filter((o: { kind: string }) => o.kind === 'capture')).toHaveLength(1);
  });

  it('refund from the page: a bad amount is named next to the field; a partial refund sent twice refunds once and is listed', async () => {
    const p = await authorized();
    await stack.api('POST', `/payments/${p.payment_id}/capture`, {}, key);
    const html = (await page(p.payment_id)).html;
    const form = formFields(html, 'refund-form');
    expect(form.amount).toBe('100.00');

    const tooMuch = await shop.post(`/dashboard/payments/${p.payment_id}/refund`, { ...form, amount: '150.00' });
    expect(tooMuch.status).toBe(400);
    expect(tooMuch.html).toMatch(/<p class="field-error" id="f-amount-error">Amount: [^<]+<\/p>/);
    const notANumber = await shop.post(`/dashboard/payments/${p.payment_id}/refund`, { ...form, amount: 'ten' });
    expect(notANumber.html).toContain('Amount: must be an amount in EUR like 12.50');

    const fresh = formFields((await page(p.payment_id)).html, 'refund-form');
    const sent = { ...fresh, amount: '25.50', reason: 'Damaged <box>' };
    const first = await shop.post(`/dashboard/payments/${p.payment_id}/refund`, sent);
    expect(first.status, first.html.slice(0, 2000)).toBe(200);
    expect(first.html).toMatch(/Refunded 25\.50 EUR \(ref_[A-Za-z0-9]+\)/);
    const again = await shop.post(`/dashboard/payments/${p.payment_id}/refund`, sent);
    expect(again.status).toBe(200);
    const refunds = (await apiPayment(p.payment_id)).refunds;
    expect(refunds).toHaveLength(1);
    expect(refunds[0]).toMatchObject({ amount: 2_550, status: 'succeeded', reason: 'Damaged <box>' });
    // Still refundable: the rest is the form's default now.
    expect(formFields(again.html, 'refund-form').amount).toBe('74.50');

    const list = await shop.get(`/dashboard/refunds?q=${p.payment_id}`);
    expect(list.html).toContain(`data-refund-id="${refunds[0].refund_id}"`);
    expect(list.html).toContain('Damaged &#60;box&#62;');
  });

  it('cancel from the page', async () => {
    const p = await authorized();
    const form = formFields((await page(p.payment_id)).html, 'cancel-form');
    const r = await shop.post(`/dashboard/payments/${p.payment_id}/cancel`, { ...form, reason: 'Out of stock' });
    expect(r.status).toBe(200);
    expect(r.html).toContain('Payment cancelled');
    expect(await apiPayment(p.payment_id)).toMatchObject({ status: 'cancelled', cancellation_reason: 'Out of stock' });
    // Nothing more to do with it.
    expect(r.html).toContain('No capture, cancel or refund is possible while the payment is cancelled.');
  });

  it("another merchant's payment is 404 on every page and form, and stays as it was", async () => {
    const p = await authorized();
    const other = new DashboardClient(stack);
    await other.signUp('Other shop');
    expect((await other.get(`/dashboard/payments/${p.payment_id}`)).status).toBe(404);
    for (const action of ['capture', 'cancel', 'refund']) {
      const r = await other.post(`/dashboard/payments/${p.payment_id}/${action}`, { idempotency_key: 'k'.repeat(24), amount: '1.00' });
      expect(r.status, action).toBe(404);
    }
    expect((await other.get('/dashboard/payments')).html).not.toContain(p.payment_id);
    expect((await other.get(`/dashboard/payments?q=${p.payment_id}`)).html).toContain('No payments match.');
    expect((await apiPayment(p.payment_id)).status).toBe('requires_capture');
  });
});
