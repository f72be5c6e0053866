// The Server-Timing header of payment and refund answers (issue 24): where the time of a request went, so a merchant
// sees our overhead beside the provider's time. The gateway times its whole handling and the Begin call; the worker
// times the provider calls and the job's wait in the queue and reports them with the outcome (Complete ->
// payment-state -> the payment event the gateway waits for), so nothing is read again to build the header.
import { AsyncLocalStorage } from 'node:async_hooks';
import type { NextFunction, Request, Response } from 'express';
import type { PaymentEvent } from '../adapters/payment-store.ts';

export const SERVER_TIMING_METRICS = {
  total: "the gateway's whole handling of the request",
  'payment-state': 'the Begin call to payment-state',
  queue: 'from the enqueue of the connector job to a worker taking it',
  provider: "the provider's HTTP calls of this operation as the worker timed them",
  overhead: 'total - provider: the time spent in our processes',
  store: 'reads from storage',
} as const;

export type ServerTimingMetric = keyof typeof SERVER_TIMING_METRICS;

const ORDER = Object.keys(SERVER_TIMING_METRICS) as ServerTimingMetric[];

/** The `;desc="..."` part of a metric (quotes and backslashes dropped: they would break the quoted string). */
const descPart = (desc?: string) => (desc ? `;desc="${desc.replace(/["\\]/g, '')}"` : '');

/** One metric in the header's syntax (`name;dur=ms;desc="..."`), the duration in ms with at most one decimal. */
export function formatMetric(name: string, ms: number, desc?: string): string {
  return `${name};dur=${Math.round(Math.max(ms, 0) * 10) / 10}${descPart(desc)}`;
}

/** Each metric's `;desc="..."`, made once (issue 24: not per answer). */
const DESC = Object.fromEntries(ORDER.map((m) => [m, descPart(SERVER_TIMING_METRICS[m])])) as Record<ServerTimingMetric, string>;

/** The time spent in one request, by metric; `total` is taken when the header is written. */
export class ServerTiming {
  private readonly started: number;
  private readonly spent = new Map<ServerTimingMetric, number>();
  private operation = false;

  constructor(started = performance.now()) {
    this.started = started;
  }

  add(metric: Exclude<ServerTimingMetric, 'total' | 'overhead'>, ms: number): void {
    this.spent.set(metric, (this.spent.get(metric) ?? 0) + ms);
    if (metric === 'payment-state') this.operation = true;
  }

  /** What a worker reported of an operation with its outcome. */
  addReported(timing: PaymentEvent['timing']): void {
    if (timing?.queue_ms !== undefined) this.add('queue', timing.queue_ms);
    if (timing?.provider_ms !== undefined) this.add('provider', timing.provider_ms);
  }

  /** Times `work` under `metric`. */
  async time<T>(metric: Exclude<ServerTimingMetric, 'total' | 'overhead'>, work: Promise<T>): Promise<T> {
    const start = performance.now();
    try {
      return await work;
    } finally {
      this.add(metric, performance.now() - start);
    }
  }

  /** The header's value: total first; overhead (total - provider) on an operation, that is when payment-state was asked. */
  header(now = performance.now()): string {
    const total = now - this.started;
    let out = `total;dur=${Math.round(Math.max(total, 0) * 10) / 10}${DESC.total}`;
    for (const m of ORDER) {
      const ms = m === 'total' ? undefined : m === 'overhead' ? this.overhead(total) : this.spent.get(m);
      if (ms !== undefined) out += `, ${m};dur=${Math.round(Math.max(ms, 0) * 10) / 10}${DESC[m]}`;
    }
    return out;
  }

  /** total - provider, on an operation (payment-state was asked) or when a provider time was reported. */
  private overhead(total: number): number | undefined {
    return this.operation || this.spent.has('provider') ? total - (this.spent.get('provider') ?? 0) : undefined;
  }
}

const scope = new AsyncLocalStorage<ServerTiming>();

/** The timing of the request being handled, if it is a timed one. */
export const currentTiming = (): ServerTiming | undefined => scope.getStore();

/** Times `work` under `metric` in the current request's timing (untimed outside a timed request). */
export const timed = <T>(metric: Exclude<ServerTimingMetric, 'total' | 'overhead'>, work: Promise<T>): Promise<T> =>
  scope.getStore()?.time(metric, work) ?? work;

/**
 * Times every answer of the routes it is mounted on: the header is set when the answer is sent, so it covers
 * whatever runs before (idempotency's record of the answer too, when mounted ahead of it).
 */
export function serverTiming() {
  return (_req: Request, res: Response, next: NextFunction) => {
    const timing = new ServerTiming();
    const json = res.json.bind(res);
    res.json = (body: unknown) => {
      if (!res.headersSent) res.setHeader('Server-Timing', timing.header());
      return json(body);
    };
    scope.run(timing, () => next());
  };
}
