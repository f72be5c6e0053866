// Payments in MongoDB. Every state change is appended to `transitions` under the unique key
// (merchant_id, payment_id, seq): appending seq N+1 succeeds for exactly one writer, which is the compare-and-set
// that stops double captures and lost updates. `payments` is a projection of the latest transition, written after.
import { setTimeout as sleep } from 'node:timers/promises';
import type { Collection, Db, Filter } from 'mongodb';
import { canExist } from '../lib/ids.ts';
import { isDuplicateKey } from '../lib/mongo.ts';
import { totalFromPage } from '../lib/list-total.ts';
import { PAYMENT_FIELDS } from '../lib/schemas/payment.ts';
import { withSpan, currentTraceId, SpanKind } from '../lib/telemetry.ts';
import { SWEEP_KEY, type StoredPayment } from '../domain/payment.ts';
import { eventHeads, type EventHead } from '../domain/events.ts';
import { paymentDoc, restorePayment } from './payment-doc.ts';

/** What a list reads of a payment: the resource's fields, and request_extras (which the resource's payment_link depends on). */
export type ListedPayment = Pick<StoredPayment, (typeof PAYMENT_FIELDS)[number] | 'request_extras'>;
const LISTED_PROJECTION = { _id: 0, ...Object.fromEntries([...PAYMENT_FIELDS, 'request_extras'].map((k) => [k, 1])) };

export interface Transition {
  merchant_id: string;
  payment_id: string;
  seq: number;
  at: string;
  action: string;
  operation_id: string | null;
  from: string | null;
  to: string;
  trace_id: string | null;
  snapshot: StoredPayment;
  /**
   * 'pending' from the append until the webhook relay has derived and stored the transition's events (then removed):
   * the transition log is the outbox of merchant events, and only undelivered entries carry the (indexed) field.
   */
  outbox?: typeof OUTBOX_PENDING;
  /**
   * Which events the transition gives (eventHeads of it and the payment before it), written with it when it enters
   * the outbox: the relay derives them from this transition alone. Absent on what an earlier version wrote.
   */
  events?: EventHead[];
  /** Whether the transition before entered the outbox: the relay waits for its events only then. Beside `events`. */
  prev_outbox?: boolean;
}

export const OUTBOX_PENDING = 'pending';

/**
 * Update statements per command of the relay's unmarks. FerretDB 1.24 keeps each statement's PostgreSQL connection
 * until the whole command ends (internal/handler/msg_update.go defers every statement's iterator close to the end):
 * a command of more statements than its pool holds (50 here) waits forever for its own connections, and every
 * client of that server with it (docs/decisions.md, "Why 16"). Well under the pool, and few round trips on MongoDB.
 */
export const UNMARK_CHUNK = 16;

/**
 * The transition from `prev` (null: the payment's creation) to `next`, as appended. A creation without merchant
 * events (the usual one) stays out of the outbox: the relay would only take it out again. Only a first transition
 * may: the relay keeps a payment's events in order by waiting for the transition before when it entered the outbox
 * (`prev_outbox`), so a later one without the mark would let its successor overtake an earlier one.
 */
export function transitionOf(
  prev: StoredPayment | null,
  next: StoredPayment,
  meta: { action: string; operation_id: string | null; trace_id: string | null },
): Transition {
  if (next.seq !== (prev?.seq ?? -1) + 1) throw new Error(`transition to seq ${next.seq} from seq ${prev?.seq ?? 'none'}`);
  const events = eventHeads(prev, next);
  const outbox = prev !== null || events.length > 0;
  return {
    merchant_id: next.merchant_id,
    payment_id: next.payment_id,
    seq: next.seq,
    at: next.updated,
    action: meta.action,
    operation_id: meta.operation_id,
    from: prev?.status ?? null,
    to: next.status,
    trace_id: meta.trace_id,
    snapshot: paymentDoc(next),
    ...(outbox ? { outbox: OUTBOX_PENDING, events, prev_outbox: prev !== null && (prev.seq > 0 || eventHeads(null, prev).length > 0) } : {}),
  };
}

/** A transition as read: its snapshot with the null fields its document leaves out (payment-doc.ts). */
export const restoreTransition = (t: Transition): Transition => ({ ...t, snapshot: restorePayment(t.snapshot) });

/** How the action of an operation's outcome begins (`outcome:succeeded`, `outcome:failed:unchanged`, ...). */
export const OUTCOME_ACTION = 'outcome:';

/**
 * What payment-state publishes after every applied transition (Redis channel `{REDIS_PREFIX}:payment-events`): an
 * outcome's (action `outcome:...`) as a PaymentEvent, with the payment; any other (a Begin, a dispute) as this
 * announcement alone, which only wakes the webhook relay (no gateway waits for one).
 */
export interface PaymentAnnouncement {
  merchant_id: string;
  payment_id: string;
  operation_id: string;
  action: string;
  status: string;
  seq: number;
}

/** An outcome's event: the announcement with the payment it recorded. */
export interface PaymentEvent extends PaymentAnnouncement {
  /** The payment as recorded by this transition. */
  payment: StoredPayment;
  /** For an outcome: the worker's own timing of the operation (Server-Timing, issue 24), when it reported one. */
  timing?: { provider_ms?: number; queue_ms?: number };
}

export class PaymentStore {
  readonly transitions: Collection<Transition>;
  readonly payments: Collection<StoredPayment>;
  /**
   * Projections of a payment's rows (refunds, mandates), written beside the payment's own each time it moves: each
   * row moves only forward by itself, so neither write waits for the other.
   */
  readonly rowProjections: ((p: StoredPayment) => Promise<void>)[] = [];

  constructor(db: Db) {
    this.transitions = db.collection<Transition>('transitions');
    this.payments = db.collection<StoredPayment>('payments');
  }

  private span<T>(op: string, coll: string, fn: () => Promise<T>): Promise<T> {
    return withSpan(
      `mongodb ${op} ${coll}`,
      { kind: SpanKind.CLIENT, attributes: { 'db.system.name': 'mongodb', 'db.operation.name': op, 'db.collection.name': coll } },
      fn,
    );
  }

  /** The payment as its projection shows it (what merchants read). */
  async find(merchantId: string, paymentId: string): Promise<StoredPayment | null> {
    if (!canExist('payment', paymentId) || !canExist('merchant', merchantId)) return null;
    const doc = await this.span('find', 'payments', () =>
      this.payments.findOne({ merchant_id: merchantId, payment_id: paymentId }, { projection: { _id: 0 } }),
    );
    if (doc) return restorePayment(doc);
    // A crash between a payment's first transition and its projection leaves the projection missing: rebuild it.
    return this.repair(merchantId, paymentId);
  }

  /** The payment a provider knows by `connectorTransactionId` (its notices name it so), as its projection shows it. */
  async findByConnectorTransaction(merchantId: string, connectorTransactionId: string): Promise<StoredPayment | null> {
    const doc = await this.span('find', 'payments', () =>
      this.payments.findOne({ merchant_id: merchantId, connector_transaction_id: connectorTransactionId }, { projection: { _id: 0 } }),
    );
    return doc ? restorePayment(doc) : null;
  }

  /** The payment as its newest transition says: the state every decision starts from. */
  async latest(merchantId: string, paymentId: string): Promise<StoredPayment | null> {
    if (!canExist('payment', paymentId) || !canExist('merchant', merchantId)) return null;
    const [t] = await this.span('find', 'transitions', () =>
      this.transitions
        .find({ merchant_id: merchantId, payment_id: paymentId }, { projection: { snapshot: 1 } })
        .sort({ seq: -1 })
        .limit(1)
        .toArray(),
    );
    return t ? restorePayment(t.snapshot) : null;
  }

  /**
   * Append the transition from `meta.prev` (the payment as the transition before left it; null for its creation) to
   * `next`, at `next.seq`. Returns false if another writer appended that seq first (the caller re-reads and decides
   * again).
   */
  async append(next: StoredPayment, meta: { action: string; operation_id: string | null; prev: StoredPayment | null }): Promise<boolean> {
    const t = transitionOf(meta.prev, next, { action: meta.action, operation_id: meta.operation_id, trace_id: currentTraceId() ?? null });
    try {
      await this.span('insert', 'transitions', () => this.transitions.insertOne(t));
      return true;
    } catch (err) {
      if (isDuplicateKey(err)) return false;
      throw err;
    }
  }

  /**
   * Advance the projection to `p`. It moves only from seq N-1 to N, so even where a conditional replace is not
   * atomic (FerretDB 1.x) an older write can never land over a newer one. If the projection is not at N-1 (the
   * writer of N-1 has not finished, or crashed between its two writes) it waits briefly, then rebuilds it from the
   * newest transition.
   */
  async project(p: StoredPayment): Promise<void> {
    await Promise.all([this.projectPayment(p), ...this.rowProjections.map((f) => f(p))]);
  }

  private async projectPayment(p: StoredPayment): Promise<void> {
    if (p.seq === 0) return this.insertProjection(p);
    for (let i = 0; i < 4; i++) {
      const r = await this.span('replace', 'payments', () =>
        this.payments.replaceOne({ merchant_id: p.merchant_id, payment_id: p.payment_id, seq: p.seq - 1 }, paymentDoc(p)),
      );
      if (r.matchedCount === 1) return;
      await sleep(5 * 2 ** i);
    }
    const newest = await this.repair(p.merchant_id, p.payment_id);
    if (newest && newest.seq > p.seq) await Promise.all(this.rowProjections.map((f) => f(newest)));
  }

  /** Bring the projection to the newest transition. */
  private async repair(merchantId: string, paymentId: string): Promise<StoredPayment | null> {
    const newest = await this.latest(merchantId, paymentId);
    if (!newest) return null;
    const r = await this.payments.replaceOne({ merchant_id: merchantId, payment_id: paymentId, seq: { $lt: newest.seq } }, paymentDoc(newest));
    if (r.matchedCount === 0) await this.insertProjection(newest);
    return newest;
  }

  private async insertProjection(p: StoredPayment): Promise<void> {
    await this.span('insert', 'payments', () => this.payments.insertOne(paymentDoc(p))).catch((err) => {
      if (!isDuplicateKey(err)) throw err;
    });
  }

  /**
   * A merchant's payments matching `filter`, newest first (or oldest first with `ascending`), with only the fields
   * their resource shows; `total` only when asked (POST /payments/list), and counted only when the page does not tell
   * it, since counting reads every matching index entry.
   */
  async list(
    merchantId: string,
    filter: Filter<StoredPayment>,
    opts: { limit: number; skip?: number; ascending?: boolean; count?: boolean },
  ): Promise<{ data: ListedPayment[]; total: number | null }> {
    const query = { ...filter, merchant_id: merchantId } as Filter<StoredPayment>;
    const skip = opts.skip ?? 0;
    const found: ListedPayment[] = await this.span('find', 'payments', () =>
      this.payments
        .find(query, { projection: LISTED_PROJECTION })
        .sort({ created: opts.ascending ? 1 : -1, payment_id: opts.ascending ? 1 : -1 })
        .skip(skip)
        .limit(opts.limit)
        .toArray(),
    );
    const data = found.map((p) => restorePayment(p, PAYMENT_FIELDS));
    if (!opts.count) return { data, total: null };
    const total = totalFromPage(skip, opts.limit, data.length) ?? (await this.span('count', 'payments', () => this.payments.countDocuments(query)));
    return { data, total };
  }

  async transitionsOf(merchantId: string, paymentId: string): Promise<Transition[]> {
    const ts = await this.transitions
      .find({ merchant_id: merchantId, payment_id: paymentId }, { projection: { _id: 0 } })
      .sort({ seq: 1 })
      .toArray();
    return ts.map(restoreTransition);
  }

  /** Transitions whose events the relay has not derived yet, oldest payments' first seq first (at most `limit`). */
  async outboxPending(limit = 200): Promise<Transition[]> {
    // The oldest first: a transition waits for the one before it, which is older, so it is in the same batch or an
    // earlier one. (An unsorted batch could hold only transitions whose predecessors it does not hold: none would move.)
    const ts = await this.transitions
      .find({ outbox: OUTBOX_PENDING }, { projection: { _id: 0 } })
      .sort({ at: 1, seq: 1 })
      .limit(limit)
      .toArray();
    return ts.map(restoreTransition);
  }

  /** Whether the transition at `t.seq` still waits in the outbox. */
  async inOutbox(t: Pick<Transition, 'merchant_id' | 'payment_id' | 'seq'>): Promise<boolean> {
    const found = await this.transitions.findOne(
      { payment_id: t.payment_id, merchant_id: t.merchant_id, seq: t.seq, outbox: OUTBOX_PENDING },
      { projection: { _id: 0, seq: 1 } },
    );
    return found !== null;
  }

  /** The transition before `t` (null for a payment's first). */
  async previous(t: Pick<Transition, 'merchant_id' | 'payment_id' | 'seq'>): Promise<Transition | null> {
    if (t.seq === 0) return null;
    const prev = await this.transitions.findOne({ payment_id: t.payment_id, merchant_id: t.merchant_id, seq: t.seq - 1 }, { projection: { _id: 0 } });
    return prev && restoreTransition(prev);
  }

  /**
   * The relay has stored these transitions' events: take them out of the outbox. One update statement per transition,
   * a point on the unique key, UNMARK_CHUNK statements to a command: on MongoDB a pass's unmarks take a few round
   * trips, and every server (FerretDB too) looks each one up by its index. Two shapes this replaces: one `updateMany`
   * with an `$or` of the keys made FerretDB read the whole outbox, snapshots and all, for every pass (seconds once a
   * backlog had formed); one command of a whole pass's statements hangs FerretDB 1.24 (see UNMARK_CHUNK).
   */
  async relayed(ts: readonly Pick<Transition, 'merchant_id' | 'payment_id' | 'seq'>[]): Promise<void> {
    for (let i = 0; i < ts.length; i += UNMARK_CHUNK) {
      await this.transitions.bulkWrite(
        ts.slice(i, i + UNMARK_CHUNK).map((t) => ({
          updateOne: { filter: { payment_id: t.payment_id, merchant_id: t.merchant_id, seq: t.seq }, update: { $unset: { outbox: '' } } },
        })),
        { ordered: false },
      );
    }
  }

  /** Payments with an operation begun and not finished since before `before` (for the recovery sweeper). */
  async inFlightSince(before: string, limit = 100): Promise<StoredPayment[]> {
    // An equality on a field only in-flight payments carry: an index lookup on every server, FerretDB included.
    const inFlight = await this.payments
      .find({ sweep_key: SWEEP_KEY }, { projection: { _id: 0 } })
      .limit(10 * limit)
      .toArray();
    return inFlight
      .map((p) => restorePayment(p))
      .filter((p) => p.in_flight_since !== null && p.in_flight_since < before)
      .slice(0, limit);
  }
}
