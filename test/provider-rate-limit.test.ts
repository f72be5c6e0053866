// A provider's 429: the worker pauses its queue (worker.rateLimit, Retry-After or the manifest's rate_limited_ms) and
// the job goes back to wait without spending an attempt (Worker.RateLimitError). Pure: a local HTTP server, no stack.
import { createServer, type Server } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Worker, type Job } from 'bullmq';
import type { ConnectorJob } from '../domain/job.ts';
import type { PaymentStateClient } from '../proto/generated/bnpl/paymentstate/v1/PaymentState.ts';
import { connector } from '../workers/connectors/service_test/index.ts';
import { providerCall, ProviderRateLimited } from '../workers/provider-http.ts';
import { processor } from '../workers/runtime.ts';
import { config } from '../lib/config.ts';
import { randomBytes } from 'node:crypto';

let server: Server;
let url = '';
let retryAfter: string | null = '2';
beforeAll(async () => {
  server = createServer((_req, res) => {
    if (retryAfter) res.setHeader('retry-after', retryAfter);
    res.writeHead(429, { 'content-type': 'application/json' }).end('{"error":{"code":"rate_limited","message":"slow down"}}');
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  url = `http://127.0.0.1:${(server.address() as { port: number }).port}`;
  process.env.SERVICE_TEST_BASE_URL = url;
  // service_test's authorization carries the default account's notification secret, derived from the master key
  // (issue 19 item 4): this process has none unless given one.
  if (!config.masterEncKey) Object.assign(config, { masterEncKey: randomBytes(32).toString('hex') });
});
afterAll(() => {
  delete process.env.SERVICE_TEST_BASE_URL;
  server.close();
});

const data: ConnectorJob = {
  merchant_id: 'mer_1',
  payment_id: 'pay_000000000000000000000000001',
  operation_id: 'op_1',
  kind: 'authorize',
  connector: 'service_test',
  amount: 100,
  currency: 'EUR',
  capture_method: 'automatic',
  connector_transaction_id: null,
  customer_email: null,
  return_url: null,
  merchant_order_reference_id: null,
  mode: 'execute',
  sync_round: 0,
};

describe('a provider rate limit (429)', () => {
  it('is a ProviderRateLimited with the Retry-After in ms', async () => {
    retryAfter = '2';
    const err = await providerCall(url, { method: 'GET', path: '/x' }, 'service_test').catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ProviderRateLimited);
    expect((err as ProviderRateLimited).retryAfterMs).toBe(2000);
  });

  it('pauses the queue and puts the job back without reporting an outcome', async () => {
    const paused: number[] = [];
    const reported: unknown[] = [];
    const client = { Complete: (...a: unknown[]) => reported.push(a) } as unknown as PaymentStateClient;
    const run = processor(
      connector,
      client,
      async () => null,
      async () => true,
      async (ms) => {
        paused.push(ms);
      },
    );
    const job = { data, attemptsMade: 1, stalledCounter: 0 } as unknown as Job<ConnectorJob>;
    retryAfter = '3';
    const e1 = await run(job).catch((e: Error) => e);
    expect(e1).toBeInstanceOf(Error);
    expect([(e1 as Error).name, (e1 as Error).message]).toEqual([Worker.RateLimitError().name, Worker.RateLimitError().message]);
    expect((e1 as Error).name).toBe('RateLimitError');
    retryAfter = null;
    await run(job).catch(() => undefined);
    expect(paused).toEqual([3000, connector.manifest.queue.rate_limited_ms]);
    expect(reported).toEqual([]);
  });
});
