// The per-merchant cache: one read per TTL shared by concurrent callers, a failed read not kept, and a change
// announced on Redis (real Redis) dropping the merchant in a listening process.
import { Redis } from 'ioredis';
import { afterAll, describe, expect, it } from 'vitest';
import { config } from './config.ts';
import { MerchantCache } from './merchant-cache.ts';
import { merchantSetupChannel } from './redis.ts';

const waitFor = async (ok: () => boolean) => {
  for (let i = 0; i < 100 && !ok(); i++) await new Promise((r) => setTimeout(r, 20));
};

describe('MerchantCache', () => {
  const redis: Redis[] = [];
  afterAll(() => {
    for (const r of redis) r.disconnect();
  });

  it('reads a merchant once while fresh, concurrent callers sharing the read, and again after the TTL', async () => {
    let reads = 0;
    const cache = new MerchantCache(async (id) => `${id}#${++reads}`, { ttlMs: 50 });
    expect(await Promise.all([cache.get('m1'), cache.get('m1')])).toEqual(['m1#1', 'm1#1']);
    expect(await cache.get('m1')).toBe('m1#1');
    await new Promise((r) => setTimeout(r, 60));
    expect(await cache.get('m1')).toBe('m1#2');
  });

  it('does not keep a failed read, and keeps at most `max` merchants', async () => {
    let fail = true;
    const cache = new MerchantCache(async (id) => (fail ? Promise.reject(new Error('down')) : id), { ttlMs: 60_000, max: 2 });
    await expect(cache.get('m1')).rejects.toThrow('down');
    fail = false;
    expect(await cache.get('m1')).toBe('m1');
    let reads = 0;
    const small = new MerchantCache(async (id) => `${id}#${++reads}`, { ttlMs: 60_000, max: 2 });
    for (const id of ['a', 'b', 'c']) await small.get(id);
    expect(await small.get('a')).toBe('a#4');
  });

  it('drops a merchant when a change of its setup is announced on Redis', async () => {
    const [sub, pub] = [new Redis(config.redisUrl), new Redis(config.redisUrl)];
    redis.push(sub, pub);
    let reads = 0;
    const cache = new MerchantCache(async (id) => `${id}#${++reads}`, { ttlMs: 60_000 });
    await cache.listen(sub);
    expect(await cache.get('m1')).toBe('m1#1');
    await pub.publish(merchantSetupChannel(), 'other');
    await pub.publish(merchantSetupChannel(), 'm1');
    let now = '';
    await waitFor(() => {
      void cache.get('m1').then((v) => (now = v));
      return now === 'm1#2';
    });
    expect(now).toBe('m1#2');
  });
});
