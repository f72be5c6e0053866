// The webhook worker: `node workers/webhooks/main.ts`. Runs the relay (transition log -> events -> the `webhooks`
// queue) and delivers the queue's jobs to merchants. Scale it by running more processes: the relay is idempotent and
// a delivery job runs in one process at a time (jobId = event_id).
//
// Delivery: the body {merchant_id, event_id, event_type, content: {type, object}, timestamp} is signed with the
// business profile's payment_response_hash_key (X-Webhook-Signature-512, hex HMAC-SHA512); any 2xx is delivered;
// otherwise (or no answer within WEBHOOK_TIMEOUT_MS) it is tried again after each of WEBHOOK_RETRY_DELAYS_MS, then
// marked failed. A payment's events go out in order: one waits while an earlier event of its payment is undelivered,
// and is sent at once when that one is settled. Fair per endpoint (endpoint-gate.ts): at most WEBHOOK_ENDPOINT_CONCURRENCY
// attempts in flight to one URL origin, the others wait without holding a worker slot; an endpoint failing
// WEBHOOK_BREAKER_FAILURES times in a row is paused (its events stay pending, then one probe). At least once: a process killed after the merchant answered but before
// the answer was recorded sends the event again (merchants deduplicate by event_id).
import '../../lib/v8-heap.ts'; // first: the heap's growth setting (issue 24: memory)
import { DelayedError, Worker, type Job } from 'bullmq';
import { Redis } from 'ioredis';
import { initTelemetry, shutdownTelemetry } from '../../lib/telemetry.ts';
initTelemetry('worker-webhooks');
import { config } from '../../lib/config.ts';
import { every, onShutdown } from '../../lib/lifecycle.ts';
import { log } from '../../lib/log.ts';
import { metricsHandler, observeQueues, record } from '../../lib/metrics.ts';
import { Health, closeHealthServer, startHealthServer, storeChecks } from '../../lib/health.ts';
import { connectMongo, ensureIndexes } from '../../lib/mongo.ts';
import { MerchantStore } from '../../lib/merchant-store.ts';
import { PaymentStore } from '../../adapters/payment-store.ts';
import { EventStore, WEBHOOK_QUEUE, WebhookQueue, type EventDoc, type WebhookJob } from '../../adapters/event-store.ts';
import { telemetry } from '../../adapters/queue.ts';
import { paymentEventsChannel, redisConnection } from '../../lib/redis.ts';
import { open } from '../../lib/secret-box.ts';
import { webhookPayload } from '../../domain/events.ts';
import { Relay } from './relay.ts';
import { WebhookTargets } from './targets.ts';
import { listenSetupChanges } from '../../lib/merchant-cache.ts';
import { sendWebhook } from './deliver.ts';
import { EndpointGate, endpointOf } from './endpoint-gate.ts';

/** How long an event waits behind an earlier undelivered event of its payment before it looks again. */
const ORDER_WAIT_MS = 5_000;

const { client: mongo, db } = await connectMongo();
await ensureIndexes(db);
const connection = redisConnection();
const store = new EventStore(db);
const setup = new MerchantStore(db);
const payments = new PaymentStore(db);
const queue = new WebhookQueue(connection);
const targets = new WebhookTargets(setup, config.setupCacheMs);
const relay = new Relay(payments, store, queue, targets);
const gate = new EndpointGate(connection, {
  prefix: config.redisPrefix,
  cap: config.webhookEndpointConcurrency,
  failures: config.webhookBreakerFailures,
  cooldownMs: config.webhookBreakerCooldownMs,
  leaseMs: config.webhookTimeoutMs + 10_000,
  waitMs: Math.min(config.webhookTimeoutMs, 5_000),
});
/** A little spread so jobs told to wait until the same moment do not all come back at once. */
const jitter = () => Math.floor(Math.random() * 250);

/** Where the event goes and what signs it: the profile's webhook URL and hash key now (null URL: none configured). */
async function targetOf(e: EventDoc): Promise<{ url: string | null; hashKey: string | null }> {
  const profile = await targets.profileOf(e.merchant_id, e.profile_id);
  if (!profile) return { url: null, hashKey: null };
  return { url: profile.webhook_details?.webhook_url ?? null, hashKey: open(profile.payment_response_hash_key_sealed, profile.profile_id) };
}

/** The next event of the payment waited behind `e`: send it now rather than at its next look. */
async function releaseNext(e: EventDoc): Promise<void> {
  const next = await store.nextPending(e);
  if (!next) return;
  const job = await queue.queue.getJob(next.event_id);
  if (job && (await job.isDelayed())) await job.promote().catch(() => undefined);
}

/** The attempt to `endpoint` is over: record its outcome for the breaker, free its slot, wake the jobs waiting for one. */
async function settleEndpoint(endpoint: string, member: string, delivered: boolean): Promise<void> {
  const { pausedForMs, wake } = await gate.release(endpoint, member, delivered);
  if (pausedForMs) log.warn('webhook endpoint paused after failed attempts in a row', { endpoint, paused_ms: pausedForMs });
  for (const id of wake) {
    const waiting = await queue.queue.getJob(id);
    if (waiting && (await waiting.isDelayed())) await waiting.promote().catch(() => undefined);
  }
}

async function deliver(job: Job<WebhookJob>, token?: string): Promise<void> {
  const e = await store.find(job.data.merchant_id, job.data.event_id);
  if (!e) return;
  const manualId = job.data.manual_attempt_id;
  if (!manualId) {
    if (e.delivery_status !== 'pending') return;
    if (await store.earlierPending(e)) {
      await job.moveToDelayed(Date.now() + ORDER_WAIT_MS, token);
      // The earlier event may have been settled between the look and the move: its releaseNext then found this job
      // not delayed yet and promoted nothing. Looking again after the move, one of the two always promotes it.
      if (!(await store.earlierPending(e))) await job.promote().catch(() => undefined);
      throw new DelayedError();
    }
  }
  const { url, hashKey } = await targetOf(e);
  const lastTry = !manualId && job.attemptsMade + 1 >= (job.opts.attempts ?? 1);
  if (!url || !hashKey) {
    if (manualId) {
      const now = new Date().toISOString();
      await store.recordAttempt({
        attempt_id: manualId,
        event_id: e.event_id,
        merchant_id: e.merchant_id,
        trigger: 'manual',
        url: null,
        request: { headers: {}, body: '' },
        response: null,
        error: 'the business profile has no webhook URL',
        delivered: false,
        started_at: now,
        duration_ms: 0,
      });
    } else {
      await store.settle(e.event_id, 'not_configured');
      record('webhookDeliveries', { 'bnpl.webhook.delivery.status': 'not_configured' });
      await releaseNext(e);
    }
    return;
  }
  // A manual retry (the merchant asked, the gateway waits for it) bypasses the per-endpoint cap and pause.
  const endpoint = endpointOf(url);
  const member = manualId ?? job.id ?? e.event_id;
  if (!manualId) {
    const admission = await gate.admit(endpoint, member);
    if (!admission.go) {
      await job.moveToDelayed(admission.untilMs + jitter(), token);
      throw new DelayedError();
    }
  }
  const body = JSON.stringify(webhookPayload(e));
  let r: Awaited<ReturnType<typeof sendWebhook>> | undefined;
  try {
    r = await sendWebhook(url, body, hashKey, {
      timeoutMs: config.webhookTimeoutMs,
      allowPrivate: config.webhookAllowPrivateUrls,
      eventId: e.event_id,
      eventType: e.event_type,
    });
  } finally {
    await settleEndpoint(endpoint, member, r?.delivered ?? false);
  }
  // Delivered, or the automatic schedule's last try failed: the delivery ends in the attempt's own write.
  const settled = r.delivered ? 'delivered' : !manualId && lastTry ? 'failed' : undefined;
  await store.recordAttempt(
    {
      attempt_id: manualId ?? `${e.event_id}_${job.attemptsMade + 1}_${job.processedOn ?? Date.now()}`,
      event_id: e.event_id,
      merchant_id: e.merchant_id,
      trigger: manualId ? 'manual' : 'automatic',
      url,
      ...r,
    },
    settled,
  );
  const result = r.delivered ? 'delivered' : 'failed';
  record('webhookAttempts', {
    'bnpl.webhook.attempt.result': result,
    'bnpl.webhook.trigger': manualId ? 'manual' : 'automatic',
    'bnpl.event.type': e.event_type,
  });
  record('webhookAttemptDuration', { 'bnpl.webhook.attempt.result': result }, r.duration_ms / 1000);
  log.info('webhook attempt', {
    event_id: e.event_id,
    event_type: e.event_type,
    delivered: r.delivered,
    status_code: r.response?.status_code ?? null,
    error: r.error,
    duration_ms: r.duration_ms,
  });
  if (r.delivered) {
    record('webhookDeliveries', { 'bnpl.webhook.delivery.status': 'delivered' });
    await releaseNext(e);
    return;
  }
  if (manualId) return;
  if (lastTry) {
    record('webhookDeliveries', { 'bnpl.webhook.delivery.status': 'failed' });
    await releaseNext(e);
  }
  throw new Error(r.error ?? `answered ${r.response?.status_code}`);
}

const delays = config.webhookRetryDelaysMs;
const worker = new Worker<WebhookJob>(WEBHOOK_QUEUE, deliver, {
  connection,
  prefix: config.redisPrefix,
  concurrency: config.webhookConcurrency,
  // The lock is renewed while the process lives; a killed worker's delivery is taken up again after about this long.
  lockDuration: config.jobLockMs,
  stalledInterval: Math.max(1_000, Math.floor(config.jobLockMs / 2)),
  maxStalledCount: 1_000,
  settings: { backoffStrategy: (attemptsMade: number) => delays[Math.min(attemptsMade, delays.length) - 1] ?? 0 },
  telemetry: telemetry(),
});
worker.on('failed', (job, err) => log.warn('webhook attempt failed', { event_id: job?.data.event_id, attempts: job?.attemptsMade, err: err.message }));
worker.on('error', (err) => log.error('webhook worker error', { err }));
await worker.waitUntilReady();

const runRelay = () => relay.trigger().catch((err) => log.error('relay failed', { err }));
// Woken by every applied transition (payment-state's announcement); the interval catches what a lost message missed.
const subscriber = new Redis(config.redisUrl, { maxRetriesPerRequest: null });
subscriber.on('error', (err) => log.warn('relay subscriber error', { err: err.message }));
await subscriber.subscribe(paymentEventsChannel());
subscriber.on('message', (channel: string) => channel === paymentEventsChannel() && void runRelay());
await listenSetupChanges(subscriber, [targets.cache]);
const requeueTimer = every(config.webhookRequeueIntervalMs, 'requeue', async () => {
  const n = await relay.requeueLost();
  if (n) log.warn('re-enqueued webhook deliveries lost from the queue', { count: n });
});
await runRelay();
// A pass whenever none has begun for WEBHOOK_RELAY_INTERVAL_MS: under traffic the announcements' passes are enough.
const stopRelayWatch = relay.watch(config.webhookRelayIntervalMs, (err) => log.error('relay failed', { err }));
observeQueues(() => [queue.queue]);
// Issue 23: /health/live and /health/ready on HEALTH_PORT: ready while MongoDB and Redis answer.
const probes = new Health({
  service: 'worker-webhooks',
  instanceId: config.instanceId || undefined,
  checks: storeChecks(db, connection),
});
const healthServer = await startHealthServer(probes, config.healthPort, { reusePort: config.reusePort, routes: { '/metrics': metricsHandler } });
log.info('worker ready', {
  health_port: config.healthPort || null,
  queue: WEBHOOK_QUEUE,
  concurrency: config.webhookConcurrency,
  allow_private_urls: config.webhookAllowPrivateUrls,
});

onShutdown({
  name: 'worker-webhooks',
  note: 'finishing deliveries in flight',
  forceExitMs: Math.max(30_000, config.webhookTimeoutMs + 15_000),
  steps: [
    ['readiness', () => probes.drain()],
    [
      'relay',
      () => {
        stopRelayWatch();
        clearInterval(requeueTimer);
        subscriber.disconnect();
      },
    ],
    ['worker', () => worker.close()],
    ['queue', () => queue.close()],
    ['redis', () => connection.disconnect()],
    ['mongo', () => mongo.close()],
    ['health server', () => closeHealthServer(healthServer)],
    ['telemetry', () => shutdownTelemetry()],
  ],
});
