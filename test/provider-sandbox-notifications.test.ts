// The provider sandbox alone (no stack): service_test refunds with their magic tags, the operator's disputes, and the
// notifications the sandbox sends, signed, to a payment's webhook_url — received here by a small HTTP server that
// answers 500 to each event's first attempt, so every notification shows its retry.
import { spawn, type ChildProcess } from 'node:child_process';
import { createHmac, randomBytes } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freePort, sleep } from './support/stack.ts';

const root = fileURLToPath(new URL('..', import.meta.url));
const API_KEY = 'sk_sandbox_service_test';
const SECRET = `whsec_test_${randomBytes(8).toString('hex')}`;
const REVIEW_MS = 600;

interface Received {
  body: string;
  event: any;
  signature: string | undefined;
  answered: number;
}

let sandbox: ChildProcess;
let sandboxUrl = '';
const OPERATOR_KEY = `sbop_${randomBytes(16).toString('hex')}`;
let hookServer: Server;
let hookUrl = '';
const received: Received[] = [];
const logs: string[] = [];

beforeAll(async () => {
  hookServer = createServer((req, res) => {
    let body = '';
    req.on('data', (c) => {
      body += c;
    });
    req.on('end', () => {
      const event = JSON.parse(body);
      const first = !received.some((r) => r.event.id === event.id);
      const answered = first ? 500 : 200;
      received.push({ body, event, signature: req.headers['x-webhook-signature-512'] as string | undefined, answered });
      res.writeHead(answered, { 'content-type': 'application/json' }).end('{}');
    });
  });
  await new Promise<void>((r) => hookServer.listen(0, '127.0.0.1', r));
  hookUrl = `http://127.0.0.1:${(hookServer.address() as AddressInfo).port}/webhooks/mer_test/mca_test`;

  const port = await freePort();
  sandboxUrl = `http://127.0.0.1:${port}`;
  sandbox = spawn(process.execPath, ['services/provider-sandbox/main.ts'], {
    cwd: root,
    env: {
      ...process.env,
      SANDBOX_PORT: String(port),
      SANDBOX_URL: sandboxUrl,
      SANDBOX_REVIEW_MS: String(REVIEW_MS),
      SANDBOX_SLOW_MS: '1000',
      SANDBOX_WEBHOOK_RETRY_MS: '100',
      LOG_LEVEL: 'debug',
      SANDBOX_OPERATOR_KEY: OPERATOR_KEY,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const collect = (b: Buffer) => logs.push(...b.toString().split('\n').filter(Boolean));
  sandbox.stdout!.on('data', collect);
  sandbox.stderr!.on('data', collect);
  const deadline = Date.now() + 30_000;
  while (!logs.some((l) => l.includes('provider sandbox listening'))) {
    if (sandbox.exitCode !== null || Date.now() > deadline) throw new Error(`sandbox did not start: ${logs.slice(-20).join('\n')}`);
    await sleep(50);
  }
});

afterAll(async () => {
  if (sandbox && sandbox.exitCode === null) {
    const exited = new Promise((r) => sandbox.once('exit', r));
    sandbox.kill('SIGTERM');
    await exited;
  }
  hookServer?.closeAllConnections();
  await new Promise((r) => hookServer?.close(r));
});

async function call(method: string, path: string, body?: unknown, headers: Record<string, string> = {}) {
  const operatorRoute = /^\/(__sandbox|sandbox)\//.test(path);
  const res = await fetch(sandboxUrl + path, {
    method,
    headers: {
      ...(body !== undefined ? { 'content-type': 'application/json' } : {}),
      ...(operatorRoute ? { 'x-sandbox-operator-key': OPERATOR_KEY } : {}),
      ...headers,
    },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await res.text();
  let parsed: any = text;
  try {
    parsed = JSON.parse(text);
  } catch {
    /* not JSON */
  }
  return { status: res.status, body: parsed };
}
const key = () => `key_${randomBytes(8).toString('hex')}`;
const provider = (method: string, path: string, body?: unknown, idempotencyKey?: string) =>
  call(method, `/service_test/v1${path}`, body, { authorization: `Bearer ${API_KEY}`, ...(idempotencyKey ? { 'idempotency-key': idempotencyKey } : {}) });

async function payment(email: string, extra: Record<string, unknown> = {}) {
  const r = await provider(
    'POST',
    '/payments',
    {
      amount: 1000,
      currency: 'EUR',
      reference: 'pay_test',
      capture: 'automatic',
      customer: { email },
      webhook_url: hookUrl,
      webhook_secret: SECRET,
      ...extra,
    },
    key(),
  );
  expect(r.status).toBe(201);
  return r.body;
}
const refund = (paymentId: string, body: Record<string, unknown>, idempotencyKey = key()) =>
  provider('POST', `/payments/${paymentId}/refunds`, body, idempotencyKey);

/** The delivered notifications (the 200-answered attempts) about one object. */
function notificationsOf(objectId: string): any[] {
  return received.filter((r) => r.answered === 200 && r.event.data.id === objectId).map((r) => r.event);
}
async function waitFor<T>(read: () => T | undefined, what: string, timeoutMs = 10_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const v = read();
    if (v !== undefined) return v;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await sleep(25);
  }
}

describe('service_test refunds', () => {
  it('refunds part, then by default the rest; a refund above what is left is 422 amount_exceeds_captured', async () => {
    const p = await payment('jane@example.com');
    expect(p).toMatchObject({ status: 'captured', captured: 1000 });
    expect(p.updated_at).toEqual(expect.any(String));
    expect(p).not.toHaveProperty('webhook_url');

    const first = await refund(p.id, { amount: 300, reference: 'ref_first', reason: 'damaged' });
    expect(first.status).toBe(201);
    expect(first.body).toEqual({
      id: expect.stringMatching(/^str_[0-9a-f]{24}$/),
      payment_id: p.id,
      amount: 300,
      currency: 'EUR',
      reference: 'ref_first',
      reason: 'damaged',
      status: 'succeeded',
      created_at: expect.any(String),
      updated_at: expect.any(String),
    });
    expect((await provider('GET', `/refunds/${first.body.id}`)).body).toEqual(first.body);

    const over = await refund(p.id, { amount: 701, reference: 'ref_over' });
    expect(over).toMatchObject({ status: 422, body: { error: { code: 'amount_exceeds_captured' } } });
    expect((await refund(p.id, { amount: 0, reference: 'ref_zero' })).body.error.code).toBe('amount_exceeds_captured');

    const rest = await refund(p.id, { reference: 'ref_rest' });
    expect(rest).toMatchObject({ status: 201, body: { amount: 700, status: 'succeeded', reason: null } });
    expect((await refund(p.id, { reference: 'ref_none_left' })).body.error.code).toBe('amount_exceeds_captured');

    const kept = (await call('GET', `/__sandbox/service_test/refunds?payment_id=${p.id}`)).body;
    expect(kept.map((r: any) => r.amount).sort()).toEqual([300, 700]);
  });

  it('checks its input and the payment: no key 400, unknown payment 404, bad fields 422, unknown refund 404', async () => {
    const p = await payment('jane@example.com');
    expect((await provider('POST', `/payments/${p.id}/refunds`, { reference: 'r' })).status).toBe(400);
    expect((await refund('stp_unknown', { reference: 'r' })).body.error.code).toBe('not_found');
    expect((await refund(p.id, { amount: '10', reference: 'r' })).body.error.message).toMatch(/amount/);
    expect((await refund(p.id, { amount: 10 })).body.error.message).toMatch(/reference/);
    expect((await provider('GET', '/refunds/str_unknown')).status).toBe(404);
    const manual = await payment('jane@example.com', { capture: 'manual' });
    expect((await refund(manual.id, { reference: 'r' })).body.error.code).toBe('amount_exceeds_captured');
  });

  it('+refund_fail: 201 with a failed refund; a failed refund does not count against what is left', async () => {
    const p = await payment('jane+refund_fail@example.com');
    const r = await refund(p.id, { reference: 'ref_fail' });
    expect(r.status).toBe(201);
    expect(r.body).toMatchObject({ status: 'failed', amount: 1000, failure: { code: 'refund_declined', message: expect.any(String) } });
    expect((await refund(p.id, { amount: 1000, reference: 'ref_fail_again' })).body.status).toBe('failed');
  });

  it('+refund_pending: pending, then succeeded after SANDBOX_REVIEW_MS, told by a signed refund.updated', async () => {
    const p = await payment('jane+refund_pending@example.com');
    const r = await refund(p.id, { amount: 400, reference: 'ref_pending' });
    expect(r.body).toMatchObject({ status: 'pending', amount: 400 });
    // A pending refund holds its amount.
    expect((await refund(p.id, { amount: 601, reference: 'ref_over' })).body.error.code).toBe('amount_exceeds_captured');

    const event = await waitFor(() => notificationsOf(r.body.id)[0], 'refund.updated');
    expect(event).toMatchObject({ type: 'refund.updated', data: { id: r.body.id, payment_id: p.id, status: 'succeeded', reference: 'ref_pending' } });
    expect(Date.parse(event.data.updated_at) - Date.parse(event.data.created_at)).toBeGreaterThanOrEqual(REVIEW_MS - 50);
    expect((await provider('GET', `/refunds/${r.body.id}`)).body).toEqual(event.data);
  });

  it('+refund_flaky: 500 twice for an Idempotency-Key, then one refund, replayed after', async () => {
    const p = await payment('jane+refund_flaky@example.com');
    const k = key();
    expect((await refund(p.id, { amount: 250, reference: 'ref_flaky' }, k)).status).toBe(500);
    expect((await refund(p.id, { amount: 250, reference: 'ref_flaky' }, k)).status).toBe(500);
    const ok = await refund(p.id, { amount: 250, reference: 'ref_flaky' }, k);
    expect(ok).toMatchObject({ status: 201, body: { status: 'succeeded', amount: 250 } });
    expect((await refund(p.id, { amount: 250, reference: 'ref_flaky' }, k)).body).toEqual(ok.body);
    const kept = (await call('GET', `/__sandbox/service_test/refunds?payment_id=${p.id}`)).body;
    expect(kept).toHaveLength(1);
  });

  it('+slow: the refund answers after SANDBOX_SLOW_MS', async () => {
    const p = await payment('jane+slow@example.com');
    const started = Date.now();
    expect((await refund(p.id, { reference: 'ref_slow' })).body.status).toBe('succeeded');
    expect(Date.now() - started).toBeGreaterThanOrEqual(950);
  });
});

describe('payment notifications', () => {
  it('+review: payment.updated when the review is decided, with no read asking', async () => {
    const p = await payment('jane+review@example.com');
    expect(p.status).toBe('pending');
    const event = await waitFor(() => notificationsOf(p.id)[0], 'payment.updated');
    expect(event).toMatchObject({ type: 'payment.updated', data: { id: p.id, status: 'captured', captured: 1000 } });
    expect(event.data.updated_at > p.updated_at).toBe(true);
  });

  it('the hosted checkout notifies approve and deny', async () => {
    const approved = await payment('jane+redirect@example.com', { capture: 'manual' });
    const denied = await payment('jane+redirect@example.com');
    await fetch(`${sandboxUrl}/service_test/checkout/${approved.id}/approve`, { method: 'POST', redirect: 'manual' });
    await fetch(`${sandboxUrl}/service_test/checkout/${denied.id}/deny`, { method: 'POST', redirect: 'manual' });
    expect((await waitFor(() => notificationsOf(approved.id)[0], 'approve')).data.status).toBe('authorized');
    expect((await waitFor(() => notificationsOf(denied.id)[0], 'deny')).data).toMatchObject({ status: 'declined', decline: { code: 'credit_declined' } });
  });

  it('a payment without webhook_url notifies nothing; a bad webhook_url is refused', async () => {
    const r = await provider('POST', '/payments', { amount: 500, currency: 'EUR', customer: { email: 'jane+review@example.com' } }, key());
    await sleep(REVIEW_MS + 300);
    expect((await provider('GET', `/payments/${r.body.id}`)).body.status).toBe('captured');
    expect((await call('GET', `/__sandbox/service_test/notifications?object_id=${r.body.id}`)).body).toEqual([]);
    const bad = await provider('POST', '/payments', { amount: 500, currency: 'EUR', webhook_url: 'not a url' }, key());
    expect(bad.status).toBe(422);
    expect(bad.body.error.message).toMatch(/webhook_url/);
  });

  it('a webhook_url without a webhook_secret notifies nothing (there is no shared default to sign with); a short secret is refused; the secret is never shown', async () => {
    const r = await provider(
      'POST',
      '/payments',
      { amount: 500, currency: 'EUR', customer: { email: 'jane+review@example.com' }, webhook_url: hookUrl },
      key(),
    );
    await sleep(REVIEW_MS + 300);
    expect((await provider('GET', `/payments/${r.body.id}`)).body.status).toBe('captured');
    expect((await call('GET', `/__sandbox/service_test/notifications?object_id=${r.body.id}`)).body).toEqual([]);
    const short = await provider('POST', '/payments', { amount: 500, currency: 'EUR', webhook_url: hookUrl, webhook_secret: 'short' }, key());
    expect([short.status, short.body.error.message]).toEqual([422, expect.stringMatching(/webhook_secret/)]);
    const signed = await payment('jane@example.com');
    expect(JSON.stringify((await provider('GET', `/payments/${signed.id}`)).body)).not.toContain(SECRET);
    expect(JSON.stringify((await call('GET', '/__sandbox/service_test/payments')).body)).not.toContain(SECRET);
  });
});

describe('disputes (operator calls)', () => {
  it('raises a dispute, moves it, refuses an invalid move with the dispute unchanged', async () => {
    const p = await payment('jane@example.com');
    const raise = (body: Record<string, unknown>) => call('POST', '/sandbox/disputes', body);
    const valid = {
      connector_transaction_id: p.id,
      amount: 600,
      reason: 'Product not received',
      reason_code: '13.1',
      stage: 'dispute',
      status: 'dispute_opened',
      challenge_required_by: '2031-01-01T00:00:00Z',
    };
    expect(await raise({ ...valid, connector_transaction_id: 'stp_unknown' })).toMatchObject({ status: 404, body: { error: { code: 'not_found' } } });
    for (const [field, value] of [
      ['amount', 1001],
      ['amount', 0],
      ['amount', '600'],
      ['stage', 'arbitration'],
      ['status', 'opened'],
      ['reason', undefined],
      ['challenge_required_by', 'tomorrow'],
    ] as const) {
      const r = await raise({ ...valid, [field]: value });
      expect(r.status, `${field}=${value}`).toBe(400);
      expect(r.body.error.message).toContain(field);
    }
    expect((await raise({ ...valid, colour: 'red' })).body.error.message).toContain('colour');

    const created = await raise(valid);
    expect(created.status).toBe(201);
    const id = created.body.connector_dispute_id;
    expect(id).toMatch(/^dp_[0-9a-f]{24}$/);
    const read = async () => (await provider('GET', `/disputes/${id}`)).body;
    expect(await read()).toEqual({
      id,
      payment_id: p.id,
      amount: 600,
      currency: 'EUR',
      reason: 'Product not received',
      reason_code: '13.1',
      stage: 'dispute',
      status: 'opened',
      challenge_required_by: '2031-01-01T00:00:00.000Z',
      created_at: expect.any(String),
      updated_at: expect.any(String),
    });
    expect((await call('GET', `/service_test/v1/disputes/${id}`)).status).toBe(401);

    const move = (body: Record<string, unknown>) => call('POST', `/sandbox/disputes/${id}`, body);
    expect(await move({ status: 'dispute_challenged' })).toMatchObject({ status: 200, body: { dispute: { status: 'challenged', stage: 'dispute' } } });
    expect((await move({ status: 'dispute_lost' })).status).toBe(200);
    const lost = await read();

    for (const invalid of [{ status: 'dispute_won' }, { stage: 'pre_dispute' }, { status: 'dispute_lost' }]) {
      const r = await move(invalid);
      expect(r).toMatchObject({ status: 409, body: { error: { code: 'invalid_dispute_move', message: expect.any(String) } } });
      expect(await read()).toEqual(lost);
    }
    expect((await move({})).status).toBe(400);
    expect((await move({ status: 'won' })).body.error.message).toContain('status');
    expect((await call('POST', '/sandbox/disputes/dp_unknown', { status: 'dispute_won' })).status).toBe(404);

    const reopened = await move({ stage: 'pre_arbitration' });
    expect(reopened.body.dispute).toMatchObject({ stage: 'pre_arbitration', status: 'opened' });
    expect(logs.some((l) => l.includes('invalid dispute move ignored'))).toBe(true);

    // One notification per applied call, in order of the provider's updated_at; none for the refused moves.
    await waitFor(() => (notificationsOf(id).length >= 4 ? true : undefined), 'four dispute notifications');
    await sleep(300);
    const events = notificationsOf(id).sort((a, b) => a.data.updated_at.localeCompare(b.data.updated_at));
    expect(events.map((e) => [e.type, e.data.stage, e.data.status])).toEqual([
      ['dispute.created', 'dispute', 'opened'],
      ['dispute.updated', 'dispute', 'challenged'],
      ['dispute.updated', 'dispute', 'lost'],
      ['dispute.updated', 'pre_arbitration', 'opened'],
    ]);
    expect(events.at(-1).data).toEqual(await read());

    // The operator's calls are recorded as provider 'sandbox'.
    const calls = (await call('GET', '/__sandbox/calls?provider=sandbox')).body;
    expect(calls.filter((c: any) => c.path === `/sandbox/disputes/${id}`).length).toBeGreaterThanOrEqual(6);
  });
});

describe('every notification', () => {
  it('is signed with the webhook_secret given with the payment, retried after a 500 with the same body, and shown as delivered', async () => {
    const deliveries = async () => (await call('GET', '/__sandbox/service_test/notifications')).body as any[];
    for (let i = 0; i < 100 && (await deliveries()).some((d) => !d.delivered); i++) await sleep(50);
    expect(received.length).toBeGreaterThan(0);
    for (const r of received) {
      expect(r.signature).toBe(createHmac('sha512', SECRET).update(r.body).digest('hex'));
      expect(r.event).toEqual({
        id: expect.stringMatching(/^evt_[0-9a-f]{24}$/),
        type: expect.any(String),
        created_at: expect.any(String),
        data: expect.any(Object),
      });
    }
    const ids = [...new Set(received.map((r) => r.event.id))];
    for (const id of ids) {
      const attempts = received.filter((r) => r.event.id === id);
      expect(
        attempts.map((a) => a.answered),
        id,
      ).toEqual([500, 200]);
      expect(attempts[1]!.body).toBe(attempts[0]!.body);
    }
    const all = await deliveries();
    expect(all).toHaveLength(ids.length);
    for (const d of all) {
      expect(d).toMatchObject({ url: hookUrl, attempts: 2, delivered: true, last_status: 200 });
      expect(ids).toContain(d.id);
    }
  });

  it('a receiver that never answers 2xx gets 8 attempts, spaced by the doubling backoff, then none', async () => {
    expect((await call('POST', '/__sandbox/reset')).status).toBe(200);
    const p = await payment('jane+review@example.com', { webhook_url: 'http://127.0.0.1:1/nobody' });
    const read = async () => (await call('GET', `/__sandbox/service_test/notifications?object_id=${p.id}`)).body[0];
    // Retries after 100, 200, 400, ... 6400 ms: 12.7 s from the first attempt to the eighth.
    const deadline = Date.now() + 30_000;
    let d = await read();
    while ((!d || d.next_attempt_at !== null || d.attempts < 8) && Date.now() < deadline) {
      await sleep(250);
      d = await read();
    }
    expect(d).toMatchObject({ type: 'payment.updated', attempts: 8, delivered: false, last_status: null, next_attempt_at: null });
    expect(Date.now() - Date.parse(d.created_at)).toBeGreaterThanOrEqual(12_700);
    await sleep(500);
    expect((await read()).attempts).toBe(8);
  });
});
