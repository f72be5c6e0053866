// The container healthcheck of payment-state (docker-compose.yml runs `node scripts/grpc-health.ts <addr>`): exit 0
// while its gRPC health service answers SERVING, 1 when nothing answers there.
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { Stack, freePort } from './support/stack.ts';

const root = fileURLToPath(new URL('..', import.meta.url));
const check = (addr: string) =>
  promisify(execFile)(process.execPath, ['scripts/grpc-health.ts', addr], { cwd: root }).then(
    () => 0,
    (e: { code?: number }) => e.code ?? -1,
  );

describe('payment-state container healthcheck', () => {
  let stack: Stack;
  afterAll(async () => stack?.stop());

  it('is healthy while payment-state serves, unhealthy once it is gone', async () => {
    stack = await Stack.start();
    expect(await check(stack.env.PAYMENT_STATE_ADDR)).toBe(0);
    await stack.kill('payment-state');
    expect(await check(stack.env.PAYMENT_STATE_ADDR)).toBe(1);
    expect(await check(`127.0.0.1:${await freePort()}`)).toBe(1);
  });
});
