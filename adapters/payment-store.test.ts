// PaymentStore.append against the real driver and server (FerretDB here): the creation without merchant events stays
// out of the outbox, every later transition joins it, a seq is appended once, and `relayed` takes out exactly the
// transitions it is given.
import { randomBytes } from 'node:crypto';
import { MongoClient, type Db } from 'mongodb';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { beginConfirm } from '../domain/begin.ts';
import { createIntent } from '../domain/intent.ts';
import type { StoredPayment } from '../domain/payment.ts';
import { config } from '../lib/config.ts';
import { ensureIndexes } from '../lib/mongo.ts';
import { PaymentStore, UNMARK_CHUNK } from './payment-store.ts';

const now = '2026-11-27T10:00:00.000Z';
const created = createIntent('merchant_store_test', { amount: 10_000, currency: 'EUR', capture_method: 'automatic' } as never, {
  now: new Date(now),
  paymentId: `pay_${randomBytes(13).toString('hex')}`,
  clientSecret: (id) => `${id}_secret_x`,
  newCustomerId: () => 'cus_1',
  ephemeralSecret: () => 'epk_1',
});

describe('PaymentStore.append', () => {
  let client: MongoClient;
  let db: Db;
  beforeAll(async () => {
    client = new MongoClient(config.mongodbUrl);
    db = client.db(`bnpl_test_store_${randomBytes(4).toString('hex')}`);
    await ensureIndexes(db);
  });
  afterAll(async () => {
    await db.dropDatabase();
    await client.close();
  });

  it('leaves an eventless creation out of the outbox and marks the transitions after it, with their events', async () => {
    const store = new PaymentStore(db);
    expect(await store.append(created, { action: 'create', operation_id: null, prev: null })).toBe(true);
    const d = beginConfirm(created, { payment_method: 'pay_later' }, { now, operationId: 'op_a', connector: 'service_test' });
    if (d.kind !== 'apply') throw new Error(`expected apply, got ${d.kind}`);
    const confirming: StoredPayment = { ...d.payment, seq: 1 };
    expect(await store.append(confirming, { action: 'confirm', operation_id: 'op_a', prev: created })).toBe(true);
    expect(await store.append(confirming, { action: 'confirm', operation_id: 'op_a', prev: created })).toBe(false);
    const rows = await store.transitionsOf(created.merchant_id, created.payment_id);
    expect(rows.map((t) => [t.seq, t.outbox ?? null])).toEqual([
      [0, null],
      [1, 'pending'],
    ]);
    // Each marked transition carries its events, and whether the one before it entered the outbox.
    expect(rows.map((t) => [t.events ?? null, t.prev_outbox ?? null])).toEqual([
      [null, null],
      [[{ event_type: 'payment_processing', object_id: created.payment_id }], false],
    ]);
    expect(await store.inOutbox({ ...created, seq: 1 })).toBe(true);
    expect(await store.inOutbox({ ...created, seq: 0 })).toBe(false);
    expect((await store.outboxPending()).map((t) => t.seq)).toEqual([1]);
  });

  it('takes out of the outbox exactly the transitions the relay names, once or again, a backlog of them too', async () => {
    const store = new PaymentStore(db);
    const other = { ...created, payment_id: `pay_${randomBytes(13).toString('hex')}` };
    // More transitions than FerretDB's connection pool (50): sent as one command, their unmarks would hang it.
    const seqs = Array.from({ length: 4 * UNMARK_CHUNK }, (_, i) => i + 2);
    for (const p of [created, other]) {
      for (const seq of seqs) expect(await store.append({ ...p, seq }, { action: 'sync', operation_id: null, prev: { ...p, seq: seq - 1 } })).toBe(true);
    }
    const pendingOf = async (p: StoredPayment) =>
      (await store.transitionsOf(p.merchant_id, p.payment_id)).filter((t) => t.outbox === 'pending').map((t) => t.seq);
    expect(await pendingOf(created)).toEqual([1, ...seqs]);
    const kept = seqs[UNMARK_CHUNK];
    const named = [1, ...seqs.filter((seq) => seq !== kept)].map((seq) => ({ merchant_id: created.merchant_id, payment_id: created.payment_id, seq }));
    await store.relayed(named);
    await store.relayed(named.slice(0, 3));
    await store.relayed([]);
    expect(await pendingOf(created)).toEqual([kept]);
    expect(await pendingOf(other)).toEqual(seqs);
  }, 30_000);
});
