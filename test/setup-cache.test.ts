// The gateway's snapshot of a merchant's setup: a change made through one gateway reaches another at once
// (Redis), and without that message a snapshot is used for SETUP_CACHE_MS at most.
import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Db, MongoClient } from 'mongodb';
import type { Redis } from 'ioredis';
import { connectMongo, ensureIndexes } from '../lib/mongo.ts';
import { redisConnection } from '../lib/redis.ts';
import { MerchantSetup } from '../gateway/merchant-setup.ts';

let client: MongoClient;
let db: Db;
const conns: Redis[] = [];
const redis = () => {
  const r = redisConnection();
  conns.push(r);
  return r;
};
const dbName = `bnpl_setup_cache_${randomBytes(4).toString('hex')}`;
beforeAll(async () => {
  ({ client } = await connectMongo(`${process.env.MONGODB_URL || 'mongodb://127.0.0.1:27017'}/${dbName}`));
  db = client.db(dbName);
  await ensureIndexes(db);
});
afterAll(async () => {
  for (const c of conns) c.disconnect();
  await db?.dropDatabase();
  await client?.close();
});

const merchant = (id: string, amount: number | null) => ({
  merchant_id: id,
  merchant_name: null,
  publishable_key: `pk_${id}`,
  metadata: null,
  manual_review: amount === null ? null : { amount_at_least: amount },
  default_profile: null,
  created: '',
  updated: '',
});

describe('merchant setup snapshot', () => {
  it('a change announced by one gateway drops the snapshot in another at once', async () => {
    const id = `m_${randomBytes(4).toString('hex')}`;
    await db.collection('merchants').insertOne(merchant(id, null));
    const gatewayA = new MerchantSetup(db, { pub: redis(), ttlMs: 60_000 });
    const gatewayB = new MerchantSetup(db, { pub: redis(), ttlMs: 60_000 });
    await gatewayA.listen(redis());
    expect((await gatewayA.policy(id)).manual_review).toBe(false);
    await db.collection('merchants').updateOne({ merchant_id: id }, { $set: { manual_review: { amount_at_least: 5 } } });
    expect((await gatewayA.policy(id)).manual_review).toBe(false); // cached
    await gatewayB.changed(id);
    const deadline = Date.now() + 5_000;
    while ((await gatewayA.policy(id)).manual_review === false && Date.now() < deadline) await new Promise((r) => setTimeout(r, 20));
    expect(await gatewayA.policy(id)).toEqual({ manual_review: true, manual_review_amount_at_least: 5 });
  });

  it('without the message a snapshot lives SETUP_CACHE_MS at most', async () => {
    const id = `m_${randomBytes(4).toString('hex')}`;
    await db.collection('merchants').insertOne(merchant(id, 7));
    const setup = new MerchantSetup(db, { ttlMs: 300 });
    expect((await setup.policy(id)).manual_review_amount_at_least).toBe(7);
    await db.collection('merchants').updateOne({ merchant_id: id }, { $set: { manual_review: null } });
    expect((await setup.policy(id)).manual_review).toBe(true);
    await new Promise((r) => setTimeout(r, 350));
    expect((await setup.policy(id)).manual_review).toBe(false);
  });
});
