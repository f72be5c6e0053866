// A process's cache of what it reads of merchants' setup (API keys, profiles, connector accounts), dropped by merchant
// the moment a change is announced on Redis, and kept ttlMs at most if that message is lost. Every write to the
// setup (the admin API, the dashboard) announces it after the write: see gateway/merchant-setup.ts `changed`.
import type { Redis } from 'ioredis';
import { config } from './config.ts';
import { log } from './log.ts';

/** The channel on which a change of a merchant's setup is announced (the message is the merchant id). */
export const merchantSetupChannel = () => `${config.redisPrefix}:merchant-setup-changed`;

interface Entry<V> {
  at: number;
  /** Whose setup the value is; undefined while it is being read (any announced change then drops it). */
  merchantId?: string;
  value: Promise<V>;
}

export class MerchantCache<V> {
  private readonly map = new Map<string, Entry<V>>();
  private readonly ttlMs: number;
  private readonly max: number;

  constructor(ttlMs: number, max = 10_000) {
    this.ttlMs = ttlMs;
    this.max = max;
  }

  /**
   * The value under `key`, read by `load` when absent or older than ttlMs. `owner` names the merchant a value
   * belongs to, or null for a value not to keep (an unknown key: keeping misses would let anyone fill the cache).
   * The read is kept from the moment it starts, so a change announced while it is under way drops it too.
   */
  get(key: string, load: () => Promise<V>, owner: (v: V) => string | null): Promise<V> {
    const hit = this.map.get(key);
    if (hit && Date.now() - hit.at < this.ttlMs) return hit.value;
    const entry: Entry<V> = { at: Date.now(), value: load() };
    if (this.ttlMs <= 0) return entry.value;
    this.map.delete(key);
    this.map.set(key, entry);
    if (this.map.size > this.max) this.map.delete(this.map.keys().next().value!);
    const current = () => this.map.get(key) === entry;
    entry.value.then(
      (v) => {
        if (!current()) return;
        const merchantId = owner(v);
        if (merchantId === null) this.map.delete(key);
        else entry.merchantId = merchantId;
      },
      () => current() && this.map.delete(key),
    );
    return entry.value;
  }

  /** Forgets the merchant's values, and every read under way. */
  drop(merchantId: string): void {
    for (const [key, e] of this.map) if (e.merchantId === merchantId || e.merchantId === undefined) this.map.delete(key);
  }

  clear(): void {
    this.map.clear();
  }

  get size(): number {
    return this.map.size;
  }
}

/**
 * Drops a merchant from `caches` whenever a change of its setup is announced (`sub`: a connection of its own, in
 * subscriber mode). Announcements sent while `sub` was disconnected are lost, so each (re)connection clears them all.
 */
export async function listenSetupChanges(sub: Redis, caches: Pick<MerchantCache<unknown>, 'drop' | 'clear'>[]): Promise<void> {
  sub.on('message', (ch: string, merchantId: string) => {
    if (ch === merchantSetupChannel()) for (const c of caches) c.drop(merchantId);
  });
  sub.on('ready', () => {
    for (const c of caches) c.clear();
  });
  await sub.subscribe(merchantSetupChannel());
}

/** Announces a change of the merchant's setup to every process; a failure is logged, and ttlMs bounds its effect. */
export async function announceSetupChange(pub: Redis | null, merchantId: string): Promise<void> {
  await pub?.publish(merchantSetupChannel(), merchantId).catch((err) => log.warn('merchant setup change not published', { err }));
}
