// A change of a connector account takes effect for the very next payment (issue 19, item 14): workers read the account
// on every job, so corrected credentials are used at once, replaced ones never again, and a disabled account's queued
// operation fails without being sent. Workers keep no credentials by time, so nothing here can pass by waiting.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Stack } from './support/stack.ts';

let stack: Stack;
beforeAll(async () => {
  stack = await Stack.start();
});
afterAll(async () => stack?.stop());

const RIGHT = 'sk_sandbox_service_test';

async function merchantWithKey(apiKey: string) {
  const m = await stack.merchant();
  const a = await stack.api(
    'POST',
    `/account/${m.merchant_id}/connectors`,
    {
      connector_name: 'service_test',
      connector_account_details: { auth_type: 'HeaderKey', api_key: apiKey },
    },
    stack.adminKey,
  );
  expect(a.status).toBe(200);
  return { ...m, mca: a.body.merchant_connector_id as string };
}

const update = async (m: { merchant_id: string; mca: string }, body: Record<string, unknown>) =>
  expect((await stack.api('POST', `/account/${m.merchant_id}/connectors/${m.mca}`, body, stack.adminKey)).status).toBe(200);
const setKey = (m: { merchant_id: string; mca: string }, apiKey: string) =>
  update(m, { connector_account_details: { auth_type: 'HeaderKey', api_key: apiKey } });

async function pay(m: { api_key: string }) {
  const r = await stack.api('POST', '/payments', { amount: 1_000, currency: 'EUR', confirm: true, payment_method: 'pay_later' }, m.api_key);
  expect(r.status).toBe(200);
  return stack.poll(r.body.payment_id, m.api_key, (p) => p.status !== 'processing');
}

describe('connector account changes take effect at once', () => {
  it('wrong key: unauthorized; corrected: the very next payment succeeds; replaced again: the next one fails', async () => {
    const m = await merchantWithKey('sk_wrong_key');
    // Twice, so that the worker has the wrong credentials in hand when they are corrected.
    for (let i = 0; i < 2; i++) expect(await pay(m)).toMatchObject({ status: 'failed', unified_code: 'UE_4000', merchant_connector_id: m.mca });
    await setKey(m, RIGHT);
    expect(await pay(m)).toMatchObject({ status: 'succeeded', merchant_connector_id: m.mca });
    await setKey(m, 'sk_wrong_again');
    expect(await pay(m)).toMatchObject({ status: 'failed', unified_code: 'UE_4000' });
    await setKey(m, RIGHT);
    expect(await pay(m)).toMatchObject({ status: 'succeeded' });
  });

  it('disabled: the next payment is not sent through it', async () => {
    const m = await merchantWithKey(RIGHT);
    expect(await pay(m)).toMatchObject({ status: 'succeeded' });
    await update(m, { disabled: true });
    const calls = (await stack.sandboxCalls()).length;
    const r = await stack.api('POST', '/payments', { amount: 1_000, currency: 'EUR', confirm: true, payment_method: 'pay_later' }, m.api_key);
    expect(r.status).toBe(400);
    expect((await stack.sandboxCalls()).slice(calls).filter((c) => c.method === 'POST')).toEqual([]);
  });

  it('disabled while an authorization waits in the queue: it fails (connector_account_disabled) without calling the provider', async () => {
    const m = await merchantWithKey(RIGHT);
    expect(await pay(m)).toMatchObject({ status: 'succeeded' });
    const { body: p } = await stack.api('POST', '/payments', { amount: 2_500, currency: 'EUR' }, m.api_key);
    await stack.kill('worker', 'SIGTERM');
    try {
      const confirm = stack.api('POST', `/payments/${p.payment_id}/confirm`, { payment_method: 'pay_later' }, m.api_key);
      const db = await stack.db();
      for (let i = 0; i < 100 && !(await db.collection('payments').findOne({ payment_id: p.payment_id }))?.operations?.length; i++)
        await new Promise((r) => setTimeout(r, 50));
      await update(m, { disabled: true });
      expect((await confirm).body.status).toBe('processing');
    } finally {
      await stack.startPart('worker');
    }
    const stored = await stack.poll(p.payment_id, m.api_key, (x) => x.status !== 'processing');
    expect(stored).toMatchObject({ status: 'failed', error_code: 'connector_account_disabled' });
    const db = await stack.db();
    const op = (await db.collection('payments').findOne({ payment_id: p.payment_id }))!.operations[0].operation_id;
    expect((await stack.sandboxCalls()).filter((c) => c.idempotency_key === op)).toEqual([]);
  });
});
