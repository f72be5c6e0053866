// A connector worker: `node workers/main.ts --connector service_test`. SREs run as many as a provider needs,
// each with its own concurrency (WORKER_CONCURRENCY) and its queue's retry policy.
import { parseArgs } from 'node:util';
import { Worker } from 'bullmq';
import { initTelemetry, shutdownTelemetry } from '../lib/telemetry.ts';
import { config } from '../lib/config.ts';
import { paymentStateClient } from '../lib/grpc.ts';
import { log } from '../lib/log.ts';
import { queueName, telemetry } from '../lib/queue.ts';
import { redisConnection } from '../lib/redis.ts';
import { Connector as ConnectorEnum } from '../lib/schemas/common.ts';
import { CONNECTORS } from './connectors/index.ts';
import { credentialsCache, processor } from './runtime.ts';
import { connectMongo } from '../lib/mongo.ts';
import { MerchantStore } from '../lib/merchant-store.ts';

const { values } = parseArgs({ options: { connector: { type: 'string' } } });
const name = ConnectorEnum.safeParse(values.connector ?? process.env.CONNECTOR);
const connector = name.success ? CONNECTORS[name.data] : undefined;
if (!name.success || !connector) {
  console.error(`usage: node workers/main.ts --connector <${Object.keys(CONNECTORS).join('|')}>`);
  process.exit(2);
}
initTelemetry(`worker-${connector.name}`);

const client = paymentStateClient(config.paymentStateAddr);
const connection = redisConnection();
const { client: mongo, db } = await connectMongo();
const credentialsOf = credentialsCache(new MerchantStore(db), config.credentialsTtlMs);
const worker = new Worker(queueName(connector.name), processor(connector, client, credentialsOf), {
  connection,
  prefix: config.redisPrefix,
  concurrency: config.workerConcurrency,
  lockDuration: config.jobLockMs,
  stalledInterval: Math.max(1_000, Math.floor(config.jobLockMs / 2)),
  maxStalledCount: 10,
  telemetry: telemetry(),
});
worker.on('failed', (job, err) => log.warn('job failed', { operation_id: job?.id, attempts: job?.attemptsMade, err: err.message }));
worker.on('error', (err) => log.error('worker error', { err: err.message }));
await worker.waitUntilReady();
log.info('worker ready', { connector: connector.name, queue: queueName(connector.name), concurrency: config.workerConcurrency });

async function shutdown(signal: string) {
  log.info('worker stopping: finishing active jobs', { signal });
  await worker.close();
  connection.disconnect();
  client.close();
  await mongo.close();
  await shutdownTelemetry();
  process.exit(0);
}
process.once('SIGTERM', () => void shutdown('SIGTERM'));
process.once('SIGINT', () => void shutdown('SIGINT'));
