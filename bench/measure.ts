// The bench's measuring parts: a bounded-concurrency pool of operations, latency percentiles, a scenario's result,
// and the summary of per-round ratios (median and spread) that makes a ratio worth comparing on a noisy machine.

export interface Latency {
  p50: number;
  p95: number;
  p99: number;
  max: number;
  mean: number;
}

export interface ScenarioResult {
  name: string;
  description: string;
  /** Which round of the scenario (1..R); 0 for a run outside the rounds. */
  round: number;
  /** The order in which the runs ended, over the whole bench (the report lists them so). */
  seq: number;
  /** Operations started (not counting warm-up). */
  ops: number;
  ok: number;
  errors: number;
  error_kinds: Record<string, number>;
  error_samples: string[];
  concurrency: number;
  duration_s: number;
  /** Successful operations per second of wall-clock time. */
  throughput_ops_s: number;
  /** Per-operation latency of the successful operations, in ms. */
  latency_ms: Latency | null;
  timed_out: boolean;
  extra?: Record<string, unknown>;
}

export const round = (x: number, digits = 2) => Math.round(x * 10 ** digits) / 10 ** digits;

export function latencyOf(samples: number[]): Latency | null {
  if (samples.length === 0) return null;
  const s = Float64Array.from(samples).sort();
  const at = (q: number) => s[Math.min(s.length - 1, Math.max(0, Math.ceil(q * s.length) - 1))];
  const mean = samples.reduce((a, b) => a + b, 0) / samples.length;
  return { p50: round(at(0.5)), p95: round(at(0.95)), p99: round(at(0.99)), max: round(s[s.length - 1]), mean: round(mean) };
}

/** An operation's failure: `kind` is what gets counted, `detail` a sample for the report. */
export class OpError extends Error {
  readonly kind: string;
  constructor(kind: string, detail: string) {
    super(detail);
    this.kind = kind;
  }
}

export interface PoolOutcome {
  started: number;
  ok: number;
  latencies: number[];
  errorKinds: Record<string, number>;
  samples: string[];
  durationS: number;
  timedOut: boolean;
  /** When each successful operation finished, in ms since the start, in order. */
  doneAt: number[];
}

/** Stops every pool from starting new operations (Ctrl-C). */
export const stop = { requested: false };

/** Runs op(0..n-1) with at most `concurrency` in flight; stops starting new ones at the deadline. */
export async function pool(n: number, concurrency: number, maxSeconds: number, op: (i: number) => Promise<void>): Promise<PoolOutcome> {
  const out: PoolOutcome = { started: 0, ok: 0, latencies: [], errorKinds: {}, samples: [], durationS: 0, timedOut: false, doneAt: [] };
  const t0 = performance.now();
  const deadline = t0 + maxSeconds * 1000;
  let next = 0;
  const lane = async () => {
    while (next < n && !stop.requested) {
      if (performance.now() > deadline) {
        out.timedOut = true;
        return;
      }
      const i = next++;
      out.started++;
      const s = performance.now();
      try {
        await op(i);
        const e = performance.now();
        out.latencies.push(e - s);
        out.doneAt.push(e - t0);
        out.ok++;
      } catch (err) {
        const kind = err instanceof OpError ? err.kind : `exception:${err instanceof Error ? err.name : typeof err}`;
        out.errorKinds[kind] = (out.errorKinds[kind] ?? 0) + 1;
        if (out.samples.length < 5) out.samples.push(`${kind}: ${String(err instanceof Error ? err.message : err).slice(0, 300)}`);
      }
    }
  };
  await Promise.all(Array.from({ length: Math.min(concurrency, n) }, lane));
  out.durationS = (performance.now() - t0) / 1000;
  return out;
}

/**
 * Throughput over the first and the last quarter of the completed operations: a service whose cost grows with
 * the data it holds shows a last quarter well below the first.
 */
export function quarters(p: PoolOutcome): { first_quarter_ops_s: number; last_quarter_ops_s: number } | null {
  const k = Math.floor(p.doneAt.length / 4);
  if (k < 2) return null;
  const first = p.doneAt[k - 1];
  const last = p.doneAt[p.doneAt.length - 1] - p.doneAt[p.doneAt.length - 1 - k];
  return { first_quarter_ops_s: round(k / (first / 1000), 1), last_quarter_ops_s: round(k / (last / 1000), 1) };
}

let runSeq = 0;

export function resultOf(
  name: string,
  description: string,
  roundNo: number,
  concurrency: number,
  p: PoolOutcome,
  extra: Record<string, unknown> = {},
): ScenarioResult {
  const q = quarters(p);
  if (q) extra = { throughput_by_quarter: q, ...extra };
  return {
    name,
    description,
    round: roundNo,
    seq: ++runSeq,
    ops: p.started,
    ok: p.ok,
    errors: p.started - p.ok,
    error_kinds: p.errorKinds,
    error_samples: p.samples,
    concurrency,
    duration_s: round(p.durationS, 3),
    throughput_ops_s: p.durationS > 0 ? round(p.ok / p.durationS, 1) : 0,
    latency_ms: latencyOf(p.latencies),
    timed_out: p.timedOut,
    ...(Object.keys(extra).length ? { extra } : {}),
  };
}

/** A ratio measured once per round: its median is the figure, min and max its spread. */
export interface RatioSummary {
  median: number;
  min: number;
  max: number;
  rounds: number[];
}

export function summarize(values: number[]): RatioSummary | null {
  const v = values.filter((x) => Number.isFinite(x));
  if (v.length === 0) return null;
  const s = [...v].sort((a, b) => a - b);
  const mid = Math.floor(s.length / 2);
  const median = s.length % 2 ? s[mid] : (s[mid - 1] + s[mid]) / 2;
  return { median: round(median, 4), min: round(s[0], 4), max: round(s[s.length - 1], 4), rounds: v.map((x) => round(x, 4)) };
}

export const mean = (xs: number[]) => (xs.length ? xs.reduce((a, b) => a + b, 0) / xs.length : Number.NaN);

/**
 * Runs baseline, scenario, baseline, scenario, ..., baseline (R scenario runs, R+1 baseline runs), so that each
 * scenario run sits between two baseline runs of the same moment of the machine; round i's ratio compares scenario
 * run i with the baseline runs just before and just after it.
 */
export async function alternate<B, S>(
  rounds: number,
  baseline: (roundNo: number) => Promise<B>,
  scenario: (roundNo: number) => Promise<S>,
): Promise<{ pairs: { before: B; run: S; after: B }[] }> {
  const bs: B[] = [await baseline(0)];
  const runs: S[] = [];
  for (let r = 1; r <= rounds && !stop.requested; r++) {
    runs.push(await scenario(r));
    if (stop.requested) break;
    bs.push(await baseline(r));
  }
  return { pairs: runs.slice(0, bs.length - 1).map((run, i) => ({ before: bs[i], run, after: bs[i + 1] })) };
}

/** Server-Timing (`name;dur=12.3;desc="..."`, comma-separated) into name -> ms; entries without dur are left out. */
export function parseServerTiming(header: string | undefined): Record<string, number> {
  const out: Record<string, number> = {};
  if (!header) return out;
  for (const entry of header.split(',')) {
    const [name, ...params] = entry.trim().split(';');
    const dur = params.map((p) => /^\s*dur=([\d.]+)\s*$/.exec(p)?.[1]).find((d) => d !== undefined);
    if (name && dur !== undefined) out[name.trim()] = (out[name.trim()] ?? 0) + Number(dur);
  }
  return out;
}

/** Each Server-Timing metric's distribution (p50, p95, ...) over a scenario's answers; null when none carried it. */
export function timingDistribution(samples: Record<string, number[]> | undefined): Record<string, Latency | null> | null {
  if (!samples || Object.keys(samples).length === 0) return null;
  return Object.fromEntries(Object.entries(samples).map(([name, ms]) => [name, latencyOf(ms)]));
}

/**
 * The share of the answers' whole time (Server-Timing `total`, summed) per process: the provider, payment-state's
 * Begin, the wait in the queue, and the rest (the gateway itself, the worker around the provider call, and the
 * outcome's way back: Complete at payment-state, the payment event). Null without any `total`.
 */
export function timeShares(samples: Record<string, number[]> | undefined): Record<string, number> | null {
  const sum = (name: string) => (samples?.[name] ?? []).reduce((a, b) => a + b, 0);
  const total = sum('total');
  if (!total) return null;
  const parts = { provider: sum('provider'), 'payment-state': sum('payment-state'), queue: sum('queue') };
  const rest = total - parts.provider - parts['payment-state'] - parts.queue;
  return Object.fromEntries(Object.entries({ ...parts, 'gateway, worker and outcome report': rest }).map(([k, v]) => [k, round(v / total, 3)]));
}
