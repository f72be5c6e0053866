// Issue 23: graceful shutdown and rolling restart under a steady stream of requests. The gateway is restarted the
// rolling way (REUSE_PORT: the new process listens beside the old one, which then gets SIGTERM, stops accepting and
// finishes its requests in flight); the connector worker is stopped with SIGTERM (it finishes its active jobs) and
// started again. Not one request fails or is lost: every answer is a 200 and every payment created ends succeeded.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Stack, sleep, until } from './support/stack.ts';

let stack: Stack;
let key: string;
beforeAll(async () => {
  ({ stack, api_key: key } = await Stack.withMerchant({ REUSE_PORT: 'true' }));
}, 120_000);
afterAll(async () => stack?.stop());

interface Outcome {
  what: string;
  status: number | string;
}

/** `clients` loops, each creating and confirming a payment then reading it, until `stop()`. */
function load(clients: number) {
  const results: Outcome[] = [];
  const payments: string[] = [];
  let running = true;
  const one = async (c: number, i: number) => {
    const create = await stack
      .api(
        'POST',
        '/payments',
        {
          amount: 1_000 + i,
          currency: 'EUR',
          confirm: true,
          payment_method: 'pay_later',
          payment_method_type: 'invoice',
          customer: { id: `cus_${c}`, email: 'rita@example.com' },
        },
        key,
        { 'idempotency-key': `load-${c}-${i}` },
      )
      .catch((e: Error & { cause?: { code?: string } }) => ({ status: `error ${e.cause?.code ?? e.message}`, body: null as any }));
    results.push({ what: `create ${c}-${i}`, status: create.status });
    if (create.status !== 200) return;
    payments.push(create.body.payment_id);
    const read = await stack
      .api('GET', `/payments/${create.body.payment_id}`, undefined, key)
      .catch((e: Error & { cause?: { code?: string } }) => ({ status: `error ${e.cause?.code ?? e.message}` }));
    results.push({ what: `read ${c}-${i}`, status: read.status });
  };
  const loops = Array.from({ length: clients }, async (_, c) => {
    for (let i = 0; running; i++) await one(c, i);
  });
  return {
    results,
    payments,
    stop: async () => {
      running = false;
      await Promise.all(loops);
    },
  };
}

describe('restart under load', () => {
  it('a rolling restart of the gateway and a SIGTERM restart of the worker fail and lose no request', async () => {
    const traffic = load(4);
    await sleep(1_500);

    // The gateway: a new process beside the old one, then SIGTERM to the old one, which drains and exits 0.
    const gatewayExit = await stack.rollingRestart('gateway');
    expect(gatewayExit).toBe(0);
    expect(stack.logs.gateway.some((l) => l.includes('"gateway stopping"'))).toBe(true);
    expect(stack.logs.gateway.some((l) => l.includes('"gateway stopped"'))).toBe(true);
    await sleep(1_500);

    // The worker: SIGTERM (it finishes its active jobs and exits 0), then a new one; jobs meanwhile wait in the queue.
    await stack.kill('worker', 'SIGTERM');
    expect(stack.logs.worker.some((l) => l.includes('worker stopping: finishing active jobs'))).toBe(true);
    expect(stack.logs.worker.some((l) => l.includes('"worker stopped"'))).toBe(true);
    await sleep(500);
    await stack.startPart('worker');
    await sleep(1_500);

    await traffic.stop();
    const failed = traffic.results.filter((r) => r.status !== 200);
    expect(failed, JSON.stringify(failed.slice(0, 10))).toEqual([]);
    expect(traffic.payments.length).toBeGreaterThan(8);

    // Nothing lost: every payment created reaches succeeded (those confirmed while the worker was away too).
    for (const id of traffic.payments) await stack.poll(id, key, (p) => p.status === 'succeeded', 30_000);
    // And each process is ready again.
    for (const part of ['gateway', 'worker'] as const)
      await until(`${part} ready`, async () => (await fetch(`${stack.healthUrl(part)}/health/ready`).catch(() => undefined))?.status === 200);
  }, 180_000);
});
