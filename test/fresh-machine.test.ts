// `npm start` on a fresh machine, before any `npm test` (the README's order): a copy of this tree with no .cache and
// no node_modules, an empty PostgreSQL database for its own FerretDB on its own port. It must reach /health, saying
// once what the first run installs; and when a part cannot start, say which and where its log is instead of "up".
// Bounded: Node 24 and the dependencies come from the npm cache, FerretDB's build from Go's module and build caches
// (about 2 minutes on a busy 2-core machine). It touches neither the shared FerretDB nor other tests' Redis keys.
import { execFileSync, spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { cpSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freePort, sleep } from './support/stack.ts';

const root = fileURLToPath(new URL('..', import.meta.url));
const id = randomBytes(4).toString('hex');
const pgBase = (process.env.FERRETDB_POSTGRESQL_URL || 'postgres://postgres@127.0.0.1:5432/ferretdb').replace(/\/[^/]*$/, '');
const pgDb = `bnpl_test_fresh_${id}`;
let clone: string;
let env: NodeJS.ProcessEnv;

/** The environment of a newcomer's shell: no Node 24 or node_modules/.bin put first on PATH by our scripts, no
 * settings of the test run, ports and names of its own. */
async function freshEnv(): Promise<NodeJS.ProcessEnv> {
  const own = /(^|[/])(\.cache\/node24|node_modules)\//;
  const base = Object.fromEntries(
    Object.entries(process.env).filter(([k]) => !/^(npm_|BNPL_|MONGODB_URL$|ADMIN_API_KEY$|KEY_HASH_SECRET$|MASTER_ENC_KEY|VITEST|START_)/.test(k)),
  );
  const [port, ps, sb, ferret] = [await freePort(), await freePort(), await freePort(), await freePort()];
  return {
    ...base,
    PATH: (process.env.PATH ?? '')
      .split(':')
      .filter((p) => !own.test(`${p}/`))
      .join(':'),
    PORT: String(port),
    PAYMENT_STATE_ADDR: `127.0.0.1:${ps}`,
    SANDBOX_PORT: String(sb),
    SANDBOX_URL: `http://127.0.0.1:${sb}`,
    FERRETDB_PORT: String(ferret),
    FERRETDB_POSTGRESQL_URL: `${pgBase}/${pgDb}`,
    REDIS_PREFIX: `bnpl-test-fresh-${id}`,
  };
}

/** `npm start` in the clone, as a terminal runs it (its own process group, Ctrl-C to the group). */
function npmStart(extra: NodeJS.ProcessEnv = {}) {
  const started = Date.now();
  const child = spawn('npm', ['start'], { cwd: clone, env: { ...env, ...extra }, stdio: ['ignore', 'pipe', 'pipe'], detached: true });
  let out = '';
  child.stdout!.on('data', (d) => (out += d));
  child.stderr!.on('data', (d) => (out += d));
  const exited = new Promise<number | null>((r) => child.once('exit', (code) => r(code)));
  return {
    out: () => out,
    exited,
    seconds: () => Math.round((Date.now() - started) / 1000),
    until: async (re: RegExp, ms: number) => {
      const deadline = Date.now() + ms;
      while (!re.test(out) && child.exitCode === null && Date.now() < deadline) await sleep(200);
      return re.test(out);
    },
    interrupt: () => {
      try {
        process.kill(-child.pid!, 'SIGINT');
      } catch {
        /* gone */
      }
    },
    /** Every process of the group has exited (npm, the supervisor, the service's processes, FerretDB). */
    allGone: async (ms: number) => {
      const deadline = Date.now() + ms;
      for (;;) {
        try {
          process.kill(-child.pid!, 0);
        } catch {
          return true;
        }
        if (Date.now() > deadline) return false;
        await sleep(200);
      }
    },
    kill: () => {
      try {
        process.kill(-child.pid!, 'SIGKILL');
      } catch {
        /* gone */
      }
    },
  };
}

beforeAll(async () => {
  clone = mkdtempSync(`${tmpdir()}/bnpl-fresh-`);
  // The working tree as it is (committed or not), without what .gitignore leaves out (.cache, node_modules).
  const files = execFileSync('git', ['ls-files', '-co', '--exclude-standard', '-z'], { cwd: root }).toString().split('\0').filter(Boolean);
  for (const f of files) {
    if (!existsSync(`${root}${f}`)) continue;
    mkdirSync(dirname(`${clone}/${f}`), { recursive: true });
    cpSync(`${root}${f}`, `${clone}/${f}`, { verbatimSymlinks: true });
  }
  env = await freshEnv();
});

afterAll(async () => {
  rmSync(clone, { recursive: true, force: true });
  execFileSync('psql', [`${pgBase}/postgres`, '-qc', `drop database if exists "${pgDb}" with (force)`]);
  const redis = new Redis(process.env.REDIS_URL || 'redis://127.0.0.1:6379');
  try {
    let cursor = '0';
    do {
      const [next, keys] = await redis.scan(cursor, 'MATCH', `${env.REDIS_PREFIX}:*`, 'COUNT', 1000);
      if (keys.length) await redis.del(...keys);
      cursor = next;
    } while (cursor !== '0');
  } finally {
    redis.disconnect();
  }
});

describe('npm start on a fresh machine', () => {
  it("installs, provisions FerretDB's empty database, reaches /health, and stops on Ctrl-C", async () => {
    expect(
      execFileSync('psql', [`${pgBase}/postgres`, '-qAtc', `select count(*) from pg_database where datname = '${pgDb}'`])
        .toString()
        .trim(),
    ).toBe('0');
    const run = npmStart();
    try {
      expect(await run.until(/is up|NOT UP|not started/, 480_000), run.out().slice(-3000)).toBe(true);
      console.log(`fresh-machine npm start: up after ${run.seconds()} s`);
      const out = run.out();
      expect(out, out.slice(-3000)).toContain('BNPL payment service is up');
      expect(out.match(/First run on this machine/g)).toHaveLength(1);
      expect(out).not.toMatch(/go: downloading|EBADENGINE|MongoServerError/);
      const health = await fetch(`http://127.0.0.1:${env.PORT}/health`).then((r) => r.json() as Promise<any>);
      expect(health).toMatchObject({ status: 'ok', parts: { mongodb: 'up', payment_state: 'up' } });
      // Served by its own FerretDB over the database it provisioned, the same way `npm test` does.
      const sql = (q: string) =>
        execFileSync('psql', [`${pgBase}/${pgDb}`, '-qAtc', q])
          .toString()
          .trim();
      expect([sql('select evtname from pg_event_trigger'), sql('show plan_cache_mode')]).toEqual(['bnpl_ferretdb_gin', 'force_custom_plan']);
      // The admin key printed is the one kept in the clone's .cache, and it works.
      const { ADMIN_API_KEY } = JSON.parse(readFileSync(`${clone}/.cache/dev-secrets.json`, 'utf8'));
      expect(out).toContain(`admin api-key: ${ADMIN_API_KEY}`);
      const m = await fetch(`http://127.0.0.1:${env.PORT}/accounts`, {
        method: 'POST',
        headers: { 'api-key': ADMIN_API_KEY, 'content-type': 'application/json' },
        body: JSON.stringify({ merchant_name: 'Fresh' }),
      });
      expect(m.status).toBe(200);
      run.interrupt();
      expect(await run.allGone(60_000)).toBe(true);
      expect(run.out()).toContain('[start] SIGINT: stopping');
      expect(
        await fetch(`http://127.0.0.1:${env.FERRETDB_PORT}`).then(
          () => 'listening',
          () => 'closed',
        ),
      ).toBe('closed');
    } finally {
      run.kill();
    }
  }, 600_000);

  // CI's path (.ci/run): `services.sh up` with no FerretDB listening provisions the database and starts one, and
  // `down` stops it. Under `set -u` a shell mistake here fails CI before any test runs (it did once).
  it('services.sh up starts FerretDB where none listens, and down stops it', () => {
    const sh = (cmd: string) =>
      execFileSync('bash', ['scripts/services.sh', cmd], {
        cwd: clone,
        env: { ...env, REDIS_URL: process.env.REDIS_URL || 'redis://127.0.0.1:6379' },
        stdio: ['ignore', 'pipe', 'pipe'],
      });
    sh('up');
    expect(existsSync(`${clone}/.cache/ferretdb.pid`)).toBe(true);
    const pid = Number(readFileSync(`${clone}/.cache/ferretdb.pid`, 'utf8'));
    expect(() => process.kill(pid, 0)).not.toThrow();
    sh('down');
    for (let i = 0; i < 50; i++) {
      try {
        process.kill(pid, 0);
        execFileSync('sleep', ['0.1']);
      } catch {
        break;
      }
    }
    expect(() => process.kill(pid, 0)).toThrow();
  }, 300_000);

  // Since issue 19 (item 13) start reads the configuration itself (the ports it will use) before it starts anything,
  // so a bad secret is refused at once, naming the variable, rather than by every part in turn.
  it('a bad secret: refused before anything starts, naming the variable, and never "up"', async () => {
    const run = npmStart({ MASTER_ENC_KEY: 'not-64-hex' });
    try {
      expect(await run.exited).toBe(2);
      expect(await run.allGone(60_000)).toBe(true);
      const out = run.out();
      expect(out).not.toMatch(/is up|admin api-key/);
      expect(out).toContain('MASTER_ENC_KEY must be 64 hex characters');
      expect(out).not.toContain('First run on this machine');
    } finally {
      run.kill();
    }
  }, 180_000);
});
