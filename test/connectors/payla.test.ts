// payla through the real processes: the worker speaks PAYONE's Server API to the sandbox (form-encoded calls to
// /post-gateway/ with mid/aid/portalid and the sha384 of the portal key, amounts in minor units, key=value answers).
// Automatic capture is request=authorization, manual a preauthorization (with the customer's `ip`); captures (with
// their basket, no capturemode), the release of a void (a capture of 0) and debits (negative refunds, with their
// basket) are numbered by sequencenumber. PAYONE's secured invoice decides at once
// and has no redirect and no status read: +review and +redirect change nothing (said so below), the customer step is
// the Payla device token, and TransactionStatus notifications (unsigned: a key in the body) are hints that the worker
// records without anything to sync.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bnplPayment, imitationView, merchantCalls, merchantWithAccount, type ConnectorMerchant } from '../support/connectors.ts';
import { Stack } from '../support/stack.ts';
import { PAYLA_SANDBOX } from '../../workers/connectors/payla/manifest.ts';

let stack: Stack;
let M: ConnectorMerchant;
let calls: ReturnType<typeof merchantCalls>;

beforeAll(async () => {
  stack = await Stack.start({ CONFIRM_WAIT_MS: '4000' });
  M = await merchantWithAccount(stack, 'payla');
  calls = merchantCalls(stack, M.api_key);
  // The portal's TransactionStatus URL, as the merchant sets it in PAYONE's merchant interface.
  const set = await stack.sandbox(`/sandbox/payla/portals/${PAYLA_SANDBOX.portalid}/transaction-status-url`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ url: `${stack.gatewayUrl}/webhooks/${M.merchant_id}/${M.mca}` }),
  });
  expect(set.status).toBe(200);
}, 60_000);
afterAll(async () => stack?.stop());

const profile = (email: string, opts: { buyer?: 'consumer' | 'business' } = {}, extra: Record<string, unknown> = {}) =>
  bnplPayment('payla', email, opts, extra);
const pay = (email: string, extra: Record<string, unknown> = {}, opts: { buyer?: 'consumer' | 'business' } = {}) => calls.pay(profile(email, opts, extra));
const settled = (p: any) => stack.poll(p.payment_id, M.api_key, (x) => x.status !== 'processing');
const tx = async (txid: string) => (await imitationView(stack, 'payla', 'transactions', { txid }))[0];

describe('payla: authorize and capture', () => {
  it('automatic capture: request=authorization, captured at once; the basket in minor units with the device token', async () => {
    const p = await settled(await pay('erika@example.com', { capture_method: 'automatic' }));
    expect(p).toMatchObject({ status: 'succeeded', amount_received: 11_900, connector: 'payla', merchant_connector_id: M.mca });
    const t = await tx(p.connector_transaction_id);
    expect(t).toMatchObject({
      request: 'authorization',
      amount: 11_900,
      captured: 11_900,
      sequence: 0,
      device_token: 'pl-device-1',
      businessrelation: 'b2c',
      currency: 'EUR',
    });
    expect(t.basket).toEqual([
      { it: 'goods', id: 'sku-lamp', pr: '4760', no: '2', de: 'Lamp', va: '1900' },
      { it: 'shipment', id: 'shipping', pr: '2380', no: '1', de: 'Shipping', va: '1900' },
    ]);
    expect(t.reference).toBe(p.payment_id.slice(-20));
  });

  it('manual capture: a preauthorization, then the full capture (sequencenumber 1, all captured)', async () => {
    const p = await settled(await pay('erika@example.com'));
    expect(p.status).toBe('requires_capture');
    expect(await tx(p.connector_transaction_id)).toMatchObject({ request: 'preauthorization', captured: 0 });
    const c = await calls.capture(p.payment_id);
    expect(c.body, JSON.stringify(c.body)).toMatchObject({ status: 'succeeded', amount_received: 11_900 });
    expect(await tx(p.connector_transaction_id)).toMatchObject({ captured: 11_900, sequence: 1, completed: true });
  });

  it('a partial capture (manual): no capturemode (issue 21), so the rest stays reserved at PAYONE', async () => {
    const p = await settled(await pay('erika@example.com'));
    const c = await calls.capture(p.payment_id, { amount_to_capture: 5_000 });
    expect(c.body, JSON.stringify(c.body)).toMatchObject({ status: 'partially_captured', amount_received: 5_000 });
    expect(await tx(p.connector_transaction_id)).toMatchObject({ captured: 5_000, released: 0, completed: false, sequence: 1 });
  });

  it('multiple captures (manual_multiple): sequencenumber 1 then 2, each with its basket', async () => {
    const p = await settled(await pay('erika@example.com', { capture_method: 'manual_multiple' }));
    const one = await calls.capture(p.payment_id, { amount_to_capture: 4_000 });
    expect(one.body, JSON.stringify(one.body)).toMatchObject({ status: 'partially_captured_and_capturable', amount_received: 4_000, amount_capturable: 7_900 });
    const two = await calls.capture(p.payment_id, { amount_to_capture: 7_900 });
    expect(two.body, JSON.stringify(two.body)).toMatchObject({ status: 'succeeded', amount_received: 11_900 });
    expect(await tx(p.connector_transaction_id)).toMatchObject({ captured: 11_900, sequence: 2, completed: true });
  });

  it('void: a capture of 0 releases the reservation', async () => {
    const p = await settled(await pay('erika@example.com'));
    const v = await calls.cancel(p.payment_id, { cancellation_reason: 'out of stock' });
    expect(v.body, JSON.stringify(v.body)).toMatchObject({ status: 'cancelled' });
    expect(await tx(p.connector_transaction_id)).toMatchObject({ captured: 0, released: 11_900, completed: true, sequence: 1 });
  });

  it('B2B: businessrelation b2b with the company', async () => {
    const p = await settled(await pay('jane@acme.example', {}, { buyer: 'business' }));
    expect(p.status).toBe('requires_capture');
    expect(await tx(p.connector_transaction_id)).toMatchObject({ businessrelation: 'b2b' });
  });
});

describe('payla: refunds', () => {
  it('a partial refund, then the rest after a capture: debits of negative amounts, numbered after the capture', async () => {
    const p = await settled(await pay('erika@example.com'));
    expect((await calls.capture(p.payment_id)).body.status).toBe('succeeded');
    const one = await calls.refund(p.payment_id, 2_000);
    expect(one.status, JSON.stringify(one.body)).toBe(200);
    expect(await calls.refundSettled(one.body.refund_id)).toMatchObject({ status: 'succeeded', amount: 2_000 });
    const rest = await calls.refund(p.payment_id, 9_900);
    expect(await calls.refundSettled(rest.body.refund_id)).toMatchObject({ status: 'succeeded', amount: 9_900 });
    expect(await tx(p.connector_transaction_id)).toMatchObject({ captured: 11_900, refunded: 11_900, sequence: 3 });
  });

  it("a refund of an automatic capture is sequencenumber 1; +refund_fail: failed with PAYONE's 991", async () => {
    const ok = await settled(await pay('erika@example.com', { capture_method: 'automatic' }));
    const r = await calls.refund(ok.payment_id);
    expect(await calls.refundSettled(r.body.refund_id)).toMatchObject({ status: 'succeeded', amount: 11_900 });
    expect(await tx(ok.connector_transaction_id)).toMatchObject({ refunded: 11_900, sequence: 1 });
    const f = await settled(await pay('erika+refund_fail@example.com', { capture_method: 'automatic' }));
    const bad = await calls.refund(f.payment_id, 1_000);
    expect(await calls.refundSettled(bad.body.refund_id)).toMatchObject({ status: 'failed', error_code: '991', unified_code: 'UE_6000' });
  });
});

describe('payla: declines, failures and what PAYONE does not have', () => {
  it("decline (+decline): failed with PAYONE's errorcode 307 and its messages", async () => {
    const p = await settled(await pay('erika+decline@example.com'));
    expect(p).toMatchObject({
      status: 'failed',
      error_code: '307',
      unified_code: 'UE_1000',
      error_message: 'Declined by risk check (customer: Leider ist die Zahlung per Rechnungskauf nicht möglich. Bitte wählen Sie eine andere Zahlungsart.)',
    });
  });

  it("wrong credentials: failed with PAYONE's parameter error naming {key}, UE_4000", async () => {
    const bad = await merchantWithAccount(stack, 'payla', { ...PAYLA_SANDBOX_DETAILS(), api_secret: 'not-the-portal-key' });
    const created = await merchantCalls(stack, bad.api_key).pay(profile('erika@example.com'));
    const p = await stack.poll(created.payment_id, bad.api_key, (x) => x.status !== 'processing');
    expect(p).toMatchObject({
      status: 'failed',
      error_code: '1001',
      error_message: expect.stringContaining('Parameter {key} faulty or missing'),
      unified_code: 'UE_4000',
    });
  });

  it('PAYONE answers 500 twice (+flaky), then authorizes: one transaction for the reference', async () => {
    const p = await settled(await pay('erika+flaky@example.com'));
    expect(p.status).toBe('requires_capture');
    expect(await imitationView(stack, 'payla', 'transactions', { reference: p.payment_id.slice(-20) })).toHaveLength(1);
    const statuses = (await stack.sandboxCalls({ provider: 'payla', path: '/payla/post-gateway/' })).map((c) => c.status);
    expect(statuses.filter((s) => s === 500).length).toBeGreaterThanOrEqual(2);
  });

  it("review (+review) and customer step (+redirect): PAYONE's secured invoice decides at once, with no redirect", async () => {
    for (const tag of ['review', 'redirect']) {
      const p = await settled(await pay(`erika+${tag}@example.com`));
      expect(p.status, tag).toBe('requires_capture');
      expect(p.next_action ?? null).toBeNull();
    }
  });

  it('TransactionStatus: delivered to our webhook (200), recorded as a hint with nothing to sync; the payment is unchanged', async () => {
    const p = await settled(await pay('erika@example.com'));
    let sent: any[] = [];
    for (let i = 0; i < 100 && !sent.some((d) => d.delivered); i += 1) {
      sent = await imitationView(stack, 'payla', 'notifications', { txid: p.connector_transaction_id });
      await new Promise((r) => setTimeout(r, 100));
    }
    // Delivered means acknowledged: the imitation, like PAYONE, wants the body TSOK (issue 21's review).
    expect(sent.map((d) => [d.txaction, d.delivered, d.last_status])).toEqual([['appointed', true, 200]]);
    const direct = await fetch(`${stack.gatewayUrl}/webhooks/${M.merchant_id}/${M.mca}`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ key: '0'.repeat(32), txaction: 'paid', txid: '1', portalid: PAYLA_SANDBOX.portalid }).toString(),
    });
    expect([direct.status, direct.headers.get('content-type')?.split(';')[0], await direct.text()]).toEqual([200, 'text/plain', 'TSOK']);
    let inbox: any[] = [];
    for (let i = 0; i < 100 && !inbox.some((d) => d.result); i += 1) {
      inbox = (await (await stack.db()).collection('provider_notifications').find({ merchant_id: M.merchant_id }).toArray()).filter(
        (d: any) => new URLSearchParams(d.body).get('txid') === p.connector_transaction_id,
      );
      await new Promise((r) => setTimeout(r, 100));
    }
    expect(inbox.map((d) => d.result)).toEqual(['unchanged']);
    expect((await stack.api('GET', `/payments/${p.payment_id}`, undefined, M.api_key)).body.status).toBe('requires_capture');
  });

  it('what PAYONE cannot take is refused with our 400 before any call: USD, CH, no Payla device token, no customer IP', async () => {
    const before = (await stack.sandboxCalls({ provider: 'payla' })).filter((c) => c.method !== 'GET').length;
    const cases: [Record<string, unknown>, string, string][] = [
      [{ currency: 'USD' }, 'IR_05', 'currency'],
      [
        { billing: { address: { first_name: 'Erika', last_name: 'Mustermann', line1: 'Bahnhofstr. 1', city: 'Zürich', zip: '8001', country: 'CH' } } },
        'IR_05',
        'billing.address.country',
      ],
      [{ browser_info: { user_agent: 'Mozilla/5.0', device_fingerprint: { ratepay: 'rp-1' } } }, 'IR_04', 'browser_info.device_fingerprint.payla'],
      // issue 21: PAYONE requires `ip` on the (pre)authorization.
      [{ browser_info: { user_agent: 'Mozilla/5.0', device_fingerprint: { payla: 'pl-1' } } }, 'IR_04', 'browser_info.ip_address'],
    ];
    for (const [extra, code, param] of cases) {
      const r = await stack.api('POST', '/payments', profile('erika@example.com', {}, extra), M.api_key);
      expect(r.status, JSON.stringify(r.body)).toBe(400);
      expect(r.body.error).toMatchObject({ code, param });
    }
    expect((await stack.sandboxCalls({ provider: 'payla' })).filter((c) => c.method !== 'GET').length).toBe(before);
  });
});

function PAYLA_SANDBOX_DETAILS() {
  return { auth_type: 'MultiAuthKey', api_key: PAYLA_SANDBOX.portalid, key1: PAYLA_SANDBOX.mid, key2: PAYLA_SANDBOX.aid, api_secret: PAYLA_SANDBOX.portal_key };
}
