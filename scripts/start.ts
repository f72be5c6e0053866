// `npm start`: the whole stack as separate supervised processes (gateway, payment-state, a service_test worker,
// the provider sandbox), plus Redis and a development MongoDB stand-in (FerretDB) when none is running.
// A child that dies is restarted; Ctrl-C stops everything, letting workers finish their active jobs.
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { connect } from 'node:net';
import { randomBytes } from 'node:crypto';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('..', import.meta.url));
const cache = `${root}.cache`;
mkdirSync(cache, { recursive: true });

// Development secrets survive restarts so that keys issued yesterday still work today. Secrets given in the
// environment are used as they are and never written down.
const secretsFile = `${cache}/dev-secrets.json`;
const saved = existsSync(secretsFile) ? JSON.parse(readFileSync(secretsFile, 'utf8')) : {};
const secrets = {
  ADMIN_API_KEY: process.env.ADMIN_API_KEY || saved.ADMIN_API_KEY || `admin_${randomBytes(24).toString('hex')}`,
  KEY_HASH_SECRET: process.env.KEY_HASH_SECRET || saved.KEY_HASH_SECRET || randomBytes(32).toString('hex'),
  MASTER_ENC_KEY: process.env.MASTER_ENC_KEY || saved.MASTER_ENC_KEY || randomBytes(32).toString('hex'),
};
if (!process.env.ADMIN_API_KEY && !process.env.KEY_HASH_SECRET && !process.env.MASTER_ENC_KEY) writeFileSync(secretsFile, JSON.stringify(secrets, null, 2), { mode: 0o600 });
const env = { ...process.env, ...secrets };

const listening = (port: number) => new Promise<boolean>((resolve) => {
  const s = connect(port, '127.0.0.1');
  s.once('connect', () => { s.end(); resolve(true); });
  s.once('error', () => resolve(false));
});

/** stage: the order of shutdown. Intake and workers stop first (workers finish their jobs, which still need
 * payment-state and the provider), then the services they report to, then the stores. */
interface Part { name: string; cmd: string; args: string[]; stage: number; child?: ChildProcess; restarts: number }
const parts: Part[] = [];
const node = (stage: number, name: string, file: string, ...args: string[]): Part => ({ name, cmd: process.execPath, args: [`${root}${file}`, ...args], stage, restarts: 0 });

if (!process.env.REDIS_URL && !(await listening(6379))) {
  parts.push({ name: 'redis', cmd: 'redis-server', args: ['--bind', '127.0.0.1', '--port', '6379', '--save', '', '--appendonly', 'no'], stage: 2, restarts: 0 });
}
if (!process.env.MONGODB_URL && !(await listening(27017))) {
  const build = spawnSync('bash', [`${root}scripts/services.sh`, 'build-ferretdb'], { stdio: 'inherit' });
  if (build.status !== 0) process.exit(build.status ?? 1);
  parts.push({ name: 'ferretdb', cmd: `${cache}/ferretdb`, args: ['-listen', '127.0.0.1:27017'], stage: 2, restarts: 0 });
}
parts.push(
  node(1, 'payment-state', 'services/payment-state/main.ts'),
  node(1, 'provider-sandbox', 'services/provider-sandbox/main.ts'),
  node(0, 'worker-service_test', 'workers/main.ts', '--connector', 'service_test'),
  node(0, 'gateway', 'gateway/main.ts'),
);

let stopping = false;
function launch(p: Part) {
  const child = spawn(p.cmd, p.args, { env, stdio: ['ignore', 'inherit', 'inherit'] });
  p.child = child;
  child.on('exit', (code, signal) => {
    if (stopping) return;
    p.restarts++;
    const delay = Math.min(500 * 2 ** Math.min(p.restarts, 6), 30_000);
    console.error(`[start] ${p.name} exited (${signal ?? code}); restarting in ${delay} ms`);
    setTimeout(() => !stopping && launch(p), delay);
  });
}

const PORTS: Record<string, number> = { redis: 6379, ferretdb: 27017 };
for (const p of parts) {
  launch(p);
  // Redis and MongoDB first: the application processes connect to them as they start.
  const port = PORTS[p.name];
  for (let t = 0; port && t < 100 && !(await listening(port)); t++) await new Promise((r) => setTimeout(r, 100));
}

const port = Number(process.env.PORT || 8080);
for (let t = 0; t < 300; t++) {
  const ok = await fetch(`http://127.0.0.1:${port}/health`).then((r) => r.ok, () => false);
  if (ok) break;
  await new Promise((r) => setTimeout(r, 200));
}
console.error(`
[start] BNPL payment service is up: http://127.0.0.1:${port}  (GET /health, /openapi.json)
[start] admin api-key: ${secrets.ADMIN_API_KEY}
[start] Ctrl-C stops everything.
`);

async function stop(signal: NodeJS.Signals) {
  if (stopping) return;
  stopping = true;
  console.error(`[start] ${signal}: stopping (workers finish their active jobs)`);
  for (const stage of [0, 1, 2]) {
    const group = parts.filter((p) => p.stage === stage);
    await Promise.all(group.map((p) => new Promise<void>((resolve) => {
      const c = p.child;
      if (!c || c.exitCode !== null || c.signalCode !== null) return resolve();
      const kill = setTimeout(() => c.kill('SIGKILL'), 30_000);
      c.once('exit', () => { clearTimeout(kill); resolve(); });
      c.kill('SIGTERM');
    })));
  }
  process.exit(0);
}
process.on('SIGINT', () => void stop('SIGINT'));
process.on('SIGTERM', () => void stop('SIGTERM'));
