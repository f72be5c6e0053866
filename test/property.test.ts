// Property: whatever a client sends to any merchant endpoint (payments, customers, payment links) — random and malformed bodies, headers and ids — the
// answer is never a 5xx, and a refused request (4xx) changes nothing that is stored.
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CreatePaymentRequest } from '../lib/schemas/payment.ts';
import { Stack } from './support/stack.ts';

let stack: Stack;
let key: string;
let ids: string[] = [];
let linkId = '';
beforeAll(async () => {
  stack = await Stack.start({ CONFIRM_WAIT_MS: '500', LOG_LEVEL: 'info' });
  ({ api_key: key } = await stack.merchant({ manual_review: { amount_at_least: 5_000 } }));
  const make = async (body: Record<string, unknown>) =>
    (await stack.api('POST', '/payments', { amount: 1_000, currency: 'EUR', ...body }, key)).body.payment_id as string;
  const linked = (await stack.api('POST', '/payments', { amount: 1_000, currency: 'EUR', payment_link: true }, key)).body;
  linkId = linked.payment_link.payment_link_id;
  await stack.api('POST', '/customers', { customer_id: 'cus_known', name: 'Known' }, key);
  ids = [
    linked.payment_id as string,
    await make({ confirm: true, payment_method: 'pay_later', capture_method: 'manual' }),
    await make({ confirm: true, payment_method: 'pay_later' }),
    await make({ confirm: true, payment_method: 'pay_later', customer: { email: 'f+decline@example.com' } }),
    await make({ amount: 5_000, confirm: true, payment_method: 'pay_later' }),
    await make({ authentication_type: 'three_ds', confirm: true, payment_method: 'pay_later', browser_info: { user_agent: 'UA' } }),
  ];
});
afterAll(async () => stack?.stop());

async function fingerprint(): Promise<string> {
  const db = await stack.db();
  const counts = await Promise.all(['transitions', 'payments', 'idempotency_keys', 'merchants', 'api_keys', 'customers'].map((c) => db.collection(c).countDocuments({})));
  const payments = await db.collection('payments').find({}, { projection: { _id: 0, payment_id: 1, seq: 1 } }).toArray();
  return JSON.stringify([counts, payments.map((p) => `${p.payment_id}:${p.seq}`).sort()]);
}

const FIELDS = [...Object.keys(CreatePaymentRequest.shape), 'amount_to_capture', 'capture_id', 'capture_metadata', 'amount_to_cancel',
  'cancellation_reason', 'client_secret', 'device_channel', 'threeds_method_comp_ind', 'sdk_information', '__proto__', 'constructor', 'toString', ''];
const value = fc.oneof(
  fc.anything({ maxDepth: 3 }), fc.integer(), fc.double(), fc.bigInt().map(String), fc.string(), fc.constant(null), fc.boolean(),
  fc.constantFrom(Number.MAX_SAFE_INTEGER + 1, -1, 0, 1e308, 'EUR', 'eur', 'pay_later', 'manual', 'service_test', 'x'.repeat(70_000), 'BRW', 'APP', 'Y'),
);
const valid = { amount: 100, currency: 'EUR' };
const body = fc.oneof(
  fc.anything({ maxDepth: 4 }),
  fc.dictionary(fc.constantFrom(...FIELDS), value, { maxKeys: 6 }),
  fc.record({ field: fc.constantFrom(...FIELDS), v: value }).map(({ field, v }) => ({ ...valid, [field]: v })),
);
const raw = fc.oneof(
  body.map((b) => JSON.stringify(b) ?? ''),
  fc.string(),
  fc.constantFrom('{"amount": ', '\u0000', '[]', 'null', '"x"', '{"amount":1e999,"currency":"EUR"}', '{"amount":1,"amount":2}'),
);
const id = fc.oneof(
  fc.constantFrom(...[0, 1, 2, 3, 4, 5].map((i) => () => ids[i])).map((f) => f()),
  fc.string({ minLength: 1 }), fc.string({ minLength: 30, maxLength: 30 }),
  fc.constantFrom('..', '%2e%2e', 'x'.repeat(5_000), ' ', 'pay_%00', '💳'),
);
const headerText = fc.string({ minLength: 1, maxLength: 300 }).filter((s) => /^[\x21-\x7e]+$/.test(s));
const request = fc.record({
  route: fc.constantFrom(
    'create', 'confirm', 'capture', 'cancel', 'incremental_authorization', 'approve', 'reject', '3ds/authentication', 'retrieve', 'update', 'list', 'filter',
    'customer_create', 'customer_get', 'customer_update', 'customer_delete', 'customer_list', 'payment_link',
  ),
  id,
  raw,
  contentType: fc.constantFrom('application/json', 'text/plain', 'application/x-www-form-urlencoded', 'application/json; charset=latin1', undefined),
  idempotencyKey: fc.option(headerText, { nil: undefined }),
});

/** A random body read as query parameters for GET /payments/list. */
function safeJson(raw: string): Record<string, unknown> {
  try {
    const v = JSON.parse(raw);
    return v && typeof v === 'object' && !Array.isArray(v) ? v : {};
  } catch {
    return {};
  }
}

describe('every merchant endpoint (payments, customers, payment links), any input', () => {
  it('never answers 5xx, and a refused request changes nothing', async () => {
    let before = await fingerprint();
    let refused = 0;
    await fc.assert(fc.asyncProperty(request, async (r) => {
      const customerPath = `/customers/${encodeURIComponent(r.id === ids[0] ? 'cus_known' : r.id)}`;
      const customerRoutes: Record<string, [string, string]> = {
        customer_create: ['POST', '/customers'], customer_get: ['GET', customerPath], customer_update: ['POST', customerPath],
        customer_delete: ['DELETE', customerPath], customer_list: ['GET', `/customers/list?${new URLSearchParams(Object.entries(safeJson(r.raw)).map(([k, v]) => [k, String(v)]))}`],
        payment_link: ['GET', `/payment_link/${encodeURIComponent(r.id === ids[0] ? linkId : r.id)}?${new URLSearchParams(Object.entries(safeJson(r.raw)).map(([k, v]) => [k, String(v)]))}`],
      };
      const [customerMethod, otherPath] = customerRoutes[r.route] ?? [];
      const path = otherPath ? otherPath : r.route === 'create' ? '/payments'
        : r.route === 'list' ? `/payments/list?${new URLSearchParams(Object.entries(safeJson(r.raw)).map(([k, v]) => [k, String(v)]))}`
        : r.route === 'filter' ? '/payments/list'
        : r.route === 'retrieve' || r.route === 'update' ? `/payments/${encodeURIComponent(r.id)}` : `/payments/${encodeURIComponent(r.id)}/${r.route}`;
      const method = customerMethod ?? (r.route === 'retrieve' || r.route === 'list' ? 'GET' : 'POST');
      const headers: Record<string, string> = { 'api-key': key };
      if (r.contentType) headers['content-type'] = r.contentType;
      if (r.idempotencyKey) headers['idempotency-key'] = r.idempotencyKey;
      const res = await fetch(stack.gatewayUrl + path, { method, headers, body: method === 'GET' || method === 'DELETE' ? undefined : r.raw });
      const text = await res.text();
      expect(res.status, `${method} ${path} ${r.raw.slice(0, 200)} -> ${text.slice(0, 300)}`).toBeLessThan(500);
      if (res.status >= 400) {
        refused++;
        // 431: Node's HTTP parser refuses an oversized request line (a huge query) before the app sees it.
        if (res.status !== 431) {
          const err = JSON.parse(text).error;
          expect(err.code).toMatch(/^(IR|HE)_\d\d$/);
          expect(typeof err.message).toBe('string');
        }
        expect(await fingerprint(), `${method} ${path} ${r.raw.slice(0, 200)}`).toBe(before);
      } else {
        before = await fingerprint();
      }
    }), { numRuns: 1_500 });
    expect(refused).toBeGreaterThan(1_000);
  });
});
