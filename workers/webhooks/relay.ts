// The relay: transition log (the outbox) -> events -> deliveries. It takes transitions still marked `outbox` (every
// append marks them), derives their events (domain/events.ts), stores them (upsert by the deterministic event_id),
// enqueues their deliveries (jobId = event_id) and only then unmarks the transition. A crash anywhere in between
// leaves the transition marked: the next run does it again and writes and enqueues nothing twice. A pass takes a
// transition's predecessor from what it relayed itself (no read). The re-enqueuer
// gives every undelivered event whose job is gone from Redis (FLUSHALL, eviction) a job again.
import { deriveEvents } from '../../domain/events.ts';
import type { EventDoc, EventStore, WebhookQueue } from '../../adapters/event-store.ts';
import { record } from '../../lib/metrics.ts';
import type { WebhookTargets } from './targets.ts';
import { OUTBOX_PENDING, type PaymentStore, type Transition } from '../../adapters/payment-store.ts';

const key = (t: Pick<Transition, 'merchant_id' | 'payment_id' | 'seq'>) => `${t.merchant_id}:${t.payment_id}:${t.seq}`;
/** Payments relayed at once in a pass. */
const PARALLEL = 16;

export class Relay {
  private readonly payments: PaymentStore;
  private readonly events: EventStore;
  private readonly queue: WebhookQueue;
  private readonly targets: WebhookTargets;
  private running: Promise<number> | null = null;
  private again = false;

  constructor(payments: PaymentStore, events: EventStore, queue: WebhookQueue, targets: WebhookTargets) {
    this.payments = payments;
    this.events = events;
    this.queue = queue;
    this.targets = targets;
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
    const byPayment = new Map<string, Transition[]>();
    for (const t of batch) byPayment.set(`${t.merchant_id}:${t.payment_id}`, [...(byPayment.get(`${t.merchant_id}:${t.payment_id}`) ?? []), t]);
    const groups = [...byPayment.values()];
    let relayed = 0;
    const lane = async () => {
      for (let g = groups.shift(); g; g = groups.shift()) {
        for (const t of g) {
          if (!(await this.relayOne(t, done))) break;
          relayed++;
        }
      }
    };
    await Promise.all(Array.from({ length: PARALLEL }, lane));
    return relayed;
  }

  /** Relays one transition; false when the one before it is not relayed yet (its events come first). */
  private async relayOne(t: Transition, done: Map<string, Transition>): Promise<boolean> {
    const prev = done.get(key({ ...t, seq: t.seq - 1 })) ?? (await this.payments.previous(t));
    // A payment's events are stored in the order of its transitions: never one before those of the transition before.
    if (prev?.outbox === OUTBOX_PENDING && !done.has(key(prev))) return false;
    const derived = deriveEvents(prev?.snapshot ?? null, t.snapshot);
    let profileId = t.snapshot.profile_id ?? null;
    if (!profileId && derived.length) profileId = await this.targets.defaultProfile(t.merchant_id);
    // No webhook URL now: the events are settled as not_configured here, as their delivery would a moment later, and
    // no delivery is queued (a manual retry can still send one once a URL is set).
    const configured = derived.length > 0 && !!(await this.targets.urlOf(t.merchant_id, profileId));
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
      delivery_status: configured ? 'pending' : 'not_configured',
      delivery_attempts: 0,
      last_attempt_at: null,
      delivered_at: null,
    }));
    for (const d of docs) await this.events.insert(d);
    if (configured) for (const d of docs) await this.queue.enqueue(d);
    else for (const _ of docs) record('webhookDeliveries', { 'bnpl.webhook.delivery.status': 'not_configured' });
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
