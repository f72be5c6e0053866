// Connector workers: `node workers/main.ts --connector service_test` (any connector with a manifest,
// workers/connectors/manifests.ts), or several in one process: `--connector mondu,billie` or `--connector all`
// (what `npm start` and the test stack run, so a small machine needs one process, not thirteen). Each connector is
// still its own queue with its own policy, so SREs scale a provider by running more processes for it alone; the
// manifest's queue policy sets the concurrency (else WORKER_CONCURRENCY) and the provider's rate limit (BullMQ limiter).
import '../lib/v8-heap.ts'; // first: the heap's growth setting (issue 24: memory)
import { parseArgs } from 'node:util';
import { Worker, type Job } from 'bullmq';
import { initTelemetry, shutdownTelemetry } from '../lib/telemetry.ts';
import { config } from '../lib/config.ts';
import { healthChecker, instanceHealthService, paymentStateClient } from '../lib/grpc.ts';
import { onShutdown } from '../lib/lifecycle.ts';
import { log } from '../lib/log.ts';
import { metricsHandler, observeQueues } from '../lib/metrics.ts';
import { Health, closeHealthServer, startHealthServer, storeChecks } from '../lib/health.ts';
import { ConnectorQueues, queueName, telemetry, workerOptions } from '../adapters/queue.ts';
import { redisConnection } from '../lib/redis.ts';
import type { ConnectorName } from '../lib/schemas/common.ts';
import { loadConnector } from './connectors/index.ts';
import { IMPLEMENTED, MANIFESTS } from './connectors/manifests.ts';
import { credentialsCache, processor } from './runtime.ts';
import { TokenCache } from './token-cache.ts';
import { failedJobFields } from './job-log.ts';
import { connectMongo } from '../lib/mongo.ts';
import { type ConnectorAccountDoc, MerchantStore } from '../lib/merchant-store.ts';
import { listenSetupChanges, MerchantCache } from '../lib/merchant-cache.ts';
import { NotificationInbox } from '../lib/notification-inbox.ts';
import { PaymentStore } from '../adapters/payment-store.ts';
import { isNotificationJob, type ConnectorJob, type NotificationJob } from '../domain/job.ts';
import { notificationProcessor } from './notifications.ts';
import { useCapabilities } from '../domain/capabilities.ts';

// domain/ decides with the connectors' capabilities it is handed: their manifests (pure data).
useCapabilities(MANIFESTS);

const { values } = parseArgs({ options: { connector: { type: 'string' } } });
const asked = (values.connector ?? process.env.CONNECTOR ?? '')
  .split(',')
  .map((s) => s.trim())
  .filter(Boolean);
const names = (asked.includes('all') ? [...IMPLEMENTED] : asked) as ConnectorName[];
if (!names.length || names.some((n) => !IMPLEMENTED.includes(n))) {
  console.error(`usage: node workers/main.ts --connector <${IMPLEMENTED.join('|')}>[,<another>...] | all`);
  process.exit(2);
}
initTelemetry(asked.includes('all') ? 'worker' : `worker-${names.join('+')}`);

const client = paymentStateClient(config.paymentStateAddr);
const connection = redisConnection();
const { client: mongo, db } = await connectMongo();
const setup = new MerchantStore(db);
// What jobs read of the merchant's setup, kept as the gateway keeps it (SETUP_CACHE_MS; dropped when a change is announced).
const merchantsKnown = new MerchantCache<boolean>(config.setupCacheMs);
const accounts = new MerchantCache<ConnectorAccountDoc | null>(config.setupCacheMs);
const setupEvents = redisConnection();
await listenSetupChanges(setupEvents, [merchantsKnown, accounts]);
const credentialsOf = credentialsCache(setup, accounts);
const merchantExists = (merchantId: string) =>
  merchantsKnown.get(
    merchantId,
    async () => !!(await setup.merchant(merchantId)),
    () => merchantId,
  );
const tokens = new TokenCache(connection);
const payments = new PaymentStore(db);
const inbox = new NotificationInbox(db);
// Syncs a provider's unsigned notification asks for go on the connectors' queues, as the gateway's force_sync does.
const queues = new ConnectorQueues(connection);

async function startWorker(name: ConnectorName): Promise<Worker> {
  const connector = await loadConnector(name);
  const { concurrency, ...limits } = workerOptions(connector.manifest.queue);
  const runJob = processor(connector, client, credentialsOf, merchantExists, (ms) => worker.rateLimit(ms), tokens);
  const runNotification = notificationProcessor(connector, client, payments, inbox, queues);
  // One queue per connector carries its operations' jobs and the provider's notifications.
  const run = (job: Job<ConnectorJob | NotificationJob>, token?: string) =>
    isNotificationJob(job.data) ? runNotification(job as Job<NotificationJob>) : runJob(job as Job<ConnectorJob>, token);
  const worker: Worker = new Worker(queueName(name), run, {
    connection,
    prefix: config.redisPrefix,
    concurrency,
    ...limits,
    lockDuration: config.jobLockMs,
    stalledInterval: Math.max(1_000, Math.floor(config.jobLockMs / 2)),
    maxStalledCount: 10,
    telemetry: telemetry(),
  });
  // A job's attempt threw: which payment and operation, why, and whether it was the last attempt (then the sweeper takes it up).
  worker.on('failed', (job, err) => log.warn('job failed', { ...failedJobFields(job, err), connector: name }));
  worker.on('error', (err) => log.error('worker error', { connector: name, err }));
  await worker.waitUntilReady();
  log.info('queue ready', { connector: name, queue: queueName(name), concurrency });
  return worker;
}

const workers = await Promise.all(names.map(startWorker));
// Metrics: the provider calls and outcomes of this process, and the depth of the queues it serves.
observeQueues(() => names.map((n) => queues.get(n)));
// Issue 23: /health/live and /health/ready on HEALTH_PORT: ready while MongoDB, Redis and payment-state answer.
const paymentStateHealth = healthChecker(config.paymentStateAddr);
const probes = new Health({
  service: 'worker',
  instanceId: config.instanceId || undefined,
  checks: storeChecks(db, connection, { checker: paymentStateHealth, service: config.instanceId ? instanceHealthService(config.instanceId) : '' }),
});
const healthServer = await startHealthServer(probes, config.healthPort, { reusePort: config.reusePort, routes: { '/metrics': metricsHandler } });
log.info('worker ready', { connectors: names, health_port: config.healthPort || null });

onShutdown({
  name: 'worker',
  note: 'finishing active jobs',
  // An active job may wait for its provider call: give it the provider timeout before exiting anyway.
  forceExitMs: Math.max(60_000, config.providerTimeoutMs + 30_000),
  steps: [
    ['readiness', () => probes.drain()],
    // BullMQ's close: no new job is taken; the active ones run to their end (their provider call and report).
    ['workers', () => Promise.all(workers.map((w) => w.close()))],
    ['queues', () => queues.close()],
    [
      'redis',
      () => {
        connection.disconnect();
        setupEvents.disconnect();
      },
    ],
    [
      'grpc',
      () => {
        client.close();
        paymentStateHealth.close();
      },
    ],
    ['mongo', () => mongo.close()],
    ['health server', () => closeHealthServer(healthServer)],
    ['telemetry', () => shutdownTelemetry()],
  ],
});
