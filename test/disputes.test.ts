// Disputes through the real processes: payment-state's ReportDispute (called here as the notifications worker
// calls it) creates and moves them within the rules; the gateway serves GET /disputes/{id} and GET /disputes/list
// (spec 4.11, 4.12) from the disputes projection, and the payment shows spec 2.10's subset.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, errorCodeOf, grpc, paymentStateClient } from '../lib/grpc.ts';
import { DisputeStore } from '../lib/dispute-store.ts';
import { Dispute, PAYMENT_DISPUTE_FIELDS } from '../lib/schemas/dispute.ts';
import type { PaymentStateClient } from '../proto/generated/bnpl/paymentstate/v1/PaymentState.ts';
import { sleep, Stack } from './support/stack.ts';

let stack: Stack;
let client: PaymentStateClient;
let A: { merchant_id: string; api_key: string; pk: string };
let B: { merchant_id: string; api_key: string };
let pay1: any;
let pay2: any;

type Reply = { applied: boolean; status: string };
const report = (r: Record<string, unknown>) => call<object, Reply>(client as never, 'ReportDispute', r, 5_000);
/** A provider's report on A's payment, in the dialect of proto DisputeReport (empty string = not given). */
const base = (payment: any, over: Record<string, unknown> = {}) => ({
  merchant_id: A.merchant_id,
  payment_id: payment.payment_id,
  connector_dispute_id: 'dp_sbx_one',
  amount: 10_000,
  currency: 'EUR',
  dispute_stage: 'dispute',
  dispute_status: 'dispute_opened',
  connector_status: 'opened',
  connector_reason: 'fraudulent',
  connector_reason_code: '10.4',
  challenge_required_by: '2026-12-24T00:00:00Z',
  connector_created_at: '2026-11-20T08:00:00Z',
  connector_updated_at: '2026-11-20T08:00:00Z',
  ...over,
});
const refusal = async (r: Promise<unknown>) => {
  const err = await r.then(
    () => {
      throw new Error('expected a refusal');
    },
    (e: grpc.ServiceError) => e,
  );
  return { grpc: err.code, ...errorCodeOf(err) };
};
const get = (path: string, key = A.api_key) => stack.api('GET', path, undefined, key);
async function transitionsOf(paymentId: string) {
  return (await stack.db()).collection('transitions').countDocuments({ payment_id: paymentId });
}

beforeAll(async () => {
  stack = await Stack.start();
  const a = await stack.merchant();
  A = { ...a, pk: (await get(`/accounts/${a.merchant_id}`, stack.adminKey)).body.publishable_key };
  B = await stack.merchant();
  const captured = async () => {
    const r = await stack.api(
      'POST',
      '/payments',
      { amount: 10_000, currency: 'EUR', confirm: true, payment_method: 'pay_later', payment_method_type: 'invoice' },
      A.api_key,
    );
    expect(r.body.status).toBe('succeeded');
    return r.body;
  };
  [pay1, pay2] = [await captured(), await captured()];
  client = paymentStateClient(stack.env.PAYMENT_STATE_ADDR);
});
afterAll(async () => {
  client?.close();
  await stack?.stop();
});

/** The disputes of the life below, as GET /disputes/{id} answers them once it has run. */
let one: any;
let two: any;
let three: any;

describe("a dispute's life through ReportDispute", () => {
  it("the first report creates it: the Dispute resource with every field, the payment's copy with spec 2.10's subset", async () => {
    const before = Date.now();
    expect(await report(base(pay1))).toEqual({ applied: true, status: 'succeeded' });
    const payment = (await get(`/payments/${pay1.payment_id}`)).body;
    expect(payment.status).toBe('succeeded');
    expect(payment.amount_received).toBe(10_000);
    expect(payment.disputes).toHaveLength(1);
    const copy = payment.disputes[0];
    expect(Object.keys(copy).sort()).toEqual([...PAYMENT_DISPUTE_FIELDS].sort());
    expect(copy.dispute_id).toMatch(/^dp_[A-Za-z0-9]{26}$/);

    const r = await get(`/disputes/${copy.dispute_id}`);
    expect(r.status).toBe(200);
    expect(Object.keys(r.body).sort()).toEqual(Object.keys(Dispute.shape).sort());
    expect(Dispute.safeParse(r.body).success).toBe(true);
    expect(r.body).toEqual({
      dispute_id: copy.dispute_id,
      payment_id: pay1.payment_id,
      attempt_id: pay1.attempts.at(-1).attempt_id,
      amount: '10000',
      currency: 'EUR',
      dispute_stage: 'dispute',
      dispute_status: 'dispute_opened',
      connector: 'service_test',
      connector_status: 'opened',
      connector_dispute_id: 'dp_sbx_one',
      connector_reason: 'fraudulent',
      connector_reason_code: '10.4',
      created_at: r.body.created_at,
      challenge_required_by: '2026-12-24T00:00:00.000Z',
      connector_created_at: '2026-11-20T08:00:00.000Z',
      connector_updated_at: '2026-11-20T08:00:00.000Z',
      profile_id: pay1.profile_id,
      merchant_connector_id: pay1.merchant_connector_id,
    });
    // created_at is when we received it.
    expect(Date.parse(r.body.created_at)).toBeGreaterThanOrEqual(before - 1);
    expect(Date.parse(r.body.created_at)).toBeLessThanOrEqual(Date.now());
    expect(Object.fromEntries(PAYMENT_DISPUTE_FIELDS.map((k) => [k, r.body[k]]))).toEqual(copy);
  });

  it("opened -> challenged -> won, each applied once; the payment's status never changes", async () => {
    expect(
      await report(base(pay1, { dispute_status: 'dispute_challenged', connector_status: 'challenged', connector_updated_at: '2026-11-21T08:00:00Z' })),
    ).toEqual({ applied: true, status: 'succeeded' });
    const challenged = (await get(`/payments/${pay1.payment_id}`)).body.disputes[0];
    expect(challenged).toMatchObject({
      dispute_status: 'dispute_challenged',
      connector_status: 'challenged',
      connector_updated_at: '2026-11-21T08:00:00.000Z',
    });
    expect(await report(base(pay1, { dispute_status: 'dispute_won', connector_status: 'won', connector_updated_at: '2026-11-22T08:00:00Z' }))).toEqual({
      applied: true,
      status: 'succeeded',
    });
    one = (await get(`/disputes/${challenged.dispute_id}`)).body;
    expect(one).toMatchObject({
      dispute_id: challenged.dispute_id,
      dispute_stage: 'dispute',
      dispute_status: 'dispute_won',
      connector_status: 'won',
      created_at: challenged.created_at,
    });
    const payment = (await get(`/payments/${pay1.payment_id}`)).body;
    expect(payment).toMatchObject({ status: 'succeeded', amount_received: 10_000 });
    expect(payment.disputes).toHaveLength(1);
  });

  it('an invalid move, the same report again, an older report: not applied, nothing recorded, the invalid move logged', async () => {
    const transitions = await transitionsOf(pay1.payment_id);
    // Closed within its stage: won never becomes lost.
    expect(await report(base(pay1, { dispute_status: 'dispute_lost', connector_updated_at: '2026-11-23T08:00:00Z' }))).toEqual({
      applied: false,
      status: 'succeeded',
    });
    // The stage never goes back.
    expect(await report(base(pay1, { dispute_stage: 'pre_dispute', dispute_status: 'dispute_opened', connector_updated_at: '2026-11-24T08:00:00Z' }))).toEqual({
      applied: false,
      status: 'succeeded',
    });
    // The won report delivered twice.
    expect(await report(base(pay1, { dispute_status: 'dispute_won', connector_status: 'won', connector_updated_at: '2026-11-22T08:00:00Z' }))).toEqual({
      applied: false,
      status: 'succeeded',
    });
    // A move that would be valid (a later stage reopens) but is older than the one applied.
    expect(
      await report(base(pay1, { dispute_stage: 'pre_arbitration', dispute_status: 'dispute_opened', connector_updated_at: '2026-11-21T12:00:00Z' })),
    ).toEqual({ applied: false, status: 'succeeded' });
    expect(await transitionsOf(pay1.payment_id)).toBe(transitions);
    expect((await get(`/disputes/${one.dispute_id}`)).body).toEqual(one);
    expect((await get(`/payments/${pay1.payment_id}`)).body.disputes).toEqual([Object.fromEntries(PAYMENT_DISPUTE_FIELDS.map((k) => [k, one[k]]))]);
    const logs = stack.logs['payment-state'].join('\n');
    expect(logs).toContain('dispute report ignored, an invalid move: dispute_won is closed within the stage dispute');
    expect(logs).toContain('dispute report ignored, an invalid move: the stage cannot go back from dispute to pre_dispute');
    expect(logs).toContain('not newer than the one applied');
  });

  it('a later stage reopens it', async () => {
    expect(
      await report(
        base(pay1, { dispute_stage: 'pre_arbitration', dispute_status: 'dispute_opened', amount: 9_000, connector_updated_at: '2026-11-25T08:00:00Z' }),
      ),
    ).toMatchObject({ applied: true });
    expect((await get(`/disputes/${one.dispute_id}`)).body).toMatchObject({
      dispute_stage: 'pre_arbitration',
      dispute_status: 'dispute_opened',
      amount: '9000',
    });
    expect(
      await report(
        base(pay1, { dispute_stage: 'pre_arbitration', dispute_status: 'dispute_challenged', amount: 9_000, connector_updated_at: '2026-11-26T08:00:00Z' }),
      ),
    ).toMatchObject({ applied: true });
    one = (await get(`/disputes/${one.dispute_id}`)).body;
    expect(one).toMatchObject({ dispute_stage: 'pre_arbitration', dispute_status: 'dispute_challenged' });
  });

  it('bad values are refused (IR_05 naming the field), an unknown payment is not found; nothing is recorded', async () => {
    const transitions = await transitionsOf(pay1.payment_id);
    expect(await refusal(report(base(pay1, { dispute_status: 'opened', connector_dispute_id: 'dp_sbx_bad' })))).toMatchObject({
      grpc: grpc.status.FAILED_PRECONDITION,
      code: 'IR_05',
      param: 'dispute_status',
    });
    expect(await refusal(report(base(pay1, { dispute_stage: 'arbitration', connector_dispute_id: 'dp_sbx_bad' })))).toMatchObject({
      code: 'IR_05',
      param: 'dispute_stage',
    });
    expect(await refusal(report(base(pay1, { amount: 0, connector_dispute_id: 'dp_sbx_bad' })))).toMatchObject({ code: 'IR_05', param: 'amount' });
    expect(await refusal(report(base(pay1, { amount: -1, connector_dispute_id: 'dp_sbx_bad' })))).toMatchObject({ code: 'IR_05', param: 'amount' });
    expect(await refusal(report(base(pay1, { connector_updated_at: 'tomorrow' })))).toMatchObject({ code: 'IR_05', param: 'connector_updated_at' });
    expect(await refusal(report(base(pay1, { payment_id: 'pay_000000000000000000000unknown' })))).toMatchObject({ grpc: grpc.status.NOT_FOUND, code: 'HE_02' });
    expect(await refusal(report(base(pay1, { merchant_id: B.merchant_id })))).toMatchObject({ grpc: grpc.status.NOT_FOUND, code: 'HE_02' });
    expect(await transitionsOf(pay1.payment_id)).toBe(transitions);
    expect((await get(`/payments/${pay1.payment_id}`)).body.disputes).toHaveLength(1);
  });

  it('more disputes, for the list: one on the other payment, a second on the first', async () => {
    await sleep(5);
    expect(
      await report(
        base(pay2, {
          connector_dispute_id: 'dp_sbx_two',
          dispute_stage: 'pre_dispute',
          connector_reason: 'product_not_received',
          connector_reason_code: '13.1',
        }),
      ),
    ).toMatchObject({ applied: true });
    await sleep(5);
    expect(await report(base(pay1, { connector_dispute_id: 'dp_sbx_three', amount: 1_000, dispute_status: 'dispute_accepted' }))).toMatchObject({
      applied: true,
    });
    const ids = async (p: any) => (await get(`/payments/${p.payment_id}`)).body.disputes.map((d: any) => d.dispute_id);
    const [id2] = await ids(pay2);
    const [id1, id3] = await ids(pay1);
    expect(id1).toBe(one.dispute_id);
    two = (await get(`/disputes/${id2}`)).body;
    three = (await get(`/disputes/${id3}`)).body;
    expect(two).toMatchObject({ payment_id: pay2.payment_id, connector_dispute_id: 'dp_sbx_two', dispute_stage: 'pre_dispute' });
    expect(three).toMatchObject({ payment_id: pay1.payment_id, connector_dispute_id: 'dp_sbx_three', amount: '1000', dispute_status: 'dispute_accepted' });
    expect(one.created_at < two.created_at && two.created_at < three.created_at).toBe(true);
  });
});

describe('GET /disputes/list', () => {
  const list = async (query = '') => {
    const r = await get(`/disputes/list${query}`);
    expect(r.status, JSON.stringify(r.body)).toBe(200);
    expect(Array.isArray(r.body)).toBe(true);
    return r.body.map((d: any) => d.connector_dispute_id);
  };

  it('a plain array of whole disputes, newest received first; limit', async () => {
    const all = (await get('/disputes/list')).body;
    expect(all).toEqual([three, two, one]);
    expect(await list('?limit=2')).toEqual(['dp_sbx_three', 'dp_sbx_two']);
    expect(await list('?limit=1')).toEqual(['dp_sbx_three']);
    expect(await list('?limit=100')).toEqual(['dp_sbx_three', 'dp_sbx_two', 'dp_sbx_one']);
  });

  it('dispute_status, dispute_stage and connector take one value or a comma-separated list; reason matches exactly', async () => {
    expect(await list('?dispute_status=dispute_accepted')).toEqual(['dp_sbx_three']);
    expect(await list('?dispute_status=dispute_opened,dispute_challenged')).toEqual(['dp_sbx_two', 'dp_sbx_one']);
    expect(await list('?dispute_status=dispute_won')).toEqual([]);
    expect(await list('?dispute_stage=pre_dispute')).toEqual(['dp_sbx_two']);
    expect(await list('?dispute_stage=pre_arbitration,dispute')).toEqual(['dp_sbx_three', 'dp_sbx_one']);
    expect(await list('?connector=service_test')).toEqual(['dp_sbx_three', 'dp_sbx_two', 'dp_sbx_one']);
    expect(await list('?connector=billie,mondu')).toEqual([]);
    expect(await list('?reason=fraudulent')).toEqual(['dp_sbx_three', 'dp_sbx_one']);
    expect(await list('?reason=product_not_received&dispute_stage=pre_dispute&dispute_status=dispute_opened')).toEqual(['dp_sbx_two']);
    expect(await list('?reason=fraud')).toEqual([]);
    expect(await list('?dispute_status=dispute_opened,dispute_challenged,dispute_accepted&limit=1')).toEqual(['dp_sbx_three']);
  });

  it('received_time and its comparisons, against when we received each dispute', async () => {
    const t = encodeURIComponent(two.created_at);
    expect(await list(`?received_time=${t}`)).toEqual(['dp_sbx_two']);
    expect(await list(`?received_time.lt=${t}`)).toEqual(['dp_sbx_one']);
    expect(await list(`?received_time.lte=${t}`)).toEqual(['dp_sbx_two', 'dp_sbx_one']);
    expect(await list(`?received_time.gt=${t}`)).toEqual(['dp_sbx_three']);
    expect(await list(`?received_time.gte=${t}`)).toEqual(['dp_sbx_three', 'dp_sbx_two']);
    expect(await list(`?received_time.gt=${encodeURIComponent(one.created_at)}&received_time.lt=${encodeURIComponent(three.created_at)}`)).toEqual([
      'dp_sbx_two',
    ]);
    // The same instant in another offset.
    const shifted = new Date(Date.parse(two.created_at)).toISOString().replace('Z', '+00:00');
    expect(await list(`?received_time=${encodeURIComponent(shifted)}`)).toEqual(['dp_sbx_two']);
    expect(await list('?received_time.gt=2099-01-01T00:00:00Z')).toEqual([]);
  });

  it('bad values: 400 naming the parameter', async () => {
    const cases: [string, string][] = [
      ['dispute_status=won', 'dispute_status'],
      ['dispute_status=dispute_won,bogus', 'dispute_status'],
      ['dispute_stage=arbitration', 'dispute_stage'],
      ['connector=nobody', 'connector'],
      ['limit=0', 'limit'],
      ['limit=101', 'limit'],
      ['limit=ten', 'limit'],
      ['limit=1.5', 'limit'],
      ['received_time=yesterday', 'received_time'],
      ['received_time.lt=2026-13-01', 'received_time.lt'],
      ['received_time.gt=1', 'received_time.gt'],
      ['received_time.lte=now', 'received_time.lte'],
      ['received_time.gte=x', 'received_time.gte'],
      [`reason=${'r'.repeat(256)}`, 'reason'],
      ['unknown=1', 'unknown'],
    ];
    for (const [query, param] of cases) {
      const r = await get(`/disputes/list?${query}`);
      expect(r.status, query).toBe(400);
      expect(r.body.error.param, query).toBe(param);
    }
  });
});

describe('isolation and scope', () => {
  it("another merchant's dispute is 404 HE_02, like one that does not exist; its list holds none of A's", async () => {
    for (const id of [one.dispute_id, two.dispute_id, `dp_${'0'.repeat(26)}`, 'nothing', 'dp_sbx_one']) {
      const r = await get(`/disputes/${id}`, B.api_key);
      expect(r.status, id).toBe(404);
      expect(r.body.error.code).toBe('HE_02');
    }
    expect((await get(`/disputes/dp_${'0'.repeat(26)}`)).body.error.code).toBe('HE_02');
    expect((await get('/disputes/list', B.api_key)).body).toEqual([]);
    expect((await get('/disputes/list?limit=100&dispute_stage=dispute,pre_dispute,pre_arbitration', B.api_key)).body).toEqual([]);
  });

  it('the publishable key gets 403 on both routes; no key 401', async () => {
    for (const path of ['/disputes/list', `/disputes/${one.dispute_id}`]) {
      const r = await get(path, A.pk);
      expect(r.status, path).toBe(403);
      expect(r.body.error.code).toBe('IR_22');
      expect((await stack.api('GET', path)).status).toBe(401);
    }
  });
});

describe('the disputes projection', () => {
  it("holds each dispute as its payment's newest transition says, and never moves back", async () => {
    const db = await stack.db();
    const store = new DisputeStore(db);
    const doc = await db.collection('disputes').findOne({ dispute_id: one.dispute_id }, { projection: { _id: 0 } });
    const latest = await db.collection('transitions').find({ payment_id: pay1.payment_id }).sort({ seq: -1 }).limit(1).next();
    expect(doc).toEqual({ ...one, merchant_id: A.merchant_id, payment_seq: expect.any(Number) });
    expect(doc!.payment_seq).toBeLessThanOrEqual(latest!.seq);
    // A late writer with an older transition's copy changes nothing.
    await store.project(A.merchant_id, { ...one, dispute_status: 'dispute_opened' }, doc!.payment_seq - 1);
    await store.project(A.merchant_id, { ...one, dispute_status: 'dispute_opened' }, doc!.payment_seq);
    expect((await get(`/disputes/${one.dispute_id}`)).body).toEqual(one);
  });

  it('a repeated report brings a missing projection back (a crash between the transition and the projection)', async () => {
    const db = await stack.db();
    await db.collection('disputes').deleteOne({ dispute_id: two.dispute_id });
    expect((await get(`/disputes/${two.dispute_id}`)).status).toBe(404);
    expect(
      await report(
        base(pay2, {
          connector_dispute_id: 'dp_sbx_two',
          dispute_stage: 'pre_dispute',
          connector_reason: 'product_not_received',
          connector_reason_code: '13.1',
        }),
      ),
    ).toMatchObject({ applied: false });
    expect((await get(`/disputes/${two.dispute_id}`)).body).toEqual(two);
  });
});
