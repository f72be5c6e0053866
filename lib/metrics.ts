// Metrics for every process: OpenTelemetry instruments read by a Prometheus exporter (lib/telemetry.ts makes the
// MeterProvider, with the traces' resource). Each instrument is declared once in METRICS with the only attribute keys
// it may carry: a value recorded under another key is dropped, so no payment, merchant or other id ever becomes a
// label (lib/metrics.test.ts checks the sets). Names follow the OTel semantic conventions where they exist
// (http.server.request.duration); ours start with `bnpl.`.
import { createServer, type Server } from 'node:http';
import { metrics, type Attributes, type Counter, type Histogram } from '@opentelemetry/api';
import type { Queue } from 'bullmq';
import type { NextFunction, Request, Response } from 'express';
import { log } from './log.ts';
import { prometheusExporter } from './telemetry.ts';

/** The OTel semantic conventions' advice for HTTP durations, in seconds. */
const SECONDS_BUCKETS = [0.005, 0.01, 0.025, 0.05, 0.075, 0.1, 0.25, 0.5, 0.75, 1, 2.5, 5, 7.5, 10, 30];

interface Spec {
  name: string;
  kind: 'counter' | 'histogram';
  unit?: string;
  description: string;
  attributes: readonly string[];
}

export const METRICS = {
  httpServerDuration: {
    name: 'http.server.request.duration',
    kind: 'histogram',
    unit: 's',
    description: 'Duration of HTTP server requests, by method, route pattern and status code.',
    attributes: ['http.request.method', 'http.route', 'http.response.status_code'],
  },
  rpcServerDuration: {
    name: 'rpc.server.call.duration',
    kind: 'histogram',
    unit: 's',
    description: "Duration of payment-state's gRPC calls (Begin, Complete, ReportDispute), by method and gRPC status code.",
    attributes: ['rpc.system', 'rpc.service', 'rpc.method', 'rpc.grpc.status_code'],
  },
  providerCallDuration: {
    name: 'bnpl.provider.call.duration',
    kind: 'histogram',
    unit: 's',
    description: "Duration of HTTP calls to a provider; the count is the number of calls. error.type: the call's failure (timeout, unavailable, rate_limited).",
    attributes: ['bnpl.connector', 'http.request.method', 'http.response.status_code', 'error.type'],
  },
  connectorOutcomes: {
    name: 'bnpl.connector.outcomes',
    kind: 'counter',
    description:
      'Outcomes a connector worker reported to payment-state, by operation kind, outcome kind and job mode (execute, sync: a status sync, notification: a provider notification).',
    attributes: ['bnpl.connector', 'bnpl.operation.kind', 'bnpl.outcome.kind', 'bnpl.job.mode'],
  },
  connectorErrors: {
    name: 'bnpl.connector.errors',
    kind: 'counter',
    description: 'Outcomes carrying an error, by unified error code (UE_xxxx; unmapped when the connector gave only the provider code).',
    attributes: ['bnpl.connector', 'bnpl.operation.kind', 'bnpl.error.code'],
  },
  statusSyncsScheduled: {
    name: 'bnpl.status_sync.scheduled',
    kind: 'counter',
    description: 'Status syncs scheduled after the provider left an operation pending.',
    attributes: ['bnpl.connector', 'bnpl.operation.kind'],
  },
  transitionsApplied: {
    name: 'bnpl.transitions.applied',
    kind: 'counter',
    description: 'Transitions payment-state appended, by action (confirm, capture, outcome:captured, ...).',
    attributes: ['bnpl.action'],
  },
  transitionsRefused: {
    name: 'bnpl.transitions.refused',
    kind: 'counter',
    description: 'Decisions payment-state refused, by action and error code.',
    attributes: ['bnpl.action', 'bnpl.error.code'],
  },
  sweeperRuns: {
    name: 'bnpl.sweeper.runs',
    kind: 'counter',
    description: "Runs of payment-state's recovery tasks (sweep, pick_up).",
    attributes: ['bnpl.sweeper.task'],
  },
  sweeperRequeued: {
    name: 'bnpl.sweeper.requeued',
    kind: 'counter',
    description: 'Operations the recovery tasks enqueued again (a lost or failed job, a job never enqueued).',
    attributes: ['bnpl.sweeper.task'],
  },
  webhookAttempts: {
    name: 'bnpl.webhook.delivery.attempts',
    kind: 'counter',
    description: 'Merchant webhook delivery attempts, by result (delivered, failed) and trigger (automatic, manual).',
    attributes: ['bnpl.webhook.attempt.result', 'bnpl.webhook.trigger', 'bnpl.event.type'],
  },
  webhookAttemptDuration: {
    name: 'bnpl.webhook.delivery.duration',
    kind: 'histogram',
    unit: 's',
    description: 'Duration of merchant webhook delivery attempts.',
    attributes: ['bnpl.webhook.attempt.result'],
  },
  webhookDeliveries: {
    name: 'bnpl.webhook.deliveries',
    kind: 'counter',
    description: 'Merchant webhook events settled, by final status (delivered, failed, not_configured).',
    attributes: ['bnpl.webhook.delivery.status'],
  },
} as const satisfies Record<string, Spec>;

/** The observable gauges, declared as the instruments above (one callback per process reads every queue it serves). */
export const QUEUE_GAUGES = {
  jobs: {
    name: 'bnpl.queue.jobs',
    unit: '{job}',
    description: 'Jobs in a BullMQ queue by state (waiting, active, delayed, failed).',
    attributes: ['bnpl.queue', 'bnpl.queue.job.state'],
  },
  oldestAge: {
    name: 'bnpl.queue.oldest_job.age',
    unit: 's',
    description: 'How long the oldest waiting job of a queue has been due (0 when none waits).',
    attributes: ['bnpl.queue'],
  },
} as const;

export type MetricKey = keyof typeof METRICS;

/** A name as the Prometheus exporter writes it: dots as underscores, a counter's `_total`. */
export const prometheusName = (name: string, kind: 'counter' | 'histogram' | 'gauge'): string =>
  name.replace(/[^a-zA-Z0-9_:]/g, '_') + (kind === 'counter' ? '_total' : '');

/** Every metric family /metrics can show, as Prometheus names (a histogram's series add _bucket, _sum, _count). */
export function prometheusFamilies(): { name: string; kind: 'counter' | 'histogram' | 'gauge'; labels: string[] }[] {
  return [
    ...Object.values(METRICS).map((m) => ({ name: prometheusName(m.name, m.kind), kind: m.kind, labels: m.attributes.map((a) => prometheusName(a, 'gauge')) })),
    ...Object.values(QUEUE_GAUGES).map((m) => ({
      name: prometheusName(m.name, 'gauge'),
      kind: 'gauge' as const,
      labels: m.attributes.map((a) => prometheusName(a, 'gauge')),
    })),
  ];
}
type AttrsOf<K extends MetricKey> = Partial<Record<(typeof METRICS)[K]['attributes'][number], string | number | undefined>>;

/** Keeps only the keys the instrument declares, and no undefined value. */
export function allowedAttributes(allowed: readonly string[], attrs: Record<string, unknown>): Attributes {
  const out: Attributes = {};
  for (const key of allowed) {
    const v = attrs[key];
    if (typeof v === 'string' || typeof v === 'number') out[key] = v;
  }
  return out;
}

// Made on first use: the global MeterProvider (initTelemetry) is set when a process's main runs, after its imports.
const instruments = new Map<string, Counter | Histogram>();
let instrumentsOf: unknown;
function instrument(key: MetricKey): Counter | Histogram {
  const provider = metrics.getMeterProvider();
  if (instrumentsOf !== provider) {
    instruments.clear();
    instrumentsOf = provider;
  }
  let i = instruments.get(key);
  if (!i) {
    const spec: Spec = METRICS[key];
    const meter = metrics.getMeter('bnpl');
    i =
      spec.kind === 'counter'
        ? meter.createCounter(spec.name, { unit: spec.unit, description: spec.description })
        : meter.createHistogram(spec.name, { unit: spec.unit, description: spec.description, advice: { explicitBucketBoundaries: SECONDS_BUCKETS } });
    instruments.set(key, i);
  }
  return i;
}

/** Adds to a counter or records in a histogram (value 1 by default), with the instrument's attributes only. */
export function record<K extends MetricKey>(key: K, attrs: AttrsOf<K>, value = 1): void {
  try {
    const i = instrument(key);
    const a = allowedAttributes(METRICS[key].attributes, attrs);
    if ('add' in i) i.add(value, a);
    else i.record(value, a);
  } catch (err) {
    log.warn('metric not recorded', { metric: METRICS[key].name, err });
  }
}

/**
 * A word from a closed set (an action such as `outcome:succeeded`, an operation or outcome kind, an error code) as a
 * label; anything else (an id, free text) becomes `other`, so a label's values stay few.
 */
export function actionLabel(value: string | undefined): string | undefined {
  if (value === undefined) return undefined;
  return /^[A-Za-z][A-Za-z_]{0,30}(:[A-Za-z][A-Za-z_]{0,30})?$/.test(value) || /^[A-Z]{2,3}_\d{1,4}$/.test(value) ? value : 'other';
}

/** Seconds since a process.hrtime.bigint() start. */
export const secondsSince = (start: bigint): number => Number(process.hrtime.bigint() - start) / 1e9;

const KNOWN_METHODS = new Set(['GET', 'HEAD', 'POST', 'PUT', 'DELETE', 'CONNECT', 'OPTIONS', 'TRACE', 'PATCH']);

/** The route pattern Express matched (`/payments/:payment_id`), never the path with its ids; undefined when none matched. */
export function routeOf(req: Pick<Request, 'baseUrl'> & { route?: { path?: unknown } }): string | undefined {
  const path = req.route?.path;
  return typeof path === 'string' ? `${req.baseUrl ?? ''}${path}` : undefined;
}

/** The attributes of one request's duration (OTel HTTP semantic conventions: unknown methods as _OTHER). */
export function httpAttributes(method: string, route: string | undefined, status: number): Attributes {
  return allowedAttributes(METRICS.httpServerDuration.attributes, {
    'http.request.method': KNOWN_METHODS.has(method) ? method : '_OTHER',
    'http.route': route,
    'http.response.status_code': status,
  });
}

/** Express middleware: http.server.request.duration for every request, labelled by its route pattern. */
export function httpMetricsMiddleware() {
  return (req: Request, res: Response, next: NextFunction) => {
    const start = process.hrtime.bigint();
    res.on('finish', () => record('httpServerDuration', httpAttributes(req.method, routeOf(req), res.statusCode) as never, secondsSince(start)));
    next();
  };
}

/** GET /metrics on an Express app or a plain server: the Prometheus text of this process's meter provider. */
export function metricsHandler(req: import('node:http').IncomingMessage, res: import('node:http').ServerResponse): void {
  const exporter = prometheusExporter();
  if (!exporter) {
    res.statusCode = 503;
    res.end('# metrics are not initialised in this process\n');
    return;
  }
  exporter.getMetricsRequestHandler(req, res);
}

/** A getter of one queue's counts, for the queue gauges (BullMQ's Queue fits). */
export type CountedQueue = Pick<Queue, 'name' | 'getJobCounts' | 'getJobs'>;

const QUEUE_STATES = ['waiting', 'active', 'delayed', 'failed'] as const;

/** Observable gauges of the queues this process serves, read from Redis at each scrape. */
export function observeQueues(queues: () => CountedQueue[]): void {
  const meter = metrics.getMeter('bnpl');
  const jobs = meter.createObservableGauge(QUEUE_GAUGES.jobs.name, { unit: QUEUE_GAUGES.jobs.unit, description: QUEUE_GAUGES.jobs.description });
  const age = meter.createObservableGauge(QUEUE_GAUGES.oldestAge.name, { unit: QUEUE_GAUGES.oldestAge.unit, description: QUEUE_GAUGES.oldestAge.description });
  meter.addBatchObservableCallback(
    async (observer) => {
      await Promise.all(
        queues().map(async (q) => {
          try {
            const [counts, oldest] = await Promise.all([q.getJobCounts(...QUEUE_STATES), q.getJobs(['waiting'], 0, 0, true)]);
            for (const state of QUEUE_STATES) observer.observe(jobs, counts[state] ?? 0, { 'bnpl.queue': q.name, 'bnpl.queue.job.state': state });
            const job = oldest[0];
            observer.observe(age, job ? Math.max(0, (Date.now() - job.timestamp - (job.delay ?? 0)) / 1000) : 0, { 'bnpl.queue': q.name });
          } catch (err) {
            log.warn('queue gauges not read', { queue: q.name, err: (err as Error).message });
          }
        }),
      );
    },
    [jobs, age],
  );
}
