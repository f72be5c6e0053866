// The benchmark behind `npm run bench`: two baselines of what this machine does without us (raw MongoDB insertOne,
// raw BullMQ add -> processed), then the service through its real processes (create; create + confirm with
// automatic capture). Every scenario runs a fixed number of operations at a bounded concurrency, bounded in time
// too, against 127.0.0.1 only. Results go to bench/results/<timestamp>.json, the summary table to stdout and to
// bench/results/latest.md. See bench/README.md for the knobs and how to read the numbers.
import { execFileSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { Queue, Worker } from 'bullmq';
import { Redis } from 'ioredis';
import { MongoClient } from 'mongodb';
import { Stack } from '../test/support/stack.ts';

const root = fileURLToPath(new URL('..', import.meta.url));
const resultsDir = fileURLToPath(new URL('./results/', import.meta.url));

// ---------------------------------------------------------------------------------------------------------------
// Settings

const SCENARIOS = ['baseline_mongo_insert', 'baseline_bullmq', 'create', 'create_confirm_auto', 'refund', 'confirm_oauth_connector'] as const;
type ScenarioName = (typeof SCENARIOS)[number];

function int(name: string, fallback: number, min = 0): number {
  const raw = process.env[name];
  if (raw === undefined || raw === '') return fallback;
  const n = Number(raw);
  if (!Number.isInteger(n) || n < min) throw new Error(`${name} must be an integer >= ${min}, got ${raw}`);
  return n;
}

const { values: args } = parseArgs({
  options: { only: { type: 'string' }, help: { type: 'boolean', short: 'h' } },
  allowPositionals: false,
});
if (args.help) {
  console.log(`usage: npm run bench [-- --only=<scenario,...>]
scenarios: ${SCENARIOS.join(', ')}
env: BENCH_N, BENCH_N_CREATE, BENCH_N_CONFIRM, BENCH_N_MONGO, BENCH_N_BULLMQ, BENCH_CONCURRENCY, BENCH_WARMUP,
     BENCH_MAX_SECONDS, BENCH_REQUEST_TIMEOUT_MS, BENCH_BULLMQ_WORKER_CONCURRENCY, BENCH_STACK_ENV, MONGODB_URL, REDIS_URL
(see bench/README.md)`);
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
const enabled = (s: ScenarioName) => only.size === 0 || only.has(s);

const nAll = process.env.BENCH_N ? int('BENCH_N', 0, 1) : undefined;
const settings = {
  n_create: int('BENCH_N_CREATE', nAll ?? 2000, 1),
  n_confirm: int('BENCH_N_CONFIRM', nAll ?? 1000, 1),
  n_mongo: int('BENCH_N_MONGO', nAll ?? 2000, 1),
  n_bullmq: int('BENCH_N_BULLMQ', nAll ?? 5000, 1),
  concurrency: int('BENCH_CONCURRENCY', 32, 1),
  /** Operations run (and thrown away) before each measured scenario: JIT, connection pools, caches. */
  warmup: int('BENCH_WARMUP', 50),
  /** A scenario stops starting operations after this long and is reported as timed out. */
  max_seconds: int('BENCH_MAX_SECONDS', 300, 1),
  request_timeout_ms: int('BENCH_REQUEST_TIMEOUT_MS', 30_000, 1),
  bullmq_worker_concurrency: int('BENCH_BULLMQ_WORKER_CONCURRENCY', 50, 1),
  mongodb_url: process.env.MONGODB_URL || 'mongodb://127.0.0.1:27017',
  redis_url: process.env.REDIS_URL || 'redis://127.0.0.1:6379',
};

/**
 * The environment of the stack's processes. The test harness's defaults are short test timings (2 s job locks,
 * a sweeper every second); a benchmark should see the service's own defaults (lib/config.ts), so they are set
 * back here. LOG_LEVEL stays 'info': the harness waits for each process's info-level "listening"/"ready" line,
 * so 'warn' would never start (on the hot path 'info' writes one line per connector job, in the worker).
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

// ---------------------------------------------------------------------------------------------------------------
// Measuring

interface Latency {
  p50: number;
  p95: number;
  p99: number;
  max: number;
  mean: number;
}

interface ScenarioResult {
  name: ScenarioName;
  description: string;
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
  /** Per-operation latency of the successful operations, in ms (null where not measured per operation). */
  latency_ms: Latency | null;
  timed_out: boolean;
  extra?: Record<string, unknown>;
}

const round = (x: number, digits = 2) => Math.round(x * 10 ** digits) / 10 ** digits;

function latencyOf(samples: number[]): Latency | null {
  if (samples.length === 0) return null;
  const s = Float64Array.from(samples).sort();
  const at = (q: number) => s[Math.min(s.length - 1, Math.max(0, Math.ceil(q * s.length) - 1))];
  const mean = samples.reduce((a, b) => a + b, 0) / samples.length;
  return { p50: round(at(0.5)), p95: round(at(0.95)), p99: round(at(0.99)), max: round(s[s.length - 1]), mean: round(mean) };
}

/** An operation's failure: `kind` is what gets counted, `detail` a sample for the report. */
class OpError extends Error {
  readonly kind: string;
  constructor(kind: string, detail: string) {
    super(detail);
    this.kind = kind;
  }
}

interface PoolOutcome {
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

/** Runs op(0..n-1) with at most `concurrency` in flight; stops starting new ones at the deadline. */
async function pool(n: number, concurrency: number, maxSeconds: number, op: (i: number) => Promise<void>): Promise<PoolOutcome> {
  const out: PoolOutcome = { started: 0, ok: 0, latencies: [], errorKinds: {}, samples: [], durationS: 0, timedOut: false, doneAt: [] };
  const t0 = performance.now();
  const deadline = t0 + maxSeconds * 1000;
  let next = 0;
  const lane = async () => {
    while (next < n && !stopping) {
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
        const kind = err instanceof OpError ? err.kind : `exception:${(err as Error).name}`;
        out.errorKinds[kind] = (out.errorKinds[kind] ?? 0) + 1;
        if (out.samples.length < 5) out.samples.push(`${kind}: ${String((err as Error).message).slice(0, 300)}`);
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
function quarters(p: PoolOutcome): { first_quarter_ops_s: number; last_quarter_ops_s: number } | null {
  const k = Math.floor(p.doneAt.length / 4);
  if (k < 2) return null;
  const first = p.doneAt[k - 1];
  const last = p.doneAt[p.doneAt.length - 1] - p.doneAt[p.doneAt.length - 1 - k];
  return { first_quarter_ops_s: round(k / (first / 1000), 1), last_quarter_ops_s: round(k / (last / 1000), 1) };
}

function resultOf(name: ScenarioName, description: string, concurrency: number, p: PoolOutcome, extra: Record<string, unknown> = {}): ScenarioResult {
  const q = quarters(p);
  if (q) extra = { throughput_by_quarter: q, ...extra };
  return {
    name,
    description,
    ops: p.started,
    ok: p.ok,
    errors: p.started - p.ok,
    error_kinds: p.errorKinds,
    error_samples: p.samples,
    concurrency,
    duration_s: round(p.durationS, 3),
    throughput_ops_s: round(p.ok / p.durationS, 1),
    latency_ms: latencyOf(p.latencies),
    timed_out: p.timedOut,
    ...(Object.keys(extra).length ? { extra } : {}),
  };
}

const log = (msg: string) => process.stderr.write(`bench: ${msg}\n`);
/** Set by SIGINT/SIGTERM: no new operations start, requests in flight are aborted, nothing is written. */
let stopping = false;
const abortAll = new AbortController();

// ---------------------------------------------------------------------------------------------------------------
// 1. Raw MongoDB insertOne into a scratch database

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

async function baselineMongo(): Promise<ScenarioResult> {
  const dbName = `bench_scratch_${randomBytes(4).toString('hex')}`;
  // Same pool size as the service's connections (lib/mongo.ts).
  const client = new MongoClient(settings.mongodb_url, { serverSelectionTimeoutMS: 10_000, maxPoolSize: 50 });
  await client.connect();
  try {
    const coll = client.db(dbName).collection('inserts');
    const insert = async (i: number) => {
      const r = await coll.insertOne(scratchDoc(i));
      if (!r.acknowledged) throw new OpError('not_acknowledged', 'insertOne not acknowledged');
    };
    if (settings.warmup) await pool(settings.warmup, settings.concurrency, settings.max_seconds, (i) => insert(-1 - i));
    const p = await pool(settings.n_mongo, settings.concurrency, settings.max_seconds, insert);
    const server = await client
      .db('admin')
      .command({ buildInfo: 1 })
      .catch(() => ({}) as Record<string, unknown>);
    return resultOf('baseline_mongo_insert', 'raw insertOne into a scratch collection (no secondary index), same MongoDB server', settings.concurrency, p, {
      server_version: server.version ?? null,
      ferretdb: (server as { ferretdbVersion?: string }).ferretdbVersion ?? null,
    });
  } finally {
    await client
      .db(dbName)
      .dropDatabase()
      .catch((err) => log(`could not drop ${dbName}: ${(err as Error).message}`));
    await client.close();
  }
}

// ---------------------------------------------------------------------------------------------------------------
// 2. Raw BullMQ: queue.add of N jobs -> all N processed by a Worker with a no-op processor

async function baselineBullmq(): Promise<ScenarioResult> {
  const prefix = `bench-${randomBytes(4).toString('hex')}`;
  const queueName = 'bench-noop';
  const producer = new Redis(settings.redis_url, { maxRetriesPerRequest: null });
  const consumer = new Redis(settings.redis_url, { maxRetriesPerRequest: null });
  const queue = new Queue(queueName, { connection: producer, prefix });
  let processed = 0;
  let failed = 0;
  let target = Infinity;
  let reached: () => void = () => undefined;
  const worker = new Worker(queueName, async () => ({ ok: true }), {
    connection: consumer,
    prefix,
    concurrency: settings.bullmq_worker_concurrency,
    autorun: false,
  });
  worker.on('completed', () => {
    processed++;
    if (processed >= target) reached();
  });
  worker.on('failed', () => {
    failed++;
  });
  worker.on('error', (err) => log(`bullmq worker error: ${err.message}`));
  void worker.run();
  await worker.waitUntilReady();
  await queue.waitUntilReady();
  // Same job options and a payload of about the size of the service's connector jobs (adapters/queue.ts).
  const opts = {
    attempts: 6,
    backoff: { type: 'exponential' as const, delay: 1000 },
    removeOnComplete: { age: 24 * 3600, count: 100_000 },
    removeOnFail: { age: 7 * 24 * 3600 },
  };
  const data = (i: number) => ({
    merchant_id: 'merchant_bench',
    payment_id: `pay_${randomBytes(13).toString('hex')}`,
    operation_id: `op_${i}_${randomBytes(10).toString('hex')}`,
    kind: 'authorize',
    connector: 'service_test',
    amount: 10_000,
    currency: 'EUR',
    capture_method: 'automatic',
    connector_transaction_id: null,
    customer_email: 'bench@example.com',
    return_url: null,
    merchant_order_reference_id: null,
    mode: 'execute',
    sync_round: 0,
  });
  /** Adds n jobs at the bench's concurrency, waits until all are processed (or the deadline). */
  const batch = async (n: number, base: number) => {
    processed = 0;
    failed = 0;
    target = n;
    const allDone = new Promise<void>((r) => (reached = r));
    const t0 = performance.now();
    const adds = await pool(n, settings.concurrency, settings.max_seconds, async (i) => {
      const d = data(base + i);
      await queue.add('noop', d, { ...opts, jobId: d.operation_id });
    });
    const addS = (performance.now() - t0) / 1000;
    const left = Math.max(1, settings.max_seconds * 1000 - (performance.now() - t0));
    let timer: NodeJS.Timeout | undefined;
    const timedOut = await Promise.race([
      allDone.then(() => false),
      new Promise<boolean>((r) => (timer = setTimeout(() => r(true), left))),
      new Promise<boolean>((r) => abortAll.signal.addEventListener('abort', () => r(true), { once: true })),
    ]);
    clearTimeout(timer);
    return { adds, addS, durationS: (performance.now() - t0) / 1000, timedOut: timedOut || adds.timedOut, processed };
  };
  try {
    if (settings.warmup) await batch(settings.warmup, 1_000_000_000);
    const b = await batch(settings.n_bullmq, 0);
    const errorKinds: Record<string, number> = { ...b.adds.errorKinds };
    const missing = b.adds.ok - b.processed;
    if (failed) errorKinds.job_failed = failed;
    if (missing > failed) errorKinds.not_processed_in_time = missing - failed;
    return {
      name: 'baseline_bullmq',
      description: `raw BullMQ: queue.add of N jobs (${settings.concurrency} producers) until all N are processed by a no-op Worker (concurrency ${settings.bullmq_worker_concurrency}), one process`,
      ops: b.adds.started,
      ok: b.processed,
      errors: b.adds.started - b.processed,
      error_kinds: errorKinds,
      error_samples: b.adds.samples,
      concurrency: settings.concurrency,
      duration_s: round(b.durationS, 3),
      throughput_ops_s: round(b.processed / b.durationS, 1),
      latency_ms: null,
      timed_out: b.timedOut,
      extra: { add_duration_s: round(b.addS, 3), add_throughput_ops_s: round(b.adds.ok / b.addS, 1), worker_concurrency: settings.bullmq_worker_concurrency },
    };
  } finally {
    await worker.close().catch(() => undefined);
    await queue.obliterate({ force: true }).catch((err) => log(`could not obliterate the bench queue: ${(err as Error).message}`));
    await queue.close().catch(() => undefined);
    producer.disconnect();
    consumer.disconnect();
  }
}

// ---------------------------------------------------------------------------------------------------------------
// 3, 4. The service through the gateway

const paymentBody = { amount: 10_000, currency: 'EUR', customer: { email: 'bench@example.com' } };

/**
 * The bench's own keep-alive connections to the gateway (node:http rather than fetch, so that they can be closed
 * before the stack stops: the gateway's graceful shutdown otherwise waits for open keep-alive connections).
 */
const agent = new http.Agent({ keepAlive: true, maxSockets: settings.concurrency });

function post(url: string, headers: Record<string, string>, body: string): Promise<{ status: number; text: string }> {
  return new Promise((resolve, reject) => {
    const req = http.request(
      url,
      {
        method: 'POST',
        agent,
        headers: { ...headers, 'content-length': String(Buffer.byteLength(body)) },
        signal: AbortSignal.any([AbortSignal.timeout(settings.request_timeout_ms), abortAll.signal]),
      },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, text: Buffer.concat(chunks).toString() }));
        res.on('error', reject);
      },
    );
    req.on('error', reject);
    req.end(body);
  });
}

/** POSTs `body` to the gateway's `path`; the answer must be 200 with `status` = expectStatus. Returns the answer. */
async function postPayment(url: string, apiKey: string, body: unknown, expectStatus: string, path = '/payments'): Promise<Record<string, unknown>> {
  let res: { status: number; text: string };
  try {
    res = await post(`${url}${path}`, { 'content-type': 'application/json', 'api-key': apiKey }, JSON.stringify(body));
  } catch (err) {
    const e = err as Error & { code?: string; cause?: { name?: string } };
    const timedOut = e.name === 'TimeoutError' || e.cause?.name === 'TimeoutError';
    throw new OpError(timedOut ? 'timeout' : `network:${e.code ?? e.name}`, e.message);
  }
  if (res.status !== 200) throw new OpError(`http_${res.status}`, res.text);
  let answer: Record<string, unknown>;
  try {
    answer = JSON.parse(res.text) as Record<string, unknown>;
  } catch {
    throw new OpError('bad_json', res.text);
  }
  if (answer.status !== expectStatus) throw new OpError(`status_${String(answer.status)}`, res.text);
  return answer;
}

async function serviceScenarios(run: Set<ScenarioName>): Promise<{ results: ScenarioResult[]; stack: Record<string, unknown> }> {
  log(`starting the stack (payment-state, provider-sandbox, worker, gateway; env ${JSON.stringify(stackEnv)})`);
  let stack: Stack;
  try {
    stack = await Stack.start(stackEnv);
  } catch (err) {
    await killStrayParts();
    throw err;
  }
  current = stack;
  const results: ScenarioResult[] = [];
  const stackInfo: Record<string, unknown> = { env: stackEnv, db: stack.dbName, redis_prefix: stack.env.REDIS_PREFIX };
  try {
    const db = await stack.db(); // also makes stack.stop() drop the stack's database
    const { api_key: key, merchant_id: merchantId } = await stack.merchant();
    const scenario = async (
      name: ScenarioName,
      description: string,
      n: number,
      body: unknown,
      expect: string,
      then?: (payment: Record<string, unknown>) => Promise<unknown>,
    ) => {
      const op = async () => {
        const payment = await postPayment(stack.gatewayUrl, key, typeof body === 'function' ? (body as () => unknown)() : body, expect);
        if (then) await then(payment);
      };
      if (settings.warmup) {
        log(`${name}: warm-up (${settings.warmup})`);
        await pool(settings.warmup, settings.concurrency, settings.max_seconds, op);
      }
      log(`${name}: ${n} operations, concurrency ${settings.concurrency}`);
      const r = resultOf(name, description, settings.concurrency, await pool(n, settings.concurrency, settings.max_seconds, op));
      log(`${name}: ${r.throughput_ops_s} ops/s, p50 ${r.latency_ms?.p50 ?? '-'} ms, errors ${r.errors}`);
      results.push(r);
    };
    if (run.has('create')) {
      await scenario('create', 'POST /payments (status requires_confirmation)', settings.n_create, paymentBody, 'requires_confirmation');
    }
    if (run.has('create_confirm_auto') && !stopping) {
      await scenario(
        'create_confirm_auto',
        'POST /payments with confirm=true, automatic capture, through payment-state, BullMQ, worker and provider sandbox (status succeeded)',
        settings.n_confirm,
        { ...paymentBody, confirm: true, payment_method: 'pay_later' },
        'succeeded',
      );
    }
    if (run.has('refund') && !stopping) {
      await scenario(
        'refund',
        'POST /payments with confirm=true (automatic capture), then POST /refunds of the whole amount through payment-state, BullMQ, worker and provider sandbox (refund succeeded)',
        settings.n_confirm,
        { ...paymentBody, confirm: true, payment_method: 'pay_later' },
        'succeeded',
        (p) => postPayment(stack.gatewayUrl, key, { payment_id: p.payment_id }, 'succeeded', '/refunds'),
      );
    }
    if (run.has('confirm_oauth_connector') && !stopping) {
      // Ratepay: OAuth2 client credentials (one token for every job, from the Redis cache), decimals, a full order.
      const account = await stack.api(
        'POST',
        `/account/${merchantId}/connectors`,
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
      let n = 0;
      const ratepayBody = () => ({
        ...paymentBody,
        confirm: true,
        payment_method: 'pay_later',
        payment_method_type: 'invoice',
        capture_method: 'manual',
        connector: ['ratepay'],
        billing: { address: { line1: 'Allee 84', zip: '10439', city: 'Berlin', country: 'DE', first_name: 'Hanna', last_name: 'Schmidt' } },
        order_details: [{ product_name: 'Jacket', quantity: 1, amount: 10_000, tax_percentage: 19 }],
        metadata: { birth_date: '1985-02-11', buyer_type: 'private' },
        browser_info: { ip_address: '203.0.113.7', user_agent: 'Mozilla/5.0', device_fingerprint: { ratepay: `bench-dfp-${++n}` } },
      });
      await scenario(
        'confirm_oauth_connector',
        'POST /payments with confirm=true, manual capture, through the ratepay connector (OAuth2 token from the Redis cache, decimals, full order) to its imitation (status requires_capture)',
        settings.n_confirm,
        ratepayBody,
        'requires_capture',
      );
    }
    // What the service recorded, as a cross-check of the answers (warm-up included).
    const byStatus = await db
      .collection('payments')
      .aggregate<{ _id: string; n: number }>([{ $group: { _id: '$status', n: { $sum: 1 } } }])
      .toArray()
      .catch((err) => [{ _id: `error: ${(err as Error).message}`, n: 0 }]);
    stackInfo.payments_by_status = Object.fromEntries(byStatus.map((x) => [x._id, x.n]));
    stackInfo.transitions = await db
      .collection('transitions')
      .countDocuments()
      .catch(() => null);
    // Warnings and errors the processes logged (the full logs stay in memory only).
    const problems: Record<string, { count: number; samples: string[] }> = {};
    for (const [part, lines] of Object.entries(stack.logs)) {
      const bad = lines.filter((l) => /"level":"(warn|error)"/.test(l) || (!l.startsWith('{') && l.trim() !== '--- process stopped ---'));
      if (bad.length) problems[part] = { count: bad.length, samples: bad.slice(0, 5).map((l) => l.slice(0, 400)) };
    }
    stackInfo.log_problems = problems;
  } finally {
    await stopStack();
  }
  return { results, stack: stackInfo };
}

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
    if (!/(gateway|workers|payment-state|provider-sandbox)\/main\.ts/.test(cmd)) continue;
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
    stopping = true;
    abortAll.abort();
    if (++signals === 1) {
      log(`${sig}: stopping the run (send it again to stop at once)`);
    } else {
      log(`${sig}: stopping at once`);
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

const fmt = (x: number | null | undefined, digits = 1) => (x === null || x === undefined ? '–' : x.toFixed(digits));

function markdown(report: Report): string {
  const m = report.machine;
  const lines = [
    `# Benchmark ${report.timestamp}`,
    '',
    `commit ${report.git.commit ?? 'unknown'}${report.git.dirty ? ' (dirty)' : ''} · ${m.nproc} CPU (${m.cpu_model ?? '?'}) · ${m.total_memory_mb} MB · node ${m.node} · ` +
      `MongoDB server ${report.services.mongodb ?? '?'} · Redis ${report.services.redis ?? '?'} · load (1 min) ${m.loadavg_1m_at_start} at start, ${m.loadavg_1m_at_end ?? '?'} at end · ` +
      `concurrency ${report.settings.concurrency}, warm-up ${report.settings.warmup}`,
    '',
    '| scenario | ops | errors | duration s | throughput ops/s | p50 ms | p95 ms | p99 ms | max ms |',
    '|---|---:|---:|---:|---:|---:|---:|---:|---:|',
  ];
  for (const r of report.results) {
    const l = r.latency_ms;
    lines.push(
      `| ${r.name}${r.timed_out ? ' (timed out)' : ''} | ${r.ops} | ${r.errors} | ${fmt(r.duration_s, 2)} | ${fmt(r.throughput_ops_s)} | ${fmt(l?.p50)} | ${fmt(l?.p95)} | ${fmt(l?.p99)} | ${fmt(l?.max)} |`,
    );
  }
  lines.push('');
  const ratio = (a: string, b: string, what: string) => {
    const x = report.results.find((r) => r.name === a);
    const y = report.results.find((r) => r.name === b);
    if (!x || !y?.throughput_ops_s) return;
    const q = x.throughput_ops_s / y.throughput_ops_s;
    lines.push(`- ${a} / ${b} = **${q.toFixed(3)}** (${(q * 100).toFixed(1)} %): ${what}`);
  };
  ratio('create', 'baseline_mongo_insert', 'payments created per raw insertOne this MongoDB server takes');
  ratio('create_confirm_auto', 'baseline_bullmq', 'confirmed payments per no-op BullMQ job this Redis runs');
  for (const r of report.results) {
    const q = r.extra?.throughput_by_quarter as ReturnType<typeof quarters> | undefined;
    if (q)
      lines.push(`- ${r.name}: first quarter of the operations at ${fmt(q.first_quarter_ops_s)} ops/s, last quarter at ${fmt(q.last_quarter_ops_s)} ops/s`);
  }
  for (const r of report.results.filter((x) => x.timed_out)) {
    lines.push(`- ${r.name} hit BENCH_MAX_SECONDS=${report.settings.max_seconds}: ${r.ops} of ${planned(r.name)} operations ran; its numbers are over those`);
  }
  if (report.stack?.payments_by_status) lines.push(`- payments the service holds at the end, by status: ${JSON.stringify(report.stack.payments_by_status)}`);
  const errs = report.results.filter((r) => r.errors);
  for (const r of errs)
    lines.push(
      `- errors in ${r.name}: ${Object.entries(r.error_kinds)
        .map(([k, n]) => `${k} ×${n}`)
        .join(', ')}`,
    );
  return `${lines.join('\n')}\n`;
}

const planned = (name: ScenarioName) =>
  ({
    baseline_mongo_insert: settings.n_mongo,
    baseline_bullmq: settings.n_bullmq,
    create: settings.n_create,
    create_confirm_auto: settings.n_confirm,
    refund: settings.n_confirm,
    confirm_oauth_connector: settings.n_confirm,
  })[name];

interface Report {
  timestamp: string;
  git: { commit: string | null; dirty: boolean | null };
  machine: ReturnType<typeof machine>;
  services: { mongodb: string | null; redis: string | null };
  settings: typeof settings & { scenarios: ScenarioName[] };
  results: ScenarioResult[];
  stack: Record<string, unknown> | null;
}

// ---------------------------------------------------------------------------------------------------------------

const started = new Date();
const run = new Set(SCENARIOS.filter(enabled));
const porcelain = sh('git', ['status', '--porcelain']);
const report: Report = {
  timestamp: started.toISOString(),
  git: { commit: sh('git', ['rev-parse', '--short', 'HEAD']), dirty: porcelain === null ? null : porcelain.length > 0 },
  machine: machine(),
  services: { mongodb: null, redis: await redisVersion() },
  settings: { ...settings, scenarios: [...run] },
  results: [],
  stack: null,
};
log(`settings ${JSON.stringify(report.settings)}`);

let failure: unknown;
try {
  if (run.has('baseline_mongo_insert')) {
    log(`baseline_mongo_insert: ${settings.n_mongo} insertOne, concurrency ${settings.concurrency}`);
    const r = await baselineMongo();
    const ferret = r.extra?.ferretdb as string | null | undefined;
    report.services.mongodb =
      [r.extra?.server_version, ferret ? `(FerretDB${ferret === 'unknown' ? '' : ` ${ferret}`})` : ''].filter(Boolean).join(' ') || null;
    log(`baseline_mongo_insert: ${r.throughput_ops_s} ops/s`);
    report.results.push(r);
  }
  if (run.has('baseline_bullmq') && !stopping) {
    log(`baseline_bullmq: ${settings.n_bullmq} jobs`);
    const r = await baselineBullmq();
    log(`baseline_bullmq: ${r.throughput_ops_s} ops/s`);
    report.results.push(r);
  }
  if ((run.has('create') || run.has('create_confirm_auto') || run.has('refund') || run.has('confirm_oauth_connector')) && !stopping) {
    const s = await serviceScenarios(run);
    report.results.push(...s.results);
    report.stack = s.stack;
  }
} catch (err) {
  failure = err;
  await stopStack();
}

if (stopping) {
  log('interrupted: no results written');
  process.exit(130);
}
report.machine.loadavg_1m_at_end = round(os.loadavg()[0]);
if (report.results.length) {
  mkdirSync(resultsDir, { recursive: true });
  const file = `${resultsDir}${report.timestamp.replace(/:/g, '-').replace(/\.\d+Z$/, 'Z')}.json`;
  writeFileSync(file, `${JSON.stringify(report, null, 2)}\n`);
  const md = markdown(report);
  writeFileSync(`${resultsDir}latest.md`, md);
  process.stdout.write(`\n${md}`);
  log(`wrote ${file.slice(root.length)} and bench/results/latest.md`);
}
if (failure) {
  console.error('bench failed:', failure);
  process.exit(1);
}
// Wrong answers fail the command; a scenario cut short by BENCH_MAX_SECONDS does not (it is marked in the table).
process.exit(report.results.some((r) => r.errors > 0) ? 1 : 0);
