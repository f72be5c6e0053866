import type { Redis } from 'ioredis';
import { afterAll, describe, expect, it } from 'vitest';
import { announceSetupChange, listenSetupChanges, MerchantCache } from './merchant-cache.ts';
import { redisConnection } from './redis.ts';
import { setTimeout as sleep } from 'node:timers/promises';

/** A loader counting its reads, answering `value` (after `ms`). */
function loader<V>(value: V, ms = 0) {
  const l = {
    reads: 0,
    load: async () => {
      l.reads++;
      if (ms) await sleep(ms);
      return value;
    },
  };
  return l;
}
const ownedBy = (m: string) => () => m;

describe('MerchantCache', () => {
  it('keeps a value for ttlMs, then reads it again', async () => {
    const c = new MerchantCache<string>(100);
    const l = loader('v');
    expect(await c.get('k', l.load, ownedBy('m1'))).toBe('v');
    expect(await c.get('k', l.load, ownedBy('m1'))).toBe('v');
    expect(l.reads).toBe(1);
    await sleep(120);
    await c.get('k', l.load, ownedBy('m1'));
    expect(l.reads).toBe(2);
  });

  it('concurrent gets share one read', async () => {
    const c = new MerchantCache<string>(10_000);
    const l = loader('v', 20);
    await Promise.all([c.get('k', l.load, ownedBy('m1')), c.get('k', l.load, ownedBy('m1'))]);
    expect(l.reads).toBe(1);
  });

  it('keeps nothing a value has no owner for (unknown keys), nor a failed read, nor anything with ttlMs 0', async () => {
    const c = new MerchantCache<string | null>(10_000);
    const miss = loader(null);
    for (let i = 0; i < 3; i++) expect(await c.get('unknown', miss.load, (v) => v)).toBeNull();
    expect(miss.reads).toBe(3);
    expect(c.size).toBe(0);
    let fails = 0;
    const failing = async () => {
      fails++;
      throw new Error('down');
    };
    await expect(c.get('k', failing, () => 'm1')).rejects.toThrow('down');
    await expect(c.get('k', failing, () => 'm1')).rejects.toThrow('down');
    expect(fails).toBe(2);
    const off = new MerchantCache<string>(0);
    const l = loader('v');
    await off.get('k', l.load, ownedBy('m1'));
    await off.get('k', l.load, ownedBy('m1'));
    expect(l.reads).toBe(2);
  });

  it("drop forgets that merchant's values only, and any read under way (it may have read what the change replaced)", async () => {
    const c = new MerchantCache<string>(10_000);
    const a = loader('a');
    const b = loader('b');
    await c.get('ka', a.load, ownedBy('m1'));
    await c.get('kb', b.load, ownedBy('m2'));
    const slow = loader('old', 30);
    const pending = c.get('ks', slow.load, ownedBy('m3'));
    c.drop('m1');
    expect(await pending).toBe('old');
    await c.get('ka', a.load, ownedBy('m1'));
    await c.get('kb', b.load, ownedBy('m2'));
    await c.get('ks', slow.load, ownedBy('m3'));
    expect([a.reads, b.reads, slow.reads]).toEqual([2, 1, 2]);
  });

  it('holds at most max values, forgetting the oldest first', async () => {
    const c = new MerchantCache<number>(10_000, 3);
    const reads: string[] = [];
    const get = (k: string) =>
      c.get(
        k,
        async () => {
          reads.push(k);
          return 1;
        },
        ownedBy('m'),
      );
    for (const k of ['a', 'b', 'c', 'd']) await get(k);
    expect(c.size).toBe(3);
    await get('b');
    await get('a');
    expect(reads).toEqual(['a', 'b', 'c', 'd', 'a']);
  });
});

describe('setup change announcements (Redis)', () => {
  const conns: Redis[] = [];
  const redis = () => {
    const r = redisConnection();
    conns.push(r);
    return r;
  };
  afterAll(() => {
    for (const c of conns) c.disconnect();
  });

  it("one process's announcement drops the merchant in another's caches", async () => {
    const c = new MerchantCache<string>(60_000);
    await listenSetupChanges(redis(), [c]);
    const l = loader('v');
    const merchant = `m_${Date.now()}`;
    await c.get('k', l.load, ownedBy(merchant));
    await announceSetupChange(redis(), merchant);
    const deadline = Date.now() + 5_000;
    while (c.size > 0 && Date.now() < deadline) await sleep(5);
    expect(c.size).toBe(0);
  });
});
