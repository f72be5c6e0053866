// Nothing lost, nothing applied twice: crashed processes, retried reports and concurrent requests.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Queue } from 'bullmq';
import { Redis } from 'ioredis';
import { paymentStateClient, call } from '../lib/grpc.ts';
import { Stack, operationIds, sleep } from './support/stack.ts';

let stack: Stack;
let key: string;
let merchantId: string;
// +slow answers after 4 s here, which leaves time to crash a process in the middle of a job.
beforeAll(async () => ({ stack, api_key: key, merchant_id: merchantId } = await Stack.withMerchant({ CONFIRM_WAIT_MS: '1000', SANDBOX_SLOW_MS: '4000' })));
afterAll(async () => stack?.stop());

const pay = (body: Record<string, unknown>) => stack.api('POST', '/payments', { amount: 10_000, currency: 'EUR', payment_method: 'pay_later', ...body }, key);

describe('crash safety', () => {
  it('a worker killed in the middle of a job: the job runs again, the payment ends right, one authorization at the provider', async () => {
    const c = await pay({ confirm: true, capture_method: 'manual', customer: { email: 'kim+slow@example.com' } });
    expect(c.body.status).toBe('processing');
    const [op] = await operationIds(stack, merchantId, c.body.payment_id);
    // The worker is waiting for the provider's answer now.
    await sleep(500);
    await stack.kill('worker');
    const cut = await stack.sandboxCalls({ idempotency_key: op.operation_id });
    expect(cut).toHaveLength(1);
    expect(cut[0].answered).toBe(false);
    await stack.startPart('worker');
    const done = await stack.poll(c.body.payment_id, key, (p) => p.status !== 'processing', 60_000);
    expect(done.status).toBe('requires_capture');
    expect(done.attempts).toHaveLength(1);
    // The job ran again (the provider saw the same idempotency key more than once) but created one authorization.
    const calls = await stack.sandboxCalls({ idempotency_key: op.operation_id });
    expect(calls.length).toBeGreaterThanOrEqual(2);
    expect(await stack.sandboxPayments(op.operation_id)).toHaveLength(1);
    const transitions = await (await stack.db())
      .collection('transitions')
      .find({ merchant_id: merchantId, payment_id: c.body.payment_id, operation_id: op.operation_id, action: /^outcome:/ })
      .toArray();
    expect(transitions.map((t) => t.action)).toEqual(['outcome:authorized']);
  });

  it('payment-state killed while a worker reports: the report is retried and applied once', async () => {
    const c = await pay({ confirm: true, customer: { email: 'kim+slow@example.com' } });
    expect(c.body.status).toBe('processing');
    const [op] = await operationIds(stack, merchantId, c.body.payment_id);
    await stack.kill('payment-state');
    // The provider answers while payment-state is down; the worker keeps retrying its report.
    for (let i = 0; i < 100 && (await stack.sandboxPayments(op.operation_id)).length === 0; i++) await sleep(100);
    await sleep(1_000);
    await stack.startPart('payment-state');
    const done = await stack.poll(c.body.payment_id, key, (p) => p.status !== 'processing', 60_000);
    expect(done).toMatchObject({ status: 'succeeded', amount_received: 10_000 });
    const db = await stack.db();
    const outcomes = await db
      .collection('transitions')
      .find({ merchant_id: merchantId, payment_id: c.body.payment_id, action: /^outcome:/ })
      .toArray();
    expect(outcomes).toHaveLength(1);
    expect(stack.logs.worker.some((l) => l.includes('payment-state unreachable'))).toBe(true);
  });

  it('the same report sent many times at once is applied exactly once', async () => {
    const c = await pay({ capture_method: 'manual', customer: { email: 'kim+review@example.com' } });
    // Start the confirm, then race many reports of one outcome against the worker's own.
    const confirmed = await stack.api('POST', `/payments/${c.body.payment_id}/confirm`, {}, key);
    expect(confirmed.body.status).toBe('processing');
    const [op] = await operationIds(stack, merchantId, c.body.payment_id);
    const client = paymentStateClient(stack.env.PAYMENT_STATE_ADDR);
    const replies = await Promise.all(
      Array.from({ length: 15 }, () =>
        call<object, { applied: boolean; status: string }>(
          client,
          'Complete',
          {
            merchant_id: merchantId,
            payment_id: c.body.payment_id,
            operation_id: op.operation_id,
            outcome: { kind: 'AUTHORIZED', connector_transaction_id: 'stp_direct' },
          },
          10_000,
        ),
      ),
    );
    client.close();
    expect(replies.filter((r) => r.applied)).toHaveLength(1);
    expect(new Set(replies.map((r) => r.status))).toEqual(new Set(['requires_capture']));
    const outcomes = await (await stack.db())
      .collection('transitions')
      .find({ merchant_id: merchantId, payment_id: c.body.payment_id, action: 'outcome:authorized' })
      .toArray();
    expect(outcomes).toHaveLength(1);
    // The provider's own approval arrives later through the status sync and changes nothing.
    await sleep(2_500);
    const after = await stack.api('GET', `/payments/${c.body.payment_id}`, undefined, key);
    expect(after.body.status).toBe('requires_capture');
  });
});

describe('projection repair', () => {
  it('a payment whose projection was never written (a crash between the two writes) is rebuilt from its transitions', async () => {
    const c = await pay({ capture_method: 'manual', confirm: true, customer: { email: 'ray@example.com' } });
    expect(c.body.status).toBe('requires_capture');
    const db = await stack.db();
    await db.collection('payments').deleteOne({ merchant_id: merchantId, payment_id: c.body.payment_id });
    const got = await stack.api('GET', `/payments/${c.body.payment_id}`, undefined, key);
    expect(got.status).toBe(200);
    expect(got.body).toEqual(c.body);
    expect(await db.collection('payments').countDocuments({ merchant_id: merchantId, payment_id: c.body.payment_id })).toBe(1);
    // A stale projection (behind its transitions) does not make an operation decide on old state.
    await db
      .collection('payments')
      .updateOne({ merchant_id: merchantId, payment_id: c.body.payment_id }, { $set: { seq: 0, status: 'requires_confirmation' } });
    const cap = await stack.api('POST', `/payments/${c.body.payment_id}/capture`, {}, key);
    expect(cap.body).toMatchObject({ status: 'succeeded', amount_received: 10_000 });
  });
});

describe('recovery sweeper', () => {
  it('a queued job lost from Redis is enqueued again and the payment completes, with one authorization', async () => {
    const lossy = await Stack.start({ CONFIRM_WAIT_MS: '500', SWEEP_AFTER_MS: '1500', SWEEP_INTERVAL_MS: '500' });
    try {
      const m = await lossy.merchant();
      await lossy.kill('worker');
      const c = await lossy.api('POST', '/payments', { amount: 900, currency: 'EUR', confirm: true, payment_method: 'pay_later' }, m.api_key);
      expect(c.body.status).toBe('processing');
      // Redis loses the queue (flushed, failed over without persistence).
      const redis = new Redis(lossy.env.REDIS_URL, { maxRetriesPerRequest: null });
      const queue = new Queue('connector-service_test', { connection: redis, prefix: lossy.env.REDIS_PREFIX });
      expect(await queue.getJobCounts('waiting')).toMatchObject({ waiting: 1 });
      await queue.obliterate({ force: true });
      expect(await queue.getJobCounts('waiting')).toMatchObject({ waiting: 0 });
      await queue.close();
      redis.disconnect();
      await lossy.startPart('worker');
      const done = await lossy.poll(c.body.payment_id, m.api_key, (p) => p.status !== 'processing', 30_000);
      expect(done.status).toBe('succeeded');
      expect(lossy.logs['payment-state'].some((l) => l.includes('sweeper re-enqueued operations'))).toBe(true);
      const [op] = await operationIds(lossy, m.merchant_id, c.body.payment_id);
      expect(await lossy.sandboxPayments(op.operation_id)).toHaveLength(1);
    } finally {
      await lossy.stop();
    }
  });
});

describe('concurrency', () => {
  it('20 simultaneous captures of one requires_capture payment: exactly one applied, one capture at the provider, the rest 4xx', async () => {
    const c = await pay({ confirm: true, capture_method: 'manual', customer: { email: 'lee@example.com' } });
    expect(c.body.status).toBe('requires_capture');
    const results = await Promise.all(Array.from({ length: 20 }, () => stack.api('POST', `/payments/${c.body.payment_id}/capture`, {}, key)));
    const ok = results.filter((r) => r.status === 200);
    const refused = results.filter((r) => r.status >= 400 && r.status < 500);
    expect(ok).toHaveLength(1);
    expect(refused).toHaveLength(19);
    for (const r of refused) expect(['IR_14', 'CO_01']).toContain(r.body.error.code);
    const final = await stack.poll(c.body.payment_id, key, (p) => p.status !== 'processing');
    expect(final).toMatchObject({ status: 'succeeded', amount_received: 10_000 });
    expect(final.captures).toHaveLength(1);
    const captureCalls = (await stack.sandboxCalls()).filter((x) => x.path === `/service_test/v1/payments/${final.connector_transaction_id}/captures`);
    expect(captureCalls).toHaveLength(1);
  });

  it('20 simultaneous creates with one payment_id and body: one payment, every answer the same', async () => {
    const payment_id = `pay_race${Date.now()}`.padEnd(30, 'x');
    const body = { payment_id, amount: 700, currency: 'SEK', customer: { email: 'lee@example.com' } };
    const results = await Promise.all(Array.from({ length: 20 }, () => stack.api('POST', '/payments', body, key)));
    const statuses = results.map((r) => r.status);
    expect(statuses.filter((s) => s === 200).length + statuses.filter((s) => s === 409).length).toBe(20);
    const ok = results.filter((r) => r.status === 200);
    for (const r of ok) expect(r.body.client_secret).toBe(ok[0].body.client_secret);
    const stored = await (await stack.db()).collection('transitions').countDocuments({ merchant_id: merchantId, payment_id });
    expect(stored).toBe(1);
  });
});
