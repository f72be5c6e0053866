// `npm start` with ADMIN_API_KEY supplied (and the other secrets not): after a restart, API keys issued before still
// work and sealed credentials still open, because the generated secrets were saved; the supplied admin key is
// neither printed nor saved.
import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { dropStores } from './support/processes.ts';
import { freePort, sleep } from './support/stack.ts';
import { devSecrets } from '../scripts/dev-secrets.ts';

const root = fileURLToPath(new URL('..', import.meta.url));

async function runStart(env: NodeJS.ProcessEnv): Promise<{ out: () => string; stop: () => Promise<number | null> }> {
  const sup = spawn(process.execPath, ['scripts/start.ts'], { cwd: root, env, stdio: ['ignore', 'pipe', 'pipe'] });
  let out = '';
  sup.stdout!.on('data', (d) => (out += d));
  sup.stderr!.on('data', (d) => (out += d));
  const exited = new Promise<number | null>((r) => sup.once('exit', (code) => r(code)));
  while (!/is up|NOT UP/.test(out) && sup.exitCode === null) await sleep(100);
  if (!out.includes('is up')) {
    sup.kill('SIGKILL');
    throw new Error(`npm start did not come up:\n${out.slice(-3000)}`);
  }
  return {
    out: () => out,
    stop: () => {
      sup.kill('SIGINT');
      return exited;
    },
  };
}

describe('devSecrets', () => {
  it('saves what it generates, reuses what it saved, and never writes what the environment gives', () => {
    const dir = mkdtempSync(`${tmpdir()}/bnpl-dev-secrets-`);
    const file = `${dir}/dev-secrets.json`;
    try {
      const first = devSecrets({ ADMIN_API_KEY: 'admin_given' }, file);
      expect(first.secrets.ADMIN_API_KEY).toBe('admin_given');
      expect([...first.supplied]).toEqual(['ADMIN_API_KEY']);
      expect(first.secrets.MASTER_ENC_KEY).toMatch(/^[0-9a-f]{64}$/);
      expect(first.secrets.SANDBOX_OPERATOR_KEY).toMatch(/^sbop_[0-9a-f]{48}$/);
      expect(JSON.parse(readFileSync(file, 'utf8'))).toEqual({
        KEY_HASH_SECRET: first.secrets.KEY_HASH_SECRET,
        MASTER_ENC_KEY: first.secrets.MASTER_ENC_KEY,
        SANDBOX_OPERATOR_KEY: first.secrets.SANDBOX_OPERATOR_KEY,
      });
      const second = devSecrets({}, file);
      expect(second.secrets).toMatchObject({
        KEY_HASH_SECRET: first.secrets.KEY_HASH_SECRET,
        MASTER_ENC_KEY: first.secrets.MASTER_ENC_KEY,
        SANDBOX_OPERATOR_KEY: first.secrets.SANDBOX_OPERATOR_KEY,
      });
      expect(second.secrets.ADMIN_API_KEY).toMatch(/^admin_[0-9a-f]{48}$/);
      expect(devSecrets({ MASTER_ENC_KEY: 'f'.repeat(64) }, file).secrets).toEqual({ ...second.secrets, MASTER_ENC_KEY: 'f'.repeat(64) });
      expect(readFileSync(file, 'utf8')).not.toContain('f'.repeat(64));
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe('npm start secrets', () => {
  it('with ADMIN_API_KEY supplied, keys and sealed credentials survive a restart; the admin key is not printed', async () => {
    const id = randomBytes(4).toString('hex');
    const admin = `admin_supplied_${randomBytes(12).toString('hex')}`;
    const [port, ps, sb] = [await freePort(), await freePort(), await freePort()];
    const mongoUrl = new URL(process.env.MONGODB_URL || 'mongodb://127.0.0.1:27017/');
    mongoUrl.pathname = `/bnpl_test_startsec_${id}`;
    const stateDir = mkdtempSync(`${tmpdir()}/bnpl-start-secrets-`);
    const env: NodeJS.ProcessEnv = {
      ...process.env,
      MONGODB_URL: mongoUrl.toString(),
      REDIS_PREFIX: `bnpl-test-${id}`,
      PORT: String(port),
      PAYMENT_STATE_ADDR: `127.0.0.1:${ps}`,
      SANDBOX_PORT: String(sb),
      SANDBOX_URL: `http://127.0.0.1:${sb}`,
      START_STATE_DIR: stateDir,
      ADMIN_API_KEY: admin,
      KEY_HASH_SECRET: '',
      MASTER_ENC_KEY: '',
    };
    const api = async (method: string, path: string, key: string, body?: unknown) => {
      const r = await fetch(`http://127.0.0.1:${port}${path}`, {
        method,
        headers: { 'api-key': key, ...(body ? { 'content-type': 'application/json' } : {}) },
        body: body ? JSON.stringify(body) : undefined,
      });
      return { status: r.status, body: (await r.json()) as any };
    };
    try {
      let run = await runStart(env);
      const m = (await api('POST', '/accounts', admin, { merchant_name: 'Restart shop' })).body;
      const key = (await api('POST', `/api_keys/${m.merchant_id}`, admin, { name: 'k', expiration: 'never' })).body.api_key;
      await api('POST', `/account/${m.merchant_id}/business_profile/${m.default_profile}`, admin, { payment_response_hash_key: 'hash-key-before-restart' });
      const mca = (
        await api('POST', `/account/${m.merchant_id}/connectors`, admin, {
          connector_name: 'service_test',
          connector_account_details: { auth_type: 'HeaderKey', api_key: 'sk_sandbox_service_test' },
        })
      ).body;
      expect(mca.merchant_connector_id).toBeTruthy();
      const firstOut = run.out();
      expect(await run.stop()).toBe(0);

      run = await runStart(env);
      expect((await api('GET', '/payments/list', key)).status).toBe(200);
      const profile = await api('GET', `/account/${m.merchant_id}/business_profile/${m.default_profile}`, admin);
      expect(profile).toMatchObject({ status: 200, body: { payment_response_hash_key: 'hash-key-before-restart' } });
      expect((await api('GET', `/account/${m.merchant_id}/connectors/${mca.merchant_connector_id}`, admin)).status).toBe(200);
      // The worker opens the credentials: a payment through the connector account goes through.
      const p = await api('POST', '/payments', key, {
        amount: 500,
        currency: 'EUR',
        confirm: true,
        payment_method: 'pay_later',
        customer: { email: 'a@example.com' },
      });
      expect(p.body.status).toBe('succeeded');

      const logs = firstOut + run.out();
      expect(logs).toContain('admin api-key: the one in ADMIN_API_KEY');
      expect(logs).not.toContain(admin);
      const saved = JSON.parse(readFileSync(`${stateDir}/dev-secrets.json`, 'utf8'));
      expect(Object.keys(saved).sort()).toEqual(['KEY_HASH_SECRET', 'MASTER_ENC_KEY', 'SANDBOX_OPERATOR_KEY']);
      // The generated sandbox operator key is printed, as the admin key is when generated.
      expect(logs).toContain(
        `sandbox operator key (header X-Sandbox-Operator-Key, for http://127.0.0.1:${sb}/__sandbox/* and /sandbox/*): ${saved.SANDBOX_OPERATOR_KEY}`,
      );
      expect(await run.stop()).toBe(0);
    } finally {
      rmSync(stateDir, { recursive: true, force: true });
      await dropStores(mongoUrl.toString(), env.REDIS_PREFIX);
    }
  });
});
