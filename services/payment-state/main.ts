// payment-state process: gRPC server (PaymentState + grpc.health.v1) and the recovery sweeper.
import '../../lib/v8-heap.ts'; // first: the heap's growth setting (issue 24: memory)
import { HealthImplementation } from 'grpc-health-check';
import { initTelemetry, shutdownTelemetry } from '../../lib/telemetry.ts';
initTelemetry('payment-state');
import { config } from '../../lib/config.ts';
import { grpc, instanceHealthService, loadPaymentStateProto, unary } from '../../lib/grpc.ts';
import { every, onShutdown } from '../../lib/lifecycle.ts';
import { metricsHandler, record } from '../../lib/metrics.ts';
import { log } from '../../lib/log.ts';
import { Health, closeHealthServer, startHealthServer, storeChecks } from '../../lib/health.ts';
import { connectMongo, ensureIndexes } from '../../lib/mongo.ts';
import { PaymentStore } from '../../adapters/payment-store.ts';
import { RefundStore } from '../../adapters/refund-store.ts';
import { ConnectorQueues } from '../../adapters/queue.ts';
import { redisConnection } from '../../lib/redis.ts';
import { PaymentStateService } from './service.ts';
import { MandateStore } from '../../adapters/mandate-store.ts';
import { MandateRevocations, projectMandates } from '../../adapters/mandate-projection.ts';
import { DisputeStore } from '../../lib/dispute-store.ts';
import { reportDispute } from './disputes.ts';
import { useCapabilities } from '../../domain/capabilities.ts';
import { MANIFESTS } from '../../workers/connectors/manifests.ts';

// domain/ decides with the connectors' capabilities it is handed: their manifests (pure data).
useCapabilities(MANIFESTS);

const { client: mongo, db } = await connectMongo();
await ensureIndexes(db);
const redis = redisConnection();
const queues = new ConnectorQueues(redis);
const store = new PaymentStore(db);
const refunds = new RefundStore(db);
store.rowProjections.push((p) => refunds.project(p));
// Issue 22: the mandate and the saved payment method a payment set up, written once it is authorized; a recurring
// charge the provider refused for a mandate revoked at its end revokes ours.
const mandates = new MandateStore(db);
const revocations = new MandateRevocations(db, redis, store);
store.rowProjections.push((p) => projectMandates(mandates, p, revocations));
const service = new PaymentStateService(store, redis, queues);
const disputes = new DisputeStore(db);

const proto = loadPaymentStateProto();
// Channelz off: grpc-js tracks every call for a channelz service this process does not serve (issue 24).
const server = new grpc.Server({ 'grpc.enable_channelz': 0 });
server.addService(proto.bnpl.paymentstate.v1.PaymentState.service, {
  Begin: unary('Begin', (req, deadline) => service.begin(req as never, deadline)),
  Complete: unary('Complete', (req) => service.complete(req as never)),
  ReportDispute: unary('ReportDispute', (req) => reportDispute(service, disputes, req as never)),
});
const health = new HealthImplementation({
  '': 'SERVING',
  'bnpl.paymentstate.v1.PaymentState': 'SERVING',
  ...(config.instanceId ? { [instanceHealthService(config.instanceId)]: 'SERVING' as const } : {}),
});
health.addToServer(server);

await new Promise<void>((resolve, reject) =>
  server.bindAsync(config.paymentStateAddr, grpc.ServerCredentials.createInsecure(), (err) => (err ? reject(err) : resolve())),
);
// Issue 23: /health/live and /health/ready over HTTP on HEALTH_PORT (the gRPC health service above stays).
const probes = new Health({
  service: 'payment-state',
  instanceId: config.instanceId || undefined,
  checks: storeChecks(db, redis),
});
const healthServer = await startHealthServer(probes, config.healthPort, { reusePort: config.reusePort, routes: { '/metrics': metricsHandler } });
log.info('payment-state listening', { addr: config.paymentStateAddr, health_port: config.healthPort || null });

/** A recovery task's run and what it enqueued again, counted (bnpl.sweeper.runs, bnpl.sweeper.requeued). */
const counted = (task: 'sweep' | 'pick_up', run: () => Promise<number>) => async () => {
  const n = await run();
  record('sweeperRuns', { 'bnpl.sweeper.task': task });
  if (n) record('sweeperRequeued', { 'bnpl.sweeper.task': task }, n);
  return n;
};
const sweeper = every(
  config.sweepIntervalMs,
  'sweep',
  counted('sweep', () => service.sweep()),
);
const pickup = every(
  config.pickupIntervalMs,
  'pick-up',
  counted('pick_up', () => service.pickUp()),
);

onShutdown({
  name: 'payment-state',
  steps: [
    [
      'sweeper and pick-up',
      () => {
        clearInterval(sweeper);
        clearInterval(pickup);
      },
    ],
    [
      'health',
      () => {
        probes.drain();
        health.setStatus('', 'NOT_SERVING');
        if (config.instanceId) health.setStatus(instanceHealthService(config.instanceId), 'NOT_SERVING');
      },
    ],
    // Stop taking calls; let the calls in flight finish.
    ['grpc server', () => new Promise<void>((resolve) => server.tryShutdown(() => resolve()))],
    ['queues', () => queues.close()],
    ['redis', () => redis.disconnect()],
    ['mongo', () => mongo.close()],
    ['health server', () => closeHealthServer(healthServer)],
    ['telemetry', () => shutdownTelemetry()],
  ],
});
