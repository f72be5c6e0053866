// The provider sandbox: imitates the providers' HTTP APIs (service_test for now, and a 3DS server) with magic values that force
// outcomes, records every call it receives, and exposes that record to tests under /__sandbox.
import express from 'express';
import { initTelemetry, shutdownTelemetry, currentTraceId } from '../../lib/telemetry.ts';
initTelemetry('provider-sandbox');
import { config } from '../../lib/config.ts';
import { tracingMiddleware } from '../../lib/http-tracing.ts';
import { log } from '../../lib/log.ts';
import { IdempotencyStore, Recorder } from './recorder.ts';
import { serviceTestRouter } from './service_test.ts';
import { threeDsServerRouter } from './three_ds_server.ts';

const recorder = new Recorder();
const idem = new IdempotencyStore();
const publicUrl = () => process.env.SANDBOX_PUBLIC_URL || config.sandboxUrl;
const serviceTest = serviceTestRouter(idem, publicUrl);
const threeDsServer = threeDsServerRouter(idem, publicUrl);

const app = express();
app.disable('x-powered-by');
app.use(tracingMiddleware());
app.use(express.json({ limit: '1mb' }));
app.use(express.urlencoded({ extended: false }));
app.use((req, res, next) => {
  const path = req.path;
  const provider = path.split('/')[1] ?? '';
  if (provider !== '__sandbox' && provider !== 'health') {
    const traceId = currentTraceId() ?? null;
    // 'close' fires for every request, also when the client went away before the answer (a crashed worker).
    res.once('close', () => recorder.add({
      provider, method: req.method, path, idempotency_key: req.header('idempotency-key') ?? null,
      status: res.statusCode, answered: res.writableFinished, at: new Date().toISOString(), trace_id: traceId,
    }));
  }
  next();
});

app.get('/health', (_req, res) => res.json({ status: 'ok' }));
app.use('/service_test', serviceTest.router);
app.use('/three_ds_server', threeDsServer.router);

app.get('/__sandbox/calls', (req, res) => {
  const { idempotency_key, provider, path } = req.query;
  res.json(recorder.calls.filter((c) =>
    (!idempotency_key || c.idempotency_key === idempotency_key) && (!provider || c.provider === provider) && (!path || c.path === path)));
});
app.get('/__sandbox/service_test/payments', (req, res) => {
  const key = req.query.idempotency_key;
  res.json([...serviceTest.payments.values()].filter((p) => !key || p.idempotency_key === key));
});
app.get('/__sandbox/three_ds_server/transactions', (_req, res) => res.json([...threeDsServer.transactions.values()]));
app.post('/__sandbox/reset', (_req, res) => {
  recorder.reset();
  idem.reset();
  serviceTest.reset();
  threeDsServer.reset();
  res.json({ status: 'reset' });
});

app.use((err: Error, _req: express.Request, res: express.Response, _next: express.NextFunction) => {
  log.error('sandbox error', { err });
  res.status(500).json({ error: { code: 'internal_error', message: 'sandbox error' } });
});

const server = app.listen(config.sandboxPort, config.sandboxHost, () => log.info('provider sandbox listening', { port: config.sandboxPort }));
async function shutdown() {
  server.close();
  server.closeAllConnections();
  await shutdownTelemetry();
  process.exit(0);
}
process.once('SIGTERM', () => void shutdown());
process.once('SIGINT', () => void shutdown());
