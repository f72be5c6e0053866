// Forged and flooding provider notifications (issue 19, items 4 and 5), through the real processes. Every connector
// account has its own notification secret (generated for service_test, shown once, rotatable with a grace period); the
// old public default opens nothing; a notice that would raise money is only a reason to ask the provider; a dispute is
// never above what was captured nor in another currency; unsigned notices for one payment are merged into a few
// provider reads, and beyond PROVIDER_NOTIFICATIONS_PER_SECOND per account they are answered 429.
import { createHash, createHmac } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bnplPayment, merchantWithAccount, type ConnectorMerchant } from './support/connectors.ts';
import { sleep, Stack } from './support/stack.ts';

const DEFAULT_ACCOUNT = 'mca_sandboxdefault000000';
const OLD_PUBLIC_DEFAULT = 'whsec_sandbox_service_test';
const GRACE_MS = 3_000;
const PER_SECOND = 40;

let stack: Stack;
let A: { merchant_id: string; api_key: string };
let B: ConnectorMerchant & { secret: string };
let C: ConnectorMerchant & { secret: string };

/** A merchant with a service_test account made without a secret: we generate one and show it in this answer only. */
async function serviceTestMerchant() {
  const m = await stack.merchant();
  const a = await stack.api(
    'POST',
    `/account/${m.merchant_id}/connectors`,
    {
      connector_name: 'service_test',
      connector_account_details: { auth_type: 'HeaderKey', api_key: 'sk_sandbox_service_test' },
    },
    stack.adminKey,
  );
  expect(a.status, JSON.stringify(a.body)).toBe(200);
  return { ...m, mca: a.body.merchant_connector_id as string, secret: a.body.connector_webhook_details?.merchant_secret as string };
}

beforeAll(async () => {
  stack = await Stack.start({
    SANDBOX_REVIEW_MS: '60000',
    SYNC_DELAYS_MS: '60000',
    WEBHOOK_SECRET_GRACE_MS: String(GRACE_MS),
    PROVIDER_NOTIFICATIONS_PER_SECOND: String(PER_SECOND),
    NOTICE_SYNC_DELAY_MS: '1000',
  });
  A = await stack.merchant();
  B = await serviceTestMerchant();
  C = await serviceTestMerchant();
}, 60_000);
afterAll(async () => stack?.stop());

const sign = (secret: string, body: string) => createHmac('sha512', secret).update(body).digest('hex');
const sha = (raw: string) => createHash('sha256').update(raw).digest('hex');
let seq = 0;
const event = (type: string, data: Record<string, unknown>) =>
  JSON.stringify({ id: `evt_forged_${++seq}_${Date.now()}`, type, created_at: new Date().toISOString(), data });
const providerPayment = (id: string, status: string, amount: number, currency = 'EUR') => ({
  id,
  status,
  amount,
  currency,
  capture: 'automatic',
  captured: status === 'captured' ? amount : 0,
  reference: null,
  return_url: null,
  created_at: '2026-01-01T00:00:00.000Z',
  updated_at: new Date().toISOString(),
});
const notify = (merchantId: string, mcaId: string, raw: string, secret: string | null) =>
  stack.api('POST', `/webhooks/${merchantId}/${mcaId}`, raw, undefined, secret ? { 'x-webhook-signature-512': sign(secret, raw) } : {});
const inbox = async (filter: Record<string, unknown>) => (await stack.db()).collection('provider_notifications').find(filter).toArray();
const transitions = async (paymentId: string) => (await stack.db()).collection('transitions').countDocuments({ payment_id: paymentId });
async function processed(raw: string, timeoutMs = 15_000) {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const [doc] = await inbox({ body_sha256: sha(raw) });
    if (doc?.result) return doc;
    if (Date.now() > deadline) throw new Error(`notification not processed: ${JSON.stringify(doc ?? null).slice(0, 300)}`);
    await sleep(100);
  }
}

/** A payment waiting for the customer at the provider's hosted checkout (the provider says requires_action). */
async function waitingForCustomer(key: string, amount = 1_000) {
  const c = await stack.api(
    'POST',
    '/payments',
    {
      amount,
      currency: 'EUR',
      confirm: true,
      payment_method: 'pay_later',
      customer: { email: 'jane+redirect@example.com' },
      return_url: 'https://shop.example/back',
    },
    key,
  );
  expect(c.status, JSON.stringify(c.body)).toBe(200);
  return stack.poll(c.body.payment_id, key, (p) => p.status === 'requires_customer_action' && !!p.connector_transaction_id, 15_000);
}

describe('every connector account has its own notification secret', () => {
  it("generated when a service_test account is made, shown once, masked after, sealed at rest; two merchants' differ", async () => {
    for (const m of [B, C]) expect(m.secret).toMatch(/^whsec_[0-9a-f]{64}$/);
    expect(B.secret).not.toBe(C.secret);
    const shown = await stack.api('GET', `/account/${B.merchant_id}/connectors/${B.mca}`, undefined, stack.adminKey);
    expect(shown.body.connector_webhook_details).toEqual({ merchant_secret: 'whse********' });
    const stored = await (await stack.db()).collection('connector_accounts').findOne({ merchant_connector_id: B.mca });
    expect(JSON.stringify(stored)).not.toContain(B.secret);
    // One account's secret does not open another's.
    const raw = event('payout.paid', { id: 'po_1' });
    expect((await notify(C.merchant_id, C.mca, raw, B.secret)).status).toBe(401);
    expect((await notify(C.merchant_id, C.mca, raw, C.secret)).status).toBe(200);
  });

  it('an outsider signing with the old public default secret -> 401, nothing recorded, nothing moves (default account and a stored one)', async () => {
    const pa = await waitingForCustomer(A.api_key);
    const pb = await waitingForCustomer(B.api_key);
    expect(pa.merchant_connector_id).toBe(DEFAULT_ACCOUNT);
    expect(pb.merchant_connector_id).toBe(B.mca);
    for (const [m, mca, p] of [
      [A.merchant_id, DEFAULT_ACCOUNT, pa],
      [B.merchant_id, B.mca, pb],
    ] as const) {
      const before = await transitions(p.payment_id);
      const raw = event('payment.updated', providerPayment(p.connector_transaction_id, 'captured', 1_000));
      const r = await notify(m, mca, raw, OLD_PUBLIC_DEFAULT);
      expect([r.status, r.body.error?.code]).toEqual([401, 'WE_01']);
      expect(await inbox({ body_sha256: sha(raw) })).toEqual([]);
      await sleep(500);
      expect(await transitions(p.payment_id)).toBe(before);
    }
    expect((await stack.api('GET', `/payments/${pa.payment_id}`, undefined, A.api_key)).body.status).toBe('requires_customer_action');
  });
});

describe('a notice that would raise money is confirmed by the provider first', () => {
  let pay: any;
  it('a correctly signed payment.updated saying captured while the provider says requires_action: not applied, the payment is synced instead', async () => {
    pay = await waitingForCustomer(B.api_key);
    const reads = async () =>
      (await stack.sandboxCalls({ provider: 'service_test', path: `/service_test/v1/payments/${pay.connector_transaction_id}` })).filter(
        (c) => c.method === 'GET',
      ).length;
    const readsBefore = await reads();
    const raw = event('payment.updated', providerPayment(pay.connector_transaction_id, 'captured', 1_000));
    expect((await notify(B.merchant_id, B.mca, raw, B.secret)).status).toBe(200);
    expect(await processed(raw)).toMatchObject({ result: 'synced', note: expect.stringContaining('raises money') });
    for (let i = 0; i < 50 && (await reads()) === readsBefore; i++) await sleep(100);
    expect(await reads()).toBe(readsBefore + 1);
    await sleep(500);
    expect((await stack.api('GET', `/payments/${pay.payment_id}`, undefined, B.api_key)).body).toMatchObject({
      status: 'requires_customer_action',
      amount_received: null,
    });
  });

  it("once the customer approves at the provider, its own notice (signed with the account's secret given with the payment) and the read decide it", async () => {
    const approve = await fetch(`${stack.sandboxUrl}/service_test/checkout/${pay.connector_transaction_id}/approve`, { method: 'POST', redirect: 'manual' });
    expect(approve.status).toBe(303);
    expect(await stack.poll(pay.payment_id, B.api_key, (p) => p.status === 'succeeded', 15_000)).toMatchObject({ amount_received: 1_000 });
  });

  it('a dispute of 99,999,999 USD (or EUR) on a 1,000 EUR payment is refused and logged; no dispute is stored', async () => {
    for (const [amount, currency, param] of [
      [99_999_999, 'USD', 'currency'],
      [99_999_999, 'EUR', 'amount'],
    ] as const) {
      const raw = event('dispute.created', {
        id: `dp_forged_${currency}`,
        payment_id: pay.connector_transaction_id,
        amount,
        currency,
        reason: 'fraud',
        reason_code: '10.4',
        stage: 'dispute',
        status: 'opened',
        challenge_required_by: null,
        created_at: new Date().toISOString(),
        updated_at: new Date().toISOString(),
      });
      expect((await notify(B.merchant_id, B.mca, raw, B.secret)).status).toBe(200);
      expect(await processed(raw)).toMatchObject({ result: 'refused', note: expect.stringContaining(param) });
    }
    expect(stack.logs.worker.some((l) => l.includes('dispute notification refused'))).toBe(true);
    expect((await stack.api('GET', `/payments/${pay.payment_id}`, undefined, B.api_key)).body.disputes ?? []).toEqual([]);
    expect(await (await stack.db()).collection('disputes').countDocuments({ payment_id: pay.payment_id })).toBe(0);
  });
});

describe('rotation', () => {
  it('a rotated secret is shown once; the previous one is accepted for WEBHOOK_SECRET_GRACE_MS, then refused', async () => {
    const r = await stack.api('POST', `/account/${C.merchant_id}/connectors/${C.mca}/webhook_secret/rotate`, undefined, stack.adminKey);
    expect(r.status, JSON.stringify(r.body)).toBe(200);
    const next = r.body.connector_webhook_details.merchant_secret as string;
    expect(next).toMatch(/^whsec_[0-9a-f]{64}$/);
    expect(next).not.toBe(C.secret);
    expect((await stack.api('GET', `/account/${C.merchant_id}/connectors/${C.mca}`, undefined, stack.adminKey)).body.connector_webhook_details).toEqual({
      merchant_secret: 'whse********',
    });
    expect((await notify(C.merchant_id, C.mca, event('payout.paid', { id: 'po_new' }), next)).status).toBe(200);
    expect((await notify(C.merchant_id, C.mca, event('payout.paid', { id: 'po_old' }), C.secret)).status).toBe(200);
    await sleep(GRACE_MS + 500);
    expect((await notify(C.merchant_id, C.mca, event('payout.paid', { id: 'po_old2' }), C.secret)).status).toBe(401);
    expect((await notify(C.merchant_id, C.mca, event('payout.paid', { id: 'po_new2' }), next)).status).toBe(200);
  });

  it('new payments are signed with the new secret by the provider', async () => {
    const p = await waitingForCustomer(C.api_key);
    await fetch(`${stack.sandboxUrl}/service_test/checkout/${p.connector_transaction_id}/approve`, { method: 'POST', redirect: 'manual' });
    expect((await stack.poll(p.payment_id, C.api_key, (x) => x.status === 'succeeded', 15_000)).amount_received).toBe(1_000);
  });

  it('a connector whose provider issues the secret is not rotated by us: 400 naming the field', async () => {
    const m = await merchantWithAccount(stack, 'mondu', undefined, 'mondu_secret_from_mondu');
    const r = await stack.api('POST', `/account/${m.merchant_id}/connectors/${m.mca}/webhook_secret/rotate`, undefined, stack.adminKey);
    expect([r.status, r.body.error?.param]).toEqual([400, 'connector_webhook_details.merchant_secret']);
  });
});

describe('unsigned notices are merged and limited per account', () => {
  it('200 unsigned twisto notices for one payment cause a handful of provider reads; beyond the per-account limit: 429 with Retry-After', async () => {
    const T = await merchantWithAccount(stack, 'twisto');
    const c = await stack.api(
      'POST',
      '/payments',
      bnplPayment(
        'twisto',
        'jana@example.cz',
        {},
        {
          currency: 'CZK',
          billing: {
            address: { first_name: 'Jana', last_name: 'Nováková', line1: 'Národní 12', city: 'Praha', zip: '11000', country: 'CZ' },
            email: 'jana@example.cz',
          },
        },
      ),
      T.api_key,
    );
    expect(c.status, JSON.stringify(c.body)).toBe(200);
    const p = await stack.poll(c.body.payment_id, T.api_key, (x) => x.status === 'requires_customer_action' && !!x.connector_transaction_id, 15_000);
    const chk = p.connector_transaction_id as string;
    const reads = async () =>
      (await stack.sandboxCalls({ provider: 'twisto', path: `/twisto/psp/v4/checkouts/${chk}` })).filter((x) => x.method === 'GET').length;
    await sleep(500);
    const before = await reads();
    const hint = (i: number) => JSON.stringify({ checkout_id: chk, state: 'approved', external_id: `n${i}` });
    // 200 different keyless notices within the limit (half of it every half second): all taken.
    const statuses: number[] = [];
    for (let i = 0; i < 200; i += PER_SECOND / 2) {
      const batch = await Promise.all(Array.from({ length: PER_SECOND / 2 }, (_, j) => notify(T.merchant_id, T.mca, hint(i + j), null)));
      statuses.push(...batch.map((r) => r.status));
      await sleep(600);
    }
    expect(statuses.filter((s) => s === 200)).toHaveLength(200);
    await sleep(2_500);
    const after = await reads();
    expect(after - before).toBeGreaterThanOrEqual(1);
    expect(after - before).toBeLessThanOrEqual(10);
    // A burst above the limit: the rest is 429 with Retry-After, and the count at the provider does not move with it.
    const burst = await Promise.all(Array.from({ length: 3 * PER_SECOND }, (_, i) => notify(T.merchant_id, T.mca, hint(1_000 + i), null)));
    const refused = burst.filter((r) => r.status === 429);
    expect(refused.length).toBeGreaterThanOrEqual(PER_SECOND);
    expect(refused[0]!.headers.get('retry-after')).toMatch(/^\d+$/);
    // (The burst itself may span more than a second on a busy machine.)
    expect(burst.filter((r) => r.status === 200).length).toBeLessThan(2 * PER_SECOND);
    await sleep(2_500);
    expect((await reads()) - after).toBeLessThanOrEqual(3);
    // Another account is not held back by this one's flood.
    expect((await notify(C.merchant_id, C.mca, event('payout.paid', { id: 'po_other' }), null)).status).toBe(401);
  });
});
