// PaymentStore.append against the real driver and server (FerretDB here): the creation without merchant events stays
// out of the outbox, every later transition joins it, and a seq is appended once.
import { randomBytes } from 'node:crypto';
import { MongoClient, type Db } from 'mongodb';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { beginConfirm } from '../domain/begin.ts';
import { createIntent } from '../domain/intent.ts';
import type { StoredPayment } from '../domain/payment.ts';
import { config } from '../lib/config.ts';
import { ensureIndexes } from '../lib/mongo.ts';
import { PaymentStore } from './payment-store.ts';

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

  it('leaves an eventless creation out of the outbox and marks the transitions after it', async () => {
    const store = new PaymentStore(db);
    expect(await store.append(created, { action: 'create', operation_id: null, from: null })).toBe(true);
    const d = beginConfirm(created, { payment_method: 'pay_later' }, { now, operationId: 'op_a', connector: 'service_test' });
    if (d.kind !== 'apply') throw new Error(`expected apply, got ${d.kind}`);
    const confirming: StoredPayment = { ...d.payment, seq: 1 };
    expect(await store.append(confirming, { action: 'confirm', operation_id: 'op_a', from: created.status })).toBe(true);
    expect(await store.append(confirming, { action: 'confirm', operation_id: 'op_a', from: created.status })).toBe(false);
    const rows = await store.transitionsOf(created.merchant_id, created.payment_id);
    expect(rows.map((t) => [t.seq, t.outbox ?? null])).toEqual([
      [0, null],
      [1, 'pending'],
    ]);
    expect((await store.outboxPending()).map((t) => t.seq)).toEqual([1]);
  });
});
