// The provider sandbox: imitates the providers' HTTP APIs (one folder each in providers/: service_test for now, and a
// 3DS server) with magic values that force outcomes (magic.ts), records every call it receives (recorder.ts), and
// exposes that record and each provider's state to tests under /__sandbox. Every providers/<name>/ is mounted at /<name>,
// its operator calls (raising a dispute) at /sandbox; the recorder keeps those as provider 'sandbox'. /__sandbox and
// /sandbox answer only the operator key (operator-auth.ts).
import '../../lib/v8-heap.ts'; // first: the heap's growth setting (issue 24: memory)
import express from 'express';
import { existsSync, readdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { initTelemetry, shutdownTelemetry, currentTraceId } from '../../lib/telemetry.ts';
initTelemetry('provider-sandbox');
import { config } from '../../lib/config.ts';
import { tracingMiddleware } from '../../lib/http-tracing.ts';
import { httpMetricsMiddleware, metricsHandler } from '../../lib/metrics.ts';
import { onShutdown } from '../../lib/lifecycle.ts';
import { log } from '../../lib/log.ts';
import { Health } from '../../lib/health.ts';
import { IdempotencyStore, Recorder } from './recorder.ts';
import { OPERATOR_PREFIXES, operatorAuth } from './operator-auth.ts';
import type { Imitation, SandboxProvider } from './provider.ts';

const recorder = new Recorder();
const idem = new IdempotencyStore();
const publicUrl = () => process.env.SANDBOX_PUBLIC_URL || config.sandboxUrl;
const providersDir = new URL('./providers/', import.meta.url);
const providers = new Map<string, SandboxProvider>();
for (const dir of readdirSync(providersDir, { withFileTypes: true })
  .filter((e) => e.isDirectory())
  .map((e) => e.name)
  .sort()) {
  const { imitation } = (await import(new URL(`${dir}/imitation.ts`, providersDir).href)) as { imitation: Imitation };
  providers.set(dir, imitation(idem, publicUrl));
}

// SANDBOX_STATE_FILE: the providers' state (those that keep one) and the idempotency records survive a crash of the
// sandbox, as a provider's database would: written before each answer of a provider call, read at start.
const stateFile = process.env.SANDBOX_STATE_FILE || '';
const saveState = () => {
  if (!stateFile) return;
  const providersState = Object.fromEntries([...providers].filter(([, p]) => p.state).map(([n, p]) => [n, p.state!.save()]));
  writeFileSync(`${stateFile}.tmp`, JSON.stringify({ idem: idem.save(), providers: providersState }));
  renameSync(`${stateFile}.tmp`, stateFile);
};
if (stateFile && existsSync(stateFile)) {
  const saved = JSON.parse(readFileSync(stateFile, 'utf8'));
  idem.load(saved.idem);
  for (const [n, st] of Object.entries(saved.providers ?? {})) providers.get(n)?.state?.load(st);
  log.info('provider sandbox state loaded', { file: stateFile });
}

// The fault switch (POST /__sandbox/faults): provider calls answered with a 5xx before anything is done
// (error_rate), or carried out and answered only after hang_ms (hang_rate: a timeout at the caller, the change made).
interface FaultSwitch {
  error_rate: number;
  status: number;
  hang_rate: number;
  hang_ms: number;
}
const noFaults: FaultSwitch = { error_rate: 0, status: 503, hang_rate: 0, hang_ms: 0 };
let faults: FaultSwitch = { ...noFaults };

const app = express();
app.disable('x-powered-by');
app.use(tracingMiddleware());
app.use(httpMetricsMiddleware());
// Its own metrics (not a provider's path; the recorder below never sees it).
app.get('/metrics', (req, res) => metricsHandler(req, res));
app.use(express.json({ limit: '1mb' }));
app.use(express.urlencoded({ extended: false }));
app.use((req, res, next) => {
  const path = req.path;
  const provider = path.split('/')[1] ?? '';
  if (provider !== '__sandbox' && provider !== 'health') {
    const traceId = currentTraceId() ?? null;
    // 'close' fires for every request, also when the client went away before the answer (a crashed worker).
    res.once('close', () =>
      recorder.add({
        provider,
        method: req.method,
        path,
        idempotency_key: req.header('idempotency-key') ?? null,
        status: res.statusCode,
        answered: res.writableFinished,
        at: new Date().toISOString(),
        trace_id: traceId,
      }),
    );
  }
  if (!providers.has(provider)) return next();
  if (Math.random() < faults.error_rate) return res.status(faults.status).json({ error: { code: 'internal_error', message: 'sandbox fault switch' } });
  const hang = Math.random() < faults.hang_rate ? faults.hang_ms : 0;
  if (stateFile || hang) {
    const end = res.end.bind(res) as (...a: unknown[]) => express.Response;
    res.end = ((...a: unknown[]) => {
      saveState();
      if (hang) setTimeout(() => end(...a), hang).unref();
      else end(...a);
      return res;
    }) as typeof res.end;
  }
  next();
});

// instance_id: the `npm start` run this sandbox belongs to, so the gateway's /health knows it reached its own.
app.get('/health', (_req, res) => res.json({ status: 'ok', instance_id: config.instanceId || null }));
// Issue 23: the sandbox has no dependency (its state is in memory and its own file): ready while it runs and is not stopping.
const probes = new Health({ service: 'provider-sandbox', instanceId: config.instanceId || undefined, checks: {} });
const probe = (req: express.Request, res: express.Response, next: express.NextFunction) =>
  void probes.handle(req, res).then((handled) => handled || next(), next);
app.get('/health/live', probe);
app.get('/health/ready', probe);
app.use([...OPERATOR_PREFIXES], operatorAuth(config.sandboxOperatorKey));
for (const [name, p] of providers) app.use(`/${name}`, p.router);
for (const p of providers.values()) if (p.operator) app.use('/sandbox', p.operator);

app.get('/__sandbox/calls', (req, res) => {
  const { idempotency_key, provider, path } = req.query;
  res.json(
    recorder.calls.filter(
      (c) => (!idempotency_key || c.idempotency_key === idempotency_key) && (!provider || c.provider === provider) && (!path || c.path === path),
    ),
  );
});
for (const [name, p] of providers) {
  for (const [view, read] of Object.entries(p.views)) app.get(`/__sandbox/${name}/${view}`, (req, res) => res.json(read(req.query)));
}
app.post('/__sandbox/reset', (_req, res) => {
  recorder.reset();
  idem.reset();
  for (const p of providers.values()) p.reset();
  saveState();
  res.json({ status: 'reset' });
});
/** Idempotency keys (scoped) a provider carried out, with how many times; ?twice=true: only those done more than once. */
app.get('/__sandbox/applied', (req, res) => res.json(idem.applied(req.query.twice === 'true')));
app.get('/__sandbox/faults', (_req, res) => res.json(faults));
app.post('/__sandbox/faults', (req, res) => {
  const b = req.body ?? {};
  const rate = (v: unknown) => (typeof v === 'number' && v >= 0 && v <= 1 ? v : undefined);
  const next: FaultSwitch = {
    error_rate: rate(b.error_rate) ?? 0,
    status: Number.isInteger(b.status) && b.status >= 500 && b.status <= 599 ? b.status : 503,
    hang_rate: rate(b.hang_rate) ?? 0,
    hang_ms: Number.isInteger(b.hang_ms) && b.hang_ms >= 0 ? b.hang_ms : 0,
  };
  for (const f of ['error_rate', 'hang_rate'] as const) {
    if (b[f] !== undefined && rate(b[f]) === undefined)
      return res.status(400).json({ error: { code: 'invalid_request', message: `${f} must be a number from 0 to 1` } });
  }
  faults = next;
  res.json(faults);
});
app.delete('/__sandbox/faults', (_req, res) => {
  faults = { ...noFaults };
  res.json(faults);
});

app.use((err: Error, _req: express.Request, res: express.Response, _next: express.NextFunction) => {
  log.error('sandbox error', { err });
  res.status(500).json({ error: { code: 'internal_error', message: 'sandbox error' } });
});

const server = app.listen(config.sandboxPort, config.sandboxHost, () => log.info('provider sandbox listening', { port: config.sandboxPort }));
onShutdown({
  name: 'provider sandbox',
  steps: [
    ['readiness', () => probes.drain()],
    [
      'http server',
      () => {
        server.close();
        server.closeAllConnections();
      },
    ],
    ['telemetry', () => shutdownTelemetry()],
  ],
});
