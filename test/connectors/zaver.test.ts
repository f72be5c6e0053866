// zaver through the real processes: the payment goes to the sandbox's Zaver (POST /payments/link/v2, Bearer key, major
// units, line items with VAT), the payer approves or cancels on Zaver's payment link (the test fetches the page and
// posts its form, as a browser would), Zaver's callbacks (the object itself, with the merchant's callback token in
// `Authorization: Bearer`) reach our gateway at the callbackUrl the connector sent, captures are Zaver's captures, a
// void cancels the payment, refunds wait for the merchant's approval (pending) and end by callback.
// Sync delays: four quick rounds, then a long pause, so what is decided after them (a review, a refund's approval,
// SANDBOX_REVIEW_MS = 4 s later) is decided by Zaver's callback: with eight rounds, their processing time on a busy
// machine reached the review's decision, whose first read then decided it before the callback did (flaky before).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bnplPayment, customerStep, imitationView, merchantCalls, merchantWithAccount, type ConnectorMerchant } from '../support/connectors.ts';
import { sleep, Stack } from '../support/stack.ts';

const TOKEN = 'zaver_sandbox_callback_token';
let stack: Stack;
let M: ConnectorMerchant;
let bad: ConnectorMerchant;
let calls: ReturnType<typeof merchantCalls>;

beforeAll(async () => {
  stack = await Stack.start({ SYNC_DELAYS_MS: '250,250,250,250,30000', SANDBOX_REVIEW_MS: '4000' });
  M = await merchantWithAccount(stack, 'zaver', undefined, TOKEN);
  bad = await merchantWithAccount(stack, 'zaver', { auth_type: 'HeaderKey', api_key: 'not_a_zaver_key' }, TOKEN);
  calls = merchantCalls(stack, M.api_key);
}, 60_000);
afterAll(async () => stack?.stop());

const pay = (email: string, extra: Record<string, unknown> = {}) => calls.pay(bnplPayment('zaver', email, {}, extra));
const zaverPayment = async (paymentId: string) => (await imitationView(stack, 'zaver', 'payments', { paymentId }))[0];
const zaverRefunds = (paymentId: string) => imitationView(stack, 'zaver', 'refunds', { paymentId });
const inbox = async (match: (body: any) => boolean) =>
  (await (await stack.db()).collection('provider_notifications').find({ merchant_id: M.merchant_id }).toArray()).filter((d: any) => match(JSON.parse(d.body)));

/** The payer on Zaver's payment link: opens it and posts its approve (or deny) form; back to the shop. */
async function payer(p: any, decision: 'approve' | 'deny' = 'approve', key = M.api_key) {
  const { url, location } = await customerStep(stack, p.payment_id, key, decision);
  expect(url).toMatch(new RegExp(`^${stack.sandboxUrl}/zaver/checkout/[A-Za-z0-9_-]{32}$`));
  return location;
}
const authorized = async (email = 'erika@example.com', extra: Record<string, unknown> = {}) => {
  const p = await pay(email, extra);
  await payer(p);
  return calls.until(p, 'requires_capture');
};
const captured = async (email = 'erika@example.com') => {
  const p = await authorized(email);
  expect((await calls.capture(p.payment_id, {})).status).toBe(200);
  return calls.until(p, 'succeeded');
};

describe('zaver through the stack', () => {
  it('customer step: the payment link, the payer approves, Zaver calls back -> requires_capture; Zaver got major units and our callback URL', async () => {
    const p = await pay('erika@example.com');
    expect(p).toMatchObject({ status: 'requires_customer_action', connector: 'zaver' });
    expect(await payer(p)).toBe('https://shop.example/return');
    const done = await calls.until(p, 'requires_capture');
    const z = await zaverPayment(done.connector_transaction_id);
    expect(z).toMatchObject({
      status: 'PENDING_MERCHANT_CAPTURE',
      amount: 11_900,
      currency: 'EUR',
      market: 'DE',
      language: 'de',
      merchantPaymentReference: done.merchant_order_reference_id,
      // Zaver sets each line's id; ours is the merchantReference. We asked for a deferred capture.
      lineItems: [
        {
          id: expect.any(String),
          merchantReference: 'sku-lamp',
          name: 'Lamp',
          quantity: 2,
          unitPrice: 47.6,
          totalAmount: 95.2,
          taxRatePercent: 19,
          taxAmount: 15.2,
          itemType: 'PHYSICAL',
        },
        { id: expect.any(String), name: 'Shipping', quantity: 1, unitPrice: 23.8, totalAmount: 23.8, taxRatePercent: 19, taxAmount: 3.8, itemType: 'SHIPPING' },
      ],
      captureMethod: 'deferred',
      paymentMetadata: { paymentId: done.payment_id },
      payerData: { email: 'erika@example.com', givenName: 'Erika', familyName: 'Mustermann', dateOfBirth: '1980-02-03', phoneNumber: '+4915112345678' },
      merchantUrls: { callbackUrl: expect.stringMatching(new RegExp(`/webhooks/${M.merchant_id}/${M.mca}$`)), successUrl: 'https://shop.example/return' },
    });
    // The callback came with the callback token and was taken.
    const sent = await imitationView(stack, 'zaver', 'notifications', { object_id: z.paymentId });
    expect(sent).toMatchObject([{ type: 'payment', status: 'PENDING_MERCHANT_CAPTURE', delivered: true, last_status: 200 }]);
    await expect
      .poll(async () => (await inbox((b) => b.paymentId === z.paymentId)).map((d: any) => d.result))
      .toEqual([expect.stringMatching(/^(synced|unchanged)$/)]);
  });

  it("a callback without the merchant's callback token is refused (401) and changes nothing", async () => {
    const p = await pay('erika@example.com');
    const ready = await stack.poll(p.payment_id, M.api_key, (x) => !!x.connector_transaction_id);
    const body = JSON.stringify({ paymentId: ready.connector_transaction_id, amount: 119, currency: 'EUR', paymentStatus: 'PENDING_MERCHANT_CAPTURE' });
    for (const authorization of ['Bearer not_the_token', '']) {
      const r = await fetch(`${stack.gatewayUrl}/webhooks/${M.merchant_id}/${M.mca}`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', ...(authorization ? { authorization } : {}) },
        body,
      });
      expect(r.status).toBe(401);
    }
    expect((await stack.api('GET', `/payments/${p.payment_id}`, undefined, M.api_key)).body.status).toBe('requires_customer_action');
  });

  it("the payer cancels on the payment link -> failed with Zaver's status", async () => {
    const p = await pay('erika@example.com');
    expect(await payer(p, 'deny')).toBe('https://shop.example/return');
    const f = await calls.until(p, 'failed');
    expect(f).toMatchObject({ error_code: 'CANCELLED', unified_code: 'UE_1000' });
  });

  it('decline (+decline): Zaver cancels the payment at the link (no reason given) -> failed', async () => {
    const p = await pay('erika+decline@example.com');
    await payer(p);
    const f = await calls.until(p, 'failed');
    expect(f).toMatchObject({
      error_code: 'CANCELLED',
      error_message: 'The payment was cancelled at Zaver (declined, or abandoned by the payer)',
      unified_code: 'UE_1000',
      connector: 'zaver',
    });
  });

  it('manual capture of the whole amount: one capture, the payment SETTLED at Zaver', async () => {
    const p = await authorized();
    const c = await calls.capture(p.payment_id, { amount_to_capture: 11_900, capture_metadata: { invoice_data: { merchant_invoice_ref: 'INV-1' } } });
    expect(c.status, JSON.stringify(c.body)).toBe(200);
    const s = await calls.until(p, 'succeeded');
    const z = await zaverPayment(s.connector_transaction_id);
    expect(z).toMatchObject({ status: 'SETTLED', captured: 11_900 });
    expect(z.captures).toMatchObject([{ amount: 11_900, key: expect.any(String) }]);
    // v2's capture has no id of its own: our captureIdempotencyKey names it.
    expect(s.captures[0].connector_capture_id).toBe(z.captures[0].key);
  });

  it('automatic capture: the payer approves, then our capture call settles it -> succeeded', async () => {
    const p = await pay('erika@example.com', { capture_method: 'automatic' });
    await payer(p);
    const s = await calls.until(p, 'succeeded');
    expect(s).toMatchObject({ amount_received: 11_900, captures: [{ status: 'charged', amount: 11_900 }] });
    expect(await zaverPayment(s.connector_transaction_id)).toMatchObject({ status: 'SETTLED', captured: 11_900 });
  });

  it('partial and multiple captures (manual_multiple): two captures, then SETTLED', async () => {
    const p = await authorized('erika@example.com', { capture_method: 'manual_multiple' });
    expect((await calls.capture(p.payment_id, { amount_to_capture: 5_000 })).status).toBe(200);
    await calls.until(p, 'partially_captured_and_capturable');
    expect((await zaverPayment(p.connector_transaction_id)).status).toBe('PENDING_MERCHANT_CAPTURE');
    expect((await calls.capture(p.payment_id, { amount_to_capture: 6_900 })).status).toBe(200);
    const s = await calls.until(p, 'succeeded');
    expect(s.amount_received).toBe(11_900);
    const z = await zaverPayment(p.connector_transaction_id);
    expect(z.captures.map((c: any) => c.amount)).toEqual([5_000, 6_900]);
    expect(z.status).toBe('SETTLED');
  });

  it('void: the payment is cancelled at Zaver -> cancelled', async () => {
    const p = await authorized();
    const v = await calls.cancel(p.payment_id, { cancellation_reason: 'out of stock' });
    expect(v.status, JSON.stringify(v.body)).toBe(200);
    await calls.until(p, 'cancelled');
    expect((await zaverPayment(p.connector_transaction_id)).status).toBe('CANCELLED');
  });

  it('refund and partial refund: pending until the merchant approves, then executed; our refund id as merchantReference, the VAT share', async () => {
    const s = await captured();
    const r1 = await calls.refund(s.payment_id, 2_000, { reason: 'damaged' });
    expect(r1.status, JSON.stringify(r1.body)).toBe(200);
    const r2 = await calls.refund(s.payment_id, 9_900);
    expect(r2.status, JSON.stringify(r2.body)).toBe(200);
    expect(await calls.refundSettled(r1.body.refund_id, 25_000)).toMatchObject({ status: 'succeeded', amount: 2_000 });
    expect(await calls.refundSettled(r2.body.refund_id, 25_000)).toMatchObject({ status: 'succeeded', amount: 9_900 });
    expect(await zaverRefunds(s.connector_transaction_id)).toMatchObject([
      {
        merchantReference: r1.body.refund_id,
        invoiceReference: s.merchant_order_reference_id,
        amount: 2_000,
        tax: 319,
        taxRatePercent: 19,
        description: 'damaged',
        status: 'EXECUTED',
      },
      { merchantReference: r2.body.refund_id, amount: 9_900, status: 'EXECUTED' },
    ]);
  });

  it("a refund waiting for the merchant's approval: pending, then succeeded by Zaver's callback", async () => {
    const s = await captured();
    const r = await calls.refund(s.payment_id, 3_000);
    expect(r.status, JSON.stringify(r.body)).toBe(200);
    const pending = await stack.api('GET', `/refunds/${r.body.refund_id}`, undefined, M.api_key);
    expect(pending.body.status).toBe('pending');
    expect(await calls.refundSettled(r.body.refund_id, 25_000)).toMatchObject({ status: 'succeeded', amount: 3_000 });
    const [z] = await zaverRefunds(s.connector_transaction_id);
    expect(z).toMatchObject({ status: 'EXECUTED', merchantReference: r.body.refund_id });
    const sent = await imitationView(stack, 'zaver', 'notifications', { object_id: z.refundId });
    expect(sent.map((d) => d.status)).toEqual(['PENDING_EXECUTION', 'EXECUTED']);
    // The inbox record is marked once the worker has reported the outcome.
    await expect
      .poll(async () => (await inbox((b) => b.refundId === z.refundId)).map((d: any) => [JSON.parse(d.body).status, d.result]))
      .toContainEqual(['EXECUTED', 'applied']);
  });

  it("a refund the merchant's representative cancels at Zaver before approving it: failed, told by callback", async () => {
    const s = await captured();
    const r = await calls.refund(s.payment_id, 1_000);
    let z: any;
    while (!(z = (await zaverRefunds(s.connector_transaction_id))[0])) await sleep(100);
    expect(z.status).toBe('PENDING_MERCHANT_APPROVAL');
    const cancel = await fetch(`${stack.sandboxUrl}/zaver/refund/v1/${z.refundId}/cancel`, {
      method: 'POST',
      headers: { authorization: 'Bearer zaver_sandbox_api_key' },
    });
    expect(cancel.status).toBe(200);
    expect(await calls.refundSettled(r.body.refund_id, 25_000)).toMatchObject({ status: 'failed', error_code: 'CANCELLED', unified_code: 'UE_6000' });
  });

  it("a refund Zaver refuses (+refund_fail): failed with Zaver's code", async () => {
    const s = await captured('erika+refund_fail@example.com');
    const r = await calls.refund(s.payment_id, 1_000);
    expect(await calls.refundSettled(r.body.refund_id)).toMatchObject({
      status: 'failed',
      error_code: 'REFUND_NOT_POSSIBLE',
      error_message: 'The payment cannot be refunded',
      unified_code: 'UE_6000',
    });
  });

  it("review (+review): PENDING_CONFIRMATION -> processing, decided by Zaver's callback", async () => {
    const p = await pay('erika+review@example.com');
    await payer(p);
    await calls.until(p, 'processing');
    const done = await calls.until(p, 'requires_capture', 25_000);
    const sent = await imitationView(stack, 'zaver', 'notifications', { object_id: done.connector_transaction_id });
    expect(sent.map((d) => d.status)).toEqual(['PENDING_CONFIRMATION', 'PENDING_MERCHANT_CAPTURE']);
    expect(sent.every((d) => d.delivered)).toBe(true);
    await expect
      .poll(async () => (await inbox((b) => b.paymentId === done.connector_transaction_id)).map((d: any) => [JSON.parse(d.body).paymentStatus, d.result]))
      .toContainEqual(['PENDING_MERCHANT_CAPTURE', 'synced']); // an authorization raises money: confirmed by a read (issue 19)
  });

  it('Zaver answers 500 twice (+flaky), then creates the payment: one payment at Zaver', async () => {
    const p = await pay('erika+flaky@example.com');
    await payer(p);
    const done = await calls.until(p, 'requires_capture');
    const payments = await imitationView(stack, 'zaver', 'payments', { merchantPaymentReference: done.merchant_order_reference_id });
    expect(payments).toHaveLength(1);
    const made = await stack.sandboxCalls({ provider: 'zaver', path: '/zaver/payments/link/v2' });
    expect(made.filter((c) => c.idempotency_key === payments[0].idempotencyKey).map((c) => c.status)).toEqual([500, 500, 200]);
  });

  it("wrong credentials: failed with Zaver's code", async () => {
    const r = await stack.api('POST', '/payments', bnplPayment('zaver', 'erika@example.com'), bad.api_key);
    expect(r.status).toBe(200);
    const f = r.body.status === 'failed' ? r.body : await stack.poll(r.body.payment_id, bad.api_key, (x) => x.status === 'failed');
    expect(f).toMatchObject({ error_code: 'UNAUTHORIZED', error_message: 'Missing or invalid API key', unified_code: 'UE_4000' });
  });

  it('refused before anything is queued: no return_url, a business buyer, a currency Zaver does not take', async () => {
    const created = async () => (await stack.sandboxCalls({ provider: 'zaver', path: '/zaver/payments/link/v2' })).length;
    const before = await created();
    const noReturn = await stack.api('POST', '/payments', bnplPayment('zaver', 'erika@example.com', {}, { return_url: undefined }), M.api_key);
    expect(noReturn.status, JSON.stringify(noReturn.body)).toBe(400);
    expect(noReturn.body.error).toMatchObject({ code: 'IR_04', param: 'return_url' });
    const b2b = await stack.api('POST', '/payments', bnplPayment('zaver', 'erika@example.com', { buyer: 'business' }), M.api_key);
    expect(b2b.status).toBe(400);
    expect(b2b.body.error).toMatchObject({ code: 'IR_05', param: 'metadata.buyer_type' });
    const usd = await stack.api('POST', '/payments', bnplPayment('zaver', 'erika@example.com', {}, { currency: 'USD' }), M.api_key);
    expect(usd.status).toBe(400);
    expect(usd.body.error).toMatchObject({ code: 'IR_05', param: 'currency' });
    expect(await created()).toBe(before);
  });
});
