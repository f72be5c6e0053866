// Our own manual review (ARCHITECTURE.md): a merchant's rule holds large payments in requires_merchant_action
// after authorization; POST /payments/{id}/approve and /reject decide them, through the real processes.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Stack } from './support/stack.ts';

let stack: Stack;
let key: string;
let plainKey: string;
beforeAll(async () => {
  stack = await Stack.start();
  ({ api_key: key } = await stack.merchant({ manual_review: { amount_at_least: 50_000 } }));
  ({ api_key: plainKey } = await stack.merchant());
});
afterAll(async () => stack?.stop());

const create = (body: Record<string, unknown>, k = key) =>
  stack.api('POST', '/payments', { amount: 80_000, currency: 'EUR', payment_method: 'pay_later', confirm: true, ...body }, k);
const providerPayment = async (txn: string) => (await stack.sandboxPayments()).find((x) => x.id === txn)!;

describe('manual review by the merchant', () => {
  it('a payment at or above the threshold is authorized only and waits in requires_merchant_action', async () => {
    const { body: p } = await create({ capture_method: 'automatic' });
    expect(p).toMatchObject({ status: 'requires_merchant_action', amount_capturable: 80_000, amount_received: null, merchant_decision: null });
    expect(await providerPayment(p.connector_transaction_id)).toMatchObject({ status: 'authorized', captured: 0 });
    const below = await create({ amount: 49_999 });
    expect(below.body.status).toBe('succeeded');
    const otherMerchant = await create({}, plainKey);
    expect(otherMerchant.body.status).toBe('succeeded');
  });

  it('approve, automatic capture: captured now -> succeeded, merchant_decision approve', async () => {
    const { body: p } = await create({ capture_method: 'automatic' });
    const a = await stack.api('POST', `/payments/${p.payment_id}/approve`, {}, key);
    expect(a.status).toBe(200);
    expect(a.body).toMatchObject({ status: 'succeeded', merchant_decision: 'approve', amount_received: 80_000, amount_capturable: 0 });
    expect(a.body.captures).toHaveLength(1);
    expect(await providerPayment(p.connector_transaction_id)).toMatchObject({ captured: 80_000 });
  });

  it('approve, manual capture: requires_capture, and the merchant captures as usual', async () => {
    const { body: p } = await create({ capture_method: 'manual' });
    const a = await stack.api('POST', `/payments/${p.payment_id}/approve`, {}, key);
    expect(a.body).toMatchObject({ status: 'requires_capture', merchant_decision: 'approve', amount_capturable: 80_000 });
    const c = await stack.api('POST', `/payments/${p.payment_id}/capture`, {}, key);
    expect(c.body).toMatchObject({ status: 'succeeded', amount_received: 80_000 });
  });

  it('reject: the provider releases the authorization -> failed, merchant_decision reject, no retry', async () => {
    const { body: p } = await create({ capture_method: 'manual' });
    const r = await stack.api('POST', `/payments/${p.payment_id}/reject`, {}, key);
    expect(r.status).toBe(200);
    expect(r.body).toMatchObject({ status: 'failed', merchant_decision: 'reject', amount_capturable: 0, manual_retry_allowed: false });
    expect(await providerPayment(p.connector_transaction_id)).toMatchObject({ status: 'voided' });
    const again = await stack.api('POST', `/payments/${p.payment_id}/approve`, {}, key);
    expect(again.status).toBe(400);
    expect(again.body.error.code).toBe('IR_16');
  });

  it('approve or reject outside requires_merchant_action -> 400 IR_16, nothing changes; a body -> 400 naming the field', async () => {
    const { body: p } = await create({ amount: 100 });
    expect(p.status).toBe('succeeded');
    for (const action of ['approve', 'reject']) {
      const r = await stack.api('POST', `/payments/${p.payment_id}/${action}`, {}, key);
      expect(r.status).toBe(400);
      expect(r.body.error.code).toBe('IR_16');
    }
    const { body: held } = await create({});
    const bad = await stack.api('POST', `/payments/${held.payment_id}/approve`, { decision: 'yes' }, key);
    expect(bad.status).toBe(400);
    expect(bad.body.error.param).toBe('decision');
    expect((await stack.api('GET', `/payments/${held.payment_id}`, undefined, key)).body.status).toBe('requires_merchant_action');
    // Cancel is not allowed while the merchant decides (the reference's list).
    expect((await stack.api('POST', `/payments/${held.payment_id}/cancel`, {}, key)).body.error.code).toBe('IR_16');
  });

  it('20 concurrent approves: one capture at the provider, the payment succeeded once', async () => {
    const { body: p } = await create({});
    const answers = await Promise.all(Array.from({ length: 20 }, () => stack.api('POST', `/payments/${p.payment_id}/approve`, {}, key)));
    expect(answers.filter((a) => a.status === 200).length).toBeGreaterThanOrEqual(1);
    for (const a of answers.filter((x) => x.status !== 200)) expect(a.body.error.code).toMatch(/IR_16|CO_01/);
    const final = await stack.poll(p.payment_id, key, (x) => x.status === 'succeeded');
    expect(final.captures).toHaveLength(1);
    expect(await providerPayment(p.connector_transaction_id)).toMatchObject({ captured: 80_000 });
  });

  it('the rule is a merchant setting: invalid values are refused naming the field', async () => {
    const r = await stack.api('POST', '/accounts', { manual_review: { amount_at_least: -5 } }, stack.adminKey);
    expect(r.status).toBe(400);
    expect(r.body.error.param).toBe('manual_review.amount_at_least');
  });
});
