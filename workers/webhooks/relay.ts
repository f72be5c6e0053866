// The relay: transition log (the outbox) -> events -> deliveries. It takes transitions still marked `outbox` (every
// append marks them), derives their events (domain/events.ts), stores them (upsert by the deterministic event_id),
// enqueues their deliveries (jobId = event_id) and only then unmarks the transition. A crash anywhere in between
// leaves the transition marked: the next run does it again and writes and enqueues nothing twice. A pass takes a
// transition's predecessor from what it relayed itself (no read). The re-enqueuer
// gives every undelivered event whose job is gone from Redis (FLUSHALL, eviction) a job again.
import { deriveEvents } from '../../domain/events.ts';
import type { EventDoc, EventStore, WebhookQueue } from '../../adapters/event-store.ts';
import type { MerchantStore } from '../../lib/merchant-store.ts';
import { OUTBOX_PENDING, type PaymentStore, type Transition } from '../../adapters/payment-store.ts';

const key = (t: Pick<Transition, 'merchant_id' | 'payment_id' | 'seq'>) => `${t.merchant_id}:${t.payment_id}:${t.seq}`;
/** Payments relayed at once in a pass. */
const PARALLEL = 16;

export class Relay {
  private readonly payments: PaymentStore;
  private readonly events: EventStore;
  private readonly queue: WebhookQueue;
  private readonly setup: MerchantStore;
  private running: Promise<number> | null = null;
  private again = false;

  constructor(payments: PaymentStore, events: EventStore, queue: WebhookQueue, setup: MerchantStore) {
    this.payments = payments;
    this.events = events;
    this.queue = queue;
    this.setup = setup;
  }

  /** Runs the relay now, or once more after the run in progress (calls while one runs coalesce). */
  trigger(): Promise<number> {
    if (this.running) {
      this.again = true;
      return this.running;
    }
    this.running = (async () => {
      let total = 0;
      try {
        const limit = 200;
        for (let full = true; full || this.again; ) {
          this.again = false;
          const n = await this.runOnce(limit);
          total += n;
          // A full batch: there may be more waiting behind it.
          full = n === limit;
        }
      } finally {
        this.running = null;
      }
      return total;
    })();
    return this.running;
  }

  /**
   * One pass over the outbox; returns how many transitions it relayed. Payments are relayed side by side (PARALLEL at a
   * time), each payment's transitions one after the other in their order.
   */
  async runOnce(limit = 200): Promise<number> {
    const batch = await this.payments.outboxPending(limit);
    const done = new Map<string, Transition>();
    const defaults = new Map<string, Promise<string | null>>();
    const byPayment = new Map<string, Transition[]>();
    for (const t of batch) byPayment.set(`${t.merchant_id}:${t.payment_id}`, [...(byPayment.get(`${t.merchant_id}:${t.payment_id}`) ?? []), t]);
    const groups = [...byPayment.values()];
    let relayed = 0;
    const lane = async () => {
      for (let g = groups.shift(); g; g = groups.shift()) {
        for (const t of g) {
          if (!(await this.relayOne(t, done, defaults))) break;
          relayed++;
        }
      }
    };
    await Promise.all(Array.from({ length: PARALLEL }, lane));
    return relayed;
  }

  /** Relays one transition; false when the one before it is not relayed yet (its events come first). */
  private async relayOne(t: Transition, done: Map<string, Transition>, defaults: Map<string, Promise<string | null>>): Promise<boolean> {
    const prev = done.get(key({ ...t, seq: t.seq - 1 })) ?? (await this.payments.previous(t));
    // A payment's events are stored in the order of its transitions: never one before those of the transition before.
    if (prev?.outbox === OUTBOX_PENDING && !done.has(key(prev))) return false;
    const derived = deriveEvents(prev?.snapshot ?? null, t.snapshot);
    let profileId = t.snapshot.profile_id ?? null;
    if (!profileId && derived.length) {
      if (!defaults.has(t.merchant_id))
        defaults.set(
          t.merchant_id,
          this.setup.merchant(t.merchant_id).then((m) => m?.default_profile ?? null),
        );
      profileId = await defaults.get(t.merchant_id)!;
    }
    const docs: EventDoc[] = derived.map((d) => ({
      event_id: d.event_id,
      merchant_id: t.merchant_id,
      profile_id: profileId,
      event_type: d.event_type,
      object_type: d.object_type,
      object_id: d.object_id,
      payment_id: t.payment_id,
      sequence: t.seq,
      order: d.order,
      created_at: t.at,
      object: d.object,
      delivery_status: 'pending',
      delivery_attempts: 0,
      last_attempt_at: null,
      delivered_at: null,
    }));
    for (const d of docs) await this.events.insert(d);
    for (const d of docs) await this.queue.enqueue(d);
    await this.payments.relayed(t);
    done.set(key(t), t);
    return true;
  }

  /** Undelivered events without a job (lost from Redis) get one again; returns how many. */
  async requeueLost(): Promise<number> {
    let n = 0;
    for (const e of await this.events.pending()) {
      if (await this.queue.queue.getJob(e.event_id)) continue;
      await this.queue.enqueue(e);
      n++;
    }
    return n;
  }
}
