// gateway process: the REST API merchants call.
import '../lib/v8-heap.ts'; // first: the heap's growth setting (issue 24: memory)
import { initTelemetry, shutdownTelemetry } from '../lib/telemetry.ts';
initTelemetry('gateway');
import { config, requireGatewaySecrets } from '../lib/config.ts';
import { healthChecker, instanceHealthService, paymentStateClient } from '../lib/grpc.ts';
import { Server as NetServer } from 'node:net';
import { onShutdown } from '../lib/lifecycle.ts';
import { Health, storeChecks } from '../lib/health.ts';
import { log } from '../lib/log.ts';
import { connectMongo, ensureIndexes } from '../lib/mongo.ts';
import { PaymentStore } from '../adapters/payment-store.ts';
import { RefundStore } from '../adapters/refund-store.ts';
import { ConnectorQueues } from '../adapters/queue.ts';
import { redisConnection } from '../lib/redis.ts';
import { WebhookQueue } from '../adapters/event-store.ts';
import { capabilities } from '../domain/connectors.ts';
import { useCapabilities } from '../domain/capabilities.ts';
import { MANIFESTS } from '../workers/connectors/manifests.ts';
import { CONNECTORS } from '../lib/schemas/common.ts';
import { buildApp } from './app.ts';
import { answerNodeRefusals } from './client-error.ts';
import { OutcomeWaiter } from './outcome-waiter.ts';
import { Customers } from './customers.ts';
import { PaymentLinks } from './payment-links.ts';
import { MerchantSetup } from './merchant-setup.ts';
import { MandateStore } from '../adapters/mandate-store.ts';
import { MandateRevocations, projectMandates } from '../adapters/mandate-projection.ts';
import { setTimeout as sleep } from 'node:timers/promises';

// domain/ decides with the connectors' capabilities it is handed: their manifests (pure data).
useCapabilities(MANIFESTS);

requireGatewaySecrets();

const { client: mongo, db } = await connectMongo();
await ensureIndexes(db);
const redis = redisConnection();
const queues = new ConnectorQueues(redis);
const waiter = await OutcomeWaiter.start(redisConnection());
const paymentState = paymentStateClient(config.paymentStateAddr);
const store = new PaymentStore(db);
const refunds = new RefundStore(db);
store.rowProjections.push((p) => refunds.project(p));
// The mandate and saved payment method a payment set up, once authorized (issue 22): the gateway writes projections
// too (a create at seq 0, a repaired projection), so it keeps them in step as payment-state does.
const mandates = new MandateStore(db);
const revocations = new MandateRevocations(db, redis, store);
store.rowProjections.push((p) => projectMandates(mandates, p, revocations));
const setupEvents = redisConnection();
const setup = new MerchantSetup(db, { pub: redis });
await setup.listen(setupEvents);

const paymentStateHealth = healthChecker(config.paymentStateAddr);
const webhookQueue = new WebhookQueue(redis);
const implemented = CONNECTORS.filter((c) => capabilities(c).implemented);
const settle = async <T>(p: Promise<T>, ms = 2_000): Promise<T | Error> =>
  Promise.race([p, new Promise<Error>((r) => setTimeout(() => r(new Error('timeout')), ms))]).catch((e: Error) => e);

async function health() {
  const [mongoOk, redisOk, psOk, sandboxOk, workers, webhookWorkers] = await Promise.all([
    settle(db.command({ ping: 1 })).then((r) => !(r instanceof Error)),
    settle(redis.ping()).then((r) => r === 'PONG'),
    // Under `npm start` (INSTANCE_ID set) a part is up only when the process answering is this run's own: a port
    // answered by another instance's process is as good as nothing listening.
    paymentStateHealth.check(1_000, config.instanceId ? instanceHealthService(config.instanceId) : ''),
    settle(
      fetch(`${config.sandboxUrl}/health`).then(
        async (r) => r.ok && (!config.instanceId || ((await r.json()) as { instance_id?: unknown }).instance_id === config.instanceId),
      ),
    ).then((ok) => ok === true),
    Promise.all(implemented.map(async (c) => [c, await settle(queues.get(c).getWorkersCount()).then((n) => (n instanceof Error ? 0 : n))] as const)),
    settle(webhookQueue.queue.getWorkersCount()).then((n) => (n instanceof Error ? 0 : n)),
  ]);
  const workerCounts = Object.fromEntries(workers);
  const ok = mongoOk && redisOk && psOk && sandboxOk && workers.every(([, n]) => n > 0);
  return {
    ok,
    parts: {
      gateway: 'up',
      mongodb: mongoOk ? 'up' : 'down',
      redis: redisOk ? 'up' : 'down',
      payment_state: psOk ? 'up' : 'down',
      provider_sandbox: sandboxOk ? 'up' : 'down',
      workers: workerCounts,
      // Informational: payments go on without it; merchant webhooks wait (nothing is lost) until one runs.
      webhook_workers: webhookWorkers,
    },
  };
}

// Issue 23: ready only while the gateway's own dependencies answer (the whole stack's view stays GET /health).
const probes = new Health({
  service: 'gateway',
  instanceId: config.instanceId || undefined,
  checks: storeChecks(db, redis, { checker: paymentStateHealth, service: config.instanceId ? instanceHealthService(config.instanceId) : '' }),
});
const app = buildApp(
  db,
  { store, refunds, paymentState, queues, waiter, redis, customers: new Customers(db), links: new PaymentLinks(db), setup, mandates, webhookQueue },
  health,
  probes,
);
// REUSE_PORT: a new gateway can listen beside this one on the same port (a rolling restart on one host).
const server = app.listen({ port: config.port, reusePort: config.reusePort }, () =>
  log.info('gateway listening', { port: config.port, reuse_port: config.reusePort }),
);
server.keepAliveTimeout = 65_000;
answerNodeRefusals(server);

onShutdown({
  name: 'gateway',
  steps: [
    // Readiness answers 503 "stopping" from now on: a load balancer sends nothing new while the requests in flight finish.
    ['readiness', () => probes.drain()],
    // Go on answering a moment (each answer closing its connection) so that no client sends its next request on a
    // keep-alive connection just as it is closed; then stop accepting.
    ['drain delay', () => sleep(config.drainDelayMs)],
    // Stop accepting; let requests in flight finish, closing each keep-alive connection once it is idle.
    [
      'http server',
      async () => {
        // Stop listening only (net.Server's close: http.Server's would also drop the idle keep-alive connections at
        // once, racing a client that is sending its next request on one). A connection's next request is still served,
        // with `connection: close`; those left idle are closed after the drain delay again, all of them after 15 s.
        const closed = new Promise<void>((resolve) => NetServer.prototype.close.call(server, () => resolve()));
        let idle: NodeJS.Timeout | undefined;
        const idleLater = setTimeout(() => {
          idle = setInterval(() => server.closeIdleConnections(), 100);
        }, config.drainDelayMs);
        const force = setTimeout(() => server.closeAllConnections(), 15_000);
        await closed;
        clearTimeout(idleLater);
        clearInterval(idle);
        clearTimeout(force);
      },
    ],
    ['outcome waiter', () => waiter.close()],
    ['queues', () => Promise.all([queues.close(), webhookQueue.close()])],
    [
      'redis',
      () => {
        redis.disconnect();
        setupEvents.disconnect();
      },
    ],
    [
      'grpc',
      () => {
        paymentState.close();
        paymentStateHealth.close();
      },
    ],
    ['mongo', () => mongo.close()],
    ['telemetry', () => shutdownTelemetry()],
  ],
});
