// lib/config.ts: one zod schema of the environment, defaults as before; a bad value stops a process at start with
// exit code 2 and a message naming the variable, no stack trace.
import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { CONFIG_VARIABLES, ConfigError, gatewaySecretsProblem, parseConfig } from '../lib/config.ts';

const root = fileURLToPath(new URL('..', import.meta.url));
const KEY = 'ab'.repeat(32);
const problems = (env: Record<string, string>): string[] => {
  try {
    parseConfig(env);
  } catch (err) {
    if (err instanceof ConfigError) return err.problems;
    throw err;
  }
  return [];
};

describe('parseConfig', () => {
  it('gives the defaults for an empty environment', () => {
    const c = parseConfig({});
    expect(c).toMatchObject({
      mongodbUrl: 'mongodb://127.0.0.1:27017/bnpl',
      redisUrl: 'redis://127.0.0.1:6379',
      redisPrefix: 'bnpl',
      port: 8080,
      publicBaseUrl: 'http://localhost:8080',
      paymentStateAddr: '127.0.0.1:50051',
      sandboxPort: 8090,
      sandboxHost: '127.0.0.1',
      sandboxUrl: 'http://127.0.0.1:8090',
      threeDsServerUrl: 'http://127.0.0.1:8090',
      threeDsServerApiKey: 'sk_sandbox_three_ds_server',
      threeDsRequestorUrl: 'http://localhost:8080',
      adminApiKey: '',
      keyHashSecret: '',
      masterEncKey: '',
      setupCacheMs: 10_000,
      apiKeyCacheMs: 10_000,
      confirmWaitMs: 10_000,
      providerTimeoutMs: 30_000,
      jobLockMs: 30_000,
      jobAttempts: 6,
      jobBackoffMs: 1_000,
      workerConcurrency: 50,
      rateLimitPerSecond: 1000,
      rateLimitPerAddressPerSecond: 2000,
      trustProxy: '',
      checkoutRateLimitPerSecond: 5,
      syncDelaysMs: [2000, 5000, 10000, 30000, 60000, 300000, 300000, 300000, 300000, 300000],
      sweepAfterMs: 60_000,
      sweepIntervalMs: 15_000,
      sandboxSlowMs: 15_000,
      sandboxReviewMs: 3_000,
      logLevel: 'info',
      beginRetryMs: 15_000,
      beginAttemptMs: 5_000,
      beginAppendMarginMs: 1_000,
      pickupAfterMs: 3_000,
      pickupIntervalMs: 1_000,
      masterEncKeysPrevious: '',
    });
  });

  it('treats an empty variable as unset, and derives the URLs as before', () => {
    expect(parseConfig({ PORT: '', RATE_LIMIT_PER_SECOND: '' })).toMatchObject({ port: 8080, rateLimitPerSecond: 1000 });
    expect(parseConfig({ PORT: '9000', SANDBOX_PORT: '9100' })).toMatchObject({
      publicBaseUrl: 'http://localhost:9000',
      threeDsRequestorUrl: 'http://localhost:9000',
      sandboxUrl: 'http://127.0.0.1:9100',
      threeDsServerUrl: 'http://127.0.0.1:9100',
    });
    expect(parseConfig({ PUBLIC_BASE_URL: 'https://pay.example//', SANDBOX_URL: 'http://sb', SYNC_DELAYS_MS: ' 500, 1000' })).toMatchObject({
      publicBaseUrl: 'https://pay.example',
      threeDsRequestorUrl: 'https://pay.example',
      threeDsServerUrl: 'http://sb',
      syncDelaysMs: [500, 1000],
    });
    expect(parseConfig({ MASTER_ENC_KEY: KEY, MASTER_ENC_KEYS_PREVIOUS: ` ${KEY}, ${KEY.toUpperCase()} ` }).masterEncKey).toBe(KEY);
  });

  it('names each bad variable and what it expects', () => {
    expect(problems({ PORT: 'abc' })).toEqual(['PORT must be an integer from 0 to 65535, got "abc"']);
    expect(problems({ SANDBOX_PORT: '65536' })).toEqual(['SANDBOX_PORT must be an integer from 0 to 65535, got "65536"']);
    expect(problems({ JOB_ATTEMPTS: '-1', WORKER_CONCURRENCY: '2.5' })).toEqual([
      'JOB_ATTEMPTS must be a non-negative integer, got "-1"',
      'WORKER_CONCURRENCY must be a non-negative integer, got "2.5"',
    ]);
    expect(problems({ SYNC_DELAYS_MS: '500,soon' })).toEqual(['SYNC_DELAYS_MS must be comma-separated non-negative integers (ms), got "500,soon"']);
    expect(problems({ LOG_LEVEL: 'loud' })).toEqual(['LOG_LEVEL must be one of debug, info, warn, error, got "loud"']);
    // Keys are secrets: their values are not repeated.
    expect(problems({ MASTER_ENC_KEY: 'secret-but-short' })).toEqual(['MASTER_ENC_KEY must be 64 hex characters']);
    expect(problems({ MASTER_ENC_KEYS_PREVIOUS: `${KEY},oldkey` })).toEqual([
      'MASTER_ENC_KEYS_PREVIOUS[1] must be 64 hex characters (comma-separated former MASTER_ENC_KEYs)',
    ]);
  });

  it('knows what the gateway cannot run without', () => {
    expect(gatewaySecretsProblem({ adminApiKey: 'a', keyHashSecret: 'k', masterEncKey: KEY })).toBeUndefined();
    for (const c of [
      { adminApiKey: '', keyHashSecret: 'k', masterEncKey: KEY },
      { adminApiKey: 'a', keyHashSecret: '', masterEncKey: KEY },
      { adminApiKey: 'a', keyHashSecret: 'k', masterEncKey: '' },
    ]) {
      expect(gatewaySecretsProblem(c)).toMatch(/ADMIN_API_KEY, KEY_HASH_SECRET and MASTER_ENC_KEY \(64 hex characters\) must be set/);
    }
  });
});

describe('a process with a bad environment', () => {
  it('stops at start with exit code 2 and the message, no stack trace', () => {
    const env = { PATH: process.env.PATH, PORT: 'abc', ADMIN_API_KEY: 'a', KEY_HASH_SECRET: 'k', MASTER_ENC_KEY: KEY };
    const run = spawnSync(process.execPath, ['gateway/main.ts'], { cwd: root, env, encoding: 'utf8', timeout: 30_000 });
    expect(run.status).toBe(2);
    expect(run.stderr).toContain('PORT must be an integer from 0 to 65535, got "abc"');
    expect(run.stderr).not.toMatch(/\n\s+at /);
  });

  it('the gateway stops at start with exit code 2 when a secret is missing', () => {
    const env = { PATH: process.env.PATH, ADMIN_API_KEY: 'a', KEY_HASH_SECRET: '', MASTER_ENC_KEY: KEY };
    const run = spawnSync(process.execPath, ['gateway/main.ts'], { cwd: root, env, encoding: 'utf8', timeout: 30_000 });
    expect(run.status).toBe(2);
    expect(run.stderr).toContain('ADMIN_API_KEY, KEY_HASH_SECRET and MASTER_ENC_KEY (64 hex characters) must be set');
  });
});

// Issue 23: README's configuration table and .env.example name every variable of lib/config.ts.
describe('the documented configuration', () => {
  const readme = readFileSync(`${root}README.md`, 'utf8');
  const example = readFileSync(`${root}.env.example`, 'utf8');

  it('knows the variables of lib/config.ts', () => {
    expect(CONFIG_VARIABLES).toContain('SANDBOX_HOST');
    expect(CONFIG_VARIABLES.length).toBeGreaterThan(50);
  });

  it("README's configuration table has a row naming each variable", () => {
    const section = readme.slice(readme.indexOf('## Configuration\n'));
    const table = section.slice(0, section.indexOf('\n\n', section.indexOf('| Variable |')));
    const named = new Set(
      table
        .split('\n')
        .filter((line) => line.startsWith('| `'))
        .flatMap((line) => [...(line.split(' | ')[0] ?? '').matchAll(/`([A-Z][A-Z0-9_]*)`/g)].map((m) => m[1])),
    );
    expect(CONFIG_VARIABLES.filter((v) => !named.has(v))).toEqual([]);
    // Read outside lib/config.ts, by the sandbox (services/provider-sandbox/main.ts) and npm start (scripts/start.ts).
    for (const v of ['SANDBOX_PUBLIC_URL', 'SANDBOX_STATE_FILE', 'START_STATE_DIR', 'START_TIMEOUT_MS', 'FERRETDB_PORT', 'OTEL_EXPORTER_OTLP_ENDPOINT'])
      expect(named.has(v), v).toBe(true);
  });

  it('.env.example lists exactly those variables, each after a comment, with its default', () => {
    const lines = example.split('\n');
    const entries = lines.flatMap((line, i) => {
      const m = /^#?([A-Z][A-Z0-9_]*)=(.*)$/.exec(line);
      return m ? [{ name: m[1]!, value: m[2]!, comment: lines[i - 1] ?? '' }] : [];
    });
    expect(entries.map((e) => e.name).sort()).toEqual([...CONFIG_VARIABLES].sort());
    for (const e of entries) expect(e.comment, e.name).toMatch(/^# \S/);
    // Uncommented as they are, the values change nothing: each is the default (or empty, which takes it).
    const env = Object.fromEntries(entries.map((e) => [e.name, e.value]));
    expect(parseConfig(env)).toEqual(parseConfig({}));
    // How it is used is said in it and in the README.
    expect(example).toContain('set -a; . ./.env; set +a');
    expect(readme).toContain('set -a; . ./.env; set +a');
  });
});
