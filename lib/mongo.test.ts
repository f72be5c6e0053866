// ensureIndexes against the real driver and server (FerretDB here): it declares every index of lib/mongo.ts, drops the
// indexes an earlier version declared and this one replaced, and several processes starting at once may all run it.
import { randomBytes } from 'node:crypto';
import { MongoClient, type Db } from 'mongodb';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { config } from './config.ts';
import { INDEXES, RETIRED_INDEXES, ensureIndexes, mongoCode } from './mongo.ts';

describe('ensureIndexes', () => {
  let client: MongoClient;
  let db: Db;
  beforeAll(async () => {
    client = new MongoClient(config.mongodbUrl);
    db = client.db(`bnpl_test_indexes_${randomBytes(4).toString('hex')}`);
  });
  afterAll(async () => {
    await db.dropDatabase();
    await client.close();
  });

  const names = async (collection: string) => (await db.collection(collection).indexes()).map((i) => i.name);

  it("replaces an earlier version's outbox index, also when processes start side by side", async () => {
    await db.collection('transitions').createIndex({ outbox: 1 }, { name: 'outbox' });
    expect(await names('transitions')).toContain('outbox');
    await Promise.all([ensureIndexes(db), ensureIndexes(db), ensureIndexes(db)]);
    for (const retired of RETIRED_INDEXES) expect(await names(retired.collection)).not.toContain(retired.name);
    for (const i of INDEXES) expect(await names(i.collection)).toContain(i.name);
    const outbox = (await db.collection('transitions').indexes()).find((i) => i.name === 'outbox_order');
    expect(outbox?.key).toEqual({ outbox: 1, at: 1, seq: 1 });
    await ensureIndexes(db);
  });

  it('reads the code of a server error and of nothing else', () => {
    expect(mongoCode({ code: 27 })).toBe(27);
    expect(mongoCode({ code: '27' })).toBeUndefined();
    expect(mongoCode(null)).toBeUndefined();
    expect(mongoCode(new Error('x'))).toBeUndefined();
  });
});
