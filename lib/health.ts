// Issue 23: every process answers GET /health/live (the process runs and its event loop turns: 200) and
// GET /health/ready (200 only while each of its dependencies, MongoDB, Redis, payment-state's gRPC, answers; else 503
// naming those that do not; 503 too once the process is stopping, so a load balancer or orchestrator sends it nothing
// new while it drains). The gateway and the provider sandbox answer on their own HTTP port; payment-state and the
// workers, which have none, on a small one of their own (HEALTH_PORT, startHealthServer).
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { Db } from 'mongodb';
import type { Redis } from 'ioredis';

/** One dependency: resolves true when it answers. A check that throws, answers false or outlasts the timeout is down. */
export type Check = () => Promise<boolean>;

export interface Readiness {
  ready: boolean;
  /** Each dependency: 'up' or 'down'. */
  checks: Record<string, 'up' | 'down'>;
  /** The dependencies that are down, in the order they were declared. */
  not_ready: string[];
}

export const LIVE_PATH = '/health/live';
export const READY_PATH = '/health/ready';

/** Runs every check at once, each within `timeoutMs`. */
export async function readiness(checks: Record<string, Check>, timeoutMs = 2_000): Promise<Readiness> {
  const results = await Promise.all(
    Object.entries(checks).map(async ([name, check]) => {
      let timer: NodeJS.Timeout | undefined;
      const timeout = new Promise<boolean>((resolve) => {
        timer = setTimeout(() => resolve(false), timeoutMs);
      });
      const ok = await Promise.race([
        check().then(
          (v) => v === true,
          () => false,
        ),
        timeout,
      ]);
      clearTimeout(timer);
      return [name, ok] as const;
    }),
  );
  const notReady = results.filter(([, ok]) => !ok).map(([name]) => name);
  return { ready: notReady.length === 0, checks: Object.fromEntries(results.map(([n, ok]) => [n, ok ? 'up' : 'down'])), not_ready: notReady };
}

export const mongoCheck =
  (db: Pick<Db, 'command'>): Check =>
  async () =>
    (await db.command({ ping: 1 })).ok === 1;

export const redisCheck =
  (redis: Pick<Redis, 'ping' | 'status'>): Check =>
  async () =>
    // A connection that is not 'ready' would queue the PING until it is back: down now, not later.
    redis.status === 'ready' && (await redis.ping()) === 'PONG';

/** payment-state's grpc.health.v1 answers SERVING (under `npm start`: for this run's instance, lib/grpc.ts). */
export const grpcCheck =
  (checker: { check: (timeoutMs?: number, service?: string) => Promise<boolean> }, service = ''): Check =>
  () =>
    checker.check(1_000, service);

/**
 * The checks of a process that stores and queues: MongoDB and Redis, and payment-state's gRPC health for a process
 * that calls it (`paymentState`: its checker, and the service to ask, this run's instance under `npm start`).
 */
export function storeChecks(
  db: Pick<Db, 'command'>,
  redis: Pick<Redis, 'ping' | 'status'>,
  paymentState?: { checker: Parameters<typeof grpcCheck>[0]; service: string },
): Record<string, Check> {
  return {
    mongodb: mongoCheck(db),
    redis: redisCheck(redis),
    ...(paymentState ? { payment_state: grpcCheck(paymentState.checker, paymentState.service) } : {}),
  };
}

export interface HealthOptions {
  /** The process as its answers name it: "gateway", "payment-state", "worker", "worker-webhooks", "provider-sandbox". */
  service: string;
  checks: Record<string, Check>;
  /** The `npm start` run (INSTANCE_ID) in every answer, so a supervisor knows it reached its own process. */
  instanceId?: string;
  timeoutMs?: number;
}

/** The state of one process's health: its answers, and `drain()` which turns readiness off for good (on SIGTERM). */
export class Health {
  private stopping = false;
  readonly opts: HealthOptions;
  constructor(opts: HealthOptions) {
    this.opts = opts;
  }

  /** From now on /health/ready answers 503 "stopping": nothing new should be sent to this process. */
  drain(): void {
    this.stopping = true;
  }

  get draining(): boolean {
    return this.stopping;
  }

  private base(): Record<string, unknown> {
    return { service: this.opts.service, ...(this.opts.instanceId ? { instance_id: this.opts.instanceId } : {}) };
  }

  live(): { status: number; body: Record<string, unknown> } {
    return { status: 200, body: { status: 'live', ...this.base(), uptime_s: Math.round(process.uptime()) } };
  }

  async ready(): Promise<{ status: number; body: Record<string, unknown> }> {
    if (this.stopping) return { status: 503, body: { status: 'stopping', ...this.base() } };
    const r = await readiness(this.opts.checks, this.opts.timeoutMs);
    return r.ready
      ? { status: 200, body: { status: 'ready', ...this.base(), checks: r.checks } }
      : { status: 503, body: { status: 'not_ready', ...this.base(), not_ready: r.not_ready, checks: r.checks } };
  }

  /**
   * A node request handler for GET (and HEAD) /health/live and /health/ready; resolves false for any other request
   * (the caller answers it), so it can stand in front of an Express app or alone.
   */
  async handle(req: Pick<IncomingMessage, 'method' | 'url'>, res: ServerResponse): Promise<boolean> {
    const path = (req.url ?? '').split('?')[0];
    if (path !== LIVE_PATH && path !== READY_PATH) return false;
    if (req.method !== 'GET' && req.method !== 'HEAD') {
      res.writeHead(405, { allow: 'GET, HEAD', 'content-type': 'application/json' }).end(JSON.stringify({ error: 'use GET' }));
      return true;
    }
    const { status, body } = path === LIVE_PATH ? this.live() : await this.ready();
    res.writeHead(status, { 'content-type': 'application/json', 'cache-control': 'no-store' });
    res.end(req.method === 'HEAD' ? undefined : JSON.stringify(body));
    return true;
  }
}

/** A GET (and HEAD) route the health server answers beside the probes: the process's GET /metrics (lib/metrics.ts). */
export type ExtraRoute = (req: IncomingMessage, res: ServerResponse) => void;

/**
 * The small HTTP server of a process without one (payment-state, workers): /health/live and /health/ready, the
 * `routes` given (GET /metrics), 404 elsewhere. port 0: none is started (HEALTH_PORT unset). A port already taken stops the process (it would otherwise
 * look healthy through another process's answers).
 */
export async function startHealthServer(
  health: Health,
  port: number,
  opts: { reusePort?: boolean; routes?: Record<string, ExtraRoute> } = {},
): Promise<Server | undefined> {
  if (!port) return undefined;
  const routes = opts.routes ?? {};
  const server = createServer((req, res) => {
    health.handle(req, res).then(
      (handled) => {
        if (handled) return;
        const path = (req.url ?? '').split('?')[0];
        const route = Object.hasOwn(routes, path) ? routes[path] : undefined;
        if (route && (req.method === 'GET' || req.method === 'HEAD')) return route(req, res);
        if (route) return void res.writeHead(405, { allow: 'GET, HEAD', 'content-type': 'application/json' }).end(JSON.stringify({ error: 'use GET' }));
        res.writeHead(404, { 'content-type': 'application/json' }).end(JSON.stringify({ error: 'not found' }));
      },
      () => {
        if (!res.headersSent) res.writeHead(500).end();
      },
    );
  });
  server.keepAliveTimeout = 5_000;
  try {
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen({ port, reusePort: opts.reusePort ?? false }, () => {
        server.off('error', reject);
        resolve();
      });
    });
  } catch (err) {
    console.error(
      `${health.opts.service}: cannot listen on HEALTH_PORT ${port} (${(err as NodeJS.ErrnoException).code ?? err}); set HEALTH_PORT to a free port, or 0 for none`,
    );
    process.exit(1);
  }
  return server;
}

/** Closes the health server (at the end of a stop: readiness answered "stopping" meanwhile). */
export const closeHealthServer = (server: Server | undefined): Promise<void> =>
  new Promise((resolve) => {
    if (!server) return resolve();
    server.close(() => resolve());
    server.closeAllConnections();
  });
