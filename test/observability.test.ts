// One trace per merchant request across every process, exported over OTLP; JSON logs with trace ids and no PII.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { OtlpReceiver } from './support/otlp-receiver.ts';
import { Stack, sleep } from './support/stack.ts';

let stack: Stack;
let receiver: OtlpReceiver;
let key: string;
beforeAll(async () => {
  receiver = new OtlpReceiver();
  await receiver.start();
  stack = await Stack.start({ OTEL_EXPORTER_OTLP_ENDPOINT: receiver.url, OTEL_BSP_SCHEDULE_DELAY: '100' });
  ({ api_key: key } = await stack.merchant());
});
afterAll(async () => {
  await stack?.stop();
  await receiver?.stop();
});

describe('tracing', () => {
  it('one trace id spans the gateway, payment-state, the worker and the provider sandbox', async () => {
    const c = await stack.api(
      'POST',
      '/payments',
      {
        amount: 1_000,
        currency: 'EUR',
        confirm: true,
        payment_method: 'pay_later',
        customer: { email: 'ops@example.com' },
      },
      key,
    );
    expect(c.body.status).toBe('succeeded');
    const want = ['gateway', 'payment-state', 'worker', 'provider-sandbox'];
    let trace: string | undefined;
    for (let i = 0; i < 50 && !trace; i++) {
      await sleep(200);
      const root = receiver.spans.find((s) => s.service === 'gateway' && s.name === 'POST /payments' && s.parentSpanId === '');
      if (root && want.every((svc) => receiver.spans.some((s) => s.traceId === root.traceId && s.service === svc))) trace = root.traceId;
    }
    expect(trace, JSON.stringify([...new Set(receiver.spans.map((s) => `${s.service}: ${s.name}`))].slice(0, 60))).toBeDefined();
    const spans = receiver.spans.filter((s) => s.traceId === trace);
    const names = spans.map((s) => `${s.service}: ${s.name}`);
    // The path of the payment, in one trace: HTTP -> gRPC -> queue -> worker -> provider HTTP -> gRPC -> MongoDB.
    expect(names).toEqual(
      expect.arrayContaining([
        'gateway: POST /payments',
        'gateway: grpc PaymentState/Begin',
        'payment-state: grpc PaymentState/Begin',
        'payment-state: mongodb insert transitions',
        'worker: grpc PaymentState/Complete',
        'payment-state: grpc PaymentState/Complete',
        'provider-sandbox: POST /service_test/v1/payments',
      ]),
    );
    // payment-state queues the job right after recording the operation (issue 24: BeginReply.enqueued).
    expect(names.some((n) => n.startsWith('payment-state: add connector-service_test'))).toBe(true);
    expect(names.some((n) => n.startsWith('worker: process connector-service_test'))).toBe(true);
    // Every span but the root has its parent in the same trace.
    const ids = new Set(spans.map((s) => s.spanId));
    expect(spans.filter((s) => s.parentSpanId && !ids.has(s.parentSpanId)).map((s) => s.name)).toEqual([]);
  });
});

describe('logs', () => {
  it('are JSON lines with trace ids, and carry no personal data or secrets', async () => {
    const secretEmail = 'very.private.person+decline@example.org';
    const c = await stack.api(
      'POST',
      '/payments',
      {
        amount: 1_000,
        currency: 'EUR',
        confirm: true,
        payment_method: 'pay_later',
        customer: { email: secretEmail, name: 'Private Person', phone: '+4915112345678', ssn: '123-45-6789', birth_date: '1990-01-01' },
        billing: { address: { line1: 'Secret Street 1', city: 'Hidden City', country: 'DE' } },
      },
      key,
    );
    expect(c.body.status).toBe('failed');
    await sleep(300);
    const all = Object.values(stack.logs).flat();
    const json = all.filter((l) => l.startsWith('{'));
    expect(json.length).toBeGreaterThan(5);
    for (const l of json) expect(() => JSON.parse(l)).not.toThrow();
    expect(json.some((l) => JSON.parse(l).msg === 'operation reported' && /^[0-9a-f]{32}$/.test(JSON.parse(l).trace_id))).toBe(true);
    for (const secret of [
      'very.private.person',
      'Private Person',
      '4915112345678',
      '123-45-6789',
      '1990-01-01',
      'Secret Street',
      'Hidden City',
      key,
      c.body.client_secret,
    ]) {
      expect(all.filter((l) => l.includes(secret))).toEqual([]);
    }
  });
});
