// payment-state process: gRPC server (PaymentState + grpc.health.v1) and the recovery sweeper.
import { HealthImplementation } from 'grpc-health-check';
import { initTelemetry, shutdownTelemetry } from '../../lib/telemetry.ts';
initTelemetry('payment-state');
import { config } from '../../lib/config.ts';
import { grpc, loadPaymentStateProto, unary } from '../../lib/grpc.ts';
import { log } from '../../lib/log.ts';
import { connectMongo, ensureIndexes } from '../../lib/mongo.ts';
import { PaymentStore } from '../../lib/payment-store.ts';
import { ConnectorQueues } from '../../lib/queue.ts';
import { redisConnection } from '../../lib/redis.ts';
import { PaymentStateService } from './service.ts';

const { client: mongo, db } = await connectMongo();
await ensureIndexes(db);
const redis = redisConnection();
const queues = new ConnectorQueues(redis);
const service = new PaymentStateService(new PaymentStore(db), redis, queues);

const proto = loadPaymentStateProto();
const server = new grpc.Server();
server.addService(proto.bnpl.paymentstate.v1.PaymentState.service, {
  Begin: unary('Begin', (req) => service.begin(req as never)),
  Complete: unary('Complete', (req) => service.complete(req as never)),
});
const health = new HealthImplementation({ '': 'SERVING', 'bnpl.paymentstate.v1.PaymentState': 'SERVING' });
health.addToServer(server);

await new Promise<void>((resolve, reject) =>
  server.bindAsync(config.paymentStateAddr, grpc.ServerCredentials.createInsecure(), (err) => (err ? reject(err) : resolve())));
log.info('payment-state listening', { addr: config.paymentStateAddr });

let sweeping = false;
const sweeper = setInterval(() => {
  if (sweeping) return;
  sweeping = true;
  service.sweep().catch((err) => log.error('sweep failed', { err })).finally(() => { sweeping = false; });
}, config.sweepIntervalMs);

async function shutdown(signal: string) {
  log.info('payment-state stopping', { signal });
  clearInterval(sweeper);
  health.setStatus('', 'NOT_SERVING');
  await new Promise<void>((resolve) => server.tryShutdown(() => resolve()));
  await queues.close();
  redis.disconnect();
  await mongo.close();
  await shutdownTelemetry();
  process.exit(0);
}
process.once('SIGTERM', () => void shutdown('SIGTERM'));
process.once('SIGINT', () => void shutdown('SIGINT'));
