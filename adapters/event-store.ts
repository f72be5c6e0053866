// Merchant events and their delivery attempts in MongoDB, and the BullMQ queue `webhooks` that delivers them.
// `events`: one document per event_id (deterministic: lib/mongo.ts's unique index makes a second derivation a
// no-op). `event_attempts`: one document per delivery attempt (request, response status and body excerpt, timing).
import type { Queue } from 'bullmq';
import type { Collection, Db, Filter } from 'mongodb';
import type { Redis } from 'ioredis';
import { config } from '../lib/config.ts';
import { isDuplicateKey } from '../lib/mongo.ts';
import { JobProducer } from './job-producer.ts';
import { paymentResourceDoc, restorePaymentResource } from './payment-doc.ts';
import { MANDATE_REVOKED_ORDER, mandateRevokedEvent, type EventObjectType, type EventType } from '../domain/events.ts';
import type { MandateResource } from '../lib/schemas/mandate.ts';

export type DeliveryStatus = 'pending' | 'delivered' | 'failed' | 'not_configured';

export interface EventDoc {
  event_id: string;
  merchant_id: string;
  profile_id: string | null;
  event_type: EventType;
  object_type: EventObjectType;
  object_id: string;
  payment_id: string;
  /** The transition's seq: a payment's events in the order they happened are ordered by (sequence, order). */
  sequence: number;
  order: number;
  /** When the transition was applied (the payload's timestamp). */
  created_at: string;
  /** The API resource as GET answered it at that transition. */
  object: unknown;
  delivery_status: DeliveryStatus;
  delivery_attempts: number;
  last_attempt_at: string | null;
  delivered_at: string | null;
}

export interface AttemptDoc {
  attempt_id: string;
  event_id: string;
  merchant_id: string;
  /** automatic: the retry schedule; manual: POST /events/{merchant_id}/{event_id}/retry. */
  trigger: 'automatic' | 'manual';
  url: string | null;
  request: { headers: Record<string, string>; body: string };
  response: { status_code: number; body: string; headers: Record<string, string> } | null;
  /** Why there was no HTTP answer (timeout, refused connection, URL not allowed), else null. */
  error: string | null;
  delivered: boolean;
  started_at: string;
  duration_ms: number;
}

export interface WebhookJob {
  event_id: string;
  merchant_id: string;
  manual_attempt_id?: string;
}

export const WEBHOOK_QUEUE = 'webhooks';

/** A job per event (jobId = event_id): the retry schedule is the job's attempts, with WEBHOOK_RETRY_DELAYS_MS between. */
export const webhookJobOptions = () => ({
  attempts: config.webhookRetryDelaysMs.length + 1,
  backoff: { type: 'webhook' as const },
  removeOnComplete: { age: 24 * 3600, count: 100_000 },
  removeOnFail: { age: 7 * 24 * 3600 },
});

export class EventStore {
  readonly events: Collection<EventDoc>;
  readonly attempts: Collection<AttemptDoc>;
  constructor(db: Db) {
    this.events = db.collection<EventDoc>('events');
    this.attempts = db.collection<AttemptDoc>('event_attempts');
  }

  /** Stores the event unless it is stored already (a second derivation of the same transition). */
  async insert(e: EventDoc): Promise<void> {
    const object = e.object_type === 'payment_details' ? paymentResourceDoc(e.object) : e.object;
    await this.events.insertOne({ ...e, object }).catch((err) => {
      if (!isDuplicateKey(err)) throw err;
    });
  }

  async find(merchantId: string, eventId: string): Promise<EventDoc | null> {
    const e = await this.events.findOne({ event_id: eventId, merchant_id: merchantId }, { projection: { _id: 0 } });
    if (e?.object_type === 'payment_details') e.object = restorePaymentResource(e.object);
    return e;
  }

  async list(merchantId: string, filter: Filter<EventDoc>, limit: number, offset: number): Promise<{ data: EventDoc[]; total: number }> {
    const query = { ...filter, merchant_id: merchantId } as Filter<EventDoc>;
    const [data, total] = await Promise.all([
      this.events
        .find(query, { projection: { _id: 0, object: 0 } })
        .sort({ created_at: -1, event_id: -1 })
        .skip(offset)
        .limit(limit)
        .toArray(),
      this.events.countDocuments(query),
    ]);
    return { data, total };
  }

  async attemptsOf(eventId: string): Promise<AttemptDoc[]> {
    return this.attempts
      .find({ event_id: eventId }, { projection: { _id: 0 } })
      .sort({ started_at: 1 })
      .toArray();
  }

  /** An earlier event of the same payment still waiting to be delivered (webhooks of a payment go out in order). */
  async earlierPending(e: Pick<EventDoc, 'merchant_id' | 'payment_id' | 'sequence' | 'order'>): Promise<EventDoc | null> {
    const rows = await this.events
      .find(
        { payment_id: e.payment_id, merchant_id: e.merchant_id, sequence: { $lte: e.sequence }, delivery_status: 'pending' },
        { projection: { _id: 0, event_id: 1, sequence: 1, order: 1 } },
      )
      .sort({ sequence: 1, order: 1 })
      .limit(50)
      .toArray();
    return (rows.find((r) => r.sequence < e.sequence || r.order < e.order) as EventDoc | undefined) ?? null;
  }

  /** The next event of the payment waiting behind `e`. */
  async nextPending(e: Pick<EventDoc, 'merchant_id' | 'payment_id' | 'sequence' | 'order'>): Promise<EventDoc | null> {
    const rows = await this.events
      .find(
        { payment_id: e.payment_id, merchant_id: e.merchant_id, sequence: { $gte: e.sequence }, delivery_status: 'pending' },
        { projection: { _id: 0, event_id: 1, sequence: 1, order: 1 } },
      )
      .sort({ sequence: 1, order: 1 })
      .limit(50)
      .toArray();
    return (rows.find((r) => r.sequence > e.sequence || r.order > e.order) as EventDoc | undefined) ?? null;
  }

  /** Undelivered events (for re-enqueueing deliveries lost from Redis), oldest first. */
  async pending(limit = 500): Promise<EventDoc[]> {
    const rows = await this.events
      .find({ delivery_status: 'pending' }, { projection: { _id: 0, object: 0 } })
      .limit(limit)
      .toArray();
    return rows.sort((a, b) => a.created_at.localeCompare(b.created_at));
  }

  /**
   * Records the attempt and counts it on the event; with `settle`, the event's delivery ends there too (as settle does)
   * in the same update: one write where there were two (issue 24).
   */
  async recordAttempt(a: AttemptDoc, settle?: 'delivered' | 'failed'): Promise<void> {
    await this.attempts.insertOne({ ...a }).catch((err) => {
      if (!isDuplicateKey(err)) throw err;
    });
    const counted = { $inc: { delivery_attempts: 1 } as const, $set: { last_attempt_at: a.started_at } };
    if (settle) {
      const r = await this.events.updateOne(
        // Never move a delivered event back (as settle).
        { event_id: a.event_id, delivery_status: { $ne: 'delivered' } },
        { ...counted, $set: { ...counted.$set, ...this.settled(settle) } },
      );
      if (r.matchedCount === 1) return;
    }
    await this.events.updateOne({ event_id: a.event_id }, counted);
  }

  private settled(status: Exclude<DeliveryStatus, 'pending'>): Partial<EventDoc> {
    return { delivery_status: status, ...(status === 'delivered' ? { delivered_at: new Date().toISOString() } : {}) };
  }

  /** The delivery's end: delivered is final; failed and not_configured may still be delivered by a manual retry. */
  async settle(eventId: string, status: Exclude<DeliveryStatus, 'pending'>): Promise<void> {
    // Never move a delivered event back.
    await this.events.updateOne({ event_id: eventId, delivery_status: { $ne: 'delivered' } }, { $set: this.settled(status) });
  }
}

/**
 * The mandate_revoked event of a revoked mandate (issue 22), stored once (its id comes from the mandate: however often
 * this is called, by whatever revoked it) and its delivery queued while undelivered (jobId = event id). `sequence`: the
 * latest seq of the payment that set the mandate up, so the event goes out after that payment's own events; the
 * profile: that payment's, else the merchant's default (null: the default at delivery).
 */
export async function recordMandateRevoked(
  events: EventStore,
  queue: () => WebhookQueue,
  m: MandateResource,
  ctx: { profile_id: string | null; sequence: number },
): Promise<EventDoc> {
  const e = mandateRevokedEvent(m);
  const doc: EventDoc = {
    ...e,
    merchant_id: m.merchant_id,
    profile_id: ctx.profile_id,
    payment_id: m.original_payment_id,
    sequence: ctx.sequence,
    order: MANDATE_REVOKED_ORDER,
    created_at: m.revoked_at ?? new Date().toISOString(),
    delivery_status: 'pending',
    delivery_attempts: 0,
    last_attempt_at: null,
    delivered_at: null,
  };
  await events.insert(doc);
  const stored = (await events.find(m.merchant_id, e.event_id)) ?? doc;
  // Delivered or given up already (revoked again long after): nothing to queue.
  if (stored.delivery_status === 'pending') await queue().enqueue(stored);
  return stored;
}

/** The producer side of the `webhooks` queue (the relay, the re-enqueuer, the gateway's manual retry). */
export class WebhookQueue {
  private readonly producer: JobProducer<WebhookJob>;
  readonly queue: Queue<WebhookJob>;
  constructor(connection: Redis) {
    this.producer = new JobProducer<WebhookJob>(WEBHOOK_QUEUE, connection, webhookJobOptions);
    this.queue = this.producer.queue;
  }

  /** The event's delivery (jobId = event_id: enqueueing it twice delivers it once). */
  async enqueue(e: Pick<EventDoc, 'event_id' | 'merchant_id'>): Promise<void> {
    await this.producer.add('deliver', { event_id: e.event_id, merchant_id: e.merchant_id }, e.event_id);
  }

  /** One delivery attempt now, beside the schedule (POST .../retry): one attempt, kept for less long. */
  async enqueueManual(e: Pick<EventDoc, 'event_id' | 'merchant_id'>, attemptId: string): Promise<void> {
    await this.producer.add('retry', { event_id: e.event_id, merchant_id: e.merchant_id, manual_attempt_id: attemptId }, attemptId, {
      attempts: 1,
      removeOnComplete: { age: 3600 },
      removeOnFail: { age: 24 * 3600 },
    });
  }

  async close(): Promise<void> {
    await this.producer.close();
  }
}
