// Issue 23: the README's "Try it" walkthrough, run as a new user would paste it (bash, curl, jq) against the real
// stack: the block between the `try-it` markers, with BASE and ADMIN pointing at this test's stack.
import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Stack } from './support/stack.ts';

const root = join(import.meta.dirname, '..');
let stack: Stack;
beforeAll(async () => {
  stack = await Stack.start();
}, 120_000);
afterAll(async () => stack?.stop());

function walkthrough(): string {
  const readme = readFileSync(join(root, 'README.md'), 'utf8');
  const m = /<!-- try-it:start -->\n```sh\n([\s\S]*?)```\n<!-- try-it:end -->/.exec(readme);
  if (!m) throw new Error('README.md has no try-it block');
  return m[1]!;
}

describe("the README's Try it walkthrough", () => {
  it('is first after the set-up section', () => {
    const readme = readFileSync(join(root, 'README.md'), 'utf8');
    const headings = [...readme.matchAll(/^## (.+)$/gm)].map((h) => h[1]);
    expect(headings.slice(0, 3)).toEqual(['The two commands', 'Try it', 'Where things are']);
  });

  it('runs end to end: merchant, key, payment, confirm, capture, refund, events', () => {
    expect(spawnSync('jq', ['--version']).status, 'the walkthrough needs jq (apt-get install -y jq)').toBe(0);
    const run = spawnSync('bash', ['-euo', 'pipefail', '-c', walkthrough()], {
      cwd: root,
      env: { PATH: process.env.PATH, HOME: process.env.HOME, BASE: stack.gatewayUrl, ADMIN: stack.adminKey },
      encoding: 'utf8',
      timeout: 60_000,
    });
    expect(run.status, `${run.stdout}\n${run.stderr}`).toBe(0);
    const out = run.stdout;
    expect(out).toMatch(/^merchant \S+$/m);
    expect(out).toMatch(/^payment pay_\S+$/m);
    expect(out).toContain('{"status":"requires_capture","amount_capturable":10000}');
    expect(out).toContain('{"status":"succeeded","amount_received":10000}');
    expect(out).toMatch(/\{"refund_id":"\S+","status":"succeeded","amount":2500\}/);
    // The payment's events, oldest first: authorized before captured and succeeded (those two come from one
    // transition and share its time, so the list may give them in either order).
    const events = out.split('\n').filter((l) => /^payment_[a-z_]+$/.test(l));
    const [authorized, captured, succeeded] = ['payment_authorized', 'payment_captured', 'payment_succeeded'].map((e) => events.indexOf(e));
    expect(authorized! >= 0 && captured! > authorized! && succeeded! > authorized!, out).toBe(true);
  });
});
