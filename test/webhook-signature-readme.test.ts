// The README's webhook verification example (issue 19 item 12), run as a merchant would: the code block between the
// `webhook-verify-example` markers is written to a file and started as its own process; the real delivery code
// (workers/webhooks/deliver.ts) sends it an event, which it accepts; a delivery older than the 5-minute tolerance, a
// changed webhook-id, webhook-timestamp or body, and the body-only signature alone are refused (401).
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { signStandardWebhook, signWebhook } from '../lib/merchant-webhook-signature.ts';
import { sendWebhook } from '../workers/webhooks/deliver.ts';
import { freePort, sleep } from './support/stack.ts';

const root = join(import.meta.dirname, '..');
const hashKey = 'a1b2'.repeat(16);
let port = 0;
let child: ChildProcess | undefined;
let dir = '';

function readmeExample(): string {
  const readme = readFileSync(join(root, 'README.md'), 'utf8');
  const m = /<!-- webhook-verify-example:start -->\n```js\n([\s\S]*?)```\n<!-- webhook-verify-example:end -->/.exec(readme);
  if (!m) throw new Error('README.md has no webhook-verify-example block');
  return m[1]!;
}

beforeAll(async () => {
  port = await freePort();
  // Inside the project, so that `standardwebhooks` and `express` resolve from its node_modules.
  dir = mkdtempSync(join(root, '.readme-example-'));
  const file = join(dir, 'verify.mjs');
  writeFileSync(file, readmeExample());
  child = spawn(process.execPath, [file], {
    env: { ...process.env, PORT: String(port), PAYMENT_RESPONSE_HASH_KEY: hashKey },
    stdio: ['ignore', 'inherit', 'inherit'],
  });
  const deadline = Date.now() + 20_000;
  for (;;) {
    const up = await fetch(`http://127.0.0.1:${port}/`).then(
      () => true,
      () => false,
    );
    if (up) break;
    if (Date.now() > deadline || child.exitCode !== null) throw new Error('the README example did not start');
    await sleep(100);
  }
});
afterAll(() => {
  child?.kill('SIGTERM');
  if (dir) rmSync(dir, { recursive: true, force: true });
});

const url = () => `http://127.0.0.1:${port}/webhooks/bnpl`;
const body = JSON.stringify({
  merchant_id: 'merchant_1',
  event_id: 'evt_readme',
  event_type: 'payment_succeeded',
  content: { type: 'payment_details', object: { payment_id: 'pay_1' } },
  timestamp: new Date().toISOString(),
});
const post = (headers: Record<string, string>, raw = body) =>
  fetch(url(), { method: 'POST', headers: { 'content-type': 'application/json', ...headers }, body: raw }).then((r) => r.status);
const signed = (id: string, ts: number, raw = body) => ({
  'webhook-id': id,
  'webhook-timestamp': String(ts),
  'webhook-signature': signStandardWebhook(id, ts, raw, hashKey),
});
const nowS = () => Math.floor(Date.now() / 1000);

describe('the README verification example (Standard Webhooks)', () => {
  it('accepts a real delivery', async () => {
    const r = await sendWebhook(url(), body, hashKey, { timeoutMs: 5_000, allowPrivate: true, eventId: 'evt_readme', eventType: 'payment_succeeded' });
    expect(r.error).toBeNull();
    expect(r.response?.status_code).toBe(204);
  });
  it('refuses the same delivery replayed after the 5-minute tolerance', async () => {
    expect(await post(signed('evt_readme', nowS() - 4 * 60))).toBe(204);
    expect(await post(signed('evt_readme', nowS() - 6 * 60))).toBe(401);
    expect(await post(signed('evt_readme', nowS() + 6 * 60))).toBe(401);
  });
  it('refuses a changed id, timestamp or body, another key, and the body-only signature alone', async () => {
    const ok = signed('evt_readme', nowS());
    expect(await post(ok)).toBe(204);
    expect(await post({ ...ok, 'webhook-id': 'evt_other' })).toBe(401);
    expect(await post({ ...ok, 'webhook-timestamp': String(nowS() - 1) })).toBe(401);
    expect(await post(ok, body.replace('pay_1', 'pay_2'))).toBe(401);
    const ts = nowS();
    const foreign = `v1,${signStandardWebhook('evt_readme', ts, body, 'another key of the merchant').slice(3)}`;
    expect(await post({ 'webhook-id': 'evt_readme', 'webhook-timestamp': String(ts), 'webhook-signature': foreign })).toBe(401);
    expect(await post({ 'x-webhook-signature-512': signWebhook(body, hashKey) })).toBe(401);
  });
});
