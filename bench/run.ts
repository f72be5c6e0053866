// The benchmark behind `npm run bench`: the service through its real processes, each scenario beside a baseline of
// what this machine's MongoDB server and Redis do without us, measured in the same run and interleaved with it
// (baseline, scenario, baseline, scenario, ... for R rounds), so that a ratio is the median of R per-round ratios
// with its spread. Scenarios: the rows of issue 24's table (create, create+confirm, refund, full lifecycle,
// retrieve, lists at 10k and 1M payments, worker scale-out with a slow provider, memory). Results go to
// bench/results/latest.json (ratios, targets, every run), bench/results/<timestamp>.json (the same) and
// bench/results/latest.md (ratios and targets side by side). See bench/README.md.
import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { Queue, Worker } from 'bullmq';
import { Redis } from 'ioredis';
import { MongoClient, type Collection, type Db } from 'mongodb';
import { OUTBOX_PENDING } from '../adapters/payment-store.ts';
import { Stack, sleep } from '../test/support/stack.ts';
import {
  alternate,
  mean,
  OpError,
  parseServerTiming,
  timeShares,
  timingDistribution,
  pool,
  resultOf,
  round,
  stop,
  summarize,
  latencyOf,
  type RatioSummary,
  type ScenarioResult,
} from './measure.ts';
import { findTemplates, seedPayments } from './seed.ts';
import { ProcessMemory, processMemory } from './smaps.ts';

const root = fileURLToPath(new URL('..', import.meta.url));
const resultsDir = fileURLToPath(new URL('./results/', import.meta.url));

// ---------------------------------------------------------------------------------------------------------------
// Settings

const SCENARIOS = ['create', 'confirm', 'refund', 'retrieve', 'lifecycle', 'confirm_oauth', 'scaleout', 'memory', 'lists'] as const;
type ScenarioName = (typeof SCENARIOS)[number];

function int(name: string, fallback: number, min = 0): number {
  const raw = process.env[name];
  if (raw === undefined || raw === '') return fallback;
  const n = Number(raw);
  if (!Number.isInteger(n) || n < min) throw new Error(`${name} must be an integer >= ${min}, got ${raw}`);
  return n;
}

const { values: args } = parseArgs({
  options: { only: { type: 'string' }, quick: { type: 'boolean' }, rounds: { type: 'string' }, help: { type: 'boolean', short: 'h' } },
  allowPositionals: false,
});
if (args.help) {
  console.log(`usage: npm run bench [-- --quick] [-- --only=<scenario,...>] [-- --rounds=R]
scenarios: ${SCENARIOS.join(', ')}
--quick: every scenario small (about a minute each; the lists at 1k vs 20k payments, memory over 2 x 200)
env: BENCH_ROUNDS, BENCH_N, BENCH_N_<SCENARIO>, BENCH_CONCURRENCY, BENCH_WARMUP, BENCH_MAX_SECONDS, ... (see bench/README.md)`);
  process.exit(0);
}
const onlyRaw = args.only ?? process.env.BENCH_ONLY ?? '';
const only = new Set(
  onlyRaw
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean),
);
for (const s of only) if (!(SCENARIOS as readonly string[]).includes(s)) throw new Error(`unknown scenario ${s}; one of ${SCENARIOS.join(', ')}`);
const quick = !!args.quick || process.env.BENCH_QUICK === '1';
/** The full run's figure, or the quick run's. */
const q = (full: number, small: number) => (quick ? small : full);
const nAll = process.env.BENCH_N ? int('BENCH_N', 0, 1) : undefined;
const roundsArg = args.rounds === undefined ? undefined : Number(args.rounds);
if (roundsArg !== undefined && !(Number.isInteger(roundsArg) && roundsArg >= 1)) throw new Error(`--rounds must be an integer >= 1, got ${args.rounds}`);

const settings = {
  quick,
  /** Rounds of baseline + scenario; a ratio is the median of the rounds' ratios. */
  rounds: roundsArg ?? int('BENCH_ROUNDS', 3, 1),
  // Operations per round.
  n_create: int('BENCH_N_CREATE', nAll ?? q(2000, 100), 1),
  n_confirm: int('BENCH_N_CONFIRM', nAll ?? q(1000, 50), 1),
  n_refund: int('BENCH_N_REFUND', nAll ?? q(1000, 50), 1),
  n_retrieve: int('BENCH_N_RETRIEVE', nAll ?? q(5000, 300), 1),
  n_lifecycle: int('BENCH_N_LIFECYCLE', nAll ?? q(300, 20), 1),
  n_mongo: int('BENCH_N_MONGO', nAll ?? q(2000, 300), 1),
  n_findone: int('BENCH_N_FINDONE', nAll ?? q(5000, 300), 1),
  n_job: int('BENCH_N_JOB', nAll ?? q(2000, 200), 1),
  n_scaleout: int('BENCH_N_SCALEOUT', nAll ?? q(1000, 60), 1),
  /** Requests per list kind and merchant per round. */
  n_list: int('BENCH_N_LIST', q(100, 8), 1),
  list_small: int('BENCH_LIST_SMALL', q(10_000, 300), 3),
  list_large: int('BENCH_LIST_LARGE', q(1_000_000, 3_000), 3),
  list_concurrency: int('BENCH_LIST_CONCURRENCY', q(4, 2), 1),
  list_refund_every: int('BENCH_LIST_REFUND_EVERY', 10, 0),
  /** Per list request: on a server that scans, a list of a large merchant can take long. */
  list_timeout_ms: int('BENCH_LIST_TIMEOUT_MS', q(60_000, 15_000), 1),
  n_memory: int('BENCH_N_MEMORY', q(100_000, 200), 1),
  memory_max_seconds: int('BENCH_MEMORY_MAX_SECONDS', q(7200, 120), 1),
  scaleout_workers: int('BENCH_SCALEOUT_WORKERS', 4, 2),
  scaleout_worker_concurrency: int('BENCH_SCALEOUT_WORKER_CONCURRENCY', 2, 1),
  /** The jobs at a time of each worker process in the scale-out's ceiling run (the stack's limit, not the workers'). */
  scaleout_ceiling_concurrency: int('BENCH_SCALEOUT_CEILING_CONCURRENCY', 25, 1),
  provider_delay_ms: int('BENCH_PROVIDER_DELAY_MS', 200, 0),
  concurrency: int('BENCH_CONCURRENCY', 32, 1),
  /** Operations run (and thrown away) before a scenario's first round: JIT, connection pools, caches. */
  warmup: int('BENCH_WARMUP', q(50, 10)),
  /** A pool stops starting operations after this long and is reported as timed out. */
  max_seconds: int('BENCH_MAX_SECONDS', 300, 1),
  /** The longest a run waits after its last answer for the stack's outbox to empty (counted in its duration). */
  settle_max_s: int('BENCH_SETTLE_MAX_S', 60, 1),
  /** The longest the lists wait, uncounted, for the outbox to empty before each size (the memory scenario's backlog). */
  list_settle_max_s: int('BENCH_LIST_SETTLE_MAX_S', 600, 0),
  request_timeout_ms: int('BENCH_REQUEST_TIMEOUT_MS', 30_000, 1),
  mongodb_url: process.env.MONGODB_URL || 'mongodb://127.0.0.1:27017',
  redis_url: process.env.REDIS_URL || 'redis://127.0.0.1:6379',
};
const enabled = (s: ScenarioName) => only.size === 0 || only.has(s);

/**
 * The environment of the stack's processes. The test harness's defaults are short test timings (2 s job locks,
 * a sweeper every second); a benchmark should see the service's own defaults (lib/config.ts), so they are set
 * back here. LOG_LEVEL stays 'info': the harness waits for each process's info-level "listening"/"ready" line.
 * SANDBOX_SLOW_MS is the provider's delay for customers tagged `+slow` (the scale-out scenario's only).
 */
const stackEnv: Record<string, string> = {
  LOG_LEVEL: 'info',
  CONFIRM_WAIT_MS: '10000',
  JOB_LOCK_MS: '30000',
  JOB_BACKOFF_MS: '1000',
  SWEEP_INTERVAL_MS: '15000',
  SWEEP_AFTER_MS: '60000',
  SYNC_DELAYS_MS: '2000,5000,10000,30000,60000,300000,300000,300000,300000,300000',
  // A benchmark measures the service, not the per-key limit it would hit at once with one key.
  RATE_LIMIT_PER_SECOND: '0',
  SANDBOX_SLOW_MS: String(settings.provider_delay_ms),
  ...parseStackEnv(process.env.BENCH_STACK_ENV ?? ''),
};

function parseStackEnv(raw: string): Record<string, string> {
  const out: Record<string, string> = {};
  for (const pair of raw
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean)) {
    const eq = pair.indexOf('=');
    if (eq <= 0) throw new Error(`BENCH_STACK_ENV: expected NAME=value[,NAME=value...], got ${pair}`);
    out[pair.slice(0, eq)] = pair.slice(eq + 1);
  }
  return out;
}

for (const [name, url] of [
  ['MONGODB_URL', settings.mongodb_url],
  ['REDIS_URL', settings.redis_url],
] as const) {
  const host = new URL(url).hostname;
  if (!['127.0.0.1', 'localhost', '::1', '[::1]'].includes(host)) throw new Error(`${name} must point at this machine (127.0.0.1), got ${host}`);
}

const log = (msg: string) => process.stderr.write(`bench: ${msg}\n`);
const abortAll = new AbortController();

// ---------------------------------------------------------------------------------------------------------------
// Baselines: raw insertOne, raw findOne, one raw BullMQ job's round trip (add -> completed), same concurrency.

/** A document of about the size of the service's transition records' top level plus some payload. */
function scratchDoc(i: number) {
  return {
    merchant_id: 'merchant_bench',
    payment_id: `pay_${i}_${randomBytes(10).toString('hex')}`,
    seq: 0,
    at: new Date().toISOString(),
    action: 'create',
    operation_id: null,
    from: null,
    to: 'requires_confirmation',
    payload: randomBytes(256).toString('hex'),
  };
}

class Baselines {
  private readonly client: MongoClient;
  private readonly dbName = `bench_scratch_${randomBytes(4).toString('hex')}`;
  private inserts?: Collection;
  private docs?: { coll: Collection; ids: string[] };
  private job?: { queue: Queue; worker: Worker; waiting: Map<string, () => void>; producer: Redis; consumer: Redis };
  private readonly warmed = new Set<string>();
  server: { version: string | null; ferretdb: string | null } = { version: null, ferretdb: null };

  constructor() {
    // Same pool size as the service's connections (lib/mongo.ts).
    // timeoutMS: an operation the server does not answer counts as an error instead of holding the run.
    this.client = new MongoClient(settings.mongodb_url, { serverSelectionTimeoutMS: 10_000, maxPoolSize: 50, timeoutMS: settings.request_timeout_ms });
  }

  private async db(): Promise<Db> {
    if (!this.inserts) {
      await this.client.connect();
      const info = await this.client
        .db('admin')
        .command({ buildInfo: 1 })
        .catch(() => ({}) as Record<string, unknown>);
      this.server = {
        version: typeof info.version === 'string' ? info.version : null,
        ferretdb: typeof info.ferretdbVersion === 'string' ? info.ferretdbVersion : null,
      };
      this.inserts = this.client.db(this.dbName).collection('inserts');
    }
    return this.client.db(this.dbName);
  }

  private async warm(name: string, op: (i: number) => Promise<void>) {
    if (this.warmed.has(name) || !settings.warmup) return;
    this.warmed.add(name);
    await pool(settings.warmup, settings.concurrency, settings.max_seconds, (i) => op(-1 - i));
  }

  /** Raw insertOne (about 0.6 kB, no secondary index) into a scratch collection. */
  async insert(roundNo: number): Promise<ScenarioResult> {
    await this.db();
    const coll = this.inserts!;
    const op = async (i: number) => {
      const r = await coll.insertOne(scratchDoc(i));
      if (!r.acknowledged) throw new OpError('not_acknowledged', 'insertOne not acknowledged');
    };
    await this.warm('insert', op);
    return resultOf(
      'baseline_insert',
      'raw insertOne into a scratch collection (no secondary index), same MongoDB server',
      roundNo,
      settings.concurrency,
      await pool(settings.n_mongo, settings.concurrency, settings.max_seconds, op),
    );
  }

  /** Raw findOne by a unique compound index (payment_id, merchant_id), as the service reads a payment. */
  async findOne(roundNo: number): Promise<ScenarioResult> {
    const db = await this.db();
    if (!this.docs) {
      const coll = db.collection('docs');
      await coll.createIndex({ payment_id: 1, merchant_id: 1 }, { unique: true });
      const docs = Array.from({ length: 1000 }, (_, i) => scratchDoc(i));
      await coll.insertMany(docs);
      this.docs = { coll, ids: docs.map((d) => d.payment_id) };
    }
    const { coll, ids } = this.docs;
    const op = async (i: number) => {
      const d = await coll.findOne({ payment_id: ids[Math.abs(i) % ids.length], merchant_id: 'merchant_bench' }, { projection: { _id: 0 } });
      if (!d) throw new OpError('not_found', 'findOne found nothing');
    };
    await this.warm('findone', op);
    return resultOf(
      'baseline_findone',
      'raw findOne by a unique (payment_id, merchant_id) index, 1000 documents of about 0.6 kB, same MongoDB server',
      roundNo,
      settings.concurrency,
      await pool(settings.n_findone, settings.concurrency, settings.max_seconds, op),
    );
  }

  /** One BullMQ job per operation: queue.add, then wait until a no-op Worker (same process) has completed it. */
  async jobRoundTrip(roundNo: number): Promise<ScenarioResult> {
    if (!this.job) {
      const prefix = `bench-${randomBytes(4).toString('hex')}`;
      const producer = new Redis(settings.redis_url, { maxRetriesPerRequest: null });
      const consumer = new Redis(settings.redis_url, { maxRetriesPerRequest: null });
      const queue = new Queue('bench-roundtrip', { connection: producer, prefix });
      const waiting = new Map<string, () => void>();
      const worker = new Worker('bench-roundtrip', async () => ({ ok: true }), { connection: consumer, prefix, concurrency: 50 });
      worker.on('completed', (job) => {
        const done = job.id ? waiting.get(job.id) : undefined;
        if (job.id) waiting.delete(job.id);
        done?.();
      });
      worker.on('error', (err) => log(`bullmq worker error: ${err.message}`));
      await worker.waitUntilReady();
      await queue.waitUntilReady();
      this.job = { queue, worker, waiting, producer, consumer };
    }
    const { queue, waiting } = this.job;
    // The service's connector job options (adapters/queue.ts jobOptions) and a payload of a connector job's size.
    const opts = { attempts: 6, backoff: { type: 'exponential' as const, delay: 1000 }, removeOnComplete: { age: 24 * 3600, count: 100_000 } };
    const op = async (i: number) => {
      const id = `op_${i}_${randomBytes(10).toString('hex')}`;
      const completed = new Promise<void>((resolve, reject) => {
        const timer = setTimeout(() => {
          waiting.delete(id);
          reject(new OpError('timeout', `job ${id} not completed in ${settings.request_timeout_ms} ms`));
        }, settings.request_timeout_ms);
        waiting.set(id, () => {
          clearTimeout(timer);
          resolve();
        });
      });
      await queue.add(
        'authorize',
        {
          merchant_id: 'merchant_bench',
          payment_id: `pay_${randomBytes(13).toString('hex')}`,
          operation_id: id,
          kind: 'authorize',
          connector: 'service_test',
          amount: 10_000,
          currency: 'EUR',
          capture_method: 'automatic',
          customer_email: 'bench@example.com',
          mode: 'execute',
          sync_round: 0,
        },
        { ...opts, jobId: id },
      );
      await completed;
    };
    await this.warm('job', op);
    return resultOf(
      'baseline_job_roundtrip',
      'raw BullMQ: queue.add of one job, then its completion by a no-op Worker (concurrency 50, same process)',
      roundNo,
      settings.concurrency,
      await pool(settings.n_job, settings.concurrency, settings.max_seconds, op),
    );
  }

  async close(): Promise<void> {
    if (this.job) {
      await this.job.worker.close().catch(() => undefined);
      await this.job.queue.obliterate({ force: true }).catch((err) => log(`could not obliterate the bench queue: ${(err as Error).message}`));
      await this.job.queue.close().catch(() => undefined);
      this.job.producer.disconnect();
      this.job.consumer.disconnect();
    }
    if (this.inserts)
      await this.client
        .db(this.dbName)
        .dropDatabase()
        .catch((err) => log(`could not drop ${this.dbName}: ${(err as Error).message}`));
    await this.client.close().catch(() => undefined);
  }
}

// ---------------------------------------------------------------------------------------------------------------
// The gateway

const paymentBody = { amount: 10_000, currency: 'EUR', customer: { email: 'bench@example.com' } };
const confirmBody = { ...paymentBody, confirm: true, payment_method: 'pay_later' };

/**
 * The bench's own keep-alive connections to the gateway (node:http rather than fetch, so that they can be closed
 * before the stack stops: the gateway's graceful shutdown otherwise waits for open keep-alive connections).
 */
const agent = new http.Agent({
  keepAlive: true,
  maxSockets: Math.max(settings.concurrency, settings.scaleout_workers * settings.scaleout_worker_concurrency * 8),
});

/** Server-Timing entries of the answers, by the scenario that is being measured (none while preparing). */
const serverTimings = new Map<string, Record<string, number[]>>();
let timingScenario: string | null = null;

function request(
  method: string,
  url: string,
  headers: Record<string, string>,
  body: string | undefined,
  timeoutMs: number,
): Promise<{ status: number; text: string; timing?: string }> {
  return new Promise((resolve, reject) => {
    const req = http.request(
      url,
      {
        method,
        agent,
        headers: body === undefined ? headers : { ...headers, 'content-length': String(Buffer.byteLength(body)) },
        signal: AbortSignal.any([AbortSignal.timeout(timeoutMs), abortAll.signal]),
      },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () => {
          const t = res.headers['server-timing'];
          resolve({ status: res.statusCode ?? 0, text: Buffer.concat(chunks).toString(), timing: Array.isArray(t) ? t.join(',') : t });
        });
        res.on('error', reject);
      },
    );
    req.on('error', reject);
    req.end(body);
  });
}

type Expect = string | ((status: string) => boolean);

/** Calls the gateway; the answer must be 200 with a `status` that `expect` accepts. Returns the answer's body. */
async function api(
  gatewayUrl: string,
  apiKey: string,
  method: string,
  path: string,
  body: unknown,
  expect: Expect,
  timeoutMs = settings.request_timeout_ms,
): Promise<Record<string, unknown>> {
  let res: { status: number; text: string; timing?: string };
  try {
    res = await request(
      method,
      `${gatewayUrl}${path}`,
      { 'api-key': apiKey, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
      body === undefined ? undefined : JSON.stringify(body),
      timeoutMs,
    );
  } catch (err) {
    const e = err as Error & { code?: string; cause?: { name?: string } };
    const timedOut = e.name === 'TimeoutError' || e.cause?.name === 'TimeoutError';
    throw new OpError(timedOut ? 'timeout' : `network:${e.code ?? e.name}`, e.message);
  }
  if (timingScenario) {
    const bucket = serverTimings.get(timingScenario) ?? {};
    for (const [name, ms] of Object.entries(parseServerTiming(res.timing))) (bucket[name] ??= []).push(ms);
    serverTimings.set(timingScenario, bucket);
  }
  if (res.status !== 200) throw new OpError(`http_${res.status}`, res.text);
  let answer: unknown;
  try {
    answer = JSON.parse(res.text);
  } catch {
    throw new OpError('bad_json', res.text);
  }
  if (typeof answer !== 'object' || answer === null || Array.isArray(answer)) throw new OpError('bad_json', res.text);
  const status = String((answer as Record<string, unknown>).status);
  const ok = typeof expect === 'string' ? status === expect : expect(status);
  if (!ok) throw new OpError(`status_${status}`, res.text);
  return answer as Record<string, unknown>;
}

const anyStatus = () => true;
const idOf = (p: Record<string, unknown>, field = 'payment_id'): string => {
  const v = p[field];
  if (typeof v !== 'string') throw new OpError('bad_answer', `no ${field} in ${JSON.stringify(p).slice(0, 200)}`);
  return v;
};

// ---------------------------------------------------------------------------------------------------------------
// Report

interface ScenarioReport {
  description: string;
  runs: ScenarioResult[];
  baselines: ScenarioResult[];
  ratios: Record<string, RatioSummary | null>;
  notes: string[];
  extra?: Record<string, unknown>;
}

const RATIO_KEYS = ['create_vs_insert', 'confirm_vs_insert', 'refund_vs_insert', 'retrieve_vs_findone', 'list_1m_vs_10k_p50', 'scaleout_4_vs_1'] as const;
type RatioKey = (typeof RATIO_KEYS)[number];

/** Issue 24's table: each row's figure, where it comes from, and its target. */
const TARGETS: { row: string; figure: string; target: string; met: (v: number) => boolean; scenario: ScenarioName }[] = [
  { row: 'create (POST /payments) throughput', figure: 'create_vs_insert', target: '≥ 0.40 × raw insertOne', met: (v) => v >= 0.4, scenario: 'create' },
  {
    row: 'create+confirm, provider answering at once: throughput',
    figure: 'confirm_vs_insert',
    target: '≥ 0.20 × raw insertOne',
    met: (v) => v >= 0.2,
    scenario: 'confirm',
  },
  {
    row: 'create+confirm: p50',
    figure: 'confirm_p50_vs_insert_plus_job_p50',
    target: '≤ 4 × (p50 raw insert + p50 raw job round trip)',
    met: (v) => v <= 4,
    scenario: 'confirm',
  },
  { row: 'refund of a captured payment', figure: 'refund_vs_insert', target: '≥ 0.20 × raw insertOne', met: (v) => v >= 0.2, scenario: 'refund' },
  { row: 'GET /payments/{id}', figure: 'retrieve_vs_findone', target: '≥ 0.50 × raw findOne', met: (v) => v >= 0.5, scenario: 'retrieve' },
  {
    row: 'lists at 1M payments of one merchant (worst of the three)',
    figure: 'list_1m_vs_10k_p50',
    target: 'p50 ≤ 1.5 × p50 at 10k',
    met: (v) => v <= 1.5,
    scenario: 'lists',
  },
  {
    row: 'worker scale-out, 200 ms provider',
    figure: 'scaleout_4_vs_1',
    target: '4 worker processes ≥ 3.5 × 1',
    met: (v) => v >= 3.5,
    scenario: 'scaleout',
  },
  {
    row: "memory: whole stack (node processes) after 2 × N payments, as the only processes to map node (each one's own pages + one copy of the pages they share)",
    figure: 'memory_total_alone_mb',
    target: '< 600 MB',
    met: (v) => v < 600,
    scenario: 'memory',
  },
  {
    row: 'memory: growth across the second N payments (largest, per process)',
    figure: 'memory_max_growth_pct',
    target: 'none (≤ 5 % per process)',
    met: (v) => v <= 5,
    scenario: 'memory',
  },
];

interface Report {
  timestamp: string;
  quick: boolean;
  git: { commit: string | null; dirty: boolean | null };
  machine: ReturnType<typeof machine>;
  services: { mongodb: string | null; redis: string | null };
  settings: typeof settings & { scenarios: ScenarioName[]; stack_env: Record<string, string> };
  /** Issue 24's ratios: the median over the rounds (null when the scenario did not run: see ratio_notes). */
  ratios: Record<RatioKey, number | null>;
  ratio_notes: Partial<Record<RatioKey, string>>;
  /** Every figure a target is judged on, with its spread over the rounds. */
  figures: Record<string, RatioSummary | null>;
  targets: { row: string; figure: string; value: number | null; spread: string | null; target: string; met: boolean | null; note?: string }[];
  scenarios: Partial<Record<ScenarioName, ScenarioReport>>;
  stack: Record<string, unknown> | null;
}

// ---------------------------------------------------------------------------------------------------------------
// The scenarios

const scenarioReports: Partial<Record<ScenarioName, ScenarioReport>> = {};
const figures: Record<string, RatioSummary | null> = {};
const notRun: Partial<Record<string, string>> = {};

const tput = (rs: ScenarioResult[]) => mean(rs.map((r) => r.throughput_ops_s));
const p50 = (rs: ScenarioResult[]) => mean(rs.map((r) => r.latency_ms?.p50 ?? Number.NaN));

/** Warm-up operations before a scenario's first round, not counted. */
async function warmUp(name: string, op: (i: number) => Promise<void>) {
  if (!settings.warmup) return;
  log(`${name}: warm-up (${settings.warmup})`);
  await pool(settings.warmup, settings.concurrency, settings.max_seconds, (i) => op(-1 - i));
  await settleStack();
}

/**
 * Waits until the stack has no transition left in the outbox: the relay's work (events, deliveries) that operations
 * leave behind their answers. Returns the seconds it took (at most `maxS`, BENCH_SETTLE_MAX_S unless given) and
 * whether the outbox emptied. A throughput round's duration includes them, so work deferred past the answer is charged
 * to the scenario that caused it, not to the baseline run after it (which it would slow down: the database is
 * shared). The memory scenario's rounds do not wait (their figures are memory, not throughputs); the lists wait before
 * they start, uncounted, for the backlog the memory scenario's bursts leave (minutes of relay work on FerretDB), which
 * would otherwise drain through them (bench/README.md, "The fifth day").
 */
async function settleStack(maxS = settings.settle_max_s): Promise<{ seconds: number; drained: boolean }> {
  const stack = current;
  if (!stack) return { seconds: 0, drained: true };
  const t0 = performance.now();
  const transitions = (await stack.db()).collection('transitions');
  const deadline = t0 + maxS * 1000;
  for (;;) {
    const pending = await transitions.findOne({ outbox: OUTBOX_PENDING }, { projection: { _id: 1 } });
    const seconds = (performance.now() - t0) / 1000;
    if (!pending || performance.now() >= deadline) return { seconds, drained: !pending };
    await sleep(50);
  }
}

/** Times a pool of the scenario's operations as one round. */
async function timed(
  name: string,
  description: string,
  roundNo: number,
  n: number,
  concurrency: number,
  op: (i: number) => Promise<void>,
  maxSeconds = settings.max_seconds,
  settle = true,
) {
  timingScenario = name;
  try {
    const p = await pool(n, concurrency, maxSeconds, op);
    const settleS = settle ? (await settleStack()).seconds : 0;
    const r = resultOf(name, description, roundNo, concurrency, { ...p, durationS: p.durationS + settleS }, { settle_s: round(settleS, 3) });
    log(
      `${name} round ${roundNo}: ${r.throughput_ops_s} ops/s, p50 ${r.latency_ms?.p50 ?? '-'} ms, errors ${r.errors}${r.errors ? ` (${r.error_samples[0]?.slice(0, 200)})` : ''}`,
    );
    return r;
  } finally {
    timingScenario = null;
  }
}

/** Untimed: runs `make` n times at the bench's concurrency and returns what each gave (failures left out). */
async function prepare<T>(what: string, n: number, make: (i: number) => Promise<T>): Promise<T[]> {
  log(`preparing ${n} ${what}`);
  const out: T[] = [];
  const p = await pool(n, settings.concurrency, settings.max_seconds * 4, async (i) => {
    out.push(await make(i));
  });
  if (p.ok < n) log(`preparing ${what}: ${n - p.ok} failed (${p.samples.join('; ')})`);
  return out;
}

/**
 * A throughput scenario against a baseline: R rounds of scenario between baseline runs; the ratio of each round is
 * the scenario's throughput over the mean of the baseline runs just before and after it.
 */
async function versusBaseline(
  name: ScenarioName,
  description: string,
  n: number,
  ratioKey: RatioKey | null,
  baseline: (roundNo: number) => Promise<ScenarioResult[]>,
  op: (i: number, roundNo: number) => Promise<void>,
): Promise<ScenarioReport> {
  await warmUp(name, (i) => op(i, 0));
  const { pairs } = await alternate(settings.rounds, baseline, (r) => timed(name, description, r, n, settings.concurrency, (i) => op((r - 1) * n + i, r)));
  const first = (rs: ScenarioResult[]) => rs.filter((r) => r.name === rs[0].name);
  const ratio = summarize(pairs.map((p) => p.run.throughput_ops_s / tput([...first(p.before), ...first(p.after)])));
  const rep: ScenarioReport = {
    description,
    runs: pairs.map((p) => p.run),
    baselines: [...(pairs[0]?.before ?? []), ...pairs.flatMap((p) => p.after)],
    ratios: { [ratioKey ?? `${name}_vs_${first(pairs[0]?.before ?? [])[0]?.name ?? 'baseline'}`]: ratio },
    notes: [],
    extra: { server_timing_ms: timingDistribution(serverTimings.get(name)) },
  };
  if (ratioKey) figures[ratioKey] = ratio;
  return rep;
}

interface StackProcess extends ProcessMemory {
  pid: number;
  part: string;
}

/** The stack's processes (children of this one), by part, with their memory (bench/smaps.ts). */
function stackProcesses(): StackProcess[] {
  const pids = (sh('pgrep', ['-P', String(process.pid)]) ?? '').split('\n').filter(Boolean).map(Number);
  const out: StackProcess[] = [];
  for (const pid of pids) {
    try {
      const cmd = readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0').filter(Boolean);
      const entry = cmd.find((a) => /(gateway|workers|payment-state|provider-sandbox)\/(webhooks\/)?main\.ts$/.test(a));
      if (!entry) continue;
      const connector = cmd[cmd.indexOf('--connector') + 1];
      const part = entry.startsWith('workers/webhooks')
        ? 'worker-webhooks'
        : entry.startsWith('workers/')
          ? `worker${connector && cmd.includes('--connector') ? ` (${connector})` : ''}`
          : entry.split('/').at(-2)!;
      out.push({ pid, part, ...processMemory(pid) });
    } catch (err) {
      // Gone meanwhile; anything else (an smaps_rollup without a field) would make the sums wrong.
      if (!['ENOENT', 'ESRCH'].includes((err as NodeJS.ErrnoException).code ?? '')) throw err;
    }
  }
  return out.sort((a, b) => a.part.localeCompare(b.part) || a.pid - b.pid);
}

/** Extra worker processes of one connector, beside the stack (the scale-out scenario's). */
const extraWorkers = new Set<ChildProcess>();

async function startWorker(stack: Stack, connector: string, concurrency: number): Promise<ChildProcess> {
  const env: NodeJS.ProcessEnv = { ...process.env, ...stack.env, WORKER_CONCURRENCY: String(concurrency) };
  delete env.HEALTH_PORT;
  const child = spawn(process.execPath, ['workers/main.ts', '--connector', connector], { cwd: root, env, stdio: ['ignore', 'pipe', 'pipe'] });
  extraWorkers.add(child);
  child.once('exit', () => extraWorkers.delete(child));
  const lines: string[] = [];
  const collect = (buf: Buffer) => lines.push(...buf.toString().split('\n').filter(Boolean));
  child.stdout!.on('data', collect);
  child.stderr!.on('data', collect);
  const deadline = Date.now() + 30_000;
  while (!lines.some((l) => l.includes('worker ready'))) {
    if (child.exitCode !== null) throw new Error(`worker exited: ${lines.slice(-10).join('\n')}`);
    if (Date.now() > deadline) {
      child.kill('SIGKILL');
      throw new Error(`worker did not start: ${lines.slice(-10).join('\n')}`);
    }
    await new Promise((r) => setTimeout(r, 50));
  }
  // Only warnings and errors are kept (an info line per job would fill the memory).
  const problems = lines.filter((l) => /"level":"(warn|error)"/.test(l));
  child.stdout!.removeAllListeners('data');
  child.stderr!.removeAllListeners('data');
  const keep = (buf: Buffer) =>
    problems.push(
      ...buf
        .toString()
        .split('\n')
        .filter((l) => /"level":"(warn|error)"/.test(l)),
    );
  child.stdout!.on('data', keep);
  child.stderr!.on('data', keep);
  extraWorkerProblems.set(child, problems);
  return child;
}
const extraWorkerProblems = new Map<ChildProcess, string[]>();

async function stopWorker(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return;
  const exited = new Promise((r) => child.once('exit', r));
  child.kill('SIGTERM');
  await exited;
}

async function serviceScenarios(run: Set<ScenarioName>, base: Baselines): Promise<Record<string, unknown>> {
  log(`starting the stack (payment-state, provider-sandbox, worker, worker-webhooks, gateway; env ${JSON.stringify(stackEnv)})`);
  let stack: Stack;
  try {
    stack = await Stack.start(stackEnv);
  } catch (err) {
    await killStrayParts();
    throw err;
  }
  current = stack;
  const stackInfo: Record<string, unknown> = { env: stackEnv, db: stack.dbName, redis_prefix: stack.env.REDIS_PREFIX };
  const gw = stack.gatewayUrl;
  try {
    const db = await stack.db(); // also makes stack.stop() drop the stack's database
    const { api_key: key, merchant_id: merchantId } = await stack.merchant();
    const insertRound = async (r: number) => [await base.insert(r)];
    const create = (body: unknown = paymentBody) => api(gw, key, 'POST', '/payments', body, 'requires_confirmation');
    const confirm = (body: unknown = confirmBody) => api(gw, key, 'POST', '/payments', body, 'succeeded');

    if (run.has('create') && !stop.requested) {
      scenarioReports.create = await versusBaseline(
        'create',
        'POST /payments (status requires_confirmation) vs raw insertOne',
        settings.n_create,
        'create_vs_insert',
        insertRound,
        async () => void (await create()),
      );
    }

    if (run.has('confirm') && !stop.requested) {
      const description =
        'POST /payments with confirm=true, automatic capture, the provider answering at once: gateway -> payment-state (gRPC) -> BullMQ -> worker -> provider sandbox -> payment-state (status succeeded), vs raw insertOne; p50 vs p50 of one raw insert + one raw job round trip';
      const rep = await versusBaseline(
        'confirm',
        description,
        settings.n_confirm,
        'confirm_vs_insert',
        async (r) => [await base.insert(r), await base.jobRoundTrip(r)],
        async () => void (await confirm()),
      );
      // p50 of the confirm over (p50 of a raw insert + p50 of a raw job round trip), both from the runs around it.
      const perRound = rep.runs.map((run, i) => {
        const around = [rep.baselines.slice(i * 2, i * 2 + 2), rep.baselines.slice(i * 2 + 2, i * 2 + 4)].flat();
        const ins = around.filter((b) => b.name === 'baseline_insert');
        const job = around.filter((b) => b.name === 'baseline_job_roundtrip');
        return (run.latency_ms?.p50 ?? Number.NaN) / (p50(ins) + p50(job));
      });
      figures.confirm_p50_vs_insert_plus_job_p50 = rep.ratios.confirm_p50_vs_insert_plus_job_p50 = summarize(perRound);
      scenarioReports.confirm = rep;
    }

    if (run.has('refund') && !stop.requested) {
      const total = settings.rounds * settings.n_refund + settings.warmup;
      const captured = await prepare('captured payments to refund', total, async () => idOf(await confirm()));
      let next = 0;
      scenarioReports.refund = await versusBaseline(
        'refund',
        'POST /refunds of the whole amount of a captured payment (created and confirmed beforehand, untimed) through payment-state, BullMQ, worker and provider sandbox (refund status succeeded), vs raw insertOne',
        settings.n_refund,
        'refund_vs_insert',
        insertRound,
        async () => {
          const id = captured[next++];
          if (!id) throw new OpError('not_prepared', 'no captured payment left (its preparation failed)');
          await api(gw, key, 'POST', '/refunds', { payment_id: id }, 'succeeded');
        },
      );
    }

    if (run.has('retrieve') && !stop.requested) {
      const ids = await prepare('captured payments to read', Math.min(200, settings.n_retrieve), async () => idOf(await confirm()));
      if (ids.length === 0) throw new Error('retrieve: no payment to read (their creation failed)');
      scenarioReports.retrieve = await versusBaseline(
        'retrieve',
        'GET /payments/{id} of a captured payment (200 payments read in turn) vs raw findOne by a unique index',
        settings.n_retrieve,
        'retrieve_vs_findone',
        async (r) => [await base.findOne(r)],
        async (i) => void (await api(gw, key, 'GET', `/payments/${ids[Math.abs(i) % ids.length]}`, undefined, 'succeeded')),
      );
    }

    if (run.has('lifecycle') && !stop.requested) scenarioReports.lifecycle = await lifecycle(gw, key);

    if (run.has('confirm_oauth') && !stop.requested) {
      // Ratepay: OAuth2 client credentials (one token for every job, from the Redis cache), decimals, a full order. A
      // merchant of its own: with a connector account, the main merchant's payments would be routed to it.
      const oauth = await stack.merchant({ merchant_name: 'Bench OAuth connector' });
      const account = await stack.api(
        'POST',
        `/account/${oauth.merchant_id}/connectors`,
        {
          connector_name: 'ratepay',
          connector_account_details: {
            auth_type: 'BodyKey',
            api_key: 'ratepay_sandbox_client',
            key1: 'ratepay_sandbox_client_secret',
            key2: 'INTEGRATION_TE_DACH',
          },
        },
        stack.adminKey,
      );
      if (account.status !== 200) throw new Error(`ratepay connector account: ${account.status} ${JSON.stringify(account.body)}`);
      const ratepayBody = (i: number) => ({
        ...paymentBody,
        confirm: true,
        payment_method: 'pay_later',
        payment_method_type: 'invoice',
        capture_method: 'manual',
        connector: ['ratepay'],
        billing: { address: { line1: 'Allee 84', zip: '10439', city: 'Berlin', country: 'DE', first_name: 'Hanna', last_name: 'Schmidt' } },
        order_details: [{ product_name: 'Jacket', quantity: 1, amount: 10_000, tax_percentage: 19 }],
        metadata: { birth_date: '1985-02-11', buyer_type: 'private' },
        browser_info: {
          ip_address: '203.0.113.7',
          user_agent: 'Mozilla/5.0',
          device_fingerprint: { ratepay: `bench-dfp-${i}-${randomBytes(4).toString('hex')}` },
        },
      });
      scenarioReports.confirm_oauth = await versusBaseline(
        'confirm_oauth',
        'POST /payments with confirm=true, manual capture, through the ratepay connector (OAuth2 token from the Redis cache, decimals, full order) to its imitation (status requires_capture), vs raw insertOne',
        settings.n_confirm,
        null,
        insertRound,
        async (i) => void (await api(gw, oauth.api_key, 'POST', '/payments', ratepayBody(i), 'requires_capture')),
      );
    }

    if (run.has('scaleout') && !stop.requested) scenarioReports.scaleout = await scaleOut(stack, gw, key);
    if (run.has('memory') && !stop.requested) scenarioReports.memory = await memory(gw, key);
    if (run.has('lists') && !stop.requested) scenarioReports.lists = await lists(stack, db, base);

    // What the service recorded, as a cross-check of the answers (warm-up and preparation included).
    const byStatus = await db
      .collection('payments')
      .aggregate<{ _id: string; n: number }>([{ $match: { merchant_id: merchantId } }, { $group: { _id: '$status', n: { $sum: 1 } } }])
      .toArray()
      .catch((err) => [{ _id: `error: ${(err as Error).message}`, n: 0 }]);
    stackInfo.payments_by_status = Object.fromEntries(byStatus.map((x) => [x._id, x.n]));
    // Warnings and errors the processes logged (the full logs stay in memory only).
    const problems: Record<string, { count: number; samples: string[] }> = {};
    for (const [part, lines] of Object.entries(stack.logs)) {
      const bad = lines.filter((l) => /"level":"(warn|error)"/.test(l) || (!l.startsWith('{') && l.trim() !== '--- process stopped ---'));
      if (bad.length) problems[part] = { count: bad.length, samples: bad.slice(0, 5).map((l) => l.slice(0, 400)) };
    }
    const extra = [...extraWorkerProblems.values()].flat();
    if (extra.length) problems['worker (scale-out)'] = { count: extra.length, samples: extra.slice(0, 5).map((l) => l.slice(0, 400)) };
    stackInfo.log_problems = problems;
  } finally {
    await stopStack();
  }
  return stackInfo;
}

/** Create (manual capture, several captures allowed), confirm, two partial captures, a partial refund: one lifecycle. */
async function lifecycle(gw: string, key: string): Promise<ScenarioReport> {
  const description =
    'one lifecycle: POST /payments (capture_method manual_multiple), POST /payments/{id}/confirm, two partial POST /payments/{id}/capture (4000 and 3000 of 10000), POST /refunds of 5000; lifecycles per second and the latency of a whole lifecycle';
  const steps: Record<string, number[]> = { create: [], confirm: [], capture_1: [], capture_2: [], refund: [] };
  const step = async <T>(name: string, f: () => Promise<T>): Promise<T> => {
    const t = performance.now();
    const out = await f();
    steps[name].push(performance.now() - t);
    return out;
  };
  const notFailed = (s: string) => !['failed', 'processing', 'cancelled'].includes(s);
  const op = async () => {
    const id = idOf(
      await step('create', () => api(gw, key, 'POST', '/payments', { ...paymentBody, capture_method: 'manual_multiple' }, 'requires_confirmation')),
    );
    await step('confirm', () => api(gw, key, 'POST', `/payments/${id}/confirm`, { payment_method: 'pay_later' }, 'requires_capture'));
    await step('capture_1', () => api(gw, key, 'POST', `/payments/${id}/capture`, { amount_to_capture: 4000 }, notFailed));
    await step('capture_2', () => api(gw, key, 'POST', `/payments/${id}/capture`, { amount_to_capture: 3000 }, notFailed));
    await step('refund', () => api(gw, key, 'POST', '/refunds', { payment_id: id, amount: 5000 }, 'succeeded'));
  };
  await warmUp('lifecycle', op);
  for (const k of Object.keys(steps)) steps[k].length = 0;
  const runs: ScenarioResult[] = [];
  for (let r = 1; r <= settings.rounds && !stop.requested; r++)
    runs.push(await timed('lifecycle', description, r, settings.n_lifecycle, settings.concurrency, op));
  figures.lifecycle_ops_s = summarize(runs.map((r) => r.throughput_ops_s));
  figures.lifecycle_p50_ms = summarize(runs.map((r) => r.latency_ms?.p50 ?? Number.NaN));
  const timing = serverTimings.get('lifecycle');
  const notes = timing ? [] : ['no answer carried Server-Timing: the share of time per process is not measured'];
  return {
    description,
    runs,
    baselines: [],
    ratios: {},
    notes,
    extra: {
      step_latency_ms: Object.fromEntries(Object.entries(steps).map(([k, v]) => [k, latencyOf(v)])),
      server_timing_ms: timingDistribution(timing),
      time_share: timeShares(timing),
    },
  };
}

/**
 * 1 worker process of service_test vs `scaleout_workers` of them, the provider answering after provider_delay_ms
 * (the sandbox's `+slow` tag, SANDBOX_SLOW_MS), each worker with scaleout_worker_concurrency jobs at a time so that
 * the workers are what bounds the throughput: 1, N, 1, N, ..., 1 (the stack's own worker is stopped meanwhile). Then
 * once the stack's ceiling: N processes with scaleout_ceiling_concurrency jobs each, so that the workers do not bound
 * it; the N-process figure means something only while it stays below that.
 */
async function scaleOut(stack: Stack, gw: string, key: string): Promise<ScenarioReport> {
  const k = settings.scaleout_workers;
  const c = settings.scaleout_worker_concurrency;
  // Every job slot of the N processes busy, twice over; no more, or the 1-process phase's requests queue past the
  // gateway's confirm wait.
  const concurrency = 2 * k * c;
  const description = `POST /payments with confirm=true (automatic capture), the provider answering after ${settings.provider_delay_ms} ms (customer tagged +slow, SANDBOX_SLOW_MS), with 1 and with ${k} worker processes of service_test, ${c} jobs at a time each, ${concurrency} requests in flight`;
  const slowBody = { ...confirmBody, customer: { email: 'bench+slow@example.com' } };
  await stack.kill('worker');
  const running: ChildProcess[] = [];
  const workers = async (n: number, jobs = c) => {
    while (running.length > n) await stopWorker(running.pop()!);
    while (running.length < n) running.push(await startWorker(stack, 'service_test', jobs));
  };
  const confirmSlow = async () => void (await api(gw, key, 'POST', '/payments', slowBody, 'succeeded'));
  const phase = (n: number) => async (r: number) => {
    await workers(n);
    return timed(n === 1 ? 'scaleout_1' : `scaleout_${k}`, description, r, settings.n_scaleout, concurrency, confirmSlow);
  };
  try {
    await workers(1);
    await warmUp('scaleout', confirmSlow);
    const { pairs } = await alternate(settings.rounds, phase(1), phase(k));
    const ratio = summarize(pairs.map((p) => p.run.throughput_ops_s / tput([p.before, p.after])));
    figures.scaleout_4_vs_1 = ratio;
    const cc = settings.scaleout_ceiling_concurrency;
    await workers(0);
    await workers(k, cc);
    const ceilingInFlight = Math.min(k * cc, 4 * concurrency);
    const ceiling = await timed(
      `scaleout_ceiling`,
      `the stack's ceiling: ${k} worker processes with ${cc} jobs at a time each, ${ceilingInFlight} requests in flight`,
      1,
      settings.n_scaleout,
      ceilingInFlight,
      confirmSlow,
    );
    const bound = (n: number) => round((n * c * 1000) / Math.max(1, settings.provider_delay_ms), 1);
    return {
      description,
      runs: [...pairs.map((p) => p.run), ceiling],
      baselines: [pairs[0]?.before, ...pairs.map((p) => p.after)].filter((x): x is ScenarioResult => !!x),
      ratios: { [`scaleout_${k}_vs_1`]: ratio },
      notes: [
        `the bound of the workers alone: 1 process at most ${bound(1)} confirms/s, ${k} at most ${bound(k)}/s (the provider's ${settings.provider_delay_ms} ms only; each job also waits for payment-state's Complete)`,
        `the stack's ceiling with this provider (${k} processes, ${cc} jobs at a time each): ${ceiling.throughput_ops_s} confirms/s`,
        ...(k !== 4 ? [`scaleout_4_vs_1 is ${k} vs 1 here (BENCH_SCALEOUT_WORKERS=${k})`] : []),
      ],
      extra: {
        worker_processes: k,
        worker_concurrency: c,
        provider_delay_ms: settings.provider_delay_ms,
        concurrency,
        stack_ceiling_ops_s: ceiling.throughput_ops_s,
      },
    };
  } finally {
    await workers(0);
    await stack.startPart('worker');
  }
}

/**
 * The memory of every process of the stack after N payments and again after N more (create+confirm, automatic
 * capture): RSS per process (its growth is the per-process figure) and PSS, whose sum is the whole stack's figure (RSS
 * counts the pages the processes share, node's own code first, once in each of them).
 */
async function memory(gw: string, key: string): Promise<ScenarioReport> {
  const n = settings.n_memory;
  const description = `RSS and PSS of each process of the stack (from /proc/<pid>/smaps_rollup) after ${n} payments (POST /payments with confirm=true, automatic capture) and after ${n} more`;
  const snap = () => stackProcesses();
  const op = async () => void (await api(gw, key, 'POST', '/payments', confirmBody, 'succeeded'));
  await warmUp('memory', op);
  const at_start = snap();
  const first = await timed('memory_first', description, 1, n, settings.concurrency, op, settings.memory_max_seconds, false);
  const after_first = snap();
  const second = await timed('memory_second', description, 2, n, settings.concurrency, op, settings.memory_max_seconds, false);
  const after_second = snap();
  const each = <T>(f: (s: StackProcess[]) => T) => ({ at_start: f(at_start), after_first: f(after_first), after_second: f(after_second) });
  const byPart = <T>(s: StackProcess[], f: (p: StackProcess) => T) => Object.fromEntries(s.map((p) => [`${p.part} [${p.pid}]`, f(p)]));
  const sum = (s: StackProcess[], f: (p: StackProcess) => number) =>
    round(
      s.reduce((a, p) => a + f(p), 0),
      1,
    );
  const total = (s: StackProcess[]) => sum(s, (p) => p.rss_mb);
  const totalPss = (s: StackProcess[]) => sum(s, (p) => p.pss_mb);
  // The sandbox imitates the providers: not part of a deployment.
  const servicePss = (s: StackProcess[]) => totalPss(s.filter((p) => p.part !== 'provider-sandbox'));
  // PSS divides node's pages among every process of the machine that maps the same binary (the bench's own, other
  // stacks'): the stack as the only one to map it holds its own pages and one copy of the shared ones (the same set in
  // each process: node's code and its libraries; dirty while the binary's file is not yet written back).
  const shared = (p: StackProcess) => p.shared_clean_mb + p.shared_dirty_mb;
  const alone = (s: StackProcess[]) => round(sum(s, (p) => p.rss_mb - shared(p)) + Math.max(0, ...s.map(shared)), 1);
  const growth = after_second.map((p) => {
    const before = after_first.find((x) => x.pid === p.pid);
    return {
      part: p.part,
      pid: p.pid,
      mb: before ? round(p.rss_mb - before.rss_mb, 1) : null,
      pct: before ? round((100 * (p.rss_mb - before.rss_mb)) / before.rss_mb, 1) : null,
    };
  });
  const maxGrowth = Math.max(...growth.map((g) => g.pct ?? Number.NaN).filter(Number.isFinite));
  figures.memory_total_pss_mb = summarize([totalPss(after_second)]);
  figures.memory_total_mb = summarize([total(after_second)]);
  figures.memory_service_pss_mb = summarize([servicePss(after_second)]);
  figures.memory_total_alone_mb = summarize([alone(after_second)]);
  figures.memory_max_growth_pct = summarize([maxGrowth]);
  const notes = [
    `the node processes only (not Redis nor the MongoDB server); ${first.ok} + ${second.ok} payments made`,
    ...(settings.quick || n < 100_000 ? [`scaled down: ${n} payments per phase, not 100k`] : []),
  ];
  return {
    description,
    runs: [first, second],
    baselines: [],
    ratios: {},
    notes,
    extra: {
      rss_mb: each((s) => byPart(s, (p) => p.rss_mb)),
      pss_mb: each((s) => byPart(s, (p) => p.pss_mb)),
      // Every field read, the pid and part left out by the schema.
      smaps_rollup_mb: each((s) => byPart(s, (p) => ProcessMemory.parse(p))),
      total_mb: each(total),
      total_pss_mb: each(totalPss),
      service_pss_mb: each(servicePss),
      alone_mb: each(alone),
      growth_second_phase: growth,
    },
  };
}

/**
 * The three lists of one merchant at list_small payments, then (seeded up to) list_large: R rounds at each size, the
 * three lists in turn in each round. The sizes cannot be interleaved (the data only grows), so a raw findOne baseline
 * runs before each size's rounds to tell a slower machine from a slower list.
 */
async function lists(stack: Stack, db: Db, base: Baselines): Promise<ScenarioReport> {
  const sizes = { small: settings.list_small, large: settings.list_large };
  const scaled = sizes.small !== 10_000 || sizes.large !== 1_000_000;
  const timeoutMs = settings.list_timeout_ms;
  const description = `GET /payments/list?limit=10, POST /payments/list {limit: 10} (with total_count), POST /refunds/list {limit: 10} of one merchant with ${sizes.small} payments, then with ${sizes.large} (one in ${settings.list_refund_every || '∞'} refunded), ${settings.list_concurrency} requests in flight; p50 at ${sizes.large} over p50 at ${sizes.small}`;
  const m = await stack.merchant({ merchant_name: 'Bench lists' });
  const gw = stack.gatewayUrl;
  // The models of the copies: one succeeded payment and one refunded, made through the API.
  const plain = idOf(await api(gw, m.api_key, 'POST', '/payments', confirmBody, 'succeeded'));
  const refunded = idOf(await api(gw, m.api_key, 'POST', '/payments', confirmBody, 'succeeded'));
  await api(gw, m.api_key, 'POST', '/refunds', { payment_id: refunded }, 'succeeded');
  const templates = await findTemplates(db, m.merchant_id);
  let held = 2;
  const seeding: Record<string, unknown> = {};
  const seedTo = async (size: 'small' | 'large') => {
    const count = sizes[size] - held;
    log(`lists: seeding ${count} payments of merchant ${m.merchant_id} (copies of ${plain} and ${refunded})`);
    let shown = 0;
    seeding[size] = await seedPayments(db, templates, {
      merchantId: m.merchant_id,
      count,
      refundEvery: settings.list_refund_every,
      // Copies go back in time from where the previous ones stopped.
      offset: held - 2,
      onProgress: (done) => {
        if (done - shown >= 100_000) {
          shown = done;
          log(`lists: ${done} of ${count} seeded`);
        }
      },
    });
    held += count;
    log(`lists: seeded ${JSON.stringify(seeding[size])}`);
  };
  const kinds = {
    get_payments: { method: 'GET', path: '/payments/list?limit=10', body: undefined },
    post_payments: { method: 'POST', path: '/payments/list', body: { limit: 10 } },
    post_refunds: { method: 'POST', path: '/refunds/list', body: { limit: 10 } },
  } as const;
  type Kind = keyof typeof kinds;
  const once = (kind: Kind, size: 'small' | 'large', r: number) => {
    const { method, path, body } = kinds[kind];
    return timed(
      `list_${kind}_${size}`,
      description,
      r,
      settings.n_list,
      settings.list_concurrency,
      async () => {
        await api(gw, m.api_key, method, path, body, anyStatus, timeoutMs);
      },
      settings.max_seconds,
      false,
    );
  };
  const runs: ScenarioResult[] = [];
  const baselines: ScenarioResult[] = [];
  const p50s: Record<Kind, Record<'small' | 'large', number[]>> = {
    get_payments: { small: [], large: [] },
    post_payments: { small: [], large: [] },
    post_refunds: { small: [], large: [] },
  };
  const notes: string[] = [];
  let tooSlow = false;
  for (const size of ['small', 'large'] as const) {
    // Lists that time out already at the small size (a server that scans): seeding the large size would take long and
    // measure only timeouts again, while the aborted requests keep the server busy.
    if (size === 'large' && tooSlow) {
      notes.push(`not seeded to ${sizes.large}: a list timed out at ${sizes.small} payments already, so there is no p50 to compare`);
      break;
    }
    await seedTo(size);
    const settled = await settleStack(settings.list_settle_max_s);
    if (settled.seconds >= 1 || !settled.drained)
      notes.push(
        `before the lists at ${sizes[size]} payments: ${round(settled.seconds, 1)} s waiting for the relay's backlog, ${settled.drained ? 'drained' : `not drained (BENCH_LIST_SETTLE_MAX_S=${settings.list_settle_max_s}): the lists ran beside its relay`}`,
      );
    baselines.push(await base.findOne(size === 'small' ? 0 : 1));
    for (const kind of Object.keys(kinds) as Kind[]) await once(kind, size, 0); // warm-up, not counted
    const gaveUp = new Set<Kind>();
    for (let r = 1; r <= settings.rounds && !stop.requested; r++) {
      for (const kind of Object.keys(kinds) as Kind[]) {
        if (gaveUp.has(kind)) continue;
        const res = await once(kind, size, r);
        runs.push(res);
        // Every request timed out: the p50 is at least the timeout; more rounds would only repeat that.
        if (res.ok === 0) {
          gaveUp.add(kind);
          if (size === 'small') tooSlow = true;
          p50s[kind][size].push(Number.NaN);
          notes.push(
            `${kind} at ${sizes[size]} payments: every request failed (${res.error_samples[0]?.slice(0, 120)}); its p50 is taken as the timeout, ${timeoutMs} ms, a lower bound`,
          );
        } else p50s[kind][size].push(res.latency_ms!.p50);
      }
    }
  }
  // Round i at the large size over round i at the small one; a size whose requests all timed out counts the timeout.
  const orTimeout = (v: number) => (Number.isFinite(v) ? v : timeoutMs);
  const ratios = Object.fromEntries(
    (Object.keys(kinds) as Kind[]).map((kind) => {
      const { small, large } = p50s[kind];
      const n = Math.max(small.length, large.length);
      const at = (xs: number[], i: number) => orTimeout(xs[Math.min(i, xs.length - 1)] ?? Number.NaN);
      return [`${kind}_large_vs_small_p50`, summarize(Array.from({ length: n }, (_, i) => at(large, i) / at(small, i)))];
    }),
  );
  const worst = Object.values(ratios).reduce<RatioSummary | null>((w, s) => (s && (!w || s.median > w.median) ? s : w), null);
  figures.list_1m_vs_10k_p50 = tooSlow ? null : worst;
  if (tooSlow) notRun.lists = `a list timed out (${timeoutMs} ms) at ${sizes.small} payments already: see scenarios.lists.notes`;
  return {
    description,
    runs,
    baselines,
    ratios,
    notes: [
      'list_1m_vs_10k_p50 is the worst (largest) of the three lists',
      `the raw findOne baseline ran before each size (rounds 0 and 1 of baseline_findone): p50 ${baselines.map((b) => b.latency_ms?.p50 ?? '–').join(' then ')} ms, to tell a slower machine from a slower list`,
      ...(scaled ? [`scaled down: ${sizes.large} vs ${sizes.small} payments, not 1M vs 10k`] : []),
      'seeded by bulk inserts of copies of payments made through the API (bench/seed.ts)',
      ...notes,
    ],
    extra: { sizes, seeding, merchant_id: m.merchant_id, request_timeout_ms: timeoutMs },
  };
}

// ---------------------------------------------------------------------------------------------------------------
// Stopping and cleaning up

/**
 * Stack.start does not stop the parts it already started when a later one fails to start: stop those (our own
 * child processes running one of the stack's entry points), then drop their database and Redis keys, read from
 * their environment, so that a failed run leaves nothing behind.
 */
async function killStrayParts(): Promise<void> {
  const pids = (sh('pgrep', ['-P', String(process.pid)]) ?? '').split('\n').filter(Boolean).map(Number);
  const leftovers = new Map<string, { mongodbUrl: string; redisUrl: string }>();
  for (const pid of pids) {
    let cmd = '';
    let env: Record<string, string> = {};
    try {
      cmd = readFileSync(`/proc/${pid}/cmdline`, 'utf8').replace(/\0/g, ' ');
      env = Object.fromEntries(
        readFileSync(`/proc/${pid}/environ`, 'utf8')
          .split('\0')
          .filter(Boolean)
          .map((kv) => [kv.slice(0, kv.indexOf('=')), kv.slice(kv.indexOf('=') + 1)]),
      );
    } catch {
      continue;
    }
    if (!/(gateway|workers|payment-state|provider-sandbox)\/(webhooks\/)?main\.ts/.test(cmd)) continue;
    log(`stopping stack process ${pid} left by the failed start`);
    try {
      process.kill(pid, 'SIGKILL');
    } catch {
      /* already gone */
    }
    if (env.REDIS_PREFIX?.startsWith('bnpl-test-') && env.MONGODB_URL)
      leftovers.set(env.REDIS_PREFIX, { mongodbUrl: env.MONGODB_URL, redisUrl: env.REDIS_URL });
  }
  for (const [prefix, { mongodbUrl, redisUrl }] of leftovers) {
    const client = new MongoClient(mongodbUrl, { serverSelectionTimeoutMS: 5_000 });
    await client
      .connect()
      .then(() => client.db().dropDatabase())
      .catch(() => undefined)
      .finally(() => client.close());
    await removeRedisKeys(redisUrl, prefix);
  }
}

async function removeRedisKeys(url: string, prefix: string): Promise<void> {
  const redis = new Redis(url, { maxRetriesPerRequest: 3 });
  try {
    let cursor = '0';
    for (let i = 0; i < 100_000; i++) {
      const [next, keys] = await redis.scan(cursor, 'MATCH', `${prefix}:*`, 'COUNT', 1000);
      if (keys.length) await redis.unlink(...keys);
      cursor = next;
      if (cursor === '0') break;
    }
  } catch (err) {
    log(`could not remove the Redis keys under ${prefix}: ${(err as Error).message}`);
  } finally {
    redis.disconnect();
  }
}

let current: Stack | undefined;
async function stopStack(): Promise<void> {
  const stack = current;
  current = undefined;
  await Promise.all([...extraWorkers].map((w) => stopWorker(w)));
  if (!stack) return;
  log('stopping the stack');
  agent.destroy(); // our keep-alive connections would hold the gateway's shutdown open
  await stack.stop().catch((err) => log(`stack stop: ${(err as Error).message}`));
  // The harness leaves the stack's Redis keys (queues with their retained completed jobs) behind: remove them.
  await removeRedisKeys(stack.env.REDIS_URL, stack.env.REDIS_PREFIX);
}

let signals = 0;
for (const sig of ['SIGINT', 'SIGTERM'] as const) {
  process.on(sig, () => {
    stop.requested = true;
    abortAll.abort();
    if (++signals === 1) {
      log(`${sig}: stopping the run (send it again to stop at once)`);
    } else {
      log(`${sig}: stopping at once`);
      for (const w of extraWorkers) w.kill('SIGKILL');
      void stopStack().finally(() => process.exit(130));
    }
  });
}

// ---------------------------------------------------------------------------------------------------------------
// Machine, report

function sh(cmd: string, argv: string[]): string | null {
  try {
    return execFileSync(cmd, argv, { cwd: root, encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'], timeout: 5_000 }).trim();
  } catch {
    return null;
  }
}

async function redisVersion(): Promise<string | null> {
  const r = new Redis(settings.redis_url, { maxRetriesPerRequest: 1 });
  try {
    return /redis_version:(\S+)/.exec(await r.info('server'))?.[1] ?? null;
  } catch {
    return null;
  } finally {
    r.disconnect();
  }
}

function machine() {
  const cpus = os.cpus();
  return {
    nproc: Number(sh('nproc', [])) || os.availableParallelism(),
    cpu_model: cpus[0]?.model ?? null,
    total_memory_mb: Math.round(os.totalmem() / 2 ** 20),
    loadavg_1m_at_start: round(os.loadavg()[0]),
    loadavg_1m_at_end: null as number | null,
    node: process.version,
    platform: `${os.platform()} ${os.release()} ${os.arch()}`,
  };
}

const fmt = (x: number | null | undefined, digits = 1) => (x === null || x === undefined || !Number.isFinite(x) ? '–' : x.toFixed(digits));
const spreadOf = (s: RatioSummary | null | undefined, digits = 3) =>
  s ? (s.rounds.length > 1 ? `${fmt(s.min, digits)}–${fmt(s.max, digits)} (${s.rounds.length} rounds)` : '1 run') : null;

function markdown(report: Report): string {
  const m = report.machine;
  const lines = [
    `# Benchmark ${report.timestamp}${report.quick ? ' (quick: small runs, not a measurement of the targets)' : ''}`,
    '',
    `commit ${report.git.commit ?? 'unknown'}${report.git.dirty ? ' (dirty)' : ''} · ${m.nproc} CPU (${m.cpu_model ?? '?'}) · ${m.total_memory_mb} MB · node ${m.node} · ` +
      `MongoDB server ${report.services.mongodb ?? '?'} · Redis ${report.services.redis ?? '?'} · load (1 min) ${m.loadavg_1m_at_start} at start, ${m.loadavg_1m_at_end ?? '?'} at end · ` +
      `concurrency ${report.settings.concurrency}, warm-up ${report.settings.warmup}, ${report.settings.rounds} rounds`,
    '',
    '## Targets (issue 24)',
    '',
    'Each figure is the median of the per-round ratios (each round: the scenario between two runs of its baseline); the spread is min–max over the rounds.',
    '',
    '| row | figure | measured | spread | target | met |',
    '|---|---|---:|---|---|---|',
  ];
  for (const t of report.targets) {
    lines.push(
      `| ${t.row} | \`${t.figure}\` | ${t.value === null ? `– (${t.note ?? 'not run'})` : fmt(t.value, 3)} | ${t.spread ?? '–'} | ${t.target} | ${t.met === null ? '–' : t.met ? 'met' : '**not met**'} |`,
    );
  }
  const lc = report.figures.lifecycle_ops_s;
  if (lc)
    lines.push(
      `| full lifecycle (create, confirm manual, 2 partial captures, refund) | \`lifecycle_ops_s\`, \`lifecycle_p50_ms\` | ${fmt(lc.median)} /s, p50 ${fmt(report.figures.lifecycle_p50_ms?.median)} ms | ${spreadOf(lc, 1) ?? '–'} | reported, with the share of time per process | – |`,
    );
  const reportedMemory: [string, string][] = [
    ['memory: the same, sum of RSS (shared pages counted in each process)', 'memory_total_mb'],
    ['memory: the same, sum of PSS without the provider sandbox', 'memory_service_pss_mb'],
    ["memory: the same, sum of PSS (the shared pages divided among every process mapping them, the machine's other node processes too)", 'memory_total_pss_mb'],
  ];
  for (const [row, key] of reportedMemory) {
    const f = report.figures[key];
    if (f) lines.push(`| ${row} | \`${key}\` | ${fmt(f.median)} MB | ${spreadOf(f, 1) ?? '–'} | reported | – |`);
  }
  lines.push(
    '',
    '## Runs',
    '',
    "In the order they ran: baseline (round 0), round 1, baseline (after round 1), round 2, …; the lists: each size's rounds after its seeding.",
    '',
    '| scenario | round | ops | errors | duration s | throughput ops/s | p50 ms | p95 ms | p99 ms | max ms |',
    '|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|',
  );
  for (const [name, s] of Object.entries(report.scenarios)) {
    if (!s) continue;
    const rows = [...s.baselines, ...s.runs].sort((a, b) => a.seq - b.seq);
    for (const r of rows) {
      const l = r.latency_ms;
      lines.push(
        `| ${name === r.name ? name : `${name}: ${r.name}`}${r.timed_out ? ' (timed out)' : ''} | ${r.round} | ${r.ops} | ${r.errors} | ${fmt(r.duration_s, 2)} | ${fmt(r.throughput_ops_s)} | ${fmt(l?.p50)} | ${fmt(l?.p95)} | ${fmt(l?.p99)} | ${fmt(l?.max)} |`,
      );
    }
  }
  lines.push('');
  for (const [name, s] of Object.entries(report.scenarios)) {
    if (!s) continue;
    for (const [k, v] of Object.entries(s.ratios)) if (v) lines.push(`- ${name}: \`${k}\` = **${fmt(v.median, 3)}** (${spreadOf(v)})`);
    for (const n of s.notes) lines.push(`- ${name}: ${n}`);
    const steps = s.extra?.step_latency_ms as Record<string, { p50: number } | null> | undefined;
    if (steps)
      lines.push(
        `- ${name}: p50 per step: ${Object.entries(steps)
          .map(([k, v]) => `${k} ${fmt(v?.p50)} ms`)
          .join(', ')}`,
      );
    const st = s.extra?.server_timing_ms as Record<string, { p50: number; p95: number } | null> | null | undefined;
    if (st)
      lines.push(
        `- ${name}: Server-Timing p50 / p95 ms: ${Object.entries(st)
          .map(([k, v]) => `${k} ${fmt(v?.p50)} / ${fmt(v?.p95)}`)
          .join(', ')}`,
      );
    const share = s.extra?.time_share as Record<string, number> | null | undefined;
    if (share)
      lines.push(
        `- ${name}: share of time per process: ${Object.entries(share)
          .map(([k, v]) => `${k} ${fmt(v * 100, 1)} %`)
          .join(', ')}`,
      );
    const totals = (key: string, what: string) => {
      const t = s.extra?.[key] as Record<string, number> | undefined;
      if (t) lines.push(`- ${name}: ${what} MB at start ${t.at_start}, after the first phase ${t.after_first}, after the second ${t.after_second}`);
    };
    totals('total_mb', 'total RSS');
    totals('total_pss_mb', 'total PSS');
    totals('service_pss_mb', 'total PSS without the provider sandbox');
    totals('alone_mb', 'the stack alone to map node (own pages of each process + its largest shared set once)');
    const rss = s.extra?.rss_mb as Record<string, Record<string, number>> | undefined;
    const pss = s.extra?.pss_mb as Record<string, Record<string, number>> | undefined;
    for (const [at, byProcess] of Object.entries(rss ?? {}))
      lines.push(
        `- ${name}: RSS / PSS MB ${at.replace(/_/g, ' ')}: ${Object.entries(byProcess)
          .map(([p, r]) => `${p} ${fmt(r)} / ${fmt(pss?.[at]?.[p])}`)
          .join(', ')}`,
      );
    const errs = [...s.baselines, ...s.runs].filter((r) => r.errors);
    for (const r of errs)
      lines.push(
        `- errors in ${r.name} round ${r.round}: ${Object.entries(r.error_kinds)
          .map(([k, n]) => `${k} ×${n}`)
          .join(', ')}`,
      );
  }
  for (const [k, why] of Object.entries(report.ratio_notes)) lines.push(`- \`${k}\`: ${why}`);
  if (report.stack?.payments_by_status) lines.push(`- payments of the main merchant at the end, by status: ${JSON.stringify(report.stack.payments_by_status)}`);
  return `${lines.join('\n')}\n`;
}

// ---------------------------------------------------------------------------------------------------------------

const started = new Date();
const run = new Set(SCENARIOS.filter(enabled));
for (const s of SCENARIOS) if (!run.has(s)) notRun[s] = `not asked for (--only=${[...only].join(',')})`;
const porcelain = sh('git', ['status', '--porcelain']);
const report: Report = {
  timestamp: started.toISOString(),
  quick,
  git: { commit: sh('git', ['rev-parse', '--short', 'HEAD']), dirty: porcelain === null ? null : porcelain.length > 0 },
  machine: machine(),
  services: { mongodb: null, redis: await redisVersion() },
  settings: { ...settings, scenarios: [...run], stack_env: stackEnv },
  ratios: Object.fromEntries(RATIO_KEYS.map((k) => [k, null])) as Record<RatioKey, number | null>,
  ratio_notes: {},
  figures,
  targets: [],
  scenarios: scenarioReports,
  stack: null,
};
log(`settings ${JSON.stringify(report.settings)}`);

const base = new Baselines();
let failure: unknown;
try {
  report.stack = await serviceScenarios(run, base);
} catch (err) {
  failure = err;
  await stopStack();
} finally {
  await base.close();
}
report.services.mongodb = [base.server.version, base.server.ferretdb ? `(FerretDB ${base.server.ferretdb})` : ''].filter(Boolean).join(' ') || null;

if (stop.requested) {
  log('interrupted: no results written');
  process.exit(130);
}
report.machine.loadavg_1m_at_end = round(os.loadavg()[0]);
const SCENARIO_OF: Record<RatioKey, ScenarioName> = {
  create_vs_insert: 'create',
  confirm_vs_insert: 'confirm',
  refund_vs_insert: 'refund',
  retrieve_vs_findone: 'retrieve',
  list_1m_vs_10k_p50: 'lists',
  scaleout_4_vs_1: 'scaleout',
};
const whyMissing = (s: ScenarioName) =>
  notRun[s] ?? (failure ? `the run failed before or during ${s}: ${String(failure).slice(0, 200)}` : `${s} gave no figure`);
for (const k of RATIO_KEYS) {
  report.ratios[k] = figures[k]?.median ?? null;
  if (report.ratios[k] === null) report.ratio_notes[k] = whyMissing(SCENARIO_OF[k]);
}
if (settings.quick && figures.list_1m_vs_10k_p50)
  report.ratio_notes.list_1m_vs_10k_p50 = `quick run: ${settings.list_large} vs ${settings.list_small} payments, not 1M vs 10k`;
report.targets = TARGETS.map((t) => {
  const f = figures[t.figure];
  return {
    row: t.row,
    figure: t.figure,
    value: f?.median ?? null,
    spread: spreadOf(f),
    target: t.target,
    met: f ? t.met(f.median) : null,
    ...(f ? {} : { note: whyMissing(t.scenario) }),
  };
});

const anyResults = Object.keys(scenarioReports).length > 0;
if (anyResults) {
  mkdirSync(resultsDir, { recursive: true });
  const json = `${JSON.stringify(report, null, 2)}\n`;
  const file = `${resultsDir}${report.timestamp.replace(/:/g, '-').replace(/\.\d+Z$/, 'Z')}.json`;
  writeFileSync(file, json);
  writeFileSync(`${resultsDir}latest.json`, json);
  // latest.json may be committed: in the layout `biome check .` wants (it reads every file git does not ignore).
  if (sh(`${root}node_modules/.bin/biome`, ['format', '--write', `${resultsDir}latest.json`]) === null)
    log('could not format bench/results/latest.json with biome');
  const md = markdown(report);
  writeFileSync(`${resultsDir}latest.md`, md);
  process.stdout.write(`\n${md}`);
  log(`wrote ${file.slice(root.length)}, bench/results/latest.json and bench/results/latest.md`);
}
if (failure) {
  console.error('bench failed:', failure);
  process.exit(1);
}
// Wrong answers fail the command; a pool cut short by BENCH_MAX_SECONDS does not (it is marked in the table).
const failed = Object.values(scenarioReports).some((s) => s && [...s.runs, ...s.baselines].some((r) => r.errors > 0));
process.exit(failed ? 1 : 0);
