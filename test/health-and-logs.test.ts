// Issue 23, for operators: /health/live and /health/ready on every process of the real stack (ready only while its
// MongoDB, Redis and gRPC dependencies answer: payment-state stopped makes the gateway and the worker 503 naming it),
// x-request-id on every gateway answer, one access log line per request, and worker lines naming the payment, the
// operation, its kind and the reason.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Stack, type PartName, until } from './support/stack.ts';

let stack: Stack;
let key: string;
let merchantId: string;
beforeAll(async () => {
  ({ stack, api_key: key, merchant_id: merchantId } = await Stack.withMerchant());
}, 120_000);
afterAll(async () => stack?.stop());

const PARTS: PartName[] = ['gateway', 'payment-state', 'worker', 'worker-webhooks', 'provider-sandbox'];
const get = async (url: string) => {
  const r = await fetch(url).catch(() => undefined);
  return r ? { status: r.status, body: (await r.json()) as any } : { status: 0, body: null };
};
const lines = (part: PartName) => stack.logs[part].flatMap((l) => (l.startsWith('{') ? [JSON.parse(l) as Record<string, any>] : []));

describe('/health/live and /health/ready', () => {
  it('every process answers live and ready; ready names its dependencies', async () => {
    for (const part of PARTS) {
      const live = await get(`${stack.healthUrl(part)}/health/live`);
      expect(live, part).toMatchObject({ status: 200, body: { status: 'live' } });
      const ready = await get(`${stack.healthUrl(part)}/health/ready`);
      expect(ready, part).toMatchObject({ status: 200, body: { status: 'ready' } });
    }
    expect((await get(`${stack.healthUrl('gateway')}/health/ready`)).body.checks).toEqual({ mongodb: 'up', redis: 'up', payment_state: 'up' });
    expect((await get(`${stack.healthUrl('worker')}/health/ready`)).body.checks).toEqual({ mongodb: 'up', redis: 'up', payment_state: 'up' });
    expect((await get(`${stack.healthUrl('payment-state')}/health/ready`)).body.checks).toEqual({ mongodb: 'up', redis: 'up' });
    expect((await get(`${stack.healthUrl('worker-webhooks')}/health/ready`)).body.checks).toEqual({ mongodb: 'up', redis: 'up' });
  });

  it('with payment-state stopped the gateway and the worker are live but not ready (503 naming payment_state), ready again once it is back', async () => {
    await stack.kill('payment-state', 'SIGTERM');
    expect((await get(`${stack.healthUrl('payment-state')}/health/live`)).status).toBe(0);
    for (const part of ['gateway', 'worker'] as const) {
      expect((await get(`${stack.healthUrl(part)}/health/live`)).status).toBe(200);
      const ready = await get(`${stack.healthUrl(part)}/health/ready`);
      expect(ready, part).toMatchObject({ status: 503, body: { status: 'not_ready', not_ready: ['payment_state'], checks: { payment_state: 'down' } } });
    }
    // The webhook worker does not call payment-state: still ready.
    expect((await get(`${stack.healthUrl('worker-webhooks')}/health/ready`)).status).toBe(200);
    expect(stack.logs['payment-state'].some((l) => l.includes('payment-state stopped'))).toBe(true);
    await stack.startPart('payment-state');
    for (const part of PARTS) await until(`${part} ready`, async () => (await get(`${stack.healthUrl(part)}/health/ready`)).status === 200, 15_000);
  }, 60_000);
});

describe('logs', () => {
  it('x-request-id: the caller’s sane one is answered back, another is generated, on refusals too', async () => {
    const mine = await stack.api('GET', '/payments/pay_doesnotexist00000000000000', undefined, key, { 'x-request-id': 'trace-me-123' });
    expect(mine.headers.get('x-request-id')).toBe('trace-me-123');
    const bad = await stack.api('GET', '/payments', undefined, 'not-a-key', { 'x-request-id': 'has spaces in it' });
    expect(bad.status).toBe(401);
    expect(bad.headers.get('x-request-id')).toMatch(/^req_[0-9a-f]{32}$/);
    const none = await stack.api('GET', '/health/live');
    expect(none.headers.get('x-request-id')).toMatch(/^req_/);
  });

  it('one access line per request: method, route pattern, status, duration, merchant, trace id, request id', async () => {
    const p = await stack.api(
      'POST',
      '/payments',
      {
        amount: 1_000,
        currency: 'EUR',
        confirm: true,
        payment_method: 'pay_later',
        payment_method_type: 'invoice',
        customer: { id: 'cus_log', email: 'rita@example.com' },
      },
      key,
      { 'x-request-id': 'create-1' },
    );
    expect(p.status).toBe(200);
    await stack.api('GET', `/payments/${p.body.payment_id}`, undefined, key, { 'x-request-id': 'read-1' });
    const access = await until('the access lines', async () => {
      const found = lines('gateway').filter((l) => l.msg === 'request' && ['create-1', 'read-1'].includes(l.request_id));
      return found.length === 2 ? found : null;
    });
    const create = access.find((l) => l.request_id === 'create-1')!;
    expect(create).toMatchObject({
      method: 'POST',
      route: '/payments',
      status: 200,
      merchant_id: merchantId,
      trace_id: expect.stringMatching(/^[0-9a-f]{32}$/),
    });
    expect(typeof create.duration_ms).toBe('number');
    const read = access.find((l) => l.request_id === 'read-1')!;
    expect(read).toMatchObject({ method: 'GET', route: '/payments/:payment_id', status: 200, merchant_id: merchantId });
    expect(JSON.stringify(read)).not.toContain(p.body.payment_id);
  });

  it('a worker line names the payment, the operation, its kind and, for a failure, the reason', async () => {
    const p = await stack.api(
      'POST',
      '/payments',
      {
        amount: 2_000,
        currency: 'EUR',
        confirm: true,
        payment_method: 'pay_later',
        payment_method_type: 'invoice',
        customer: { id: 'cus_rf', email: 'rita+refund_fail@example.com' },
      },
      key,
    );
    expect(p.body.status).toBe('succeeded');
    const r = await stack.api('POST', '/refunds', { payment_id: p.body.payment_id, amount: 500 }, key);
    expect(r.status).toBe(200);
    const line = await until('the refund outcome line', async () =>
      lines('worker').find((l) => l.msg === 'operation reported' && l.payment_id === p.body.payment_id && l.kind === 'refund'),
    );
    expect(line).toMatchObject({
      payment_id: p.body.payment_id,
      operation_id: expect.any(String),
      kind: 'refund',
      connector: 'service_test',
      outcome: 'DECLINED',
    });
    expect(line.error_code ?? line.error_message ?? line.unified_code).toBeTruthy();
    const authorize = lines('worker').find((l) => l.msg === 'operation reported' && l.payment_id === p.body.payment_id && l.kind === 'authorize');
    expect(authorize).toMatchObject({ outcome: expect.any(String), operation_id: expect.any(String) });
  });
});
