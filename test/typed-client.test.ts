// Issue 23: the README's typed-client example, run as a merchant would run it against the real stack: the block between
// the `typed-client` markers is written to example.ts beside a node_modules/@bnpl/client that is this repository's
// client/, and started with Node (types stripped) with the merchant's secret key and the profile's hash key. It creates,
// confirms, captures and reads back a payment, and its webhook receiver verifies the deliveries the real webhook
// worker sends it. The same file type-checks against the generated types. And the client's Idempotency-Key and
// retries against the real gateway: two calls with one key while the first is in flight give one payment.
import { type ChildProcess, spawn, spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createPaymentClient, type RetryEvent, unwrap } from '../client/index.ts';
import { freePort, sleep, Stack } from './support/stack.ts';

const root = join(import.meta.dirname, '..');
let stack: Stack;
let apiKey = '';
let hashKey = '';
let webhookPort = 0;
let dir = '';
let child: ChildProcess | undefined;

function readmeExample(): string {
  const readme = readFileSync(join(root, 'README.md'), 'utf8');
  const m = /<!-- typed-client:start -->\n```ts\n([\s\S]*?)```\n<!-- typed-client:end -->/.exec(readme);
  if (!m) throw new Error('README.md has no typed-client block');
  return m[1]!;
}

beforeAll(async () => {
  let merchantId: string;
  ({ stack, api_key: apiKey, merchant_id: merchantId } = await Stack.withMerchant());
  webhookPort = await freePort();
  const profiles = await stack.api('GET', `/account/${merchantId}/business_profile`, undefined, stack.adminKey);
  const updated = await stack.api(
    'POST',
    `/account/${merchantId}/business_profile/${profiles.body[0].profile_id}`,
    { webhook_details: { webhook_url: `http://127.0.0.1:${webhookPort}/webhooks/bnpl` } },
    stack.adminKey,
  );
  expect(updated.status, JSON.stringify(updated.body)).toBe(200);
  hashKey = updated.body.payment_response_hash_key;

  // Inside the project (.gitignore'd), so that openapi-fetch resolves from the client's own folder.
  dir = mkdtempSync(join(root, '.readme-example-'));
  mkdirSync(join(dir, 'node_modules/@bnpl'), { recursive: true });
  symlinkSync(join(root, 'client'), join(dir, 'node_modules/@bnpl/client'));
  writeFileSync(join(dir, 'package.json'), '{"type":"module"}');
  writeFileSync(join(dir, 'example.ts'), readmeExample());
}, 120_000);
afterAll(async () => {
  child?.kill('SIGTERM');
  if (dir) rmSync(dir, { recursive: true, force: true });
  await stack?.stop();
});

describe("the README's typed-client example", () => {
  it('runs end to end: create, confirm, capture, read back, and verifies the webhooks it receives', async () => {
    let out = '';
    child = spawn(process.execPath, [join(dir, 'example.ts')], {
      cwd: dir,
      env: {
        PATH: process.env.PATH,
        HOME: process.env.HOME,
        BNPL_URL: stack.gatewayUrl,
        BNPL_API_KEY: apiKey,
        BNPL_HASH_KEY: hashKey,
        WEBHOOK_PORT: String(webhookPort),
      },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    child.stdout!.on('data', (c: Buffer) => (out += c.toString('utf8')));
    child.stderr!.on('data', (c: Buffer) => (out += c.toString('utf8')));
    const paymentLine = () => /^payment (pay_\S+) (\S+) (\S+)$/m.exec(out);
    const done = () => {
      const p = paymentLine();
      return p !== null && out.includes(`webhook payment_succeeded ${p[1]}`);
    };
    const deadline = Date.now() + 60_000;
    while (!done() && child.exitCode === null && Date.now() < deadline) await sleep(200);
    expect(done(), out).toBe(true);

    const [, paymentId, status, received] = paymentLine()!;
    expect([status, received]).toEqual(['succeeded', '10000']);
    // What the service holds, read without the client.
    const payment = await stack.api('GET', `/payments/${paymentId}`, undefined, apiKey);
    expect([payment.body.status, payment.body.amount_received]).toEqual(['succeeded', 10000]);
    // Every delivery verified (a refused one would not be printed), and the authorization came before.
    expect(out).toContain(`webhook payment_authorized ${paymentId}`);
  });

  it('type-checks against the generated types', () => {
    writeFileSync(
      join(dir, 'tsconfig.json'),
      JSON.stringify({ extends: join(root, 'tsconfig.json'), include: ['example.ts'], compilerOptions: { module: 'nodenext', types: ['node'] } }),
    );
    const tsc = spawnSync(process.execPath, [join(root, 'node_modules/typescript/bin/tsc'), '--noEmit', '-p', join(dir, 'tsconfig.json')], {
      cwd: dir,
      encoding: 'utf8',
      timeout: 60_000,
    });
    expect(tsc.status, `${tsc.stdout}\n${tsc.stderr}`).toBe(0);
  });

  it('sends one Idempotency-Key per call: two calls with the same key get one payment, the second waiting out the first', async () => {
    const retries: RetryEvent[] = [];
    const api = createPaymentClient({ baseUrl: stack.gatewayUrl, apiKey, retries: { baseDelayMs: 200, retries: 6, onRetry: (r) => retries.push(r) } });
    const body = {
      amount: 4200,
      currency: 'EUR' as const,
      confirm: true,
      payment_method: 'pay_later' as const,
      payment_method_type: 'invoice' as const,
      customer: { email: 'jane@example.com' },
    };
    const header = { 'Idempotency-Key': 'order-4200' };
    // While the first runs (the provider authorizes), the second is answered 409 CO_01 and retried until it gets the
    // first's answer replayed; without those retries it would fail.
    const [a, b] = await Promise.all([
      unwrap(api.POST('/payments', { body, params: { header } })),
      unwrap(api.POST('/payments', { body, params: { header } })),
    ]);
    expect(b.payment_id).toBe(a.payment_id);
    expect(retries.every((r) => 'status' in r.reason && r.reason.status === 409)).toBe(true);
    const list = await stack.api('POST', '/payments/list', { amount_filter: { start_amount: 4200, end_amount: 4200 } }, apiKey);
    expect(list.status, JSON.stringify(list.body)).toBe(200);
    expect(list.body.data.map((p: { payment_id: string }) => p.payment_id)).toEqual([a.payment_id]);
  });
});
