// `npm start`: the whole stack as separate supervised processes (gateway, payment-state, one worker process for every
// connector with a manifest (workers/connectors/manifests.ts), the provider sandbox), plus Redis and a development MongoDB stand-in (FerretDB) when none is running.
// A child that dies is restarted; Ctrl-C stops everything, letting workers finish their active jobs.
// Each process's output goes to <state dir>/logs/<process>.log (the previous runs' in .log.1, .log.2, ...), and the service's own processes' to the terminal too
// (Redis and FerretDB log every connection: only to their files).
// It refuses to start when a port it needs is taken; every child gets this run's INSTANCE_ID, and "up" means the
// gateway's /health answers 200 with that id (each part answering is this run's own) and every process's own
// /health/ready answers 200 with it (payment-state and the workers on a free HEALTH_PORT each). Log files are kept
// across runs (scripts/log-files.ts: rotated, never wiped). <state dir>/start.pid lets `npm stop` (scripts/stop.sh) stop it.
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { createServer } from 'node:net';
import { randomUUID } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { parseConfig } from '../lib/config.ts';
import { withNodeSettings } from '../lib/node-env.ts';
import { devSecrets } from './dev-secrets.ts';
import { RotatingLog } from './log-files.ts';
import { nextRestart } from './restart-policy.ts';
import { answers as listening, metricsUrls, portProblems, wantedPorts, withoutCredentials } from './start-ports.ts';
import { setTimeout as sleep } from 'node:timers/promises';

const root = fileURLToPath(new URL('..', import.meta.url));
const cache = `${root}.cache`;
const stateDir = process.env.START_STATE_DIR || cache;
const logDir = `${stateDir}/logs`;
mkdirSync(logDir, { recursive: true });

const secretsFile = `${stateDir}/dev-secrets.json`;
const { secrets, supplied } = devSecrets(process.env, secretsFile);
// INSTANCE_ID: this run, in every child's environment and in their health answers. SANDBOX_STATE_FILE: the sandbox
// keeps its providers' state across a restart (a refund of a payment made before it still finds the payment).
const instanceId = randomUUID();
// deploy/node.env: every node child runs with the service's runtime settings (issue 24: memory).
const env: NodeJS.ProcessEnv = withNodeSettings({
  ...process.env,
  ...secrets,
  INSTANCE_ID: instanceId,
  SANDBOX_STATE_FILE: process.env.SANDBOX_STATE_FILE || `${stateDir}/sandbox-state.json`,
});
const cfg = parseConfig(env);
const port = cfg.port;
const timeoutMs = Number(process.env.START_TIMEOUT_MS || 90_000);
const pidFile = `${stateDir}/start.pid`;

/** stage: the order of shutdown. Intake and workers stop first (workers finish their jobs, which still need
 * payment-state and the provider), then the services they report to, then the stores. */
interface Part {
  name: string;
  cmd: string;
  args: string[];
  stage: number;
  port?: number;
  quiet?: boolean;
  child?: ChildProcess;
  log?: RotatingLog;
  /** Where it answers GET /health/ready (issue 23): its own HTTP port, or the HEALTH_PORT npm start gives it. */
  ready?: string;
  env?: NodeJS.ProcessEnv;
  startedAt: number;
  crashesInARow: number;
  exits: number;
  lastExit?: string;
}
const parts: Part[] = [];
const part = (stage: number, name: string, cmd: string, args: string[], port?: number): Part => ({
  name,
  cmd,
  args,
  stage,
  port,
  quiet: port !== undefined,
  startedAt: 0,
  crashesInARow: 0,
  exits: 0,
});
const node = (stage: number, name: string, file: string, ...args: string[]) => part(stage, name, process.execPath, [`${root}${file}`, ...args]);
/** A process answering /health/ready at `url`; `healthPort`: the HEALTH_PORT npm start gives it (it has no HTTP port). */
const probed = (p: Part, url: string, healthPort?: number): Part => ({ ...p, ready: url, ...(healthPort ? { env: { HEALTH_PORT: String(healthPort) } } : {}) });
/** A free port for a HEALTH_PORT: the kernel's choice, so two runs never collide. */
const freePort = () =>
  new Promise<number>((resolve, reject) => {
    const s = createServer();
    s.once('error', reject);
    s.listen(0, '127.0.0.1', () => {
      const { port: p } = s.address() as { port: number };
      s.close(() => resolve(p));
    });
  });
const logOf = (p: Part) => `${logDir}/${p.name}.log`;

// Otherwise whatever holds a port would answer for our process, and "up" would be a lie.
const busy = await portProblems(wantedPorts(cfg));
if (busy.length) {
  console.error(busy.map((b) => `[start] not started: ${b}`).join('\n'));
  process.exit(1);
}
/** The npm start whose pid file is in the state directory, while it runs. */
const runningStart = (): number | undefined => {
  const pid = existsSync(pidFile) ? Number(readFileSync(pidFile, 'utf8').trim()) : NaN;
  if (!Number.isInteger(pid) || pid <= 0 || pid === process.pid) return undefined;
  try {
    return readFileSync(`/proc/${pid}/cmdline`, 'utf8').includes('scripts/start.ts') ? pid : undefined;
  } catch {
    return undefined;
  }
};
const other = runningStart();
if (other) {
  console.error(
    `[start] not started: another npm start (pid ${other}) runs from ${stateDir} (its secrets, sandbox state and logs); npm stop stops it, or set START_STATE_DIR to another folder`,
  );
  process.exit(1);
}
writeFileSync(pidFile, `${process.pid}\n`);
const forgetPid = () => {
  if (existsSync(pidFile) && readFileSync(pidFile, 'utf8').trim() === String(process.pid)) rmSync(pidFile, { force: true });
};
process.on('exit', forgetPid);

let redisFrom = 'REDIS_URL';
if (!process.env.REDIS_URL) {
  redisFrom = 'already running';
  if (!(await listening(6379))) {
    redisFrom = 'started by npm start';
    parts.push(part(2, 'redis', 'redis-server', ['--bind', '127.0.0.1', '--port', '6379', '--save', '', '--appendonly', 'no'], 6379));
  }
}
let mongoFrom = 'MONGODB_URL';
if (!process.env.MONGODB_URL) {
  const ferretPort = Number(process.env.FERRETDB_PORT || 27017);
  env.MONGODB_URL = `mongodb://127.0.0.1:${ferretPort}/bnpl`;
  mongoFrom = 'FerretDB, already running';
  if (!(await listening(ferretPort))) {
    mongoFrom = 'FerretDB, started by npm start';
    // The same provisioning as `npm test` (scripts/services.sh): build, then create and prepare the database.
    const prep = spawnSync('bash', [`${root}scripts/services.sh`, 'prepare-ferretdb'], { stdio: 'inherit', env });
    if (prep.status !== 0) {
      console.error('[start] not started: FerretDB, the local MongoDB stand-in, could not be prepared (see above).');
      process.exit(1);
    }
    const pgUrl = process.env.FERRETDB_POSTGRESQL_URL || 'postgres://postgres@127.0.0.1:5432/ferretdb';
    parts.push(part(2, 'ferretdb', `${cache}/ferretdb`, ['-listen', `127.0.0.1:${ferretPort}`, '-postgresql-url', pgUrl], ferretPort));
  }
}
const stores = [
  `[start] MongoDB: ${withoutCredentials(env.MONGODB_URL!)} (${mongoFrom})`,
  `[start] Redis: ${withoutCredentials(cfg.redisUrl)} (${redisFrom}; keys under ${cfg.redisPrefix}:)`,
].join('\n');
console.error(`${stores}\n[start] instance ${instanceId}; pid ${process.pid} (${pidFile}: npm stop stops it)`);
// Issue 23: each process answers /health/ready; those without an HTTP port of their own get a HEALTH_PORT.
const healthPorts = { 'payment-state': await freePort(), workers: await freePort(), webhooks: await freePort() };
const healthUrl = (p: number) => `http://127.0.0.1:${p}`;
parts.push(
  probed(node(1, 'payment-state', 'services/payment-state/main.ts'), healthUrl(healthPorts['payment-state']), healthPorts['payment-state']),
  probed(node(1, 'provider-sandbox', 'services/provider-sandbox/main.ts'), cfg.sandboxUrl),
  // One process serves every connector's queue here; production scales each connector's workers on its own.
  probed(node(0, 'workers', 'workers/main.ts', '--connector', 'all'), healthUrl(healthPorts.workers), healthPorts.workers),
  // Merchant webhooks: the relay from the transition log and the deliveries (scale: run more of it).
  probed(node(0, 'webhooks', 'workers/webhooks/main.ts'), healthUrl(healthPorts.webhooks), healthPorts.webhooks),
  probed(node(0, 'gateway', 'gateway/main.ts'), `http://127.0.0.1:${port}`),
);

let stopping = false;
function launch(p: Part) {
  // Kept across restarts: the previous run's file becomes <process>.log.1 (scripts/log-files.ts), never truncated.
  p.log ??= new RotatingLog(logOf(p), { maxBytes: cfg.logFileMaxBytes, keep: cfg.logFilesKept, fresh: true });
  const child = spawn(p.cmd, p.args, { env: { ...env, ...p.env }, stdio: ['ignore', 'pipe', 'pipe'] });
  p.child = child;
  p.startedAt = Date.now();
  child.stdout!.on('data', (d) => {
    if (!p.quiet) process.stdout.write(d);
    p.log!.write(d);
  });
  child.stderr!.on('data', (d) => {
    if (!p.quiet) process.stderr.write(d);
    p.log!.write(d);
  });
  child.on('error', (err) => p.log!.write(`[start] could not run ${p.cmd}: ${err.message}\n`));
  child.on('exit', (code, signal) => {
    p.exits++;
    p.lastExit = signal ? `signal ${signal}` : `code ${code}`;
    if (stopping) return;
    const next = nextRestart(p.crashesInARow, Date.now() - p.startedAt);
    p.crashesInARow = next.crashesInARow;
    console.error(`[start] ${p.name} exited (${p.lastExit}); restarting in ${next.delayMs} ms (log: ${logOf(p)})`);
    setTimeout(() => !stopping && launch(p), next.delayMs);
  });
}

async function stop(reason: string, exitCode: number) {
  if (stopping) return;
  stopping = true;
  console.error(`[start] ${reason}: stopping (workers finish their active jobs)`);
  for (const stage of [0, 1, 2]) {
    await Promise.all(
      parts
        .filter((p) => p.stage === stage)
        .map(
          (p) =>
            new Promise<void>((resolve) => {
              const c = p.child;
              if (!c || c.exitCode !== null || c.signalCode !== null) return resolve();
              const kill = setTimeout(() => c.kill('SIGKILL'), 30_000);
              c.once('exit', () => {
                clearTimeout(kill);
                resolve();
              });
              c.kill('SIGTERM');
            }),
        ),
    );
  }
  process.exit(exitCode);
}
process.on('SIGINT', () => void stop('SIGINT', 0));
process.on('SIGTERM', () => void stop('SIGTERM', 0));

for (const p of parts) {
  launch(p);
  // Redis and MongoDB first: the application processes connect to them as they start.
  for (let t = 0; p.port && t < 100 && !(await listening(p.port)); t++) await sleep(100);
}

/** The processes whose GET /health/ready does not answer 200 for this run's instance, each with what it answered. */
async function notReadyParts(): Promise<string[]> {
  const answers = await Promise.all(
    parts
      .filter((p) => p.ready)
      .map(async (p) => {
        const r = await fetch(`${p.ready}/health/ready`, { signal: AbortSignal.timeout(3_000) }).then(
          async (res) => ({ status: res.status, body: (await res.json().catch(() => ({}))) as { instance_id?: unknown } }),
          () => ({ status: 0, body: {} as { instance_id?: unknown } }),
        );
        if (r.status === 200 && r.body.instance_id === instanceId) return undefined;
        return `${p.name} ${r.status ? `${r.status} ${JSON.stringify(r.body).slice(0, 200)}` : 'no answer'} (${p.ready}/health/ready)`;
      }),
  );
  return answers.filter((a): a is string => !!a);
}

// Up means /health answers 200 for this run's instance: every part reachable and its own (the gateway checks each
// part's instance id). Give up early on a crash loop, late on a timeout.
const deadline = Date.now() + timeoutMs;
let lastAnswer = 'no answer';
let up = false;
while (!stopping && Date.now() < deadline && !parts.some((p) => p.crashesInARow >= 3)) {
  const r = await fetch(`http://127.0.0.1:${port}/health`).then(
    async (res) => {
      const text = await res.text();
      const own = (() => {
        try {
          return (JSON.parse(text) as { instance_id?: unknown }).instance_id === instanceId;
        } catch {
          return false;
        }
      })();
      return { ok: res.ok && own, text: `${res.status} ${own ? '' : `(not this instance's gateway) `}${text}` };
    },
    (e: Error & { cause?: { code?: string } }) => ({ ok: false, text: `no answer (${e.cause?.code ?? e.message})` }),
  );
  lastAnswer = r.text;
  // And each process's own readiness (issue 23): /health/ready 200 from this run's process.
  const notReady = r.ok ? await notReadyParts() : [];
  if (notReady.length) lastAnswer = `200, but not ready: ${notReady.join('; ')}`;
  if ((up = r.ok && !notReady.length)) break;
  await sleep(250);
}

if (up) {
  console.error(`
[start] BNPL payment service is up: http://127.0.0.1:${port}  (GET /health, /openapi.json)
[start] each process's /health/live and /health/ready: ${parts
    .filter((p) => p.ready)
    .map((p) => `${p.name} ${p.ready}`)
    .join(', ')}
[start] admin api-key: ${supplied.has('ADMIN_API_KEY') ? 'the one in ADMIN_API_KEY' : `${secrets.ADMIN_API_KEY}  (kept in ${secretsFile})`}
[start] sandbox operator key (header X-Sandbox-Operator-Key, for ${cfg.sandboxUrl}/__sandbox/* and /sandbox/*): ${supplied.has('SANDBOX_OPERATOR_KEY') ? 'the one in SANDBOX_OPERATOR_KEY' : `${secrets.SANDBOX_OPERATOR_KEY}  (kept in ${secretsFile})`}
[start] sandbox state: ${env.SANDBOX_STATE_FILE} (kept across restarts; delete it to start the sandbox empty)
${stores}
[start] merchant webhooks to private/loopback addresses: ${process.env.WEBHOOK_ALLOW_PRIVATE_URLS === 'true' ? 'ALLOWED (WEBHOOK_ALLOW_PRIVATE_URLS=true; local testing only)' : 'refused (set WEBHOOK_ALLOW_PRIVATE_URLS=true to send them to a local receiver such as npm run webhook-receiver)'}
[start] metrics (Prometheus): ${metricsUrls({ gateway: port, sandbox: cfg.sandboxPort, health: healthPorts })}
[start] logs: ${logDir}/<process>.log (the previous runs' in <process>.log.1 to .${cfg.logFilesKept}). Ctrl-C or npm stop stops everything.
`);
} else if (!stopping) {
  const lines = [`[start] NOT UP: http://127.0.0.1:${port}/health ${lastAnswer.startsWith('no answer') ? 'gave' : 'answered'} ${lastAnswer.slice(0, 600)}`];
  for (const p of parts.filter((q) => q.exits > 0)) {
    const tail = readFileSync(logOf(p), 'utf8')
      .trimEnd()
      .split('\n')
      .slice(-8)
      .map((l) => `    ${l.slice(0, 300)}`)
      .join('\n');
    lines.push(`[start] ${p.name} exited ${p.exits} time(s), last with ${p.lastExit}; its log: ${logOf(p)}\n${tail}`);
  }
  lines.push(`[start] every process's log is in ${logDir}/`);
  console.error(lines.join('\n'));
  await stop('not up', 1);
}
