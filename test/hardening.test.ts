// Issue 9's hardening, one case per finding: requests that used to answer 500 or an empty body now answer a 4xx with
// our error body, name the field, and write nothing.
import { connect } from 'node:net';
import { gzipSync } from 'node:zlib';
import { MongoClient, MongoServerError } from 'mongodb';
import { Customers } from '../gateway/customers.ts';
import { PaymentLinks } from '../gateway/payment-links.ts';
import { MerchantStore } from '../lib/merchant-store.ts';
import { PaymentStore } from '../adapters/payment-store.ts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { redact } from '../lib/log.ts';
import { Stack } from './support/stack.ts';

let stack: Stack;
let key: string;
let open: string; // requires_confirmation
let held: string; // requires_capture
beforeAll(async () => {
  ({ stack, api_key: key } = await Stack.withMerchant());
  open = (await stack.api('POST', '/payments', { amount: 1_000, currency: 'EUR' }, key)).body.payment_id;
  held = (await stack.api('POST', '/payments', { amount: 1_000, currency: 'EUR', confirm: true, payment_method: 'pay_later', capture_method: 'manual' }, key))
    .body.payment_id;
});
afterAll(async () => stack?.stop());

async function written(): Promise<string> {
  const db = await stack.db();
  const counts = await Promise.all(
    ['transitions', 'payments', 'customers', 'payment_links', 'idempotency_keys'].map((c) => db.collection(c).countDocuments({})),
  );
  const seqs = await db
    .collection('payments')
    .find({}, { projection: { _id: 0, payment_id: 1, seq: 1 } })
    .toArray();
  return JSON.stringify([counts, seqs.map((p) => `${p.payment_id}:${p.seq}`).sort()]);
}

/** Sends the request, expects `status` with our error body (naming `param` if given), and that nothing was written. */
async function refused(send: () => Promise<{ status: number; body: any }>, status: number, param?: string, code?: string) {
  const before = await written();
  const r = await send();
  expect(r.status, JSON.stringify(r.body)).toBe(status);
  expect(r.body.error).toMatchObject({ type: 'invalid_request', code: expect.stringMatching(/^(IR|HE|RQ)_\d\d$/), message: expect.any(String) });
  if (param) expect(r.body.error.param).toBe(param);
  if (code) expect(r.body.error.code).toBe(code);
  expect(await written()).toBe(before);
  return r.body.error;
}

/** Writes raw bytes to the gateway and reads the whole answer (Node's own answers close the connection). */
function rawHttp(request: string | Buffer): Promise<{ status: number; body: any }> {
  return new Promise((resolve, reject) => {
    const url = new URL(stack.gatewayUrl);
    const socket = connect(Number(url.port), url.hostname);
    const chunks: Buffer[] = [];
    socket.on('data', (c: Buffer) => chunks.push(c));
    socket.on('error', reject);
    socket.on('close', () => {
      const text = Buffer.concat(chunks).toString();
      const [head, ...rest] = text.split('\r\n\r\n');
      let body: unknown = rest.join('\r\n\r\n');
      try {
        body = JSON.parse(body as string);
      } catch {
        /* not JSON */
      }
      resolve({ status: Number(/^HTTP\/1\.1 (\d{3})/.exec(head)?.[1] ?? 0), body });
    });
    socket.end(request);
  });
}

const deep = (n: number) => `${'{"a":'.repeat(n)}1${'}'.repeat(n)}`;

describe('2. malformed percent-encoding in a path', () => {
  it.each(['/payments/%ZZ', '/payments/%', '/payments/%C0%AE%C0%AE', '/customers/%E0%A4%A', '/payments/%ZZ/capture'])(
    '%s -> 400 naming the path',
    async (path) => {
      const method = path.endsWith('capture') ? 'POST' : 'GET';
      await refused(() => stack.api(method, path, method === 'POST' ? {} : undefined, key), 400, 'path', 'IR_05');
    },
  );
});

describe('3. a JSON body nested thousands of levels deep', () => {
  it.each([
    ['create', '/payments'],
    ['update', 'OPEN'],
    ['confirm', 'OPEN/confirm'],
    ['capture', 'HELD/capture'],
  ])('%s -> 400 RQ_01 (the request could not be read)', async (_name, target) => {
    const path = target.replace('OPEN', `/payments/${open}`).replace('HELD', `/payments/${held}`);
    for (const body of [deep(5_000), `{"amount":100,"currency":"EUR","metadata":{"k":${'['.repeat(3_000)}${']'.repeat(3_000)}}}`]) {
      await refused(() => stack.api('POST', path, body, key), 400, undefined, 'RQ_01');
    }
  });

  it('nesting within the bound is still read (brackets inside strings do not count)', async () => {
    const r = await stack.api('POST', '/payments', `{"amount":100,"currency":"EUR","description":"${'['.repeat(100)}","metadata":{"k":${deep(25)}}}`, key);
    expect(r.status, JSON.stringify(r.body)).toBe(200);
  });
});

describe('4. NUL bytes and ids that cannot exist', () => {
  it.each([
    `/payments/pay_%00`,
    `/payments/${'p'.repeat(29)}%00`,
    `/payments/${'p'.repeat(31)}`,
    '/customers/%00',
    '/payment_link/plink_%00',
    '/payment_link/%00',
  ])('GET %s -> 404 HE_02', async (path) => {
    await refused(() => stack.api('GET', path, undefined, key), 404, undefined, 'HE_02');
  });

  it('the checkout pages refuse an impossible merchant or payment id the same way', async () => {
    for (const path of ['/payment_link/%00/pay_x', `/payment_link/m/${'p'.repeat(29)}%00`]) {
      const r = await stack.api('GET', path);
      expect(r.status).toBe(404);
      expect(r.body.error.code).toBe('HE_02');
    }
  });

  it('an id that cannot exist is not looked up: no database command is sent', async () => {
    const client = new MongoClient(stack.env.MONGODB_URL, { monitorCommands: true });
    const commands: string[] = [];
    client.on('commandStarted', (e) => commands.push(e.commandName));
    try {
      const db = client.db(stack.dbName);
      const [payments, customers, links, merchants] = [new PaymentStore(db), new Customers(db), new PaymentLinks(db), new MerchantStore(db)];
      await client.connect();
      commands.length = 0;
      expect(await payments.find('m_1', 'pay_\u0000')).toBeNull();
      expect(await payments.find('m_1', `${'p'.repeat(29)}\u0000`)).toBeNull();
      expect(await payments.find('m\u0000', 'p'.repeat(30))).toBeNull();
      expect(await customers.find('m_1', '\u0000')).toBeNull();
      expect(await customers.update('m_1', 'c'.repeat(65), { name: 'x' })).toBeNull();
      expect(await customers.delete('m_1', '')).toBe(false);
      expect(await links.find('m_1', 'plink_\u0000')).toBeNull();
      expect(await merchants.merchant('m\u0000')).toBeNull();
      expect(await merchants.connectorAccount('m_1', 'mca_x')).toBeNull();
      expect(commands).toEqual([]);
      // An id that could exist is looked up (so the check above is what kept the others away).
      expect(await payments.find('m_1', 'p'.repeat(30))).toBeNull();
      expect(commands).toContain('find');
    } finally {
      await client.close();
    }
  });

  it.each(['customer_id', 'ending_before', 'starting_after'])('GET /payments/list?%s=NUL -> 400 naming it', async (param) => {
    await refused(() => stack.api('GET', `/payments/list?${param}=%00`, undefined, key), 400, param);
  });

  it.each([
    [{ description: 'a\u0000b' }, 'description'],
    [{ return_url: 'https://shop.example/\u0000' }, 'return_url'],
    [{ customer: { email: 'ada\u0000@example.com' } }, 'customer.email'],
    [{ customer: { name: 'x\u0000' } }, 'customer.name'],
    [{ metadata: { 'a\u0000b': 'v' } }, 'metadata.a\u0000b'],
    [{ metadata: { $where: 'v' } }, 'metadata.$where'],
    [{ metadata: { 'a.b': 'v' } }, 'metadata.a.b'],
    [{ metadata: { k: { deeper: ['ok', 'nul\u0000'] } } }, 'metadata.k.deeper.1'],
    [{ metadata: { k: { $set: 1 } } }, 'metadata.k.$set'],
    [{ connector_metadata: { 'x.y': 1 } }, 'connector_metadata.x.y'],
  ])('create with %j -> 400 naming %s', async (extra, param) => {
    await refused(() => stack.api('POST', '/payments', { amount: 100, currency: 'EUR', ...extra }, key), 400, param);
  });

  it('the message says what is wrong with a key', async () => {
    const say = async (metadata: object) => (await stack.api('POST', '/payments', { amount: 100, currency: 'EUR', metadata }, key)).body.error.message;
    expect(await say({ $where: 1 })).toContain('must not start with $');
    expect(await say({ 'a.b': 1 })).toContain('must not contain a dot');
    expect(await say({ ['k'.repeat(41)]: 1 })).toContain('at most 40 characters');
  });

  it('NUL in a customer and in an update is refused too', async () => {
    await refused(() => stack.api('POST', '/customers', { customer_id: 'cus_\u0000' }, key), 400, 'customer_id');
    await refused(() => stack.api('POST', `/payments/${open}`, { metadata: { 'a.b': 1 } }, key), 400, 'metadata.a.b');
    await refused(() => stack.api('POST', `/payments/${held}/capture`, { capture_id: `${'c'.repeat(29)}\u0000` }, key), 400, 'capture_id');
  });
});

describe('5. answers Node gives by itself carry our error body', () => {
  it('431 for a URL too large', async () => {
    const r = await rawHttp(`GET /payments/list?customer_id=${'x'.repeat(20_000)} HTTP/1.1\r\nHost: x\r\napi-key: ${key}\r\n\r\n`);
    expect(r.status).toBe(431);
    expect(r.body.error).toMatchObject({ type: 'invalid_request', code: 'RQ_02' });
  });

  it('431 for headers too large', async () => {
    const r = await rawHttp(`GET /payments HTTP/1.1\r\nHost: x\r\nx-big: ${'y'.repeat(20_000)}\r\n\r\n`);
    expect(r.status).toBe(431);
    expect(r.body.error.code).toBe('RQ_02');
  });

  it('400 for a request that is not HTTP', async () => {
    const r = await rawHttp('NOT AN HTTP REQUEST\r\n\r\n');
    expect(r.status).toBe(400);
    expect(r.body.error.code).toBe('RQ_01');
  });

  it('417 for an Expect header Node cannot meet', async () => {
    const r = await rawHttp(`POST /payments HTTP/1.1\r\nHost: x\r\napi-key: ${key}\r\nexpect: the-unexpected\r\ncontent-length: 2\r\n\r\n{}`);
    expect(r.status).toBe(417);
    expect(r.body.error).toMatchObject({ code: 'RQ_01', param: 'expect' });
  });
});

describe('6. spec mismatches', () => {
  it.each(['ZZ', 'XX', 'UK'])('country %s does not exist -> 400 naming the field', async (country) => {
    await refused(
      () => stack.api('POST', '/payments', { amount: 100, currency: 'EUR', billing: { address: { country } } }, key),
      400,
      'billing.address.country',
    );
    await refused(() => stack.api('POST', '/payments', { amount: 100, currency: 'EUR', business_country: country }, key), 400, 'business_country');
  });

  it('a country that exists is taken', async () => {
    const r = await stack.api('POST', '/payments', { amount: 100, currency: 'EUR', billing: { address: { country: 'GB' } }, business_country: 'AX' }, key);
    expect(r.status).toBe(200);
  });

  it('order lines on a create response carry every field, null where not supplied (spec 2.4)', async () => {
    const r = await stack.api(
      'POST',
      '/payments',
      { amount: 300, currency: 'EUR', order_details: [{ product_name: 'Lamp', quantity: 1, amount: 300, brand: 'Acme' }] },
      key,
    );
    expect(r.status).toBe(200);
    expect(r.body.order_details).toEqual([
      {
        product_name: 'Lamp',
        quantity: 1,
        amount: 300,
        brand: 'Acme',
        requires_shipping: null,
        product_img_link: null,
        product_link: null,
        product_id: null,
        category: null,
        sub_category: null,
        product_type: null,
        tax_percentage: null,
        product_tax_code: null,
        tax_amount: null,
        total_tax_amount: null,
      },
    ]);
    expect((await stack.api('GET', `/payments/${r.body.payment_id}`, undefined, key)).body.order_details).toEqual(r.body.order_details);
  });
});

describe('12. content-encoding and database error texts', () => {
  it('content-encoding: gzip with a body that is not gzip -> 400 naming content-encoding', async () => {
    await refused(() => stack.api('POST', '/payments', '{"amount":100,"currency":"EUR"}', key, { 'content-encoding': 'gzip' }), 400, 'content-encoding');
  });

  it('a real gzip body is read', async () => {
    const res = await fetch(`${stack.gatewayUrl}/payments`, {
      method: 'POST',
      headers: { 'api-key': key, 'content-type': 'application/json', 'content-encoding': 'gzip' },
      body: gzipSync(JSON.stringify({ amount: 100, currency: 'EUR' })),
    });
    expect(res.status).toBe(200);
  });

  it('an unknown content-encoding keeps its 415, with our body', async () => {
    await refused(() => stack.api('POST', '/payments', '{}', key, { 'content-encoding': 'lzma' }), 415, 'content-encoding');
  });

  it('a database error is logged without its text, which may quote what a client sent', async () => {
    // A real refusal from the test database (FerretDB refuses NUL; MongoDB refuses the $-key).
    const db = await stack.db();
    const real = await db
      .collection('scratch')
      .insertOne({ [`$secret_${'v'.repeat(3)}`]: 'secret\u0000value' } as object)
      .then(
        () => null,
        (e: Error) => e,
      );
    expect(real, 'the database accepted a value it should refuse').toBeInstanceOf(Error);
    expect(`${real!.message}`).toMatch(/secret/);
    const made = new MongoServerError({ message: "invalid key 'secret\u0000value'", code: 2, codeName: 'BadValue' });
    for (const err of [real, made]) {
      const logged = JSON.stringify(redact({ err }));
      expect(logged).not.toContain('secret');
      expect(logged).toContain(err!.name);
    }
    expect(JSON.stringify(redact({ err: new Error('plain text stays') }))).toContain('plain text stays');
  });

  it('no refusal above logged an error', () => {
    expect(stack.logs.gateway.filter((l) => l.includes('"level":"error"'))).toEqual([]);
  });
});
