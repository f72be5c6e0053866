// The Events API, on the reference switch's paths: list a merchant's events, read one event's delivery attempts, and
// deliver one again by hand. The admin key may read any merchant's; a merchant's secret key its own only (another
// merchant's id is answered 404, as for any resource of another merchant).
import { randomBytes } from 'node:crypto';
import type { Request, Router } from 'express';
import type { Db, Filter } from 'mongodb';
import { config } from '../../lib/config.ts';
import { errors, found } from '../../lib/errors.ts';
import { EventStore, WebhookQueue, type AttemptDoc, type EventDoc } from '../../adapters/event-store.ts';
import { MerchantStore } from '../../lib/merchant-store.ts';
import { ListEventsQuery } from '../../lib/schemas/event.ts';
import type { Redis } from 'ioredis';
import { adminOrOwnSecret, type ApiKeys } from '../auth.ts';
import { validate } from '../validate.ts';
import { scopedRouter } from '../scope.ts';
import { setTimeout as sleep } from 'node:timers/promises';

const CLASS = { payment_details: 'payments', refund_details: 'refunds', dispute_details: 'disputes', mandate_details: 'mandates' } as const;

export const eventView = (e: EventDoc) => ({
  event_id: e.event_id,
  merchant_id: e.merchant_id,
  profile_id: e.profile_id,
  event_type: e.event_type,
  event_class: CLASS[e.object_type],
  object_type: e.object_type,
  object_id: e.object_id,
  payment_id: e.payment_id,
  sequence: e.sequence,
  created_at: e.created_at,
  delivery_status: e.delivery_status,
  is_delivery_successful: e.delivery_status === 'delivered',
  delivery_attempts: e.delivery_attempts ?? 0,
  last_attempt_at: e.last_attempt_at ?? null,
  delivered_at: e.delivered_at ?? null,
});

const attemptView = (a: AttemptDoc) => ({
  attempt_id: a.attempt_id,
  event_id: a.event_id,
  trigger: a.trigger,
  url: a.url,
  request: a.request,
  response: a.response,
  error: a.error,
  delivered: a.delivered,
  started_at: a.started_at,
  duration_ms: a.duration_ms,
});

export function eventsRouter(db: Db, redis: Redis, keys: ApiKeys): Router {
  const store = new EventStore(db);
  const setup = new MerchantStore(db);
  // Made at the first retry: declaring the routes touches no connection.
  let queue: WebhookQueue | undefined;
  const r = scopedRouter();
  r.use('/events', adminOrOwnSecret(keys));

  /** The merchant of the path, if the caller may read it. */
  const merchantOf = async (req: Request): Promise<string> => {
    const merchantId = req.params.merchant_id as string;
    if (req.caller && req.caller.merchantId !== merchantId) throw errors.notFound('Merchant account');
    found(await setup.merchant(merchantId), 'Merchant account');
    return merchantId;
  };
  const eventOf = async (req: Request) => found(await store.find(await merchantOf(req), req.params.event_id as string), 'Event');

  r.get('/events/:merchant_id', async (req, res) => {
    const q = validate(ListEventsQuery, req.query);
    const merchantId = await merchantOf(req);
    const filter: Record<string, unknown> = {};
    if (q.object_id) filter.object_id = q.object_id;
    if (q.event_types?.length) filter.event_type = q.event_types.length === 1 ? q.event_types[0] : { $in: q.event_types };
    const created: Record<string, string> = {};
    if (q.created_after) created.$gte = new Date(q.created_after).toISOString();
    if (q.created_before) created.$lte = new Date(q.created_before).toISOString();
    if (Object.keys(created).length) filter.created_at = created;
    const { data, total } = await store.list(merchantId, filter as Filter<EventDoc>, q.limit ?? 20, q.offset ?? 0);
    res.json({ count: data.length, total_count: total, data: data.map(eventView) });
  });

  r.get('/events/:merchant_id/:event_id/attempts', async (req, res) => {
    const e = await eventOf(req);
    res.json((await store.attemptsOf(e.event_id)).map(attemptView));
  });

  // One attempt now, whatever the event's state (delivered ones too: the merchant asks for them again). The webhook
  // worker makes it; the answer waits for it up to the attempt's timeout and says what happened.
  r.post('/events/:merchant_id/:event_id/retry', async (req, res) => {
    if (req.body !== undefined && req.body !== null && Object.keys(req.body as object).length) {
      throw errors.unknownField(Object.keys(req.body as object)[0]!);
    }
    const e = await eventOf(req);
    const attemptId = `${e.event_id}_manual_${randomBytes(6).toString('hex')}`;
    await (queue ??= new WebhookQueue(redis)).enqueueManual(e, attemptId);
    const deadline = Date.now() + config.webhookTimeoutMs + 5_000;
    let attempt: AttemptDoc | null = null;
    while (Date.now() < deadline) {
      attempt = await store.attempts.findOne({ attempt_id: attemptId }, { projection: { _id: 0 } });
      if (attempt) break;
      await sleep(100);
    }
    const now = found(await store.find(e.merchant_id, e.event_id), 'Event');
    res.status(attempt ? 200 : 202).json({ event: eventView(now), attempt: attempt ? attemptView(attempt) : null });
  });

  return r;
}
