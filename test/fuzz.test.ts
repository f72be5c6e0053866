// Fuzz (fast-check, a fixed seed, a bounded run): whatever a client sends to any route — path, query, headers and
// body; malformed percent-encodings, NUL, deep nesting, huge numbers, wrong types, unicode, bad content-encodings —
// the answer is a 2xx, or a 4xx with our error body {"error":{"type","code","message"}} that changed nothing stored.
import { connect } from 'node:net';
import { gzipSync } from 'node:zlib';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CreatePaymentRequest } from '../lib/schemas/payment.ts';
import { Stack } from './support/stack.ts';

// npm test runs the fixed seed; FUZZ_SEED and FUZZ_RUNS explore further (a failure prints the seed that replays it).
const RUNS = Number(process.env.FUZZ_RUNS) || 250;
const SEED = Number(process.env.FUZZ_SEED) || 20_261_123;

let stack: Stack;
let key: string;
let publishable: string;
let merchantId: string;
let adminMerchant: string;
let ids: string[] = [];
let linkId = '';
let clientSecret = '';
beforeAll(async () => {
  stack = await Stack.start({ CONFIRM_WAIT_MS: '500', LOG_LEVEL: 'info' });
  ({ api_key: key, merchant_id: merchantId } = await stack.merchant({ manual_review: { amount_at_least: 5_000 } }));
  publishable = (await stack.api('GET', `/accounts/${merchantId}`, undefined, stack.adminKey)).body.publishable_key;
  adminMerchant = (await stack.merchant()).merchant_id;
  const make = async (body: Record<string, unknown>) =>
    (await stack.api('POST', '/payments', { amount: 1_000, currency: 'EUR', ...body }, key)).body.payment_id as string;
  const linked = (await stack.api('POST', '/payments', { amount: 1_000, currency: 'EUR', payment_link: true }, key)).body;
  linkId = linked.payment_link.payment_link_id;
  clientSecret = linked.client_secret;
  await stack.api('POST', '/customers', { customer_id: 'cus_known', name: 'Known' }, key);
  ids = [
    linked.payment_id as string,
    await make({ confirm: true, payment_method: 'pay_later', capture_method: 'manual' }),
    await make({ confirm: true, payment_method: 'pay_later' }),
    await make({ amount: 5_000, confirm: true, payment_method: 'pay_later' }),
    await make({ authentication_type: 'three_ds', confirm: true, payment_method: 'pay_later', browser_info: { user_agent: 'UA' } }),
  ];
});
afterAll(async () => stack?.stop());

/** Everything stored that a request could change (transitions and idempotency keys only grow: counted). */
async function fingerprint(): Promise<string> {
  const db = await stack.db();
  const whole = [
    'merchants',
    'api_keys',
    'business_profiles',
    'connector_accounts',
    'customers',
    'payment_links',
    'refunds',
    'disputes',
    'provider_notifications',
  ];
  const [counts, docs, payments] = await Promise.all([
    Promise.all(['transitions', 'idempotency_keys'].map((c) => db.collection(c).countDocuments({}))),
    Promise.all(
      whole.map((c) =>
        db
          .collection(c)
          .find({}, { projection: { _id: 0 } })
          .toArray(),
      ),
    ),
    db
      .collection('payments')
      .find({}, { projection: { _id: 0, payment_id: 1, seq: 1 } })
      .toArray(),
  ]);
  return JSON.stringify([counts, docs.map((d) => d.map((x) => JSON.stringify(x)).sort()), payments.map((p) => `${p.payment_id}:${p.seq}`).sort()]);
}

// ---- values
const nul = fc.constantFrom('\u0000', 'a\u0000b', 'pay_\u0000');
const unicode = fc.oneof(fc.string({ unit: 'binary', maxLength: 40 }), fc.constantFrom('\uD800', 'x\uDFFFy', '\uFEFF', '\u202E', 'e\u0301', '𝔘𝔫𝔦'));
const huge = fc.constantFrom(Number.MAX_SAFE_INTEGER + 1, -1, 0, 1e308, -1e308, 2 ** 63, 1.5, -0);
const deep = fc.integer({ min: 30, max: 3_000 }).map((n) => JSON.parse(`${'['.repeat(Math.min(n, 500))}${']'.repeat(Math.min(n, 500))}`));
const value = fc.oneof(
  fc.anything({ maxDepth: 3 }),
  fc.integer(),
  fc.double(),
  fc.bigInt().map(String),
  fc.string(),
  unicode,
  nul,
  huge,
  fc.constant(null),
  fc.boolean(),
  fc.constantFrom('EUR', 'eur', 'DE', 'ZZ', 'XX', 'pay_later', 'manual', 'service_test', 'x'.repeat(70_000), 'BRW', 'APP', 'Y', 'https://shop.example/r'),
  fc.dictionary(fc.oneof(fc.string(), fc.constantFrom('$where', 'a.b', 'k\u0000', '__proto__')), fc.oneof(fc.string(), nul), { maxKeys: 3 }),
  deep,
);
const FIELDS = [
  ...Object.keys(CreatePaymentRequest.shape),
  'amount_to_capture',
  'capture_id',
  'capture_metadata',
  'amount_to_cancel',
  'cancellation_reason',
  'client_secret',
  'device_channel',
  'threeds_method_comp_ind',
  'sdk_information',
  'merchant_name',
  'manual_review',
  'profile_name',
  'name',
  'expiration',
  'connector_name',
  'connector_account_details',
  'customer_id',
  'refund_id',
  'reason',
  'refund_status',
  'amount_filter',
  'split_refunds',
  '__proto__',
  'constructor',
  '',
];
const valid = { amount: 100, currency: 'EUR' };
const body = fc.oneof(
  fc.anything({ maxDepth: 4 }),
  fc.dictionary(fc.constantFrom(...FIELDS), value, { maxKeys: 6 }),
  fc.record({ field: fc.constantFrom(...FIELDS), v: value }).map(({ field, v }) => ({ ...valid, [field]: v })),
  fc
    .record({ field: fc.constantFrom('billing', 'shipping'), country: fc.oneof(fc.string({ maxLength: 3 }), fc.constantFrom('DE', 'ZZ', 'XX', 'de')) })
    .map(({ field, country }) => ({ ...valid, [field]: { address: { country } } })),
);
const raw = fc.oneof(
  body.map((b) => JSON.stringify(b) ?? ''),
  fc.string(),
  unicode,
  fc.integer({ min: 33, max: 6_000 }).map((n) => `{"amount":100,"currency":"EUR","metadata":{"k":${'{"a":'.repeat(n)}1${'}'.repeat(n)}}}`),
  fc.constantFrom('{"amount": ', '\u0000', '[]', 'null', '"x"', '{"amount":1e999,"currency":"EUR"}', '{"amount":1,"amount":2}', '{"description":"a\\u0000b"}'),
);

// ---- path segments, written into the URL as they are (not encoded), so malformed encodings reach the server
const encoded = (s: string) => encodeURIComponent(s.toWellFormed()); // a lone surrogate cannot be percent-encoded
const segment = fc.oneof(
  fc
    .constantFrom(0, 1, 2, 3, 4)
    .map((i) => () => ids[i])
    .map((f) => f()),
  fc.string({ minLength: 1 }).map(encoded),
  fc.string({ minLength: 30, maxLength: 30 }).map(encoded),
  unicode.filter((s) => s.length > 0).map(encoded),
  fc.constantFrom(
    '%ZZ',
    '%',
    '%C0%AE%C0%AE',
    '%E0%A4%A',
    '%00',
    'pay_%00',
    `${'p'.repeat(29)}%00`,
    '..',
    '%2e%2e',
    '%2F',
    'x'.repeat(5_000),
    '%20',
    '💳',
    'list',
    'cus_known',
  ),
);
const queryString = fc.oneof(
  fc
    .dictionary(
      fc.constantFrom('customer_id', 'starting_after', 'ending_before', 'limit', 'offset', 'created', 'created.lt', 'force_sync', 'client_secret', 'x'),
      fc.oneof(fc.string().map(encoded), fc.constantFrom('%00', '%ZZ', '%', '1e999', '-1', '101', 'true', '2026-01-01T00:00:00Z', 'x'.repeat(20_000))),
      { maxKeys: 3 },
    )
    .map((q) =>
      Object.entries(q)
        .map(([k, v]) => `${k}=${v}`)
        .join('&'),
    ),
  fc.constantFrom('', 'a[b]=1', 'limit=1&limit=2', '%=%', 'customer_id'),
);

const ROUTES: [string, string][] = [
  ['POST', '/payments'],
  ['POST', '/payments/{id}'],
  ['GET', '/payments/{id}'],
  ['GET', '/payments/list'],
  ['POST', '/payments/list'],
  ...['confirm', 'capture', 'cancel', 'incremental_authorization', 'approve', 'reject', '3ds/authentication'].map((op): [string, string] => [
    'POST',
    `/payments/{id}/${op}`,
  ]),
  ['POST', '/refunds'],
  ['POST', '/refunds/list'],
  ['GET', '/refunds/{id}'],
  ['POST', '/refunds/{id}'],
  ['GET', '/disputes/list'],
  ['GET', '/disputes/{id}'],
  ['POST', '/webhooks/{merchant}/{id}'],
  ['POST', '/customers'],
  ['GET', '/customers/list'],
  ['GET', '/customers/{id}'],
  ['POST', '/customers/{id}'],
  ['DELETE', '/customers/{id}'],
  ['GET', '/payment_link/{link}'],
  ['GET', '/payment_link/{merchant}/{id}'],
  ['GET', '/payment_link/s/{merchant}/{id}'],
  ['POST', '/payment_link/{merchant}/{id}/confirm'],
  ['POST', '/payment_link/{merchant}/{id}/3ds/authentication'],
  ['POST', '/payment_link/s/{merchant}/{id}/confirm'],
  ['POST', '/payment_link/s/{merchant}/{id}/3ds/authentication'],
  ['POST', '/accounts'],
  ['GET', '/accounts/{admin}'],
  ['POST', '/accounts/{admin}'],
  ['POST', '/api_keys/{admin}'],
  ['GET', '/api_keys/{admin}/list'],
  ['GET', '/api_keys/{admin}/{id}'],
  ['POST', '/account/{admin}/business_profile'],
  ['GET', '/account/{admin}/business_profile/{id}'],
  ['POST', '/account/{admin}/connectors'],
  ['GET', '/account/{admin}/connectors/{id}'],
  ['GET', '/health'],
  ['GET', '/nowhere/{id}'],
];

const printable = fc.string({ minLength: 1, maxLength: 300 }).filter((s) => /^[\x21-\x7e]+$/.test(s));
const request = fc.record({
  route: fc.constantFrom(...ROUTES),
  id: segment,
  query: queryString,
  raw,
  keyKind: fc.constantFrom('secret', 'secret', 'secret', 'publishable', 'garbage', 'none'),
  contentType: fc.constantFrom(
    'application/json',
    'text/plain',
    'application/x-www-form-urlencoded',
    'application/json; charset=latin1',
    'application/json; charset=utf-16',
    undefined,
  ),
  contentEncoding: fc.constantFrom(undefined, undefined, undefined, 'gzip', 'gzip-real', 'deflate', 'br', 'identity', 'lzma'),
  idempotencyKey: fc.option(printable, { nil: undefined }),
  extraHeader: fc.option(
    fc.tuple(
      fc.constantFrom('accept', 'accept-charset', 'x-request-id', 'traceparent', 'tracestate', 'x-forwarded-for', 'authorization', 'origin', 'referer'),
      printable,
    ),
    { nil: undefined },
  ),
});
type Req = typeof request extends fc.Arbitrary<infer T> ? T : never;

function build(r: Req): { method: string; url: string; headers: Record<string, string>; body?: string | Blob } {
  const [method, template] = r.route;
  const admin = template.includes('{admin}');
  const path = template
    .replace('{link}', r.id === ids[0] ? linkId : r.id)
    .replace('{merchant}', merchantId)
    .replace('{admin}', adminMerchant)
    .replace('{id}', r.id);
  const headers: Record<string, string> = {};
  const apiKey = admin ? stack.adminKey : { secret: key, publishable, garbage: 'snd_garbage', none: '' }[r.keyKind];
  if (apiKey) headers['api-key'] = apiKey;
  if (r.contentType) headers['content-type'] = r.contentType;
  if (r.idempotencyKey) headers['idempotency-key'] = r.idempotencyKey;
  if (r.extraHeader) headers[r.extraHeader[0]] = r.extraHeader[1];
  let body: string | Blob | undefined = method === 'GET' || method === 'DELETE' ? undefined : r.raw.replace('CLIENT_SECRET', clientSecret);
  if (body !== undefined && r.contentEncoding) {
    headers['content-encoding'] = r.contentEncoding === 'gzip-real' ? 'gzip' : r.contentEncoding;
    if (r.contentEncoding === 'gzip-real') body = new Blob([new Uint8Array(gzipSync(body))]);
  }
  return { method, url: `${stack.gatewayUrl}${path}${r.query ? `?${r.query}` : ''}`, headers, body };
}

describe('fuzz: every route, any input', () => {
  it('answers 2xx, or a 4xx with our error body that changed nothing stored', async () => {
    let before = await fingerprint();
    let refused = 0;
    await fc.assert(
      fc.asyncProperty(request, async (r) => {
        const { method, url, headers, body } = build(r);
        const res = await fetch(url, { method, headers, body });
        const text = await res.text();
        const what = `${method} ${url.slice(0, 300)} ${JSON.stringify(headers).slice(0, 300)} ${String(body ?? '').slice(0, 200)} -> ${res.status} ${text.slice(0, 300)}`;
        expect(res.status, what).toBeLessThan(500);
        if (res.status < 400) {
          before = await fingerprint();
          return;
        }
        refused++;
        const error = (() => {
          try {
            return JSON.parse(text).error;
          } catch {
            return undefined;
          }
        })();
        expect(error, what).toMatchObject({ type: 'invalid_request', code: expect.stringMatching(/^(IR|HE|RL|RQ|CO|WE)_\d\d$/), message: expect.any(String) });
        expect(await fingerprint(), what).toBe(before);
      }),
      { numRuns: RUNS, seed: SEED, endOnFailure: true },
    );
    expect(refused).toBeGreaterThan(RUNS / 2);
  });

  it('answers raw requests Node parses itself (bad request lines, huge or broken headers) with our error body', async () => {
    const url = new URL(stack.gatewayUrl);
    const send = (bytes: string) =>
      new Promise<string>((resolve, reject) => {
        const socket = connect(Number(url.port), url.hostname);
        const chunks: Buffer[] = [];
        socket.on('data', (c: Buffer) => chunks.push(c));
        socket.on('error', reject);
        socket.on('close', () => resolve(Buffer.concat(chunks).toString('latin1')));
        socket.end(bytes);
      });
    const line = fc.record({
      method: fc.constantFrom('GET', 'POST', 'DELETE', 'FOO', 'get', '', 'G\u0000T'),
      target: fc.oneof(
        segment.map((s) => `/payments/${s}`),
        fc.constantFrom('*', '', 'http://x/payments', '/payments/%ZZ?%00', `/${'x'.repeat(20_000)}`),
      ),
      version: fc.constantFrom('HTTP/1.1', 'HTTP/1.0', 'HTTP/2.0', 'HTTP/9', ''),
      headers: fc.array(
        fc.oneof(
          fc.constantFrom(
            `api-key: ${key}`,
            'content-length: 5',
            'content-length: -1',
            'transfer-encoding: chunked',
            'host: x',
            'expect: nope',
            'bad header',
            ': x',
            `x-big: ${'y'.repeat(20_000)}`,
          ),
          fc.tuple(printable, fc.string({ maxLength: 40 })).map(([k, v]) => `${k}: ${v}`),
        ),
        { maxLength: 4 },
      ),
      body: fc.constantFrom('', '{}', '{"amount":1', 'zz'),
    });
    await fc.assert(
      fc.asyncProperty(line, async (r) => {
        const answer = await send(
          `${r.method} ${r.target} ${r.version}\r\nhost: x\r\n${r.headers.map((h) => `${h}\r\n`).join('')}connection: close\r\n\r\n${r.body}`,
        );
        const status = Number(/^HTTP\/1\.1 (\d{3})/.exec(answer)?.[1]);
        const what = `${r.method} ${r.target.slice(0, 100)} ${r.version} ${JSON.stringify(r.headers).slice(0, 200)} -> ${answer.slice(0, 400)}`;
        if (!answer) return; // the connection was closed without an answer (Node does so when it cannot answer at all)
        expect(status, what).toBeLessThan(500);
        if (status >= 400) {
          const body = answer.slice(answer.indexOf('\r\n\r\n') + 4);
          expect(JSON.parse(body).error, what).toMatchObject({
            type: 'invalid_request',
            code: expect.stringMatching(/^(IR|HE|RQ|RL|CO|WE)_\d\d$/),
            message: expect.any(String),
          });
        }
      }),
      { numRuns: 150, seed: SEED, endOnFailure: true },
    );
  });
});
