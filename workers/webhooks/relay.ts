// The relay: transition log (the outbox) -> events -> deliveries. It takes transitions still marked `outbox` (every
// append marks them), derives their events (domain/events.ts), stores them (upsert by the deterministic event_id),
// enqueues their deliveries (jobId = event_id) and only then unmarks the transition (a pass's transitions together,
// PaymentStore.relayed). A crash anywhere in between leaves the transition marked: the next run does it again and
// writes and enqueues nothing twice. A transition carries which events it gives (written by its append, which knew
// the payment before it), so the relay reads nothing else to derive them; it reads the transition before only to see
// whether that one's events are still to come, and not when this process relayed it (in this pass or an earlier one)
// or when it never entered the outbox. The re-enqueuer gives every undelivered event whose job is gone from Redis
// (FLUSHALL, eviction) a job again.
import { deriveEvents, materializeEvents, type DerivedEvent } from '../../domain/events.ts';
import type { EventDoc, EventStore, WebhookQueue } from '../../adapters/event-store.ts';
import { record } from '../../lib/metrics.ts';
import type { WebhookTargets } from './targets.ts';
import { OUTBOX_PENDING, type PaymentStore, type Transition } from '../../adapters/payment-store.ts';

/** Payments relayed at once in a pass. */
const PARALLEL = 16;
/** Transitions a pass takes. */
const BATCH = 200;
/** The least time between the beginnings of two passes, unless the first took a full batch. */
const MIN_GAP_MS = 100;
/** Payments whose last relayed transition's seq is kept (its successor need not look): about a minute of confirms. */
const KEPT = 1_000;

export class Relay {
  private readonly payments: PaymentStore;
  private readonly events: EventStore;
  private readonly queue: WebhookQueue;
  private readonly targets: WebhookTargets;
  private running: Promise<number> | null = null;
  private again = false;
  /** The seq of the last transition this process relayed, per payment (`merchant_id:payment_id`), the newest KEPT payments'. */
  private readonly last = new Map<string, number>();
  /** When the last pass began (its outbox scan sees every transition appended before). */
  private lastPassAt = 0;

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
        const limit = BATCH;
        for (let first = true, full = false; first || full || this.again; first = false) {
          // Passes begin at most every MIN_GAP_MS (but at once after a full batch): the announcements of a busy
          // stack share a scan instead of making one each.
          const wait = full ? 0 : this.lastPassAt + MIN_GAP_MS - Date.now();
          if (wait > 0) await new Promise((resolve) => setTimeout(resolve, wait));
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
  async runOnce(limit = BATCH): Promise<number> {
    this.lastPassAt = Date.now();
    const batch = await this.payments.outboxPending(limit);
    const byPayment = new Map<string, Transition[]>();
    for (const t of batch) {
      const k = `${t.merchant_id}:${t.payment_id}`;
      const g = byPayment.get(k);
      if (g) g.push(t);
      else byPayment.set(k, [t]);
    }
    const groups = [...byPayment.values()];
    const relayed: Transition[] = [];
    const lane = async () => {
      for (let g = groups.shift(); g; g = groups.shift()) {
        for (const t of g) {
          if (!(await this.relayOne(t))) break;
          relayed.push(t);
        }
      }
    };
    await Promise.all(Array.from({ length: PARALLEL }, lane));
    // Out of the outbox together, once their events are stored and their deliveries queued. A crash before leaves
    // them marked, and the next pass relays them again: the same event ids and job ids, so nothing twice.
    await this.payments.relayed(relayed);
    return relayed.length;
  }

  /**
   * Runs a pass whenever none has begun for `intervalMs` (passes woken by announcements count): a transition whose
   * announcement was lost is relayed within that, and a busy relay scans no more than its announcements make it.
   * Returns the stop.
   */
  watch(intervalMs: number, onError: (err: unknown) => void): () => void {
    let timer: NodeJS.Timeout | undefined;
    let stopped = false;
    const tick = () => {
      if (stopped) return;
      const wait = this.lastPassAt + intervalMs - Date.now();
      if (wait <= 0) this.trigger().catch(onError);
      timer = setTimeout(tick, wait <= 0 ? intervalMs : wait);
    };
    tick();
    return () => {
      stopped = true;
      clearTimeout(timer);
    };
  }

  /** Relays one transition; false when the one before it is not relayed yet (its events come first). */
  private async relayOne(t: Transition): Promise<boolean> {
    const payment = `${t.merchant_id}:${t.payment_id}`;
    const derived = await this.eventsOf(t, this.last.get(payment) === t.seq - 1);
    if (!derived) return false;
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
    this.last.delete(payment);
    this.last.set(payment, t.seq);
    if (this.last.size > KEPT) this.last.delete(this.last.keys().next().value ?? payment);
    return true;
  }

  /**
   * The events of `t`, or null while the transition before it waits in the outbox. `afterRelayed`: this process
   * relayed the one before (so its events are stored, whether or not it is unmarked yet).
   */
  private async eventsOf(t: Transition, afterRelayed: boolean): Promise<DerivedEvent[] | null> {
    if (t.events) {
      if (!afterRelayed && t.prev_outbox && (await this.payments.inOutbox({ ...t, seq: t.seq - 1 }))) return null;
      return materializeEvents(t.snapshot, t.events);
    }
    // Appended by an earlier version, without its events: they need the transition before.
    const prev = await this.payments.previous(t);
    if (!afterRelayed && prev?.outbox === OUTBOX_PENDING) return null;
    return deriveEvents(prev?.snapshot ?? null, t.snapshot);
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
