// The fault campaign (issue 14): the real stack (test/support/stack.ts's processes), a merchant client that behaves
// as a careful merchant's server does (an Idempotency-Key on every POST, the same key again after a network error,
// a 5xx or a 409 "still running"), and faults while it works: kill -9 of one process type at random moments with the
// restart `npm start`'s supervisor would make (scripts/restart-policy.ts), a FLUSHDB of the stack's own Redis
// database, the provider answering 5xx storms or answering too late (the sandbox's fault switch). After the work and
// a recovery window, every payment is checked (checkInvariants) and the counts come out per scenario and operation.
//
// The process types, operations and scenarios are data: a process type or a check that needs a part the stack
// does not have (the webhook worker before it exists) is skipped with a "not available" line.
import { randomBytes } from 'node:crypto';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Redis } from 'ioredis';
import { nextRestart } from '../restart-policy.ts';
import { deriveEvents } from '../../domain/events.ts';
import { restorePayment } from '../../adapters/payment-doc.ts';
import { OUTBOX_PENDING } from '../../adapters/payment-store.ts';
import { Receiver } from './receiver.ts';
import { Stack, sleep, type PartName } from '../../test/support/stack.ts';

const root = fileURLToPath(new URL('../..', import.meta.url));

// ---------------------------------------------------------------------------------------------------------------
// What the campaign covers

export interface ProcessType {
  name: string;
  /** The stack part to kill, or null when this stack has none (then the process type is reported not available). */
  part: (stack: Stack) => PartName | null;
}
/** The webhook worker's part, whatever test/support/stack.ts names it once it exists (worker-webhooks, webhooks, ...). */
export const webhookPart = (stack: Stack): PartName | null =>
  existsSync(join(root, 'workers/webhooks/main.ts')) ? ((Object.keys(stack.logs).find((n) => /webhook/.test(n)) as PartName | undefined) ?? null) : null;

export const PROCESS_TYPES: ProcessType[] = [
  { name: 'gateway', part: () => 'gateway' },
  { name: 'payment-state', part: () => 'payment-state' },
  { name: 'connector worker', part: () => 'worker' },
  { name: 'provider sandbox', part: () => 'provider-sandbox' },
  { name: 'webhook worker', part: webhookPart },
];

export const OPERATIONS = ['confirm', 'capture', 'partial_capture', 'cancel', 'incremental_authorization', 'refund'] as const;
export type OperationName = (typeof OPERATIONS)[number];

export type Fault =
  | { kind: 'kill'; process: ProcessType }
  | { kind: 'flush' }
  | { kind: 'provider_5xx' }
  | { kind: 'provider_timeout' }
  | { kind: 'merchant_endpoint_down' };

export interface Scenario {
  name: string;
  fault: Fault;
}

export const SCENARIOS: Scenario[] = [
  ...PROCESS_TYPES.map((p): Scenario => ({ name: `kill -9 ${p.name}`, fault: { kind: 'kill', process: p } })),
  { name: 'Redis FLUSHDB mid-run', fault: { kind: 'flush' } },
  { name: 'merchant webhook endpoint down', fault: { kind: 'merchant_endpoint_down' } },
  { name: 'provider 5xx storms', fault: { kind: 'provider_5xx' } },
  { name: 'provider timeouts', fault: { kind: 'provider_timeout' } },
];

export interface CampaignOptions {
  /** Operations of each kind per scenario. */
  perOperation: number;
  /** Merchant requests in flight at once. */
  concurrency: number;
  /** kill -9 per kill scenario. */
  kills: number;
  /** A kill comes this long (random between the two) after the work started or the previous restart. */
  killGapMs: [number, number];
  /** How long every accepted operation has to reach a final state after the work ends. */
  recoveryMs: number;
  /** Scenarios to run (names as in SCENARIOS, or a substring of one); empty: all. */
  only: string[];
  log: (line: string) => void;
}

export const DEFAULT_OPTIONS: CampaignOptions = {
  perOperation: 60,
  concurrency: 16,
  kills: 3,
  killGapMs: [1_500, 5_000],
  recoveryMs: 90_000,
  only: [],
  log: () => {},
};

/** The stack's settings: short timers so that recovery happens within the window (the same paths as production). */
export const STACK_ENV: Record<string, string> = {
  CONFIRM_WAIT_MS: '3000',
  PROVIDER_TIMEOUT_MS: '3000',
  JOB_LOCK_MS: '2000',
  JOB_BACKOFF_MS: '300',
  SWEEP_INTERVAL_MS: '1000',
  SWEEP_AFTER_MS: '5000',
  SYNC_DELAYS_MS: '500,1000,2000,4000,8000',
  WEBHOOK_RETRY_DELAYS_MS: '500,1000,2000,4000,8000,8000',
  WEBHOOK_TIMEOUT_MS: '3000',
  WEBHOOK_ALLOW_PRIVATE_URLS: 'true',
  LOG_LEVEL: 'info',
};

// ---------------------------------------------------------------------------------------------------------------
// Results

export interface Row {
  scenario: string;
  operation: OperationName;
  sent: number;
  applied: number;
  /** Accepted (answered 2xx, or begun in the store) but not final within the recovery window. */
  lost: number;
  /** Sent, never accepted: the merchant got a 4xx, or gave up retrying. */
  refused: number;
  twice_provider: number;
  twice_log: number;
  stuck: number;
  captured_over_authorized: number;
  refunded_over_captured: number;
  provider_mismatch: number;
  events_missing: number | null;
  events_duplicated: number | null;
  answered_5xx: number;
}
export interface ScenarioResult {
  scenario: string;
  skipped?: string;
  rows: Row[];
  notes: string[];
  seconds: number;
}

// ---------------------------------------------------------------------------------------------------------------
// The merchant's client

interface Counters {
  answered5xx: number;
  networkErrors: number;
  inProgress409: number;
}
interface Answer {
  status: number;
  body: any;
}

/** One POST (or GET) as a merchant's server makes it: retried with the same Idempotency-Key until it is answered
 * something other than a network error, a 5xx or a 409 "still running", for at most `giveUpMs`. */
async function call(
  stack: Stack,
  c: Counters,
  method: string,
  path: string,
  body: unknown,
  apiKey: string,
  idemKey: string | null,
  giveUpMs = 60_000,
): Promise<Answer | null> {
  const deadline = Date.now() + giveUpMs;
  for (let attempt = 0; ; attempt++) {
    try {
      const res = await fetch(stack.gatewayUrl + path, {
        method,
        headers: {
          'api-key': apiKey,
          ...(body !== undefined ? { 'content-type': 'application/json' } : {}),
          ...(idemKey ? { 'idempotency-key': idemKey } : {}),
        },
        body: body === undefined ? undefined : JSON.stringify(body),
        signal: AbortSignal.timeout(20_000),
      });
      const text = await res.text();
      let parsed: any = text;
      try {
        parsed = JSON.parse(text);
      } catch {
        /* not JSON */
      }
      if (res.status >= 500) c.answered5xx++;
      else if (res.status === 409 && /still|in progress|running/i.test(JSON.stringify(parsed))) c.inProgress409++;
      else return { status: res.status, body: parsed };
    } catch {
      c.networkErrors++;
    }
    if (Date.now() > deadline) return null;
    await sleep(Math.min(2_000, 200 * 2 ** Math.min(attempt, 4)));
  }
}

// ---------------------------------------------------------------------------------------------------------------
// The work: one unit = one payment brought to where the operation applies, then the operation

interface Unit {
  op: OperationName;
  n: number;
  amount: number;
  payment_id?: string;
  refund_id?: string;
  /** The target operation was sent / accepted (answered 2xx). */
  sent: boolean;
  accepted: boolean;
  setupFailed?: string;
}

const FINAL_BEFORE: Record<OperationName, { create: Record<string, unknown>; ready: (p: any) => boolean }> = {
  confirm: { create: { capture_method: 'manual' }, ready: (p) => p.status === 'requires_confirmation' },
  capture: { create: { capture_method: 'manual', confirm: true }, ready: (p) => p.status === 'requires_capture' },
  partial_capture: { create: { capture_method: 'manual', confirm: true }, ready: (p) => p.status === 'requires_capture' },
  cancel: { create: { capture_method: 'manual', confirm: true }, ready: (p) => p.status === 'requires_capture' },
  incremental_authorization: {
    create: { capture_method: 'manual', confirm: true, request_incremental_authorization: true },
    ready: (p) => p.status === 'requires_capture',
  },
  refund: { create: { capture_method: 'automatic', confirm: true }, ready: (p) => p.status === 'succeeded' },
};

function target(u: Unit): { path: string; body: unknown } {
  const id = u.payment_id!;
  switch (u.op) {
    case 'confirm':
      return { path: `/payments/${id}/confirm`, body: {} };
    case 'capture':
      return { path: `/payments/${id}/capture`, body: {} };
    case 'partial_capture':
      return { path: `/payments/${id}/capture`, body: { amount_to_capture: u.amount / 2 } };
    case 'cancel':
      return { path: `/payments/${id}/cancel`, body: { cancellation_reason: 'fault campaign' } };
    case 'incremental_authorization':
      return { path: `/payments/${id}/incremental_authorization`, body: { amount: (u.amount * 3) / 2 } };
    case 'refund':
      return { path: '/refunds', body: { payment_id: id, amount: u.amount / 2, refund_id: u.refund_id, reason: 'fault campaign' } };
  }
}

/** Did the operation take effect, read from the stored payment. */
function appliedIn(u: Unit, p: any): boolean {
  switch (u.op) {
    case 'confirm':
      return p.status === 'requires_capture';
    case 'capture':
      return p.status === 'succeeded' && p.amount_received === u.amount;
    case 'partial_capture':
      return p.amount_received === u.amount / 2;
    case 'cancel':
      return p.status === 'cancelled';
    case 'incremental_authorization':
      return p.amount === (u.amount * 3) / 2 && p.status === 'requires_capture';
    case 'refund':
      return (p.refunds ?? []).some((r: any) => r.refund_id === u.refund_id && r.status === 'succeeded');
  }
}
/** Was the operation begun in the store (so accepted, even if the merchant never saw the answer). */
function begunIn(u: Unit, p: any): boolean {
  const kinds: Record<OperationName, string> = {
    confirm: 'authorize',
    capture: 'capture',
    partial_capture: 'capture',
    cancel: 'void',
    incremental_authorization: 'incremental_authorization',
    refund: 'refund',
  };
  if (u.op === 'refund') return (p.refunds ?? []).some((r: any) => r.refund_id === u.refund_id);
  if (u.op === 'confirm') return (p.operations ?? []).some((o: any) => o.kind === 'authorize');
  return (p.operations ?? []).some((o: any) => o.kind === kinds[u.op]);
}

async function runUnit(stack: Stack, c: Counters, apiKey: string, u: Unit, tag: string): Promise<void> {
  const spec = FINAL_BEFORE[u.op];
  const created = await call(
    stack,
    c,
    'POST',
    '/payments',
    {
      amount: u.amount,
      currency: 'EUR',
      payment_method: 'pay_later',
      customer: { email: `fault+${tag}${u.n}@example.com`.replace(/[^a-z0-9+@.]/gi, '') },
      metadata: { fault_op: u.op },
      ...spec.create,
    },
    apiKey,
    `${tag}-create-${u.n}`,
  );
  if (created?.status !== 200) {
    u.setupFailed = `create answered ${created ? `${created.status} ${JSON.stringify(created.body).slice(0, 200)}` : 'nothing'}`;
    return;
  }
  u.payment_id = created.body.payment_id;
  let p = created.body;
  const deadline = Date.now() + 60_000;
  while (!spec.ready(p)) {
    if (['failed', 'cancelled'].includes(p.status) || Date.now() > deadline) {
      u.setupFailed = `payment ${u.payment_id} is ${p.status}`;
      return;
    }
    await sleep(300);
    const got = await call(stack, c, 'GET', `/payments/${u.payment_id}`, undefined, apiKey, null);
    if (got?.status === 200) p = got.body;
  }
  const t = target(u);
  u.sent = true;
  const r = await call(stack, c, 'POST', t.path, t.body, apiKey, `${tag}-op-${u.n}`);
  if (r && r.status === 200) u.accepted = true;
}

// ---------------------------------------------------------------------------------------------------------------
// The stack's own Redis database, so that FLUSHDB loses everything of this stack and nothing of anyone else's

const CLAIM_KEY = 'bnpl-faults:claim';
export async function claimRedisDb(
  baseUrl = process.env.REDIS_URL || 'redis://127.0.0.1:6379',
): Promise<{ url: string; db: number; release: () => Promise<void>; reclaim: () => Promise<void> }> {
  const token = `${process.pid}-${randomBytes(4).toString('hex')}`;
  const first = Number(process.env.FAULTS_REDIS_DB || 0);
  const candidates = first ? [first] : [15, 14, 13, 12, 11, 10, 9, 8];
  for (const db of candidates) {
    const r = new Redis(baseUrl, { db, lazyConnect: true, maxRetriesPerRequest: 1 });
    await r.connect();
    try {
      if ((await r.dbsize()) === 0 && (await r.set(CLAIM_KEY, token, 'EX', 3 * 3600, 'NX')) === 'OK') {
        const url = new URL(baseUrl);
        url.pathname = `/${db}`;
        return {
          url: url.toString(),
          db,
          reclaim: async () => {
            const x = new Redis(baseUrl, { db });
            await x.set(CLAIM_KEY, token, 'EX', 3 * 3600);
            x.disconnect();
          },
          release: async () => {
            const x = new Redis(baseUrl, { db });
            if ((await x.get(CLAIM_KEY)) === token) await x.del(CLAIM_KEY);
            x.disconnect();
          },
        };
      }
    } finally {
      r.disconnect();
    }
  }
  throw new Error(`no empty Redis database among ${candidates.join(', ')} for the campaign (FAULTS_REDIS_DB names one)`);
}

// ---------------------------------------------------------------------------------------------------------------
// Running

export interface Campaign {
  stack: Stack;
  stateDir: string;
  redis: Awaited<ReturnType<typeof claimRedisDb>>;
  receiver: Receiver;
  stop: () => Promise<void>;
}

export async function startCampaignStack(extraEnv: Record<string, string> = {}): Promise<Campaign> {
  const redis = await claimRedisDb();
  const stateDir = mkdtempSync(join(tmpdir(), 'bnpl-faults-'));
  let stack: Stack;
  try {
    stack = await Stack.start({ ...STACK_ENV, REDIS_URL: redis.url, SANDBOX_STATE_FILE: join(stateDir, 'sandbox-state.json'), ...extraEnv });
  } catch (err) {
    await redis.release();
    rmSync(stateDir, { recursive: true, force: true });
    throw err;
  }
  const receiver = await Receiver.start();
  return {
    stack,
    stateDir,
    redis,
    receiver,
    stop: async () => {
      await receiver.stop();
      await stack.stop();
      await redis.release();
      rmSync(stateDir, { recursive: true, force: true });
    },
  };
}

const rand = (lo: number, hi: number) => lo + Math.random() * (hi - lo);

/** Kills `part` at random moments while `busy()` and restarts it after the supervisor's delay. */
async function killer(stack: Stack, part: PartName, o: CampaignOptions, busy: () => boolean, notes: string[]): Promise<void> {
  let crashes = 0;
  let startedAt = Date.now();
  let k = 0;
  for (; k < o.kills && busy(); k++) {
    const gapEnd = Date.now() + rand(o.killGapMs[0], o.killGapMs[1]);
    while (Date.now() < gapEnd && busy()) await sleep(50);
    if (!busy()) break;
    await stack.kill(part, 'SIGKILL');
    const next = nextRestart(crashes, Date.now() - startedAt);
    crashes = next.crashesInARow;
    o.log(`  kill -9 ${part} (#${k + 1}); restart in ${next.delayMs} ms`);
    await sleep(next.delayMs);
    const before = stack.logs[part].slice(-5);
    stack.logs[part].length = 0;
    try {
      await stack.startPart(part);
    } catch (err) {
      notes.push(`${part} did not come back after kill #${k + 1}: ${String(err).slice(0, 300)} (before: ${before.join(' | ').slice(0, 300)})`);
      await sleep(1_000);
      stack.logs[part].length = 0;
      await stack.startPart(part);
    }
    startedAt = Date.now();
  }
  if (k < o.kills) notes.push(`only ${k} of ${o.kills} kills happened while the work ran (it ended first)`);
}

async function sandboxFaults(stack: Stack, body: Record<string, unknown> | null): Promise<void> {
  await stack.sandbox(
    `/__sandbox/faults`,
    body ? { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) } : { method: 'DELETE' },
  );
}

export async function runScenario(c: Campaign, scenario: Scenario, o: CampaignOptions): Promise<ScenarioResult> {
  const t0 = Date.now();
  const { stack } = c;
  const f = scenario.fault;
  const wh = webhookPart(stack);
  if (f.kind === 'kill' && !f.process.part(stack))
    return { scenario: scenario.name, skipped: `not available: this stack has no ${f.process.name} process`, rows: [], notes: [], seconds: 0 };
  if (f.kind === 'merchant_endpoint_down' && !wh)
    return { scenario: scenario.name, skipped: 'not available: no webhook worker (workers/webhooks) in this stack', rows: [], notes: [], seconds: 0 };

  const notes: string[] = [];
  const { merchant_id, api_key } = await stack.merchant({ merchant_name: `faults ${scenario.name}` });
  if (wh) {
    // The merchant's webhook endpoint: the campaign's receiver, checking the signature with the profile's hash key.
    const hashKey = `faults-${randomBytes(12).toString('hex')}`;
    const profile = (await stack.api('GET', `/accounts/${merchant_id}`, undefined, stack.adminKey)).body.default_profile as string;
    const set = await stack.api(
      'POST',
      `/account/${merchant_id}/business_profile/${profile}`,
      {
        webhook_details: { webhook_url: c.receiver.endpointFor(merchant_id, hashKey) },
        payment_response_hash_key: hashKey,
      },
      stack.adminKey,
    );
    if (set.status !== 200) throw new Error(`the campaign's webhook endpoint was refused: ${JSON.stringify(set.body)}`);
  }
  const tag = `f${randomBytes(3).toString('hex')}`;
  const units: Unit[] = [];
  let n = 0;
  for (let i = 0; i < o.perOperation; i++) {
    for (const op of OPERATIONS) {
      n++;
      units.push({ op, n, amount: 1_000 * (2 + (n % 50)), sent: false, accepted: false, refund_id: op === 'refund' ? `ref_${tag}_${n}` : undefined });
    }
  }
  const counters: Counters = { answered5xx: 0, networkErrors: 0, inProgress409: 0 };
  let next = 0;
  let running = true;
  const busy = () => running;
  const lanes = Array.from({ length: o.concurrency }, async () => {
    while (next < units.length) {
      const u = units[next++]!;
      try {
        await runUnit(stack, counters, api_key, u, tag);
      } catch (err) {
        u.setupFailed = `client error ${String(err)}`;
      }
    }
  });
  const work = Promise.all(lanes).finally(() => {
    running = false;
  });

  const driver = (async () => {
    if (f.kind === 'kill') {
      await killer(stack, f.process.part(stack)!, o, busy, notes);
    } else if (f.kind === 'flush') {
      const at = Date.now() + rand(o.killGapMs[0], o.killGapMs[1] * 2);
      while (Date.now() < at && busy()) await sleep(50);
      const r = new Redis(c.redis.url);
      await r.flushdb();
      r.disconnect();
      await c.redis.reclaim();
      o.log(`  FLUSHDB of Redis database ${c.redis.db}`);
    } else if (f.kind === 'merchant_endpoint_down') {
      for (let outage = 0; outage < o.kills && busy(); outage++) {
        const gapEnd = Date.now() + rand(o.killGapMs[0], o.killGapMs[1]);
        while (Date.now() < gapEnd && busy()) await sleep(50);
        c.receiver.down = true;
        o.log(`  merchant endpoint down #${outage + 1}`);
        await sleep(rand(3_000, 6_000));
        c.receiver.down = false;
      }
      notes.push(`merchant endpoint: ${c.receiver.of(merchant_id).length} deliveries taken while it was up`);
    } else if (f.kind === 'provider_5xx' || f.kind === 'provider_timeout') {
      const on = f.kind === 'provider_5xx' ? { error_rate: 0.6, status: 503 } : { hang_rate: 0.3, hang_ms: Number(stack.env.PROVIDER_TIMEOUT_MS) + 1_500 };
      for (let storm = 0; storm < o.kills && busy(); storm++) {
        const gapEnd = Date.now() + rand(o.killGapMs[0], o.killGapMs[1]);
        while (Date.now() < gapEnd && busy()) await sleep(50);
        await sandboxFaults(stack, on);
        o.log(`  provider ${f.kind === 'provider_5xx' ? '5xx storm' : 'timeouts'} #${storm + 1} on`);
        await sleep(rand(3_000, 6_000));
        await sandboxFaults(stack, null);
      }
      const calls = await stack.sandboxCalls();
      notes.push(
        `provider fault switch: ${calls.filter((x) => x.status >= 500).length} provider calls answered 5xx, ${calls.filter((x) => !x.answered).length} not answered before the caller gave up`,
      );
    }
  })();
  await Promise.all([work, driver]);
  c.receiver.down = false;
  await sandboxFaults(stack, null).catch(() => undefined);
  o.log(
    `  work done in ${((Date.now() - t0) / 1000).toFixed(1)} s (${counters.networkErrors} network errors, ${counters.answered5xx} 5xx, ${counters.inProgress409} 409 still running); waiting for recovery`,
  );

  const rows = await checkInvariants(c, scenario, merchant_id, units, counters, o, notes);
  await stack.sandbox(`/__sandbox/reset`, { method: 'POST' }).catch(() => undefined);
  return { scenario: scenario.name, rows, notes, seconds: (Date.now() - t0) / 1000 };
}

const isFinal = (p: any) =>
  p.status !== 'processing' && !(p.operations ?? []).some((op: any) => op.open) && !(p.refunds ?? []).some((r: any) => r.status === 'pending');

/** The invariants on every payment of the scenario's merchant, after waiting up to recoveryMs for them to settle. */
export async function checkInvariants(
  c: Campaign,
  scenario: Scenario,
  merchantId: string,
  units: Unit[],
  counters: Counters,
  o: CampaignOptions,
  notes: string[],
): Promise<Row[]> {
  const { stack } = c;
  const db = await stack.db();
  const payments = db.collection('payments');
  const deadline = Date.now() + o.recoveryMs;
  let all: any[] = [];
  for (;;) {
    all = (await payments.find({ merchant_id: merchantId }).toArray()).map((p) => restorePayment(p));
    if (all.every(isFinal) || Date.now() > deadline) break;
    await sleep(1_000);
  }
  const byId = new Map(all.map((p) => [p.payment_id, p]));
  // A payment no unit knows: a create the merchant retried that made a second payment.
  const known = new Set(units.map((u) => u.payment_id).filter(Boolean));
  for (const p of all)
    if (!known.has(p.payment_id))
      notes.push(`orphan payment ${p.payment_id} (${p.status}, ${p.metadata?.fault_op ?? '?'}): created by a request whose answer the merchant never got`);

  // Our log: the same operation's same transition recorded twice.
  const transitions = await db
    .collection('transitions')
    .find({ merchant_id: merchantId }, { projection: { payment_id: 1, operation_id: 1, action: 1 } })
    .toArray();
  const seen = new Map<string, number>();
  for (const t of transitions) {
    if (!t.operation_id || /:unchanged$/.test(t.action)) continue;
    const k = `${t.payment_id}|${t.operation_id}|${t.action}`;
    seen.set(k, (seen.get(k) ?? 0) + 1);
  }
  const twiceLog = new Map<string, number>();
  for (const [k, count] of seen)
    if (count > 1) {
      const pid = k.split('|')[0]!;
      twiceLog.set(pid, (twiceLog.get(pid) ?? 0) + 1);
      notes.push(`applied twice in our log: ${k} x${count}`);
    }

  // The provider: keys carried out more than once, and its payments against ours.
  const appliedTwice: { key: string; applied: number }[] = (await (await stack.sandbox(`/__sandbox/applied?twice=true`)).json()) as any;
  const providerPayments: any[] = await stack.sandboxPayments();
  const providerRefunds: any[] = (await (await stack.sandbox(`/__sandbox/service_test/refunds`)).json()) as any;
  const byKey = new Map(providerPayments.map((pp) => [pp.idempotency_key, pp]));

  const blank = (op: OperationName): Row => ({
    scenario: scenario.name,
    operation: op,
    sent: 0,
    applied: 0,
    lost: 0,
    refused: 0,
    twice_provider: 0,
    twice_log: 0,
    stuck: 0,
    captured_over_authorized: 0,
    refunded_over_captured: 0,
    provider_mismatch: 0,
    events_missing: null,
    events_duplicated: null,
    answered_5xx: 0,
  });
  const rows = new Map(OPERATIONS.map((op) => [op, blank(op)]));
  for (const u of units) {
    const row = rows.get(u.op)!;
    if (u.setupFailed && !u.sent) {
      // The payment the operation needs was never accepted: the merchant could not even begin.
      row.sent++;
      row.refused++;
      notes.push(`refused: ${u.op} #${u.n} never sent, its payment not ready: ${u.setupFailed}`);
      if (!u.payment_id) continue;
    }
    const p = u.payment_id ? byId.get(u.payment_id) : undefined;
    if (u.payment_id && !p) notes.push(`${u.op} #${u.n}: payment ${u.payment_id} answered by the gateway is missing from the store`);
    if (!p) continue;
    const final = isFinal(p);
    if (!final) {
      row.stuck++;
      notes.push(
        `stuck: ${u.op} #${u.n} ${p.payment_id} ${p.status} open=${(p.operations ?? [])
          .filter((x: any) => x.open)
          .map((x: any) => x.kind)
          .join(',')}`,
      );
    }
    if (u.sent) {
      row.sent++;
      const accepted = u.accepted || begunIn(u, p);
      if (appliedIn(u, p) && final) row.applied++;
      else if (accepted && !final) row.lost++;
      else if (!accepted) {
        row.refused++;
        notes.push(`refused: ${u.op} #${u.n} ${p.payment_id} (${p.status})`);
      } else
        notes.push(
          `${u.op} #${u.n} ${p.payment_id} final without its effect: ${p.status} amount ${p.amount} received ${p.amount_received} ${p.error_code ?? ''} ${p.error_message ?? ''}`.trim(),
        );
    }
    const authorized = p.amount;
    if ((p.amount_received ?? 0) > authorized) row.captured_over_authorized++;
    const refunded = (p.refunds ?? []).filter((r: any) => r.status !== 'failed').reduce((s: number, r: any) => s + r.amount, 0);
    if (refunded > (p.amount_received ?? 0)) row.refunded_over_captured++;
    row.twice_log += twiceLog.get(p.payment_id) ?? 0;

    // The provider's side of this payment: one payment per authorization, the same amounts and state.
    const authorizeOps = (p.operations ?? []).filter((x: any) => x.kind === 'authorize').map((x: any) => x.operation_id);
    const atProvider = authorizeOps
      .map((k: string) => byKey.get(k))
      .filter(Boolean)
      .filter((pp: any) => pp.status !== 'declined');
    if (atProvider.length > 1) {
      row.twice_provider++;
      notes.push(`${p.payment_id}: ${atProvider.length} authorizations at the provider`);
    }
    const pp = atProvider[0];
    if (pp && final) {
      const expected: Record<string, string[]> = {
        authorized: ['requires_capture', 'partially_captured_and_capturable', 'partially_captured'],
        captured: ['succeeded', 'partially_captured'],
        voided: ['cancelled'],
        declined: ['failed'],
        requires_action: ['requires_customer_action'],
        pending: ['processing'],
      };
      const providerRefunded = providerRefunds.filter((r) => r.payment_id === pp.id && r.status !== 'failed').reduce((s, r) => s + r.amount, 0);
      const mismatch = [
        pp.captured !== (p.amount_received ?? 0) && `captured ${pp.captured} at the provider, ${p.amount_received} here`,
        pp.amount !== p.amount && `authorized ${pp.amount} at the provider, ${p.amount} here`,
        !(expected[pp.status] ?? []).includes(p.status) && `${pp.status} at the provider, ${p.status} here`,
        providerRefunded !== refunded && `refunded ${providerRefunded} at the provider, ${refunded} here`,
      ].filter(Boolean);
      if (mismatch.length) {
        row.provider_mismatch++;
        notes.push(`${u.op} #${u.n} ${p.payment_id}: ${mismatch.join('; ')}`);
      }
      if (pp.captured > pp.amount) row.captured_over_authorized++;
    }
  }
  // Keys the provider carried out twice: counted on the operation whose payment they belong to when known.
  for (const a of appliedTwice) {
    notes.push(`provider carried out ${a.key} ${a.applied} times`);
    rows.get('confirm')!.twice_provider++;
  }
  // 5xx answered to the merchant are the client's count for the whole scenario: on the first row.
  rows.get(OPERATIONS[0])!.answered_5xx = counters.answered5xx;
  const wh = webhookPart(stack);
  if (!wh) notes.push('events: not available (no webhook worker in this stack): events missing/duplicated not checked');
  else await checkEvents(c, merchantId, units, rows, deadline, notes);
  return [...rows.values()];
}

/**
 * The merchant's side of events: every event the payments' transitions give (domain/events.ts, from the stored log)
 * reached the receiver, signed, and none was produced twice (two event ids for one transition's event, or an event
 * no transition gives). The same event id received again (at-least-once delivery after a kill) is counted apart, as
 * information. A payment's events are first received in their order (sequence, then order within a transition).
 */
async function checkEvents(c: Campaign, merchantId: string, units: Unit[], rows: Map<OperationName, Row>, deadline: number, notes: string[]): Promise<void> {
  const db = await c.stack.db();
  const events = db.collection('events');
  // The relay and the deliveries go on after the payments are final: wait, within the window (and at least 30 s
  // more), until no transition waits in the outbox for its events and no event waits for its delivery. A transition
  // appended a moment ago has no event yet, so the events alone would say "nothing pending" too early.
  const until = Math.max(deadline, Date.now() + 30_000);
  const transitionsLog = db.collection('transitions');
  const waiting = async () =>
    (await transitionsLog.countDocuments({ merchant_id: merchantId, outbox: OUTBOX_PENDING })) > 0 ||
    (await events.countDocuments({ merchant_id: merchantId, delivery_status: 'pending' })) > 0;
  while (Date.now() < until && (await waiting())) await sleep(1_000);
  const transitions = await transitionsLog
    .find({ merchant_id: merchantId }, { projection: { _id: 0, payment_id: 1, seq: 1, snapshot: 1 } })
    .sort({ payment_id: 1, seq: 1 })
    .toArray();
  const expected = new Map<string, { payment_id: string; rank: number; type: string }>();
  let prev: any = null;
  for (const t of transitions) {
    if (prev && prev.payment_id !== t.payment_id) prev = null;
    t.snapshot = restorePayment(t.snapshot);
    for (const e of deriveEvents(prev?.snapshot ?? null, t.snapshot))
      expected.set(e.event_id, { payment_id: t.payment_id, rank: t.seq * 100 + e.order, type: e.event_type });
    prev = t;
  }
  const received = c.receiver.of(merchantId);
  const unverified = received.filter((r) => !r.verified);
  if (unverified.length) notes.push(`events: ${unverified.length} deliveries with a signature that does not verify`);
  const firstArrival = new Map<string, number>();
  received.forEach((r, i) => {
    if (!firstArrival.has(r.event_id)) firstArrival.set(r.event_id, i);
  });
  const rowOf = new Map<string, Row>();
  for (const u of units) if (u.payment_id) rowOf.set(u.payment_id, rows.get(u.op)!);
  const row = (paymentId: string) => rowOf.get(paymentId) ?? rows.get(OPERATIONS[0])!;
  for (const r of rows.values()) {
    r.events_missing = 0;
    r.events_duplicated = 0;
  }
  for (const [id, e] of expected) {
    if (firstArrival.has(id)) continue;
    row(e.payment_id).events_missing! += 1;
    const doc = await events.findOne({ event_id: id }, { projection: { _id: 0, delivery_status: 1, delivery_attempts: 1 } });
    notes.push(
      `event missing at the receiver: ${e.type} of ${e.payment_id} (${id}; ${doc ? `${doc.delivery_status}, ${doc.delivery_attempts} attempts` : 'never stored'})`,
    );
  }
  for (const id of firstArrival.keys()) {
    if (expected.has(id)) continue;
    const r = received.find((x) => x.event_id === id)!;
    rows.get(OPERATIONS[0])!.events_duplicated! += 1;
    notes.push(`event no transition gives: ${r.event_type} ${id}`);
  }
  // Two stored events for one transition's event (the relay's unique id would have to fail).
  const stored = await events
    .aggregate([
      { $match: { merchant_id: merchantId } },
      { $group: { _id: { p: '$payment_id', s: '$sequence', t: '$event_type', o: '$object_id' }, n: { $sum: 1 } } },
      { $match: { n: { $gt: 1 } } },
    ])
    .toArray();
  for (const d of stored) {
    row(d._id.p).events_duplicated! += d.n - 1;
    notes.push(`event stored ${d.n} times: ${d._id.t} of ${d._id.p} at ${d._id.s}`);
  }
  const redelivered = received.length - firstArrival.size;
  if (redelivered) notes.push(`events: ${redelivered} redeliveries of an event already received (at least once; merchants deduplicate by event_id)`);
  // Order: a payment's events first arrive in their order.
  const byPayment = new Map<string, number[]>();
  for (const [id] of [...firstArrival].sort((a, b) => a[1] - b[1])) {
    const e = expected.get(id);
    if (e) byPayment.set(e.payment_id, [...(byPayment.get(e.payment_id) ?? []), e.rank]);
  }
  for (const [pid, ranks] of byPayment) if (ranks.some((r, i) => i > 0 && r < ranks[i - 1]!)) notes.push(`events of ${pid} arrived out of order`);
}

export async function runCampaign(c: Campaign, o: CampaignOptions): Promise<ScenarioResult[]> {
  const out: ScenarioResult[] = [];
  const chosen = SCENARIOS.filter((s) => o.only.length === 0 || o.only.some((x) => s.name.toLowerCase().includes(x.toLowerCase())));
  for (const s of chosen) {
    o.log(`scenario: ${s.name}`);
    const r = await runScenario(c, s, o);
    if (r.skipped) o.log(`  ${r.skipped}`);
    out.push(r);
  }
  return out;
}

// ---------------------------------------------------------------------------------------------------------------
// The table

const COLUMNS: [keyof Row, string][] = [
  ['sent', 'sent'],
  ['applied', 'applied'],
  ['lost', 'lost'],
  ['refused', 'refused'],
  ['twice_provider', 'twice (provider)'],
  ['twice_log', 'twice (our log)'],
  ['stuck', 'stuck'],
  ['captured_over_authorized', 'captured > authorized'],
  ['refunded_over_captured', 'refunded > captured'],
  ['provider_mismatch', 'provider disagrees'],
  ['events_missing', 'events missing'],
  ['events_duplicated', 'events duplicated'],
  ['answered_5xx', '5xx to clients'],
];
/** The cells that must be zero. */
export const MUST_BE_ZERO: (keyof Row)[] = [
  'lost',
  'refused',
  'twice_provider',
  'twice_log',
  'stuck',
  'captured_over_authorized',
  'refunded_over_captured',
  'provider_mismatch',
  'events_missing',
  'events_duplicated',
  'answered_5xx',
];

export function table(results: ScenarioResult[]): string {
  const lines = [`| scenario | operation | ${COLUMNS.map(([, h]) => h).join(' | ')} |`, `|---|---|${COLUMNS.map(() => '---:').join('|')}|`];
  for (const r of results) {
    if (r.skipped) {
      lines.push(
        `| ${r.scenario} | – | ${r.skipped} |${COLUMNS.slice(1)
          .map(() => '')
          .join('|')}|`,
      );
      continue;
    }
    for (const row of r.rows) {
      lines.push(
        `| ${row.scenario} | ${row.operation} | ${COLUMNS.map(([k]) => {
          const v = row[k];
          if (v === null) return 'n/a';
          return MUST_BE_ZERO.includes(k) && (v as number) > 0 ? `**${v}**` : String(v);
        }).join(' | ')} |`,
      );
    }
  }
  return lines.join('\n');
}

/** Non-zero cells that must be zero, as readable lines. */
export function failures(results: ScenarioResult[]): string[] {
  const out: string[] = [];
  for (const r of results)
    for (const row of r.rows) {
      for (const k of MUST_BE_ZERO) if (((row[k] ?? 0) as number) > 0) out.push(`${row.scenario} / ${row.operation}: ${k} = ${row[k]}`);
      if (row.applied !== row.sent) out.push(`${row.scenario} / ${row.operation}: applied ${row.applied} of ${row.sent} sent`);
    }
  return out;
}
