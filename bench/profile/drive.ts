// Issue 24's profile: starts the stack as the bench does (test/support/stack.ts, the service's own timings) with every
// process under `--cpu-prof` and bench/profile/count-preload.ts, then runs phases of N operations each (idle, create,
// confirm, refund, retrieve; and the bench's raw insertOne and findOne baselines) and prints, per phase and process, the MongoDB commands, Redis commands and gRPC calls
// per operation (the idle phase, as long as the longest, shows what runs without traffic). The .cpuprofile files land
// in --out (summarise them with bench/profile/summary.ts). Each phase also prints the CPU time per operation of every
// process on the path, the database server's included (FerretDB, PostgreSQL, Redis: /proc/<pid>/stat), which tells
// which process bounds the throughput on this machine; `--no-cpu-prof` leaves the profiler out of those figures.
//   node bench/profile/drive.ts [--n 200] [--n-retrieve N (default --n)] [--concurrency 8] [--out /tmp/prof] [--settle-ms 3000] [--phases confirm,...]
//     [--no-cpu-prof]
// (refund and retrieve use the payments of the confirm phase).
import { execFileSync } from 'node:child_process';
import { mkdirSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { fileURLToPath } from 'node:url';
import { Stack, sleep } from '../../test/support/stack.ts';

const { values } = parseArgs({
  options: {
    n: { type: 'string', default: '200' },
    'n-retrieve': { type: 'string' },
    concurrency: { type: 'string', default: '8' },
    out: { type: 'string', default: '/tmp/prof' },
    'settle-ms': { type: 'string', default: '3000' },
    phases: { type: 'string', default: 'idle,insert,findone,create,confirm,refund,retrieve' },
    'cpu-prof': { type: 'boolean', default: true },
  },
  allowNegative: true,
});
const n = Number(values.n);
const nRetrieve = Number(values['n-retrieve'] ?? values.n);
const concurrency = Number(values.concurrency);
const settleMs = Number(values['settle-ms']);
const phases = new Set(values.phases.split(','));
const out = resolve(values.out);
const countDir = join(out, 'counts');
rmSync(out, { recursive: true, force: true });
mkdirSync(countDir, { recursive: true });
const preload = fileURLToPath(new URL('./count-preload.ts', import.meta.url));

const stack = await Stack.start({
  LOG_LEVEL: 'info',
  CONFIRM_WAIT_MS: '10000',
  JOB_LOCK_MS: '30000',
  JOB_BACKOFF_MS: '1000',
  SWEEP_INTERVAL_MS: '15000',
  SWEEP_AFTER_MS: '60000',
  SYNC_DELAYS_MS: '2000,5000,10000,30000,60000,300000',
  RATE_LIMIT_PER_SECOND: '0',
  NODE_OPTIONS: `--import=${preload}${values['cpu-prof'] ? ` --cpu-prof --cpu-prof-dir=${out}` : ''}`,
  ROUNDTRIP_COUNT_DIR: countDir,
});

type Snapshot = Record<string, { role: string; counts: Record<string, number> }>;
const snapshot = (): Snapshot =>
  Object.fromEntries(
    readdirSync(countDir)
      .filter((f) => f.endsWith('.json'))
      .map((f) => {
        const s = JSON.parse(readFileSync(join(countDir, f), 'utf8'));
        return [String(s.pid), { role: String(s.role), counts: s.counts }];
      }),
  );
const roleName = (role: string) => role.replace(/^.*?(services\/|workers\/|gateway\/)/, '$1').replace(/\/main\.ts/, '');

/** CPU seconds (user + system) of a process so far; 0 once it is gone. */
const TICKS = Number(execFileSync('getconf', ['CLK_TCK'], { encoding: 'utf8' }).trim()) || 100;
function cpuSeconds(pid: string): number {
  try {
    const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].split(' ');
    return (Number(fields[11]) + Number(fields[12])) / TICKS;
  } catch {
    return 0;
  }
}
const pidsOf = (pattern: string) => {
  try {
    return execFileSync('pgrep', ['-f', pattern], { encoding: 'utf8' }).split('\n').filter(Boolean);
  } catch {
    return [];
  }
};
/** CPU seconds by process: the stack's (by role) and the servers it uses, on this machine. */
function cpuByProcess(stackPids: Record<string, string>): Record<string, number> {
  const sum = (pids: string[]) => pids.reduce((a, p) => a + cpuSeconds(p), 0);
  return {
    ...Object.fromEntries(Object.entries(stackPids).map(([pid, role]) => [roleName(role), cpuSeconds(pid)])),
    ferretdb: sum(pidsOf('ferretdb -listen')),
    postgres: sum(pidsOf('^postgres')),
    redis: sum(pidsOf('redis-server')),
    'bench client': process.cpuUsage().user / 1e6 + process.cpuUsage().system / 1e6,
  };
}

async function phase(key: string, name: string, ops: number, op: (i: number) => Promise<void>): Promise<void> {
  if (!phases.has(key)) return;
  await sleep(400);
  const before = snapshot();
  const stackPids = Object.fromEntries(Object.entries(before).map(([pid, x]) => [pid, x.role]));
  const cpuBefore = cpuByProcess(stackPids);
  const t0 = performance.now();
  let next = 0;
  await Promise.all(
    Array.from({ length: concurrency }, async () => {
      while (next < ops) await op(next++);
    }),
  );
  const ms = performance.now() - t0;
  await sleep(settleMs);
  const after = snapshot();
  const cpuAfter = cpuByProcess(stackPids);
  const cpu = Object.entries(cpuAfter).map(([k, v]) => [k, ((v - (cpuBefore[k] ?? 0)) * 1000) / Math.max(ops, 1)] as const);
  const total = cpu.reduce((a, [, v]) => a + v, 0);
  console.log(`\n## ${name}: ${ops} operations in ${ms.toFixed(0)} ms (${((ops / ms) * 1000).toFixed(1)}/s), then ${settleMs} ms to settle; per operation:`);
  for (const [pid, s] of Object.entries(after)) {
    const rows = Object.entries(s.counts)
      .filter(([k]) => !k.startsWith('ms '))
      .map(([k, v]) => [k, v - (before[pid]?.counts[k] ?? 0)] as const)
      .filter(([, v]) => v > 0)
      .sort((a, b) => a[0].localeCompare(b[0]));
    // per operation, and for a MongoDB command the mean time one took: `name=count_per_op (mean ms)`
    const cell = ([k, v]: readonly [string, number]) => {
      const ms = (s.counts[`ms ${k}`] ?? 0) - (before[pid]?.counts[`ms ${k}`] ?? 0);
      return `${k}=${(v / Math.max(ops, 1)).toFixed(ops ? 2 : 0)}${ms ? ` (${(ms / v).toFixed(1)} ms)` : ''}`;
    };
    if (rows.length) console.log(`  ${roleName(s.role)}: ${rows.map(cell).join(', ')}`);
  }
  if (ops)
    console.log(
      `  CPU ms per operation (phase and settling): ${cpu.map(([k, v]) => `${k} ${v.toFixed(1)} (${((v / total) * 100).toFixed(0)} %)`).join(', ')}; total ${total.toFixed(1)}`,
    );
}

const { api_key } = await stack.merchant();
const call = async (method: string, path: string, body: unknown, want: string) => {
  const r = await stack.api(method, path, body, api_key);
  if (r.status !== 200 || (want && r.body.status !== want)) throw new Error(`${method} ${path}: ${r.status} ${JSON.stringify(r.body)}`);
  return r.body;
};
const create = { amount: 10000, currency: 'EUR', customer: { email: 'bench@example.com' } };
try {
  // warm-up, uncounted
  for (let i = 0; i < 20; i++) await call('POST', '/payments', { ...create, confirm: true, payment_method: 'pay_later' }, 'succeeded');
  await phase('idle', 'idle (no traffic, as long as settling)', 0, async () => {});
  // The bench's baselines, for the CPU they cost the database server: a raw insertOne of a 0.6 kB document, and a
  // raw findOne by a unique index, in a scratch collection of the stack's database.
  const scratch = (await stack.db()).collection<{ k: number; pad: string }>('drive_baseline');
  await scratch.createIndex({ k: 1 }, { unique: true });
  const pad = 'x'.repeat(600);
  await phase('insert', 'raw insertOne (baseline)', n * 5, async (i) => {
    await scratch.insertOne({ k: i, pad });
  });
  await phase('findone', 'raw findOne by a unique index (baseline)', n * 5, async (i) => {
    await scratch.findOne({ k: i % (n * 5) });
  });
  await phase('create', 'create', n, async () => {
    await call('POST', '/payments', create, 'requires_confirmation');
  });
  const captured: string[] = [];
  await phase('confirm', 'create+confirm (confirm=true, automatic capture)', n, async () => {
    captured.push((await call('POST', '/payments', { ...create, confirm: true, payment_method: 'pay_later' }, 'succeeded')).payment_id);
  });
  await phase('refund', 'refund (whole amount of a captured payment)', n, async (i) => {
    await call('POST', '/refunds', { payment_id: captured[i] }, 'succeeded');
  });
  await phase('retrieve', 'retrieve (GET /payments/{id})', nRetrieve, async (i) => {
    if (!captured.length) throw new Error('retrieve needs the confirm phase');
    await call('GET', `/payments/${captured[i % captured.length]}`, undefined, '');
  });
} finally {
  await stack.stop();
}
console.log(`\nprofiles: ${out}`);
