// Idempotency-Key records expire (issue 9, S7): each carries expires_at (24 h on), indexed for MongoDB's TTL
// monitor; FerretDB 1.x has no TTL index, so the gateway treats an expired record as absent and deletes expired
// records itself. Either way the behaviour is the same, which is what is tested here.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sleep, Stack } from './support/stack.ts';

let stack: Stack;
let key: string;
beforeAll(async () => {
  ({ stack, api_key: key } = await Stack.withMerchant());
});
afterAll(async () => stack?.stop());

const records = async () => (await stack.db()).collection<{ _id: string; expires_at: Date; created_at: number }>('idempotency_keys');
const DAY_MS = 24 * 3600_000;

describe('Idempotency-Key expiry', () => {
  // First in the file: the gateway's own deletion runs on its first Idempotency-Key request, then every 10 minutes.
  it('expired records are deleted, live ones kept', async () => {
    const coll = await records();
    const old = Date.now() - DAY_MS - 60_000;
    await coll.insertMany([
      { _id: 'someone:expired', request_hash: 'x', state: 'done', status: 200, body: null, created_at: old, expires_at: new Date(old + DAY_MS) } as never,
      {
        _id: 'someone:live',
        request_hash: 'x',
        state: 'done',
        status: 200,
        body: null,
        created_at: Date.now(),
        expires_at: new Date(Date.now() + DAY_MS),
      } as never,
    ]);
    const r = await stack.api('POST', '/payments', { amount: 100, currency: 'EUR' }, key, { 'idempotency-key': 'expiry-first' });
    expect(r.status).toBe(200);
    for (let i = 0; i < 50 && (await coll.countDocuments({ _id: 'someone:expired' })) > 0; i++) await sleep(100);
    expect(await coll.countDocuments({ _id: 'someone:expired' })).toBe(0);
    expect(await coll.countDocuments({ _id: 'someone:live' })).toBe(1);
  });

  it('a record carries expires_at 24 h after it was made, and expires_at is indexed (TTL where the server has it)', async () => {
    const coll = await records();
    const before = Date.now();
    expect((await stack.api('POST', '/payments', { amount: 200, currency: 'EUR' }, key, { 'idempotency-key': 'expiry-shape' })).status).toBe(200);
    const doc = await coll.findOne({ _id: { $regex: ':expiry-shape$' } } as never);
    expect(doc!.expires_at).toBeInstanceOf(Date);
    expect(doc!.expires_at.getTime() - doc!.created_at).toBe(DAY_MS);
    expect(doc!.created_at).toBeGreaterThanOrEqual(before);
    const index = (await coll.indexes()).find((i) => JSON.stringify(i.key) === '{"expires_at":1}');
    expect(index).toBeDefined();
    // Whether this server has TTL indexes at all (FerretDB 1.x answers 238 NotImplemented).
    const probe = (await stack.db()).collection('ttl_probe');
    const ttl = await probe.createIndex({ at: 1 }, { expireAfterSeconds: 60 }).then(
      () => true,
      (e) => (e.code === 238 ? false : Promise.reject(e)),
    );
    expect(index!.expireAfterSeconds).toBe(ttl ? 0 : undefined);
  });

  it('an expired record is absent: the key runs a new request (even another body), which then replays', async () => {
    const coll = await records();
    const first = await stack.api('POST', '/payments', { amount: 300, currency: 'EUR' }, key, { 'idempotency-key': 'expiry-reuse' });
    expect(first.status).toBe(200);
    const replay = await stack.api('POST', '/payments', { amount: 300, currency: 'EUR' }, key, { 'idempotency-key': 'expiry-reuse' });
    expect(replay.headers.get('idempotent-replayed')).toBe('true');
    expect((await stack.api('POST', '/payments', { amount: 301, currency: 'EUR' }, key, { 'idempotency-key': 'expiry-reuse' })).status).toBe(409);

    await coll.updateOne({ _id: { $regex: ':expiry-reuse$' } } as never, { $set: { expires_at: new Date(Date.now() - 1) } });
    const again = await stack.api('POST', '/payments', { amount: 301, currency: 'EUR' }, key, { 'idempotency-key': 'expiry-reuse' });
    expect(again.status).toBe(200);
    expect(again.headers.get('idempotent-replayed')).toBeNull();
    expect(again.body.amount).toBe(301);
    expect(again.body.payment_id).not.toBe(first.body.payment_id);
    const replayed = await stack.api('POST', '/payments', { amount: 301, currency: 'EUR' }, key, { 'idempotency-key': 'expiry-reuse' });
    expect(replayed.headers.get('idempotent-replayed')).toBe('true');
    expect(replayed.body.payment_id).toBe(again.body.payment_id);
  });
});
