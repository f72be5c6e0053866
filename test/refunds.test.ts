// Refunds through the real processes (issue 11): each magic value of the sandbox, the amount rules, replays and
// conflicts, concurrency (the sum never exceeds the captured amount), a worker killed mid-refund, the update and the
// list. What the refund decisions do case by case is in domain/refunds.test.ts.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Stack, operationIds, sleep } from './support/stack.ts';

let stack: Stack;
let key: string;
let merchantId: string;
beforeAll(async () => {
  // +slow refunds answer after 4 s (time to kill the worker mid-call); +refund_pending is decided after 1.5 s.
  ({
    stack,
    api_key: key,
    merchant_id: merchantId,
  } = await Stack.withMerchant({ CONFIRM_WAIT_MS: '2500', SANDBOX_SLOW_MS: '4000', SANDBOX_REVIEW_MS: '1500' }));
});
afterAll(async () => stack?.stop());

/** A captured payment (automatic capture) of `amount`, its customer's email carrying the sandbox's tags. */
async function captured(amount = 10_000, email = 'rita@example.com', extra: Record<string, unknown> = {}) {
  const r = await stack.api(
    'POST',
    '/payments',
    {
      amount,
      currency: 'EUR',
      confirm: true,
      payment_method: 'pay_later',
      payment_method_type: 'invoice',
      customer: { id: `cus_${amount}`, email },
      ...extra,
    },
    key,
  );
  expect(r.body.status, JSON.stringify(r.body)).toBe(extra.capture_method ? 'requires_capture' : 'succeeded');
  return r.body;
}
const refund = (body: Record<string, unknown>, headers: Record<string, string> = {}) => stack.api('POST', '/refunds', body, key, headers);
const getRefund = (id: string, q = '') => stack.api('GET', `/refunds/${id}${q}`, undefined, key);
async function pollRefund(id: string, until: (r: any) => boolean, ms = 30_000) {
  const deadline = Date.now() + ms;
  for (;;) {
    const r = await getRefund(id);
    if (r.status === 200 && until(r.body)) return r.body;
    if (Date.now() > deadline) throw new Error(`refund ${id}: ${JSON.stringify(r.body)}`);
    await sleep(200);
  }
}
const sandboxRefunds = async (paymentRef?: string) =>
  ((await stack.sandbox(`/__sandbox/service_test/refunds`)).ok
    ? ((await (await stack.sandbox(`/__sandbox/service_test/refunds`)).json()) as any[])
    : []
  ).filter((r) => !paymentRef || r.payment_id === paymentRef);

describe("refund flows by the sandbox's magic values", () => {
  it('approved: 200 succeeded with every field of spec 2.9; the payment shows it and stays succeeded', async () => {
    const p = await captured(10_000);
    const r = await refund({ payment_id: p.payment_id, amount: 4_000, reason: 'damaged', metadata: { ticket: 'T-1' } });
    expect(r.status).toBe(200);
    expect(r.body).toEqual({
      refund_id: expect.stringMatching(/^ref_[A-Za-z0-9]{26}$/),
      payment_id: p.payment_id,
      amount: 4_000,
      currency: 'EUR',
      status: 'succeeded',
      connector: 'service_test',
      reason: 'damaged',
      metadata: { ticket: 'T-1' },
      error_message: null,
      error_code: null,
      unified_code: null,
      unified_message: null,
      created_at: expect.any(String),
      updated_at: expect.any(String),
      profile_id: p.profile_id,
      merchant_connector_id: p.merchant_connector_id,
      split_refunds: null,
      order_details: null,
      capture_id: null,
    });
    const after = (await stack.api('GET', `/payments/${p.payment_id}`, undefined, key)).body;
    expect(after).toMatchObject({ status: 'succeeded', amount_received: 10_000 });
    expect(after.refunds).toEqual([r.body]);
    expect((await getRefund(r.body.refund_id)).body).toEqual(r.body);
    // The rest by default; then nothing is left.
    const rest = await refund({ payment_id: p.payment_id });
    expect(rest.body).toMatchObject({ amount: 6_000, status: 'succeeded' });
    const none = await refund({ payment_id: p.payment_id, amount: 1 });
    expect(none.status).toBe(400);
    expect(none.body.error).toMatchObject({ code: 'IR_13' });
  });

  it('+refund_fail: 200 with a failed refund and its error fields, and its amount is refundable again', async () => {
    const p = await captured(5_000, 'rita+refund_fail@example.com');
    const r = await refund({ payment_id: p.payment_id, amount: 5_000 });
    expect(r.status).toBe(200);
    expect(r.body).toMatchObject({
      status: 'failed',
      error_code: 'refund_declined',
      error_message: expect.any(String),
      unified_code: 'UE_6000',
      unified_message: expect.any(String),
    });
    const again = await refund({ payment_id: p.payment_id, amount: 5_000 });
    expect(again.status).toBe(200);
    expect(again.body.status).toBe('failed');
  });

  it('+refund_pending: pending at first, succeeded once the provider decides (its notification, or the status sync)', async () => {
    const p = await captured(3_000, 'rita+refund_pending@example.com');
    const r = await refund({ payment_id: p.payment_id });
    expect(r.body.status).toBe('pending');
    const done = await pollRefund(r.body.refund_id, (x) => x.status !== 'pending');
    expect(done).toMatchObject({ status: 'succeeded', amount: 3_000 });
  });

  it('+refund_flaky: the provider fails twice, the worker retries with the same key, one refund at the provider', async () => {
    const p = await captured(2_000, 'rita+refund_flaky@example.com');
    const r = await refund({ payment_id: p.payment_id, amount: 1_500 });
    const done = r.body.status === 'pending' ? await pollRefund(r.body.refund_id, (x) => x.status !== 'pending') : r.body;
    expect(done.status).toBe('succeeded');
    const op = (await operationIds(stack, merchantId, p.payment_id)).find((o) => o.kind === 'refund')!;
    const calls = await stack.sandboxCalls({ idempotency_key: op.operation_id });
    expect(calls.map((c) => c.status)).toEqual([500, 500, 201]);
    expect(await sandboxRefunds(p.connector_transaction_id)).toHaveLength(1);
  });

  it('GET ?force_sync=true asks the provider at once', async () => {
    const p = await captured(1_000, 'rita+refund_pending@example.com');
    const r = await refund({ payment_id: p.payment_id });
    expect(r.body.status).toBe('pending');
    await sleep(1_600);
    const synced = await getRefund(r.body.refund_id, '?force_sync=true');
    expect(synced.body.status).toBe('succeeded');
  });
});

describe('refund rules', () => {
  it('only succeeded / partially captured payments (IR_14); amount > 0 and within the captured amount (IR_13); fields named', async () => {
    const held = await captured(4_000, 'rita@example.com', { capture_method: 'manual' });
    const refused = await refund({ payment_id: held.payment_id, amount: 100 });
    expect(refused.status).toBe(400);
    expect(refused.body.error.code).toBe('IR_14');
    // A partial capture: refundable up to what was captured.
    const part = await stack.api('POST', `/payments/${held.payment_id}/capture`, { amount_to_capture: 1_000 }, key);
    expect(part.body.status).toBe('partially_captured');
    expect((await refund({ payment_id: held.payment_id, amount: 1_001 })).body.error).toMatchObject({ code: 'IR_13', param: 'amount' });
    expect((await refund({ payment_id: held.payment_id, amount: 1_000 })).body.status).toBe('succeeded');
    for (const [body, param] of [
      [{ payment_id: held.payment_id, amount: 0 }, 'amount'],
      [{ payment_id: held.payment_id, amount: -5 }, 'amount'],
      [{ amount: 5 }, 'payment_id'],
      [{ payment_id: held.payment_id, reason: 'x'.repeat(256) }, 'reason'],
      [{ payment_id: held.payment_id, refund_id: 'bad id!' }, 'refund_id'],
      [{ payment_id: held.payment_id, surprise: 1 }, 'surprise'],
      [{ payment_id: held.payment_id, metadata: { ['k'.repeat(41)]: 1 } }, 'metadata'],
    ] as const) {
      const r = await refund(body);
      expect(r.status, JSON.stringify(body)).toBe(400);
      expect(r.body.error.param, JSON.stringify(body)).toContain(param);
    }
    expect((await refund({ payment_id: 'pay_000000000000000000000nopay', amount: 1 })).status).toBe(404);
    // Nothing of the refused ones exists.
    expect((await stack.api('POST', '/refunds/list', { payment_id: held.payment_id }, key)).body.total_count).toBe(1);
  });

  it('the same refund_id: the same body replays 200, another body is 409 HE_01 (also on another payment); Idempotency-Key replays', async () => {
    const p = await captured(3_000);
    const body = { payment_id: p.payment_id, amount: 700, refund_id: 'merchant-refund-1' };
    const first = await refund(body);
    expect(first.body).toMatchObject({ refund_id: 'merchant-refund-1', status: 'succeeded' });
    expect(await refund(body)).toMatchObject({ status: 200, body: first.body });
    const conflict = await refund({ ...body, amount: 800 });
    expect(conflict.status).toBe(409);
    expect(conflict.body.error).toMatchObject({ code: 'HE_01', param: 'refund_id' });
    const other = await captured(3_001);
    expect((await refund({ ...body, payment_id: other.payment_id })).status).toBe(409);
    const a = await refund({ payment_id: p.payment_id, amount: 100 }, { 'idempotency-key': 'refund-key-1' });
    const b = await refund({ payment_id: p.payment_id, amount: 100 }, { 'idempotency-key': 'refund-key-1' });
    expect(b.body.refund_id).toBe(a.body.refund_id);
    const payment = (await stack.api('GET', `/payments/${p.payment_id}`, undefined, key)).body;
    expect(payment.refunds.map((r: any) => r.amount)).toEqual([700, 100]);
  });

  it('20 concurrent refunds of one payment: each accepted or refused on the amount alone, the sum never above the captured amount', async () => {
    const p = await captured(10_000);
    const answers = await Promise.all(Array.from({ length: 20 }, () => refund({ payment_id: p.payment_id, amount: 1_500 })));
    const accepted = answers.filter((a) => a.status === 200);
    const refused = answers.filter((a) => a.status !== 200);
    for (const r of refused) expect(r.body.error.code, JSON.stringify(r.body)).toBe('IR_13');
    expect(accepted).toHaveLength(6);
    const payment = (await stack.api('GET', `/payments/${p.payment_id}`, undefined, key)).body;
    const sum = payment.refunds.filter((r: any) => r.status !== 'failed').reduce((t: number, r: any) => t + r.amount, 0);
    expect(sum).toBe(9_000);
    expect(sum).toBeLessThanOrEqual(payment.amount_received);
    expect((await sandboxRefunds(p.connector_transaction_id)).reduce((t, r) => t + r.amount, 0)).toBe(9_000);
  });
});

describe('refunds naming a capture (issue 19 item 1)', () => {
  const providerWrites = async () => (await stack.sandboxCalls({ provider: 'service_test' })).filter((c) => c.method !== 'GET').length;
  const payment = async (id: string) => (await stack.api('GET', `/payments/${id}`, undefined, key)).body;
  async function held(amount: number, capture_method: 'manual' | 'manual_multiple') {
    return captured(amount, 'rita@example.com', { capture_method, customer: { id: `cus_cap_${amount}`, email: 'rita@example.com' } });
  }

  it('capture 1000, refund 1000, then 1000 naming that capture: 400 IR_13, no second refund at the provider, the payment unchanged', async () => {
    const p = await held(1_000, 'manual');
    const cap = await stack.api('POST', `/payments/${p.payment_id}/capture`, {}, key);
    expect(cap.body.status, JSON.stringify(cap.body)).toBe('succeeded');
    const captureId = cap.body.captures[0].capture_id;
    const first = await refund({ payment_id: p.payment_id, amount: 1_000 });
    expect(first.status).toBe(200);
    expect(first.body.status).toBe('succeeded');
    const before = await payment(p.payment_id);
    const writes = await providerWrites();
    const over = await refund({ payment_id: p.payment_id, amount: 1_000, capture_id: captureId });
    expect(over.status, JSON.stringify(over.body)).toBe(400);
    expect(over.body.error).toMatchObject({ type: 'invalid_request', code: 'IR_13', param: 'amount' });
    // Without an amount (the rest of the capture by default) it is refused the same way.
    expect((await refund({ payment_id: p.payment_id, capture_id: captureId })).body.error).toMatchObject({ code: 'IR_13', param: 'amount' });
    expect(await providerWrites()).toBe(writes);
    expect(await sandboxRefunds(p.connector_transaction_id)).toHaveLength(1);
    expect(await payment(p.payment_id)).toEqual(before);
  });

  it("partial captures (manual_multiple): the capture's remainder binds, concurrent refunds through it never sum above it, then the payment's binds", async () => {
    const p = await held(5_000, 'manual_multiple');
    const c1 = await stack.api('POST', `/payments/${p.payment_id}/capture`, { amount_to_capture: 1_000 }, key);
    const c2 = await stack.api('POST', `/payments/${p.payment_id}/capture`, { amount_to_capture: 2_000 }, key);
    expect(c2.body.status, JSON.stringify(c2.body)).toBe('partially_captured_and_capturable');
    const cap1 = c1.body.captures[0].capture_id;
    const writes = await providerWrites();
    // The payment has 3000 left to refund; capture 1 only 1000.
    const over = await refund({ payment_id: p.payment_id, amount: 1_001, capture_id: cap1 });
    expect(over.status).toBe(400);
    expect(over.body.error).toMatchObject({ code: 'IR_13', param: 'amount', message: expect.stringContaining(cap1) });
    expect(await providerWrites()).toBe(writes);
    // Eight at once of 400 through capture 1: two fit (800 of its 1000), the rest are IR_13 before any provider call.
    const answers = await Promise.all(Array.from({ length: 8 }, () => refund({ payment_id: p.payment_id, amount: 400, capture_id: cap1 })));
    for (const a of answers.filter((x) => x.status !== 200)) expect(a.body.error.code, JSON.stringify(a.body)).toBe('IR_13');
    expect(answers.filter((a) => a.status === 200)).toHaveLength(2);
    expect((await sandboxRefunds(p.connector_transaction_id)).map((r) => r.amount)).toEqual([400, 400]);
    // The rest of the payment stays refundable without naming a capture.
    expect((await refund({ payment_id: p.payment_id })).body).toMatchObject({ status: 'succeeded', amount: 2_200 });
    // Now the payment's remainder binds: capture 1 has 200 of its own left, the payment nothing.
    const before = await payment(p.payment_id);
    const left = await refund({ payment_id: p.payment_id, amount: 200, capture_id: cap1 });
    expect(left.status, JSON.stringify(left.body)).toBe(400);
    expect(left.body.error).toMatchObject({ code: 'IR_13', param: 'amount' });
    expect(await payment(p.payment_id)).toEqual(before);
    expect((await sandboxRefunds(p.connector_transaction_id)).map((r) => r.amount)).toEqual([400, 400, 2_200]);
    expect(before.refunds.filter((r: any) => r.status !== 'failed').reduce((t: number, r: any) => t + r.amount, 0)).toBe(3_000);
  });
});

describe('crash safety', () => {
  it('a worker killed mid-refund: the refund is not lost and is made once at the provider', async () => {
    // +slow: the payment's authorization is slow too; wait for it, then refund.
    const started = await stack.api(
      'POST',
      '/payments',
      { amount: 6_000, currency: 'EUR', confirm: true, payment_method: 'pay_later', customer: { id: 'cus_slow', email: 'rita+slow@example.com' } },
      key,
    );
    const p = await stack.poll(started.body.payment_id, key, (x) => x.status === 'succeeded', 30_000);
    const r = await refund({ payment_id: p.payment_id, amount: 2_500 });
    expect(r.body.status).toBe('pending');
    // The provider takes 4 s to answer and the request answered after 2.5 s: the worker is waiting for it now.
    await stack.kill('worker');
    try {
      const op = (await operationIds(stack, merchantId, p.payment_id)).find((o) => o.kind === 'refund')!;
      const cut = await stack.sandboxCalls({ idempotency_key: op.operation_id });
      expect(cut.map((c) => c.answered)).toEqual([false]);
    } finally {
      await stack.startPart('worker');
    }
    const op = (await operationIds(stack, merchantId, p.payment_id)).find((o) => o.kind === 'refund')!;
    const done = await pollRefund(r.body.refund_id, (x) => x.status !== 'pending', 60_000);
    expect(done.status).toBe('succeeded');
    expect(await sandboxRefunds(p.connector_transaction_id)).toHaveLength(1);
    const outcomes = await (await stack.db())
      .collection('transitions')
      .find({ merchant_id: merchantId, payment_id: p.payment_id, operation_id: op.operation_id, action: /^outcome:/ })
      .toArray();
    expect(outcomes.map((t) => t.action)).toEqual(['outcome:refunded']);
  });
});

describe('a refund row written, its payment projection not (the two are written side by side)', () => {
  it('GET /refunds/{id} answers the refund the list shows, from the newest transition', async () => {
    const p = await captured(3_300);
    const r = await refund({ payment_id: p.payment_id, amount: 1_000 });
    expect(r.body.status).toBe('succeeded');
    const db = await stack.db();
    const payments = db.collection('payments');
    const stored = (await payments.findOne({ merchant_id: merchantId, payment_id: p.payment_id }, { projection: { _id: 0 } }))!;
    // As if the writer had died after the refund row and before the payment's projection: the payment as it was.
    const before = (await db.collection('transitions').findOne({ merchant_id: merchantId, payment_id: p.payment_id, seq: stored.seq - 2 }))!;
    expect(before.snapshot.refunds ?? []).toEqual([]);
    await payments.replaceOne({ merchant_id: merchantId, payment_id: p.payment_id }, before.snapshot);
    const listed = await stack.api('POST', '/refunds/list', { payment_id: p.payment_id }, key);
    expect(listed.body.data.map((x: any) => x.refund_id)).toEqual([r.body.refund_id]);
    const got = await getRefund(r.body.refund_id);
    expect(got.status).toBe(200);
    expect(got.body).toEqual(r.body);
  });
});

describe('update, retrieve, list', () => {
  it('POST /refunds/{id} changes reason and metadata only; anything else is 400 naming the field and changes nothing', async () => {
    const p = await captured(2_000);
    const r = (await refund({ payment_id: p.payment_id, amount: 500, reason: 'first' })).body;
    const u = await stack.api('POST', `/refunds/${r.refund_id}`, { reason: 'second', metadata: { k: 'v' } }, key);
    expect(u.body).toMatchObject({ reason: 'second', metadata: { k: 'v' }, amount: 500, status: 'succeeded' });
    for (const [body, param] of [
      [{ amount: 1 }, 'amount'],
      [{ reason: 'x'.repeat(256) }, 'reason'],
      [{ metadata: 'x' }, 'metadata'],
    ] as const) {
      const bad = await stack.api('POST', `/refunds/${r.refund_id}`, body, key);
      expect(bad.status).toBe(400);
      expect(bad.body.error.param).toBe(param);
    }
    expect((await getRefund(r.refund_id)).body).toMatchObject({ reason: 'second', metadata: { k: 'v' } });
    expect((await getRefund('ref_doesnotexist')).status).toBe(404);
    expect((await stack.api('POST', '/refunds/ref_doesnotexist', { reason: 'x' }, key)).status).toBe(404);
  });

  it('POST /refunds/list: every filter of spec 4.8, newest first, offset pagination with total_count', async () => {
    const m = await stack.merchant();
    const own = (body: Record<string, unknown>) => stack.api('POST', '/refunds', body, m.api_key);
    const pays = [];
    for (const amount of [1_000, 2_000, 3_000]) {
      pays.push(
        (
          await stack.api(
            'POST',
            '/payments',
            {
              amount,
              currency: amount === 3_000 ? 'USD' : 'EUR',
              confirm: true,
              payment_method: 'pay_later',
              customer: { id: 'c', email: amount === 2_000 ? 'l+refund_fail@example.com' : 'l@example.com' },
            },
            m.api_key,
          )
        ).body,
      );
    }
    const made = [];
    for (const p of pays) made.push((await own({ payment_id: p.payment_id, amount: p.amount / 2 })).body);
    made.push((await own({ payment_id: pays[0].payment_id, amount: 100 })).body);
    const list = (f: Record<string, unknown>) => stack.api('POST', '/refunds/list', f, m.api_key);
    const all = (await list({})).body;
    expect(all).toMatchObject({ count: 4, total_count: 4 });
    expect(all.data.map((r: any) => r.refund_id)).toEqual([...made].reverse().map((r) => r.refund_id));
    expect((await list({ payment_id: pays[0].payment_id })).body.data.map((r: any) => r.amount)).toEqual([100, 500]);
    expect((await list({ refund_id: made[1].refund_id })).body.data).toEqual([made[1]]);
    expect((await list({ refund_status: ['failed'] })).body.data.map((r: any) => r.refund_id)).toEqual([made[1].refund_id]);
    expect((await list({ currency: ['USD'] })).body.total_count).toBe(1);
    expect((await list({ amount_filter: { start_amount: 500, end_amount: 1_000 } })).body.total_count).toBe(2);
    expect((await list({ connector: ['service_test'] })).body.total_count).toBe(4);
    expect((await list({ connector: ['mondu'] })).body.total_count).toBe(0);
    expect((await list({ merchant_connector_id: [made[0].merchant_connector_id] })).body.total_count).toBe(4);
    expect((await list({ profile_id: made[0].profile_id })).body.total_count).toBe(4);
    expect((await list({ start_time: new Date(Date.now() + 60_000).toISOString() })).body.total_count).toBe(0);
    expect((await list({ start_time: '2020-01-01T00:00:00Z', end_time: made[1].created_at })).body.total_count).toBe(2);
    const page = (await list({ limit: 2, offset: 1 })).body;
    expect(page).toMatchObject({ count: 2, total_count: 4 });
    expect(page.data.map((r: any) => r.refund_id)).toEqual([made[2].refund_id, made[1].refund_id]);
    for (const [f, param] of [
      [{ limit: 0 }, 'limit'],
      [{ refund_status: ['done'] }, 'refund_status.0'],
      [{ currency: ['eur'] }, 'currency.0'],
      [{ offset: 10_001 }, 'offset'],
    ] as const) {
      const bad = await list(f);
      expect(bad.status).toBe(400);
      expect(bad.body.error.param).toBe(param);
    }
  });

  it('the publishable key gets 403 on every refund route', async () => {
    const pk = (await stack.api('GET', `/accounts/${merchantId}`, undefined, stack.adminKey)).body.publishable_key;
    for (const [method, path] of [
      ['POST', '/refunds'],
      ['POST', '/refunds/list'],
      ['GET', '/refunds/ref_x'],
      ['POST', '/refunds/ref_x'],
    ]) {
      const r = await stack.api(method, path, method === 'POST' ? {} : undefined, pk);
      expect(r.status, `${method} ${path}`).toBe(403);
    }
  });
});
