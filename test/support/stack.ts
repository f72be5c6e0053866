// Starts the real stack for a test file: payment-state, provider sandbox, one worker process serving every implemented
// connector's queue (the connectors' manifests) and the gateway as
// separate processes, against the test MongoDB server (FerretDB unless MONGODB_URL names another) in a database
// of their own, and Redis under a key prefix of their own. Any process can be killed and started again.
import { spawn, type ChildProcess } from 'node:child_process';
import { createServer } from 'node:net';
import { randomBytes } from 'node:crypto';
import { setTimeout as sleep } from 'node:timers/promises';
import { fileURLToPath } from 'node:url';
import { MongoClient, type Db } from 'mongodb';
import { Redis } from 'ioredis';
import { withNodeSettings } from '../../lib/node-env.ts';

const root = fileURLToPath(new URL('../..', import.meta.url));

/** One worker process serves every implemented connector's queue (`--connector all`); no other worker parts. */
const OTHER_WORKERS: `worker-${string}`[] = [];
export type PartName = 'payment-state' | 'provider-sandbox' | 'worker' | 'worker-webhooks' | 'gateway' | (typeof OTHER_WORKERS)[number];
const FILES: Record<string, string[]> = {
  'payment-state': ['services/payment-state/main.ts'],
  'provider-sandbox': ['services/provider-sandbox/main.ts'],
  worker: ['workers/main.ts', '--connector', 'all'],
  // Merchant webhooks: the relay (transition log -> events) and the deliveries.
  'worker-webhooks': ['workers/webhooks/main.ts'],
  ...Object.fromEntries(OTHER_WORKERS.map((w) => [w, ['workers/main.ts', '--connector', w.slice('worker-'.length)]])),
  gateway: ['gateway/main.ts'],
};
const READY: Record<string, string> = {
  'payment-state': 'payment-state listening',
  'provider-sandbox': 'provider sandbox listening',
  gateway: 'gateway listening',
};
const isWorker = (name: PartName) => name === 'worker' || name.startsWith('worker-');

/** Tries to listen on `port` (0: any) and gives back the port it got, or null if it is taken. */
function probePort(port: number): Promise<number | null> {
  return new Promise((resolve, reject) => {
    const s = createServer();
    s.once('error', (err: NodeJS.ErrnoException) => (err.code === 'EADDRINUSE' ? resolve(null) : reject(err)));
    s.listen(port, '127.0.0.1', () => {
      const got = (s.address() as { port: number }).port;
      s.close(() => resolve(got));
    });
  });
}

/**
 * A port free now, for a process started next. Taken below the kernel's ephemeral range (32768 and up on Linux),
 * which outgoing connections draw from: a port picked there could be taken by any client socket (the many MongoDB,
 * PostgreSQL and Redis connections of a test run) before the process listens (EADDRINUSE).
 */
export async function freePort(): Promise<number> {
  for (let i = 0; i < 50; i++) {
    const got = await probePort(20_000 + Math.floor(Math.random() * 12_000));
    if (got) return got;
  }
  return (await probePort(0))!;
}

export interface ApiResponse<T = any> {
  status: number;
  body: T;
  headers: Headers;
}

export class Stack {
  readonly env: Record<string, string>;
  readonly gatewayUrl: string;
  readonly sandboxUrl: string;
  readonly adminKey: string;
  readonly dbName: string;
  private readonly procs = new Map<PartName, ChildProcess>();
  /** Issue 23: HEALTH_PORT of the parts without an HTTP port of their own (payment-state, the workers). */
  readonly healthPorts: Partial<Record<PartName, number>> = {};
  readonly logs = Object.fromEntries(Object.keys(FILES).map((n) => [n, []])) as unknown as Record<PartName, string[]>;
  private mongo?: MongoClient;

  private constructor(env: Record<string, string>, dbName: string) {
    this.env = env;
    this.dbName = dbName;
    this.gatewayUrl = `http://127.0.0.1:${env.PORT}`;
    this.sandboxUrl = env.SANDBOX_URL;
    this.adminKey = env.ADMIN_API_KEY;
  }

  static async start(overrides: Record<string, string> = {}): Promise<Stack> {
    const id = randomBytes(4).toString('hex');
    const dbName = `bnpl_test_${id}`;
    const base = new URL(process.env.MONGODB_URL || 'mongodb://127.0.0.1:27017/');
    base.pathname = `/${dbName}`;
    const [port, psPort, sbPort] = [await freePort(), await freePort(), await freePort()];
    // deploy/node.env: the service's runtime settings (issue 24: memory), as under npm start and in the containers.
    const env: Record<string, string> = withNodeSettings({
      ...(process.env.NODE_OPTIONS ? { NODE_OPTIONS: process.env.NODE_OPTIONS } : {}),
      MONGODB_URL: base.toString(),
      REDIS_URL: process.env.REDIS_URL || 'redis://127.0.0.1:6379',
      REDIS_PREFIX: `bnpl-test-${id}`,
      PORT: String(port),
      PAYMENT_STATE_ADDR: `127.0.0.1:${psPort}`,
      SANDBOX_PORT: String(sbPort),
      SANDBOX_URL: `http://127.0.0.1:${sbPort}`,
      ADMIN_API_KEY: `admin_${randomBytes(16).toString('hex')}`,
      KEY_HASH_SECRET: randomBytes(32).toString('hex'),
      MASTER_ENC_KEY: randomBytes(32).toString('hex'),
      SANDBOX_OPERATOR_KEY: `sbop_${randomBytes(16).toString('hex')}`,
      // Tests that are not about the rate limit must not meet it (test/rate-limit.test.ts sets its own).
      RATE_LIMIT_PER_SECOND: '0',
      RATE_LIMIT_PER_ADDRESS_PER_SECOND: '0',
      CHECKOUT_RATE_LIMIT_PER_SECOND: '0',
      CONFIRM_WAIT_MS: '5000',
      SANDBOX_SLOW_MS: '4000',
      SANDBOX_REVIEW_MS: '1000',
      SYNC_DELAYS_MS: '500,1000,2000,4000',
      JOB_LOCK_MS: '2000',
      JOB_BACKOFF_MS: '300',
      SWEEP_INTERVAL_MS: '1000',
      SWEEP_AFTER_MS: '10000',
      LOG_LEVEL: 'debug',
      // Test receivers listen on 127.0.0.1; quick retries so a receiver that comes back is reached within the test.
      WEBHOOK_ALLOW_PRIVATE_URLS: 'true',
      WEBHOOK_RETRY_DELAYS_MS: '300,600,1000,2000,3000,5000,5000,5000',
      WEBHOOK_TIMEOUT_MS: '3000',
      WEBHOOK_RELAY_INTERVAL_MS: '250',
      WEBHOOK_REQUEUE_INTERVAL_MS: '1000',
      ...overrides,
    });
    const stack = new Stack(env, dbName);
    for (const part of ['payment-state', 'worker', 'worker-webhooks', ...OTHER_WORKERS] as PartName[]) stack.healthPorts[part] = await freePort();
    try {
      await stack.startPart('payment-state');
      await stack.startPart('provider-sandbox');
      await stack.startPart('worker');
      for (const w of OTHER_WORKERS) await stack.startPart(w);
      await stack.startPart('worker-webhooks');
      await stack.startPart('gateway');
      await stack.waitHealthy();
    } catch (err) {
      await stack.stop();
      throw err;
    }
    return stack;
  }

  /** A started stack and a merchant with a secret key: what most test files need first. */
  static async withMerchant(overrides: Record<string, string> = {}): Promise<{ stack: Stack; api_key: string; merchant_id: string }> {
    const stack = await Stack.start(overrides);
    return { stack, ...(await stack.merchant()) };
  }

  async startPart(name: PartName): Promise<void> {
    this.procs.set(name, await this.spawnPart(name));
  }

  /**
   * Another gateway process beside the stack's, on a port of its own (the stack's gateway stays where it is), as a
   * deployment with several gateways runs. Its lines go to the gateway's log.
   */
  async extraGateway(): Promise<{ url: string; stop: () => Promise<void> }> {
    const port = await freePort();
    const child = await this.spawnPart('gateway', { PORT: String(port) });
    const stop = async () => {
      if (child.exitCode !== null || child.signalCode !== null) return;
      const exited = new Promise((r) => child.once('exit', r));
      child.kill('SIGTERM');
      await exited;
    };
    return { url: `http://127.0.0.1:${port}`, stop };
  }

  /** Starts a process of the part and resolves once it says it is ready (its lines go to the part's log). */
  private async spawnPart(name: PartName, extraEnv: Record<string, string> = {}, tries = 3): Promise<ChildProcess> {
    const health = this.healthPorts[name];
    const env = { ...process.env, ...this.env, ...(health ? { HEALTH_PORT: String(health) } : {}), ...extraEnv };
    const child = spawn(process.execPath, FILES[name], { cwd: root, env, stdio: ['ignore', 'pipe', 'pipe'] });
    const lines = this.logs[name];
    const from = lines.length;
    const collect = (buf: Buffer) => lines.push(...buf.toString().split('\n').filter(Boolean));
    child.stdout!.on('data', collect);
    child.stderr!.on('data', collect);
    const ready = isWorker(name) ? 'worker ready' : (READY[name] ?? `${name} listening`);
    const deadline = Date.now() + 30_000;
    while (!lines.slice(from).some((l) => l.includes(ready))) {
      if (child.exitCode !== null) {
        // The health port was free when the stack chose it, before its parts started one by one; another test file's
        // connection may have taken it meanwhile. Another free port, then.
        const taken = lines.slice(from).some((l) => l.includes(`HEALTH_PORT ${health} (EADDRINUSE)`));
        if (taken && tries > 1) {
          this.healthPorts[name] = await freePort();
          return this.spawnPart(name, extraEnv, tries - 1);
        }
        throw new Error(`${name} exited: ${lines.slice(-20).join('\n')}`);
      }
      if (Date.now() > deadline) {
        child.kill('SIGKILL');
        throw new Error(`${name} did not start: ${lines.slice(-20).join('\n')}`);
      }
      await sleep(50);
    }
    return child;
  }

  /**
   * Issue 23: a rolling restart of one part: a new process is started beside the running one (the gateway shares its
   * port with REUSE_PORT=true; workers share their queues), and once it is ready the old one gets SIGTERM and drains.
   * Resolves when the old one has exited, with its exit code.
   */
  async rollingRestart(name: PartName): Promise<number | null> {
    const old = this.procs.get(name);
    const fresh = await this.spawnPart(name);
    this.procs.set(name, fresh);
    if (!old || old.exitCode !== null || old.signalCode !== null) return old?.exitCode ?? null;
    const exited = new Promise<number | null>((r) => old.once('exit', (code) => r(code)));
    old.kill('SIGTERM');
    return exited;
  }

  /** SIGKILL (a crash) by default. */
  async kill(name: PartName, signal: NodeJS.Signals = 'SIGKILL'): Promise<void> {
    const child = this.procs.get(name);
    if (!child || child.exitCode !== null || child.signalCode !== null) return;
    const exited = new Promise((r) => child.once('exit', r));
    child.kill(signal);
    await exited;
    this.logs[name].push('--- process stopped ---');
  }

  /** Where a part answers /health/live and /health/ready (issue 23): its own HTTP port, or its HEALTH_PORT. */
  healthUrl(name: PartName): string {
    if (name === 'gateway') return this.gatewayUrl;
    if (name === 'provider-sandbox') return this.sandboxUrl;
    return `http://127.0.0.1:${this.healthPorts[name]}`;
  }

  async restart(name: PartName): Promise<void> {
    await this.kill(name);
    this.logs[name].length = 0;
    await this.startPart(name);
  }

  async waitHealthy(timeoutMs = 30_000): Promise<void> {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      const last = await fetch(`${this.gatewayUrl}/health`).then(
        async (r) => ({ ok: r.ok, body: await r.text() }),
        (err) => ({ ok: false, body: String(err) }),
      );
      if (last.ok) return;
      if (Date.now() > deadline) throw new Error(`stack did not become healthy: ${last.body}`);
      await sleep(100);
    }
  }

  async db(): Promise<Db> {
    if (!this.mongo) {
      this.mongo = new MongoClient(this.env.MONGODB_URL);
      await this.mongo.connect();
    }
    return this.mongo.db(this.dbName);
  }

  async api<T = any>(method: string, path: string, body?: unknown, apiKey?: string, headers: Record<string, string> = {}): Promise<ApiResponse<T>> {
    const res = await fetch(this.gatewayUrl + path, {
      method,
      headers: { ...(body !== undefined ? { 'content-type': 'application/json' } : {}), ...(apiKey ? { 'api-key': apiKey } : {}), ...headers },
      body: body === undefined ? undefined : typeof body === 'string' ? body : JSON.stringify(body),
    });
    const text = await res.text();
    let parsed: unknown = text;
    try {
      parsed = JSON.parse(text);
    } catch {
      /* not JSON */
    }
    return { status: res.status, body: parsed as T, headers: res.headers };
  }

  /** A merchant account with a secret key, through the admin API. */
  async merchant(account: Record<string, unknown> = {}): Promise<{ merchant_id: string; api_key: string }> {
    const m = await this.api('POST', '/accounts', { merchant_name: 'Test shop', ...account }, this.adminKey);
    if (m.status !== 200) throw new Error(`create merchant: ${m.status} ${JSON.stringify(m.body)}`);
    const k = await this.api('POST', `/api_keys/${m.body.merchant_id}`, { name: 'test', expiration: 'never' }, this.adminKey);
    if (k.status !== 200) throw new Error(`create key: ${k.status} ${JSON.stringify(k.body)}`);
    return { merchant_id: m.body.merchant_id, api_key: k.body.api_key };
  }

  /** A call to the sandbox's operator routes (/__sandbox/*, /sandbox/*), with the operator key. */
  sandbox(path: string, init: RequestInit = {}): Promise<Response> {
    return sandboxOperatorFetch(this.sandboxUrl, this.env.SANDBOX_OPERATOR_KEY, path, init);
  }

  async sandboxCalls(
    query: Record<string, string> = {},
  ): Promise<{ method: string; path: string; idempotency_key: string | null; status: number; answered: boolean; trace_id: string | null }[]> {
    return (await this.sandbox(`/__sandbox/calls?${new URLSearchParams(query)}`)).json() as Promise<any>;
  }

  async sandboxPayments(idempotencyKey?: string): Promise<{ id: string; status: string; captured: number }[]> {
    return (
      await this.sandbox(`/__sandbox/service_test/payments?${new URLSearchParams(idempotencyKey ? { idempotency_key: idempotencyKey } : {})}`)
    ).json() as Promise<any>;
  }

  /**
   * The stack's log lines above debug that name any of `ids`, the last `max` in time order, each cut to 400
   * characters: what a test that timed out shows of the processes (CI prints only the failures).
   */
  linesAbout(ids: readonly string[], max = 30): string {
    const wanted = ids.filter(Boolean);
    const lines = Object.entries(this.logs).flatMap(([part, ls]) =>
      ls.filter((l) => !l.includes('"level":"debug"') && wanted.some((id) => l.includes(id))).map((l) => ({ part, ...compactLine(l) })),
    );
    lines.sort((a, b) => a.at.localeCompare(b.at));
    return lines
      .slice(-max)
      .map(({ part, at, text }) => `  ${at.slice(11, 23)} ${part}: ${text.slice(0, 400)}`)
      .join('\n');
  }

  /** Polls GET /payments/{id} until `until` holds. */
  async poll(paymentId: string, apiKey: string, until: (p: any) => boolean, timeoutMs = 30_000): Promise<any> {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      const r = await this.api('GET', `/payments/${paymentId}`, undefined, apiKey);
      if (r.status === 200 && until(r.body)) return r.body;
      if (Date.now() > deadline)
        throw new Error(
          `payment ${paymentId} did not reach the expected state: ${JSON.stringify(r.body).slice(0, 400)}\nthe stack's log about it:\n${this.linesAbout([paymentId, r.body?.connector_transaction_id])}`,
        );
      await sleep(200);
    }
  }

  /** Stops every process and removes what the stack stored: its database and its Redis keys. */
  async stop(): Promise<void> {
    await Promise.all(
      (['gateway', 'worker', 'worker-webhooks', ...OTHER_WORKERS, 'provider-sandbox', 'payment-state'] as PartName[]).map((n) => this.kill(n, 'SIGTERM')),
    );
    const db = await this.db().catch(() => undefined);
    await db?.dropDatabase().catch(() => undefined);
    await this.mongo?.close();
    const redis = new Redis(this.env.REDIS_URL, { lazyConnect: true, maxRetriesPerRequest: 1 });
    try {
      await redis.connect();
      let cursor = '0';
      do {
        const [next, keys] = await redis.scan(cursor, 'MATCH', `${this.env.REDIS_PREFIX}:*`, 'COUNT', 1000);
        if (keys.length) await redis.del(...keys);
        cursor = next;
      } while (cursor !== '0');
    } catch {
      /* Redis gone: nothing to clean */
    } finally {
      redis.disconnect();
    }
  }
}

/** fetch of a sandbox operator route (services/provider-sandbox/operator-auth.ts): the key in X-Sandbox-Operator-Key. */
export function sandboxOperatorFetch(sandboxUrl: string, key: string, path: string, init: RequestInit = {}): Promise<Response> {
  const headers = new Headers(init.headers);
  headers.set('x-sandbox-operator-key', key);
  if (typeof init.body === 'string' && !headers.has('content-type')) headers.set('content-type', 'application/json');
  return fetch(sandboxUrl + path, { ...init, headers });
}

export { sleep };

/** A JSON log line without what a reader of a test's failure needs least (trace ids, service, level, merchant). */
function compactLine(line: string): { at: string; text: string } {
  try {
    const {
      time,
      level: _l,
      service: _s,
      trace_id: _t,
      span_id: _sp,
      merchant_id: _m,
      merchant_connector_id: _mca,
      body_sha256: _b,
      msg,
      ...rest
    } = JSON.parse(line);
    return { at: String(time ?? ''), text: `${msg} ${JSON.stringify(rest)}` };
  } catch {
    return { at: '', text: line };
  }
}

/** Polls `f` until it gives something truthy (returned), or fails naming `what` after `timeoutMs`. */
export async function until<T>(what: string, f: () => Promise<T | null | undefined | false>, timeoutMs = 30_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const v = await f();
    if (v) return v;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await sleep(150);
  }
}

/** The operation id (the provider idempotency key) of a payment's latest attempt or capture. */
export async function operationIds(stack: Stack, merchantId: string, paymentId: string): Promise<{ kind: string; operation_id: string }[]> {
  const db = await stack.db();
  const p = await db.collection('payments').findOne({ merchant_id: merchantId, payment_id: paymentId });
  return (p?.operations ?? []).map((o: any) => ({ kind: o.kind, operation_id: o.operation_id }));
}
