// The provider sandbox: imitates the providers' HTTP APIs (one folder each in providers/: service_test for now, and a
// 3DS server) with magic values that force outcomes (magic.ts), records every call it receives (recorder.ts), and
// exposes that record and each provider's state to tests under /__sandbox. Every providers/<name>/ is mounted at /<name>,
// its operator calls (raising a dispute) at /sandbox; the recorder keeps those as provider 'sandbox'.
import express from 'express';
import { readdirSync } from 'node:fs';
import { initTelemetry, shutdownTelemetry, currentTraceId } from '../../lib/telemetry.ts';
initTelemetry('provider-sandbox');
import { config } from '../../lib/config.ts';
import { tracingMiddleware } from '../../lib/http-tracing.ts';
import { onShutdown } from '../../lib/lifecycle.ts';
import { log } from '../../lib/log.ts';
import { IdempotencyStore, Recorder } from './recorder.ts';
import type { Imitation, SandboxProvider } from './provider.ts';

const recorder = new Recorder();
const idem = new IdempotencyStore();
const publicUrl = () => process.env.SANDBOX_PUBLIC_URL || config.sandboxUrl;
const providersDir = new URL('./providers/', import.meta.url);
const providers = new Map<string, SandboxProvider>();
for (const dir of readdirSync(providersDir, { withFileTypes: true }).filter((e) => e.isDirectory()).map((e) => e.name).sort()) {
  const { imitation } = (await import(new URL(`${dir}/imitation.ts`, providersDir).href)) as { imitation: Imitation };
  providers.set(dir, imitation(idem, publicUrl));
}

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
for (const [name, p] of providers) app.use(`/${name}`, p.router);
for (const p of providers.values()) if (p.operator) app.use('/sandbox', p.operator);

app.get('/__sandbox/calls', (req, res) => {
  const { idempotency_key, provider, path } = req.query;
  res.json(recorder.calls.filter((c) =>
    (!idempotency_key || c.idempotency_key === idempotency_key) && (!provider || c.provider === provider) && (!path || c.path === path)));
});
for (const [name, p] of providers) {
  for (const [view, read] of Object.entries(p.views)) app.get(`/__sandbox/${name}/${view}`, (req, res) => res.json(read(req.query)));
}
app.post('/__sandbox/reset', (_req, res) => {
  recorder.reset();
  idem.reset();
  for (const p of providers.values()) p.reset();
  res.json({ status: 'reset' });
});

app.use((err: Error, _req: express.Request, res: express.Response, _next: express.NextFunction) => {
  log.error('sandbox error', { err });
  res.status(500).json({ error: { code: 'internal_error', message: 'sandbox error' } });
});

const server = app.listen(config.sandboxPort, config.sandboxHost, () => log.info('provider sandbox listening', { port: config.sandboxPort }));
onShutdown({
  name: 'provider sandbox',
  steps: [
    ['http server', () => { server.close(); server.closeAllConnections(); }],
    ['telemetry', () => shutdownTelemetry()],
  ],
});
