// Issue 19 item 13: `npm start` says "is up" only for its own processes. Beside a running instance with only PORT
// changed it refuses, naming the busy ports' variables; /health reports a part down when its port is answered by
// another instance's process; it says which MongoDB and Redis it uses; `npm stop` (scripts/stop.sh) stops it; the
// sandbox keeps its state across a restart (SANDBOX_STATE_FILE, by default <state dir>/sandbox-state.json).
import { execFile, spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';
import { alive, childrenOf, dropStores } from './support/processes.ts';
import { Stack, freePort, sleep } from './support/stack.ts';

const root = fileURLToPath(new URL('..', import.meta.url));

function runStart(env: NodeJS.ProcessEnv) {
  const child = spawn(process.execPath, ['scripts/start.ts'], { cwd: root, env, stdio: ['ignore', 'pipe', 'pipe'] });
  let out = '';
  child.stdout!.on('data', (d) => (out += d));
  child.stderr!.on('data', (d) => (out += d));
  const exited = new Promise<number | null>((r) => child.once('exit', (code) => r(code)));
  return { child, out: () => out, exited };
}

describe('npm start', () => {
  it('beside a running instance with only PORT changed refuses naming the busy ports; npm stop stops the running one; the sandbox keeps its state across a restart', async () => {
    const id = randomBytes(4).toString('hex');
    const [port, port2, ps, sb] = [await freePort(), await freePort(), await freePort(), await freePort()];
    const plainMongo = new URL(process.env.MONGODB_URL || 'mongodb://127.0.0.1:27017/');
    plainMongo.pathname = `/bnpl_test_inst_${id}`;
    const stateDir = mkdtempSync(`${tmpdir()}/bnpl-start-inst-`);
    const env: NodeJS.ProcessEnv = {
      ...process.env,
      MONGODB_URL: plainMongo.toString(),
      REDIS_PREFIX: `bnpl-test-${id}`,
      PORT: String(port),
      PAYMENT_STATE_ADDR: `127.0.0.1:${ps}`,
      SANDBOX_PORT: String(sb),
      SANDBOX_URL: `http://127.0.0.1:${sb}`,
      ADMIN_API_KEY: `admin_${id}`,
      KEY_HASH_SECRET: randomBytes(16).toString('hex'),
      START_STATE_DIR: stateDir,
      SANDBOX_STATE_FILE: '',
    };
    const first = runStart(env);
    let second: ReturnType<typeof runStart> | undefined;
    try {
      while (!/is up|NOT UP/.test(first.out()) && first.child.exitCode === null) await sleep(100);
      expect(first.out()).toContain('is up');
      const instance = /\[start\] instance ([0-9a-f-]{36})/.exec(first.out())?.[1];
      // A part's health probe has a short deadline: on a loaded machine one probe may miss, so ask a few times.
      let health: any;
      for (let i = 0; i < 50; i++) {
        health = await (await fetch(`http://127.0.0.1:${port}/health`)).json();
        if (health.status === 'ok') break;
        await sleep(200);
      }
      expect(health).toMatchObject({ status: 'ok', instance_id: instance, parts: { payment_state: 'up', provider_sandbox: 'up' } });
      expect(first.out()).toContain(`MongoDB: ${plainMongo.toString()} (MONGODB_URL)`);
      expect(first.out()).toMatch(/Redis: redis:\/\/[^ ]+ \(/);
      expect(existsSync(`${stateDir}/start.pid`)).toBe(true);

      // A second start with only PORT changed: its payment-state and sandbox ports are the first one's.
      second = runStart({ ...env, PORT: String(port2) });
      expect(await second.exited).not.toBe(0);
      expect(second.out()).toContain(`port ${ps} (PAYMENT_STATE_ADDR) is already in use`);
      expect(second.out()).toContain(`port ${sb} (SANDBOX_PORT) is already in use`);
      expect(second.out()).toContain('set SANDBOX_PORT');
      expect(second.out()).not.toContain('is up');
      expect(second.out()).not.toContain(`port ${port2}`);
      expect(
        await fetch(`http://127.0.0.1:${port2}/health`).then(
          () => true,
          () => false,
        ),
      ).toBe(false);

      // A payment, a crash of the sandbox (the supervisor restarts it), then its refund: the sandbox still knows it.
      const api = async (path: string, body: unknown, key: string) =>
        (
          await fetch(`http://127.0.0.1:${port}${path}`, {
            method: 'POST',
            headers: { 'content-type': 'application/json', 'api-key': key },
            body: JSON.stringify(body),
          })
        ).json() as Promise<any>;
      const m = await api('/accounts', {}, `admin_${id}`);
      const k = await api(`/api_keys/${m.merchant_id}`, { name: 'k', expiration: 'never' }, `admin_${id}`);
      const p = await api(
        '/payments',
        { amount: 1_000, currency: 'EUR', confirm: true, payment_method: 'pay_later', customer: { email: 'a@example.com' } },
        k.api_key,
      );
      expect(p.status).toBe('succeeded');
      const sandbox = childrenOf(first.child.pid!).find((c) => c.cmd.includes('provider-sandbox/main.ts'))!;
      process.kill(sandbox.pid, 'SIGKILL');
      for (let t = 0; t < 100 && !childrenOf(first.child.pid!).some((c) => c.cmd.includes('provider-sandbox/main.ts') && c.pid !== sandbox.pid); t++)
        await sleep(100);
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
      const r = await api('/refunds', { payment_id: p.payment_id, amount: 400 }, k.api_key);
      expect(r).toMatchObject({ status: 'succeeded', amount: 400 });
      expect(existsSync(`${stateDir}/sandbox-state.json`)).toBe(true);

      // npm stop: the running start stops (exit 0, as on Ctrl-C), its processes with it, and its pid file goes.
      const kids = childrenOf(first.child.pid!).map((c) => c.pid);
      expect(kids.length).toBeGreaterThanOrEqual(5);
      // Not execFileSync: the test must keep reading start's output, or start blocks writing it and never exits.
      await promisify(execFile)('bash', ['scripts/stop.sh'], { cwd: root, env, timeout: 130_000 });
      expect(first.child.exitCode ?? first.child.signalCode).toBe(0);
      for (const pid of kids) expect(alive(pid)).toBe(false);
      expect(existsSync(`${stateDir}/start.pid`)).toBe(false);
    } finally {
      for (const s of [first, second]) if (s && s.child.exitCode === null) s.child.kill('SIGKILL');
      rmSync(stateDir, { recursive: true, force: true });
      await dropStores(plainMongo.toString(), env.REDIS_PREFIX);
    }
  }, 300_000);
});

describe('/health under an instance id', () => {
  /** A process of another instance on the port of the stack's own part. */
  async function foreign(file: string, env: Record<string, string>, ready: string): Promise<ChildProcess> {
    const child = spawn(process.execPath, [file], {
      cwd: root,
      env: { ...process.env, ...env, INSTANCE_ID: 'another-instance' },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let out = '';
    child.stdout!.on('data', (d) => (out += d));
    child.stderr!.on('data', (d) => (out += d));
    for (let t = 0; t < 300 && !out.includes(ready); t++) {
      if (child.exitCode !== null) throw new Error(`${file} exited: ${out.slice(-2000)}`);
      await sleep(100);
    }
    return child;
  }
  const stopped = (c: ChildProcess) =>
    new Promise((r) => {
      c.once('exit', r);
      c.kill('SIGKILL');
    });

  it("reports a part down when its port is answered by another instance's process", async () => {
    const stack = await Stack.start({ INSTANCE_ID: 'this-instance' });
    try {
      const health = async () => {
        const r = await stack.api('GET', '/health');
        return { status: r.status, body: r.body };
      };
      expect(await health()).toMatchObject({ status: 200, body: { instance_id: 'this-instance', parts: { payment_state: 'up', provider_sandbox: 'up' } } });

      await stack.kill('provider-sandbox');
      let other = await foreign('services/provider-sandbox/main.ts', stack.env, 'provider sandbox listening');
      expect(((await (await fetch(`${stack.sandboxUrl}/health`)).json()) as any).instance_id).toBe('another-instance');
      expect(await health()).toMatchObject({ status: 503, body: { parts: { payment_state: 'up', provider_sandbox: 'down' } } });
      await stopped(other);
      await stack.startPart('provider-sandbox');
      await stack.waitHealthy();

      await stack.kill('payment-state');
      other = await foreign('services/payment-state/main.ts', stack.env, 'payment-state listening');
      expect(await health()).toMatchObject({ status: 503, body: { parts: { payment_state: 'down', provider_sandbox: 'up' } } });
      await stopped(other);
      await stack.startPart('payment-state');
      await stack.waitHealthy();
    } finally {
      await stack.stop();
    }
  }, 240_000);
});
