// Issue 19 item 11: the sandbox's operator routes (/__sandbox/*, /sandbox/*; services/provider-sandbox/README.md)
// answer only the operator key (X-Sandbox-Operator-Key). Without it, or with a wrong one, each is 401 and changes
// nothing; with it each works. The imitated provider APIs keep their own auth. A merchant has no path to raise a
// dispute: not on the sandbox with its API key, not through the gateway.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Stack, sleep } from './support/stack.ts';

let stack: Stack;
let A: { api_key: string; merchant_id: string };
let B: { api_key: string; merchant_id: string };
let payment: { payment_id: string; connector_transaction_id: string };

beforeAll(async () => {
  stack = await Stack.start();
  [A, B] = [await stack.merchant(), await stack.merchant()];
  const p = await stack.api(
    'POST',
    '/payments',
    {
      amount: 1_000,
      currency: 'EUR',
      confirm: true,
      payment_method: 'pay_later',
      customer: { email: 'ann@example.com' },
    },
    A.api_key,
  );
  expect(p.body.status).toBe('succeeded');
  payment = p.body;
}, 90_000);
afterAll(async () => stack?.stop());

const json = (body: unknown): RequestInit => ({ method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
const dispute = () => ({
  connector_transaction_id: payment.connector_transaction_id,
  amount: 1_000,
  reason: 'Goods not received',
  reason_code: '13.1',
  stage: 'dispute',
  status: 'dispute_opened',
});

/** Every operator route, with a request that would change or reveal something. */
const routes = (): [string, string, RequestInit][] => [
  ['GET', '/__sandbox/calls', {}],
  ['GET', '/__sandbox/service_test/payments', {}],
  ['GET', '/__sandbox/service_test/refunds', {}],
  ['GET', '/__sandbox/service_test/disputes', {}],
  ['GET', '/__sandbox/service_test/notifications', {}],
  ['GET', '/__sandbox/ratepay/transactions', {}],
  ['GET', '/__sandbox/applied', {}],
  ['GET', '/__sandbox/faults', {}],
  ['POST', '/__sandbox/faults', json({ error_rate: 1 })],
  ['DELETE', '/__sandbox/faults', { method: 'DELETE' }],
  ['POST', '/__sandbox/reset', { method: 'POST' }],
  ['GET', '/__sandbox/no-such-view', {}],
  ['POST', '/sandbox/disputes', json(dispute())],
  ['POST', '/sandbox/disputes/dp_unknown', json({ status: 'dispute_won' })],
  ['POST', '/sandbox/twisto/webhooks', json({ secret_key: 'twisto_sandbox_secret_key', url: 'http://127.0.0.1:9/hook' })],
  ['POST', '/sandbox/billie/webhooks', json({ client_id: 'billie_sandbox_client_id', url: 'http://127.0.0.1:9/hook', secret: 's' })],
  ['POST', '/sandbox/payla/portals/2030968/transaction-status-url', json({ url: 'http://127.0.0.1:9/hook' })],
];

describe('the sandbox operator routes', () => {
  it('answer 401 without the operator key, with a wrong one, or with a merchant key, and change nothing', async () => {
    const wrong: Record<string, string>[] = [
      {},
      { 'x-sandbox-operator-key': 'sbop_wrong' },
      { 'x-sandbox-operator-key': `${stack.env.SANDBOX_OPERATOR_KEY}x` },
      { 'x-sandbox-operator-key': A.api_key },
      { authorization: `Bearer ${stack.env.SANDBOX_OPERATOR_KEY}` },
    ];
    for (const headers of wrong) {
      for (const [method, path, init] of routes()) {
        const r = await fetch(`${stack.sandboxUrl}${path}`, { method, ...init, headers: { ...(init.headers as Record<string, string>), ...headers } });
        const body = await r.text();
        expect({ method, path, headers, status: r.status }).toEqual({ method, path, headers, status: 401 });
        expect(body).not.toContain(payment.connector_transaction_id);
        expect(body).not.toContain('ann@example.com');
      }
    }
    // Nothing changed: no dispute, no fault switch, the sandbox still holds the payment (no reset).
    expect(await (await stack.sandbox('/__sandbox/service_test/disputes')).json()).toEqual([]);
    expect(await (await stack.sandbox('/__sandbox/faults')).json()).toMatchObject({ error_rate: 0, hang_rate: 0 });
    expect((await stack.sandboxPayments()).map((p) => p.id)).toContain(payment.connector_transaction_id);
    const p = await stack.api(
      'POST',
      '/payments',
      { amount: 500, currency: 'EUR', confirm: true, payment_method: 'pay_later', customer: { email: 'bo@example.com' } },
      A.api_key,
    );
    expect(p.body.status).toBe('succeeded');
    await sleep(1_000);
    expect((await stack.api('GET', '/disputes/list', undefined, A.api_key)).body).toEqual([]);
  });

  it('work with the operator key', async () => {
    expect((await stack.sandboxPayments()).map((p) => p.id)).toContain(payment.connector_transaction_id);
    const faults = await stack.sandbox('/__sandbox/faults', json({ error_rate: 0.5 }));
    expect(await faults.json()).toMatchObject({ error_rate: 0.5 });
    expect((await stack.sandbox('/__sandbox/faults', { method: 'DELETE' })).status).toBe(200);
    expect((await stack.sandbox('/sandbox/twisto/webhooks', json({ secret_key: 'twisto_sandbox_secret_key', url: 'http://127.0.0.1:9/hook' }))).status).toBe(
      201,
    );
    const raised = await stack.sandbox('/sandbox/disputes', json(dispute()));
    expect(raised.status).toBe(201);
    const cdi = ((await raised.json()) as { connector_dispute_id: string }).connector_dispute_id;
    expect((await stack.sandbox(`/sandbox/disputes/${cdi}`, json({ status: 'dispute_challenged' }))).status).toBe(200);
    expect((await stack.sandbox('/__sandbox/no-such-view')).status).toBe(404);
    expect((await stack.sandbox('/__sandbox/reset', { method: 'POST' })).status).toBe(200);
    expect(await stack.sandboxPayments()).toEqual([]);
  });

  it('the imitated provider API keeps its own auth: the provider key, not the operator key', async () => {
    const read = (headers: Record<string, string>) => fetch(`${stack.sandboxUrl}/service_test/v1/payments/${payment.connector_transaction_id}`, { headers });
    expect((await read({})).status).toBe(401);
    expect((await read({ 'x-sandbox-operator-key': stack.env.SANDBOX_OPERATOR_KEY })).status).toBe(401);
    expect((await read({ authorization: 'Bearer sk_sandbox_service_test' })).status).not.toBe(401);
  });

  it("a merchant cannot raise a dispute on another merchant's payment: no merchant path exists", async () => {
    const onSandbox = await fetch(`${stack.sandboxUrl}/sandbox/disputes`, {
      ...json(dispute()),
      headers: { 'content-type': 'application/json', 'api-key': B.api_key, authorization: `Bearer ${B.api_key}` },
    });
    expect(onSandbox.status).toBe(401);
    for (const path of ['/disputes', '/sandbox/disputes', `/payments/${payment.payment_id}/disputes`]) {
      const r = await stack.api('POST', path, dispute(), B.api_key);
      expect({ path, status: r.status }).toEqual({ path, status: 404 });
    }
    expect((await stack.api('GET', '/disputes/list', undefined, B.api_key)).body).toEqual([]);
  });
});
