// `npm start`'s supervisor: separate processes, a crashed one restarted, Ctrl-C stops everything cleanly and lets a
// worker finish the job it is running.
import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { fileURLToPath } from 'node:url';
import { MongoClient } from 'mongodb';
import { describe, expect, it } from 'vitest';
import { alive, childrenOf } from './support/processes.ts';
import { freePort, sleep } from './support/stack.ts';
import { HEALTHY_RUN_MS, nextRestart } from '../scripts/restart-policy.ts';

const root = fileURLToPath(new URL('..', import.meta.url));

describe('restart back-off', () => {
  const crashLoop = (ranMs: number[]) =>
    ranMs.reduce<{ crashesInARow: number; delays: number[] }>(
      (acc, ran) => {
        const next = nextRestart(acc.crashesInARow, ran);
        return { crashesInARow: next.crashesInARow, delays: [...acc.delays, next.delayMs] };
      },
      { crashesInARow: 0, delays: [] },
    );

  it('doubles over crashes in a row, up to 30 s', () => {
    expect(crashLoop(Array(8).fill(100)).delays).toEqual([1000, 2000, 4000, 8000, 16000, 30000, 30000, 30000]);
  });

  it('starts again from the first delay after a healthy stretch of running', () => {
    const { crashesInARow, delays } = crashLoop([...Array(7).fill(100), HEALTHY_RUN_MS, 100, 100]);
    expect(delays.slice(6)).toEqual([30000, 1000, 2000, 4000]);
    expect(crashesInARow).toBe(3);
    expect(nextRestart(50, HEALTHY_RUN_MS - 1).delayMs).toBe(30000);
  });
});

describe('npm start supervisor', () => {
  it('runs every part, restarts a crashed one, and on SIGINT stops all after the worker finishes its job', async () => {
    const id = randomBytes(4).toString('hex');
    const [port, ps, sb] = [await freePort(), await freePort(), await freePort()];
    const base = new URL(process.env.MONGODB_URL || 'mongodb://127.0.0.1:27017/');
    base.pathname = `/bnpl_test_sup_${id}`;
    const env = {
      ...process.env,
      MONGODB_URL: base.toString(),
      REDIS_URL: process.env.REDIS_URL || 'redis://127.0.0.1:6379',
      REDIS_PREFIX: `bnpl-test-${id}`,
      PORT: String(port),
      PAYMENT_STATE_ADDR: `127.0.0.1:${ps}`,
      SANDBOX_PORT: String(sb),
      SANDBOX_URL: `http://127.0.0.1:${sb}`,
      ADMIN_API_KEY: `admin_${id}`,
      KEY_HASH_SECRET: randomBytes(16).toString('hex'),
      CONFIRM_WAIT_MS: '500',
      SANDBOX_SLOW_MS: '3000',
      START_STATE_DIR: mkdtempSync(`${tmpdir()}/bnpl-sup-`),
    };
    // Issue 23: a former run's log file is kept (rotated to .1), not wiped.
    mkdirSync(`${env.START_STATE_DIR}/logs`, { recursive: true });
    writeFileSync(`${env.START_STATE_DIR}/logs/gateway.log`, 'a line of the previous run\n');
    const sup = spawn(process.execPath, ['scripts/start.ts'], { cwd: root, env, stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '';
    sup.stdout!.on('data', (d) => (out += d));
    sup.stderr!.on('data', (d) => (out += d));
    try {
      for (let t = 0; t < 300 && !out.includes('is up'); t++) await sleep(100);
      expect(out).toContain('admin api-key: the one in ADMIN_API_KEY');
      expect(out).not.toContain(`admin_${id}`);
      const kids = childrenOf(sup.pid!);
      expect(kids.map((k) => k.cmd.split(' ').slice(1).join(' ').replace(root, '')).sort()).toEqual([
        'gateway/main.ts',
        'services/payment-state/main.ts',
        'services/provider-sandbox/main.ts',
        'workers/main.ts --connector all',
        'workers/webhooks/main.ts',
      ]);
      expect(out).toMatch(/merchant webhooks to private\/loopback addresses: (ALLOWED|refused)/);
      // Issue 23: "up" waited for each process's /health/ready, and says where each answers.
      expect(out).toMatch(/health\/live and \/health\/ready: payment-state http:\/\/127\.0\.0\.1:\d+, provider-sandbox/);
      expect(readFileSync(`${env.START_STATE_DIR}/logs/gateway.log.1`, 'utf8')).toBe('a line of the previous run\n');
      expect(readFileSync(`${env.START_STATE_DIR}/logs/gateway.log`, 'utf8')).toContain('gateway listening');

      // A crash is followed by a restart.
      const worker = kids.find((k) => k.cmd.includes('workers/main.ts --connector'))!;
      process.kill(worker.pid, 'SIGKILL');
      let restarted: number | undefined;
      for (let t = 0; t < 100 && !restarted; t++) {
        await sleep(100);
        restarted = childrenOf(sup.pid!).find((k) => k.cmd.includes('workers/main.ts --connector') && k.pid !== worker.pid)?.pid;
      }
      expect(restarted).toBeDefined();
      for (
        let t = 0;
        t < 100 &&
        !(await fetch(`http://127.0.0.1:${port}/health`).then(
          (r) => r.ok,
          () => false,
        ));
        t++
      )
        await sleep(100);

      // A job in flight when Ctrl-C comes is finished before the worker exits.
      const api = (path: string, body: unknown, key: string) =>
        fetch(`http://127.0.0.1:${port}${path}`, {
          method: 'POST',
          headers: { 'content-type': 'application/json', 'api-key': key },
          body: JSON.stringify(body),
        }).then((r) => r.json() as Promise<any>);
      const m = await api('/accounts', {}, `admin_${id}`);
      const k = await api(`/api_keys/${m.merchant_id}`, { name: 'k', expiration: 'never' }, `admin_${id}`);
      const p = await api(
        '/payments',
        { amount: 100, currency: 'EUR', confirm: true, payment_method: 'pay_later', customer: { email: 'a+slow@example.com' } },
        k.api_key,
      );
      expect(p.status).toBe('processing');
      const pids = childrenOf(sup.pid!).map((c) => c.pid);
      const exited = new Promise<number | null>((r) => sup.once('exit', (code) => r(code)));
      sup.kill('SIGINT');
      expect(await exited).toBe(0);
      for (const pid of pids) expect(alive(pid)).toBe(false);
      expect(out).toContain('worker stopping: finishing active jobs');
      expect(out).toMatch(/"msg":"operation reported".*"outcome":"CAPTURED"/);
    } finally {
      if (sup.exitCode === null) sup.kill('SIGKILL');
      rmSync(env.START_STATE_DIR, { recursive: true, force: true });
      const mongo = await MongoClient.connect(base.toString());
      await mongo
        .db()
        .dropDatabase()
        .catch(() => undefined);
      await mongo.close();
    }
  });
});
