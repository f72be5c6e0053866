// The sandbox as a provider that calls back (issue 11): it signs and sends its own notifications to our
// POST /webhooks/{merchant_id}/{merchant_connector_id}, and they decide what the status sync would only ask about a
// minute later (SYNC_DELAYS_MS). A dispute's whole life is driven by the sandbox's operator calls.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sleep, Stack } from './support/stack.ts';

let stack: Stack;
let key: string;
let merchantId: string;
beforeAll(async () => {
  ({
    stack,
    api_key: key,
    merchant_id: merchantId,
  } = await Stack.withMerchant({ SANDBOX_REVIEW_MS: '1500', SYNC_DELAYS_MS: '60000', CONFIRM_WAIT_MS: '1000' }));
});
afterAll(async () => stack?.stop());

const pay = (email: string, extra: Record<string, unknown> = {}) =>
  stack.api(
    'POST',
    '/payments',
    {
      amount: 8_000,
      currency: 'EUR',
      confirm: true,
      payment_method: 'pay_later',
      customer: { id: 'cus_events', email },
      ...extra,
    },
    key,
  );
const operator = async (path: string, body: unknown) => {
  const r = await stack.sandbox(path, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
  return { status: r.status, body: (await r.json()) as any };
};
async function until<T>(what: string, read: () => Promise<T>, ok: (v: T) => boolean, ms = 15_000): Promise<T> {
  const deadline = Date.now() + ms;
  for (;;) {
    const v = await read();
    if (ok(v)) return v;
    if (Date.now() > deadline) throw new Error(`${what}: ${JSON.stringify(v).slice(0, 500)}`);
    await sleep(200);
  }
}
const notifications = async () => (await stack.db()).collection('provider_notifications').find({ merchant_id: merchantId }).toArray();

describe("the provider's notifications decide before the status sync asks", () => {
  it('a +review payment: processing, then succeeded by the signed payment.updated the sandbox sends', async () => {
    const c = await pay('nora+review@example.com');
    expect(c.body).toMatchObject({ status: 'processing', merchant_connector_id: 'mca_sandboxdefault000000' });
    const done = await stack.poll(c.body.payment_id, key, (p) => p.status !== 'processing', 15_000);
    expect(done).toMatchObject({ status: 'succeeded', amount_received: 8_000 });
    // A notice that raises money is confirmed by a status read at the provider, which is what applied it (issue 19).
    const asked = (await notifications()).filter((n) => n.result === 'synced' && String(n.note).includes('raises money'));
    expect(asked.length).toBeGreaterThanOrEqual(1);
  });

  it('a +refund_pending refund: pending, then succeeded by the refund.updated the sandbox sends', async () => {
    const c = await pay('nora+refund_pending@example.com');
    expect(c.body.status).toBe('succeeded');
    const r = await stack.api('POST', '/refunds', { payment_id: c.body.payment_id, amount: 3_000 }, key);
    expect(r.body.status).toBe('pending');
    const done = await until(
      'refund decided',
      async () => (await stack.api('GET', `/refunds/${r.body.refund_id}`, undefined, key)).body,
      (x) => x.status !== 'pending',
    );
    expect(done).toMatchObject({ status: 'succeeded', amount: 3_000 });
  });
});

describe("a dispute's life through the sandbox's operator calls", () => {
  it('raised, challenged, won: each move shows in our API within seconds; an invalid move changes nothing', async () => {
    const c = await pay('nora@example.com');
    expect(c.body.status).toBe('succeeded');
    const raised = await operator('/sandbox/disputes', {
      connector_transaction_id: c.body.connector_transaction_id,
      amount: 8_000,
      reason: 'Goods not received',
      reason_code: '13.1',
      stage: 'dispute',
      status: 'dispute_opened',
      challenge_required_by: '2026-12-31T00:00:00.000Z',
    });
    expect(raised.status).toBe(201);
    const cdi = raised.body.connector_dispute_id as string;
    const listed = await until(
      'dispute listed',
      async () => (await stack.api('GET', '/disputes/list', undefined, key)).body as any[],
      (l) => l.some((d) => d.connector_dispute_id === cdi),
    );
    const d = listed.find((x) => x.connector_dispute_id === cdi);
    expect(d).toMatchObject({
      payment_id: c.body.payment_id,
      amount: '8000',
      currency: 'EUR',
      dispute_stage: 'dispute',
      dispute_status: 'dispute_opened',
      connector: 'service_test',
      connector_status: 'opened',
      connector_reason: 'Goods not received',
      connector_reason_code: '13.1',
      challenge_required_by: '2026-12-31T00:00:00.000Z',
      merchant_connector_id: 'mca_sandboxdefault000000',
    });
    const read = async () => (await stack.api('GET', `/disputes/${d.dispute_id}`, undefined, key)).body;
    expect((await operator(`/sandbox/disputes/${cdi}`, { status: 'dispute_challenged' })).status).toBe(200);
    await until('challenged', read, (x) => x.dispute_status === 'dispute_challenged');
    expect((await operator(`/sandbox/disputes/${cdi}`, { status: 'dispute_won' })).status).toBe(200);
    const won = await until('won', read, (x) => x.dispute_status === 'dispute_won');
    // A closed dispute does not move within its stage: the provider refuses, and nothing changes here.
    expect((await operator(`/sandbox/disputes/${cdi}`, { status: 'dispute_lost' })).status).toBe(409);
    await sleep(1_500);
    expect(await read()).toEqual(won);
    const payment = (await stack.api('GET', `/payments/${c.body.payment_id}`, undefined, key)).body;
    expect(payment.status).toBe('succeeded');
    expect(payment.disputes).toEqual([
      {
        dispute_id: d.dispute_id,
        dispute_stage: 'dispute',
        dispute_status: 'dispute_won',
        connector_status: 'won',
        connector_dispute_id: cdi,
        created_at: d.created_at,
        connector_reason: 'Goods not received',
        connector_reason_code: '13.1',
        challenge_required_by: '2026-12-31T00:00:00.000Z',
        connector_created_at: expect.any(String),
        connector_updated_at: won.connector_updated_at,
      },
    ]);
  });
});
