// The typed client's retries against a real local HTTP server (node:http) that fails, then answers: every attempt of
// one call carries the same Idempotency-Key (the caller's, or one the client chose), Retry-After is waited for, a
// network error, 429, 5xx and the 409 of a request still in flight are retried, any other 4xx is not, and the number
// of attempts is bounded.
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { createPaymentClient, PaymentApiError, type RetryEvent, unwrap } from './index.ts';
import { backoffMs } from './retry.ts';

interface Seen {
  method: string;
  url: string;
  headers: IncomingHttpHeaders;
  body: string;
  at: number;
}
/** What the server answers, attempt by attempt: a status with its body and headers, or 'drop' (the socket is closed). */
type Answer = { status: number; body?: unknown; headers?: Record<string, string> } | 'drop';

let server: Server;
let baseUrl = '';
let answers: Answer[] = [];
let seen: Seen[] = [];

beforeAll(async () => {
  server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      seen.push({ method: req.method ?? '', url: req.url ?? '', headers: req.headers, body: Buffer.concat(chunks).toString('utf8'), at: Date.now() });
      const answer = answers.shift() ?? { status: 200, body: { ok: true } };
      if (answer === 'drop') return req.socket.destroy();
      res.writeHead(answer.status, { 'content-type': 'application/json', ...answer.headers });
      res.end(JSON.stringify(answer.body ?? {}));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  if (address === null || typeof address === 'string') throw new Error('no port');
  baseUrl = `http://127.0.0.1:${address.port}`;
});
afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));
beforeEach(() => {
  answers = [];
  seen = [];
});

const retriesSeen: RetryEvent[] = [];
/** A client whose backoff is short (the tests wait for Retry-After, never for a long backoff). */
const client = (retries = 3) =>
  createPaymentClient({ baseUrl, apiKey: 'sk_test', retries: { retries, baseDelayMs: 5, maxDelayMs: 20, onRetry: (r) => retriesSeen.push(r) } });
const newPayment = { amount: 10000, currency: 'EUR' as const, capture_method: 'manual' as const };
const paymentAnswer = { payment_id: 'pay_1', status: 'requires_payment_method', amount: 10000 };
const serverError = { status: 503, body: { error: { type: 'api', code: 'HE_00', message: 'Something went wrong' } } };

describe('the typed client', () => {
  it('sends the api-key, and one Idempotency-Key on every attempt of a POST that fails with 5xx, then succeeds', async () => {
    answers = [serverError, { status: 500, body: {} }, { status: 200, body: paymentAnswer }];
    const { data, error } = await client().POST('/payments', { body: newPayment });
    expect(error).toBeUndefined();
    expect(data?.payment_id).toBe('pay_1');
    expect(seen).toHaveLength(3);
    const keys = seen.map((s) => s.headers['idempotency-key']);
    expect(keys[0]).toMatch(/^[0-9a-f-]{36}$/);
    expect(new Set(keys)).toEqual(new Set([keys[0]]));
    expect(seen.map((s) => s.headers['api-key'])).toEqual(['sk_test', 'sk_test', 'sk_test']);
    // The same request each time.
    expect(seen.map((s) => JSON.parse(s.body))).toEqual([newPayment, newPayment, newPayment]);
  });

  it("keeps the caller's Idempotency-Key across retries; another call gets another key", async () => {
    answers = [serverError, { status: 200, body: paymentAnswer }];
    await client().POST('/payments', { body: newPayment, params: { header: { 'Idempotency-Key': 'order-42' } } });
    expect(seen.map((s) => s.headers['idempotency-key'])).toEqual(['order-42', 'order-42']);
    const c = client();
    await c.POST('/payments', { body: newPayment });
    await c.POST('/payments', { body: newPayment });
    expect(seen[2]!.headers['idempotency-key']).not.toBe(seen[3]!.headers['idempotency-key']);
  });

  it('retries a network error (the connection dropped) with the same key', async () => {
    answers = ['drop', { status: 200, body: paymentAnswer }];
    const { data } = await client().POST('/payments', { body: newPayment });
    expect(data?.payment_id).toBe('pay_1');
    expect(seen).toHaveLength(2);
    expect(seen[1]!.headers['idempotency-key']).toBe(seen[0]!.headers['idempotency-key']);
  });

  it('waits for Retry-After on 429 before the next attempt', async () => {
    retriesSeen.length = 0;
    answers = [
      { status: 429, body: { error: { type: 'invalid_request', code: 'RL_01', message: 'Too many requests' } }, headers: { 'retry-after': '1' } },
      { status: 200, body: paymentAnswer },
    ];
    const { data } = await client().POST('/payments', { body: newPayment });
    expect(data?.payment_id).toBe('pay_1');
    expect(retriesSeen.map((r) => [r.attempt, r.delayMs, r.reason])).toEqual([[1, 1000, { status: 429 }]]);
    // The backoff alone would be at most 20 ms: the second attempt came a whole second after the first.
    expect(seen[1]!.at - seen[0]!.at).toBeGreaterThanOrEqual(1000);
    expect(seen[1]!.headers['idempotency-key']).toBe(seen[0]!.headers['idempotency-key']);
  });

  it('returns a 429 whose Retry-After is longer than it waits for, without waiting', async () => {
    answers = [{ status: 429, body: { error: { code: 'RL_01' } }, headers: { 'retry-after': '3600' } }];
    const { error, response } = await client().POST('/payments', { body: newPayment });
    expect(response.status).toBe(429);
    expect(error).toBeDefined();
    expect(seen).toHaveLength(1);
  });

  it('retries the 409 of a request still in flight (CO_01), not the 409 of a key used for another request (HE_01)', async () => {
    const busy = { error: { type: 'invalid_request', code: 'CO_01', message: 'A request with this Idempotency-Key is still being processed; retry later' } };
    answers = [
      { status: 409, body: busy },
      { status: 200, body: paymentAnswer },
    ];
    expect((await client().POST('/payments', { body: newPayment })).data?.payment_id).toBe('pay_1');
    expect(seen).toHaveLength(2);

    seen = [];
    const reused = {
      error: { type: 'invalid_request', code: 'HE_01', message: 'This Idempotency-Key was used with a different request', param: 'Idempotency-Key' },
    };
    answers = [{ status: 409, body: reused }];
    const { error, response } = await client().POST('/payments', { body: newPayment });
    expect(response.status).toBe(409);
    expect(error?.error.code).toBe('HE_01');
    expect(seen).toHaveLength(1);
  });

  it('does not retry a 400: the error body is answered after one attempt', async () => {
    const invalid = { error: { type: 'invalid_request', code: 'IR_05', message: 'Invalid value for amount: must be positive', param: 'amount' } };
    answers = [{ status: 400, body: invalid }];
    const { data, error, response } = await client().POST('/payments', { body: { ...newPayment, amount: -1 } });
    expect(data).toBeUndefined();
    expect(response.status).toBe(400);
    expect(error?.error.param).toBe('amount');
    expect(seen).toHaveLength(1);
  });

  it('stops after the configured number of retries and returns the last answer', async () => {
    answers = [serverError, serverError, serverError, serverError, serverError];
    const { error, response } = await client(2).POST('/payments', { body: newPayment });
    expect(response.status).toBe(503);
    expect(error?.error.code).toBe('HE_00');
    expect(seen).toHaveLength(3);
    seen = [];
    answers = ['drop', 'drop'];
    await expect(client(1).POST('/payments', { body: newPayment })).rejects.toThrow();
    expect(seen).toHaveLength(2);
  });

  it('retries a GET too, without an Idempotency-Key (the service keys POSTs only)', async () => {
    answers = [serverError, { status: 200, body: paymentAnswer }];
    const { data } = await client().GET('/payments/{payment_id}', { params: { path: { payment_id: 'pay_1' } } });
    expect(data?.payment_id).toBe('pay_1');
    expect(seen.map((s) => [s.method, s.url, s.headers['idempotency-key']])).toEqual([
      ['GET', '/payments/pay_1', undefined],
      ['GET', '/payments/pay_1', undefined],
    ]);
  });
});

describe('the backoff', () => {
  const policy = { baseDelayMs: 100, maxDelayMs: 1000 };
  it('doubles after each attempt, up to the cap, with half of it random', () => {
    expect([1, 2, 3, 4, 5, 6].map((a) => backoffMs(a, policy, () => 0))).toEqual([50, 100, 200, 400, 500, 500]);
    expect([1, 2, 3, 4, 5, 6].map((a) => backoffMs(a, policy, () => 1))).toEqual([100, 200, 400, 800, 1000, 1000]);
  });
});

describe('unwrap', () => {
  it("answers the data, or throws the service's error with its status, code and param", async () => {
    answers = [{ status: 200, body: paymentAnswer }];
    const payment = await unwrap(client().POST('/payments', { body: newPayment }));
    expect(payment.payment_id).toBe('pay_1');
    answers = [{ status: 400, body: { error: { type: 'invalid_request', code: 'IR_05', message: 'Invalid value for amount', param: 'amount' } } }];
    const refused = await unwrap(client().POST('/payments', { body: newPayment })).catch((e: unknown) => e);
    expect(refused).toBeInstanceOf(PaymentApiError);
    expect(refused).toMatchObject({ status: 400, code: 'IR_05', param: 'amount', message: '400 IR_05: Invalid value for amount' });
  });
});
