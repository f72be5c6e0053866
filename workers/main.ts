// A connector worker: `node workers/main.ts --connector service_test` (any connector with a manifest,
// workers/connectors/manifests.ts). SREs run as many as a provider needs; the manifest's queue policy sets the
// concurrency (else WORKER_CONCURRENCY) and the provider's rate limit (BullMQ limiter).
import { parseArgs } from 'node:util';
import { Worker, type Job } from 'bullmq';
import { initTelemetry, shutdownTelemetry } from '../lib/telemetry.ts';
import { config } from '../lib/config.ts';
import { paymentStateClient } from '../lib/grpc.ts';
import { onShutdown } from '../lib/lifecycle.ts';
import { log } from '../lib/log.ts';
import { queueName, telemetry } from '../lib/queue.ts';
import { redisConnection } from '../lib/redis.ts';
import { loadConnector } from './connectors/index.ts';
import { IMPLEMENTED } from './connectors/manifests.ts';
import { credentialsCache, processor } from './runtime.ts';
import { connectMongo } from '../lib/mongo.ts';
import { MerchantStore } from '../lib/merchant-store.ts';
import { NotificationInbox } from '../lib/notification-inbox.ts';
import { PaymentStore } from '../lib/payment-store.ts';
import { isNotificationJob, type ConnectorJob, type NotificationJob } from '../domain/job.ts';
import { notificationProcessor } from './notifications.ts';

const { values } = parseArgs({ options: { connector: { type: 'string' } } });
const name = IMPLEMENTED.find((c) => c === (values.connector ?? process.env.CONNECTOR));
if (!name) {
  console.error(`usage: node workers/main.ts --connector <${IMPLEMENTED.join('|')}>`);
  process.exit(2);
}
const connector = await loadConnector(name);
const { name: connectorName, queue: policy } = connector.manifest;
const concurrency = policy.concurrency ?? config.workerConcurrency;
initTelemetry(`worker-${connectorName}`);

const client = paymentStateClient(config.paymentStateAddr);
const connection = redisConnection();
const { client: mongo, db } = await connectMongo();
const setup = new MerchantStore(db);
const credentialsOf = credentialsCache(setup, config.credentialsTtlMs);
const merchantExists = async (merchantId: string) => !!(await setup.merchant(merchantId));
const runJob = processor(connector, client, credentialsOf, merchantExists, (ms) => worker.rateLimit(ms));
const runNotification = notificationProcessor(connector, client, new PaymentStore(db).payments, new NotificationInbox(db));
// One queue per connector carries its operations' jobs and the provider's notifications.
const run = (job: Job<ConnectorJob | NotificationJob>, token?: string) =>
  isNotificationJob(job.data) ? runNotification(job as Job<NotificationJob>) : runJob(job as Job<ConnectorJob>, token);
const worker: Worker = new Worker(queueName(connectorName), run, {
  connection,
  prefix: config.redisPrefix,
  concurrency,
  ...(policy.limiter ? { limiter: policy.limiter } : {}),
  lockDuration: config.jobLockMs,
  stalledInterval: Math.max(1_000, Math.floor(config.jobLockMs / 2)),
  maxStalledCount: 10,
  telemetry: telemetry(),
});
worker.on('failed', (job, err) => log.warn('job failed', { operation_id: job?.id, attempts: job?.attemptsMade, err }));
worker.on('error', (err) => log.error('worker error', { err }));
await worker.waitUntilReady();
log.info('worker ready', { connector: connectorName, queue: queueName(connectorName), concurrency });

onShutdown({
  name: 'worker',
  note: 'finishing active jobs',
  // An active job may wait for its provider call: give it the provider timeout before exiting anyway.
  forceExitMs: Math.max(60_000, config.providerTimeoutMs + 30_000),
  steps: [
    ['worker', () => worker.close()],
    ['redis', () => connection.disconnect()],
    ['grpc', () => client.close()],
    ['mongo', () => mongo.close()],
    ['telemetry', () => shutdownTelemetry()],
  ],
});
