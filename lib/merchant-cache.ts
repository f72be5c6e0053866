// A per-merchant snapshot of what rarely changes (profiles, connector accounts, webhook targets), kept by each
// process that reads it on every payment. A change through the admin API or the dashboard is announced on Redis
// (merchantSetupChannel, by the gateway's MerchantSetup.changed): every listening process drops the merchant at once;
// the TTL bounds how stale a snapshot can be if that message is lost.
import type { Redis } from 'ioredis';
import { merchantSetupChannel } from './redis.ts';

export class MerchantCache<T> {
  private readonly entries = new Map<string, { at: number; value: Promise<T> }>();
  private readonly load: (merchantId: string) => Promise<T>;
  private readonly ttlMs: number;
  private readonly max: number;

  constructor(load: (merchantId: string) => Promise<T>, opts: { ttlMs: number; max?: number }) {
    this.load = load;
    this.ttlMs = opts.ttlMs;
    this.max = opts.max ?? 10_000;
  }

  /** The merchant's snapshot, read once per TTL (concurrent callers share one read; a failed read is not kept). */
  get(merchantId: string): Promise<T> {
    const hit = this.entries.get(merchantId);
    if (hit && Date.now() - hit.at < this.ttlMs) return hit.value;
    const entry = { at: Date.now(), value: this.load(merchantId) };
    this.entries.delete(merchantId);
    this.entries.set(merchantId, entry);
    if (this.entries.size > this.max) this.entries.delete(this.entries.keys().next().value!);
    entry.value.catch(() => this.entries.get(merchantId) === entry && this.entries.delete(merchantId));
    return entry.value;
  }

  drop(merchantId: string): void {
    this.entries.delete(merchantId);
  }

  /** Drops a merchant when a change of its setup is announced (`sub`: a connection of its own, in subscriber mode). */
  async listen(sub: Redis): Promise<void> {
    sub.on('message', (ch: string, merchantId: string) => {
      if (ch === merchantSetupChannel()) this.drop(merchantId);
    });
    await sub.subscribe(merchantSetupChannel());
  }
}
