// The PAYONE (Payla) imitation against PAYONE's own material (workers/connectors/payla/fixtures/): the secured-invoice
// preauthorization PAYONE's shopware-6 plugin publishes (with the `ip` PAYONE requires) is accepted, requests are
// refused by PAYONE's published rules (fixtures/rules.json: issue 21's ip, capturemode and baskets), answers have the
// fixtures' key=value shape and are read by the connector's own response transformers, and notifications are the
// form body the connector's notification flow reads. In process, no stack.
import express from 'express';
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { IdempotencyStore } from '../../recorder.ts';
import { paylaImitation } from './imitation.ts';
import answers from '../../../../workers/connectors/payla/fixtures/answers.json' with { type: 'json' };
import { PAYLA_SANDBOX } from '../../../../workers/connectors/payla/manifest.ts';
import { connector } from '../../../../workers/connectors/payla/index.ts';
import { splitLines } from '../../../../workers/connectors/payla/response.ts';
import type { ConnectorJob } from '../../../../domain/job.ts';

let base = '';
const received: string[] = [];
let close = () => {};
let im: ReturnType<typeof paylaImitation>;
beforeAll(async () => {
  im = paylaImitation(new IdempotencyStore());
  const app = express();
  app.post('/hook', express.text({ type: '*/*' }), (req, res) => {
    received.push(req.body as string);
    res.type('text/plain').send('TSOK');
  });
  app.post('/hook-json', (_req, res) => {
    res.json({ received: true });
  });
  app.use(express.urlencoded({ extended: false }));
  app.use(express.json());
  app.use('/payla', im.router);
  app.use('/sandbox', im.operator);
  const server = app.listen(0, '127.0.0.1');
  await new Promise((r) => server.once('listening', r));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  close = () => server.close();
});
afterAll(() => close());

const account = {
  mid: PAYLA_SANDBOX.mid,
  aid: PAYLA_SANDBOX.aid,
  portalid: PAYLA_SANDBOX.portalid,
  key: createHash('md5').update(PAYLA_SANDBOX.portal_key).digest('hex'),
  api_version: '3.10',
  encoding: 'UTF-8',
  mode: 'test',
};
/** PAYONE's published secured-invoice preauthorization (shopware-6's credentials test), with the ip and device token
 * PAYONE requires (its example leaves both out: test-mode credentials check) and without its redirect URLs. */
const published: Record<string, string> = Object.fromEntries(
  Object.entries(
    JSON.parse(readFileSync(new URL('../../../../workers/connectors/payla/fixtures/published/preauthorization-request.json', import.meta.url), 'utf8')),
  )
    .filter(([k]) => !/url$/.test(k))
    .map(([k, v]) => [k, String(v)]),
);
const documented = { ...published, ip: '203.0.113.7', 'add_paydata[device_token]': 'e7yeryF2of8X_42865_3f1c2a' };
/** One basket position of `amount` (minor units; negative for a debit). */
const position = (amount: number) => ({ 'it[1]': 'goods', 'id[1]': 'sku-1', 'pr[1]': String(amount), 'no[1]': '1', 'de[1]': 'Test product', 'va[1]': '1900' });
let refs = 0;
const nextRef = () => `R${Date.now() % 1e9}${++refs}`;
async function post(params: Record<string, string>) {
  const res = await fetch(`${base}/payla/post-gateway/`, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams(params).toString(),
  });
  const text = await res.text();
  return { status: res.status, text, lines: splitLines(text), type: res.headers.get('content-type') };
}
const preauth = (over: Record<string, string> = {}) => post({ ...account, ...documented, reference: nextRef(), ...over });
const keysOf = (s: string) => Object.keys(splitLines(s)).sort();
const job = (over: Partial<ConnectorJob> = {}) => ({ capture_method: 'manual', connector_transaction_id: null, follow_ups_before: 0, ...over }) as ConnectorJob;

describe('payla imitation: preauthorization', () => {
  it("accepts the documented request; answers text/plain lines of the fixture's keys, which the connector reads", async () => {
    const r = await preauth();
    expect(r.status).toBe(200);
    expect(r.type).toMatch(/^text\/plain/);
    expect(keysOf(r.text)).toEqual(keysOf(answers.preauthorization_approved));
    expect(connector.authorize!.response({ status: 200, body: r.text }, job())).toMatchObject({ kind: 'AUTHORIZED', connector_transaction_id: r.lines.txid });
  });

  it("wrong key / portal / mid: status=ERROR with PAYONE's account codes (the fixture's shape); the connector fails with UE_4000", async () => {
    const bad = await preauth({ key: createHash('md5').update('wrong').digest('hex') });
    expect(bad.status).toBe(200);
    expect(bad.lines).toEqual(splitLines(answers.error_key));
    expect(connector.authorize!.response({ status: 200, body: bad.text }, job())).toMatchObject({
      kind: 'FAILED',
      error_code: '1001',
      unified_code: 'UE_4000',
    });
    expect((await preauth({ portalid: '1' })).lines.errormessage).toBe('Parameter {portalid} faulty or missing');
    expect((await preauth({ mid: '1' })).lines.errormessage).toBe('Parameter {mid} faulty or missing');
    // The current plugin's sha384 key is taken too.
    expect((await preauth({ key: createHash('sha384').update(PAYLA_SANDBOX.portal_key).digest('hex') })).lines.status).toBe('APPROVED');
  });

  it('a missing or faulty parameter is errorcode 1001 naming it; the basket must add up to the amount', async () => {
    const noBirthday = await preauth({ birthday: '' });
    expect(noBirthday.lines).toEqual(splitLines(answers.error_parameter));
    expect((await preauth({ 'add_paydata[device_token]': '' })).lines.errormessage).toBe('Parameter {add_paydata[device_token]} faulty or missing');
    expect((await preauth({ country: 'CH' })).lines).toMatchObject({ status: 'ERROR', errorcode: '1001' });
    expect((await preauth({ amount: '9999' })).lines.errormessage).toContain('does not match the basket');
    expect((await preauth({ businessrelation: 'b2b' })).lines.errormessage).toBe('Parameter {company} faulty or missing');
    expect((await preauth({ businessrelation: 'b2b', company: 'ACME GmbH', birthday: '' })).lines.errormessage).toBe('Parameter {birthday} faulty or missing');
  });

  it('+decline: errorcode 307 with a customer message; a used reference 911', async () => {
    const d = await preauth({ email: 'erika+decline@example.com' });
    expect(keysOf(d.text)).toEqual(keysOf(answers.error_risk_decline));
    expect(d.lines).toMatchObject({ status: 'ERROR', errorcode: '307' });
    const ref = nextRef();
    expect((await preauth({ reference: ref })).lines.status).toBe('APPROVED');
    expect((await preauth({ reference: ref })).lines).toMatchObject({ status: 'ERROR', errorcode: '911' });
  });

  it('+flaky: HTTP 500 twice for a reference, then one transaction', async () => {
    const ref = nextRef();
    const email = 'erika+flaky@example.com';
    expect((await preauth({ reference: ref, email })).status).toBe(500);
    expect((await preauth({ reference: ref, email })).status).toBe(500);
    expect((await preauth({ reference: ref, email })).lines.status).toBe('APPROVED');
    expect([...im.transactions.values()].filter((t) => t.reference === ref)).toHaveLength(1);
  });
});

describe('payla imitation: follow-ups and TransactionStatus', () => {
  it('captures in sequence (partial, then the rest), debits negative amounts, and notifies each step, form-encoded with the md5 key', async () => {
    const set = await fetch(`${base}/sandbox/payla/portals/${PAYLA_SANDBOX.portalid}/transaction-status-url`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ url: `${base}/hook` }),
    });
    expect(set.status).toBe(200);
    const txid = (await preauth()).lines.txid!;
    const follow = (p: Record<string, string>) => post({ ...account, txid, currency: 'EUR', ...p });
    expect((await follow({ request: 'capture', sequencenumber: '2', amount: '4000', ...position(4000) })).lines).toEqual(
      splitLines(
        `status=ERROR\nerrorcode=921\nerrormessage=Sequencenumber 2 invalid (expected 1)\ncustomermessage=Bei der Bearbeitung dieser Transaktion ist ein Fehler aufgetreten.`,
      ),
    );
    const c1 = await follow({ request: 'capture', sequencenumber: '1', amount: '4000', ...position(4000) });
    expect(keysOf(c1.text)).toEqual(keysOf(answers.capture_approved));
    expect(connector.capture!.response({ status: 200, body: c1.text }, job({ connector_transaction_id: txid }))).toEqual({
      kind: 'CAPTURED',
      connector_transaction_id: `${txid}-1`,
    });
    expect((await follow({ request: 'capture', sequencenumber: '2', amount: '7000', ...position(7000) })).lines).toMatchObject({ errorcode: '922' });
    expect((await follow({ request: 'capture', sequencenumber: '2', amount: '6000', ...position(6000) })).lines.status).toBe('APPROVED');
    expect((await follow({ request: 'capture', sequencenumber: '3', amount: '0' })).lines).toMatchObject({ errorcode: '950' });
    expect((await follow({ request: 'debit', sequencenumber: '3', amount: '2500', ...position(2500) })).lines).toMatchObject({ errorcode: '1001' });
    const d = await follow({ request: 'debit', sequencenumber: '3', amount: '-2500', ...position(-2500) });
    expect(keysOf(d.text)).toEqual(keysOf(answers.debit_approved));
    expect(im.transactions.get(txid)).toMatchObject({ amount: 10_000, captured: 10_000, refunded: 2_500, sequence: 3, completed: true });
    for (let i = 0; i < 100 && received.filter((b) => b.includes(`txid=${txid}`)).length < 4; i += 1) await new Promise((r) => setTimeout(r, 20));
    const mine = received.filter((b) => new URLSearchParams(b).get('txid') === txid).map((b) => Object.fromEntries(new URLSearchParams(b)));
    expect(mine.map((b) => [b.txaction, b.sequencenumber])).toEqual([
      ['appointed', '0'],
      ['capture', '1'],
      ['capture', '2'],
      ['debit', '3'],
    ]);
    expect(Object.keys(mine[0]!).sort()).toEqual(Object.keys(Object.fromEntries(new URLSearchParams(answers.transaction_status_appointed))).sort());
    expect(mine[0]!.key).toBe(account.key);
    expect(connector.notification!.parse(new URLSearchParams(mine[3]!).toString())).toEqual({ object: 'hint', connector_transaction_id: txid, event: 'debit' });
    expect(im.deliveries.filter((x) => x.txid === txid).every((x) => x.delivered)).toBe(true);
  });

  it('a release is a capture of 0; +refund_fail debits are refused with 991', async () => {
    const r = await preauth({ email: 'erika+refund_fail@example.com', request: 'authorization' });
    const txid = r.lines.txid!;
    expect(im.transactions.get(txid)).toMatchObject({ captured: 10_000, completed: true });
    const d = await post({ ...account, request: 'debit', txid, sequencenumber: '1', amount: '-100', currency: 'EUR', ...position(-100) });
    expect(d.lines).toEqual(splitLines(answers.debit_declined));
    const p = (await preauth()).lines.txid!;
    expect((await post({ ...account, request: 'capture', txid: p, sequencenumber: '1', amount: '0', currency: 'EUR' })).lines.status).toBe('APPROVED');
    expect(im.transactions.get(p)).toMatchObject({ captured: 0, released: 10_000, completed: true });
  });
});

describe("payla imitation: PAYONE's published rules (issue 21)", () => {
  it('a (pre)authorization without `ip` is refused, naming it', async () => {
    const { ip: _ip, ...noIp } = documented;
    expect((await post({ ...account, ...noIp, reference: nextRef() })).lines).toMatchObject({
      status: 'ERROR',
      errorcode: '1001',
      errormessage: 'Parameter {ip} faulty or missing',
    });
  });

  it('a capture with capturemode is refused; so are a capture and a debit without their basket, or a basket of another total', async () => {
    const txid = (await preauth({ request: 'authorization' })).lines.txid!;
    const pre = (await preauth()).lines.txid!;
    const follow = (id: string, p: Record<string, string>) => post({ ...account, txid: id, currency: 'EUR', ...p });
    expect(
      (await follow(pre, { request: 'capture', sequencenumber: '1', amount: '4000', capturemode: 'notcompleted', ...position(4000) })).lines,
    ).toMatchObject({
      errorcode: '1001',
      errormessage: 'Parameter {capturemode} not allowed for clearingtype fnc',
    });
    expect((await follow(pre, { request: 'capture', sequencenumber: '1', amount: '4000' })).lines.errormessage).toBe('Parameter {it[1]} faulty or missing');
    expect((await follow(pre, { request: 'capture', sequencenumber: '1', amount: '4000', ...position(3000) })).lines.errormessage).toContain(
      'does not match the basket',
    );
    expect((await follow(txid, { request: 'debit', sequencenumber: '1', amount: '-100' })).lines.errormessage).toBe('Parameter {it[1]} faulty or missing');
    expect((await follow(txid, { request: 'debit', sequencenumber: '1', amount: '-100', ...position(-100), 'id[1]': 'x'.repeat(33) })).lines.errormessage).toBe(
      'Parameter {id[1]} must be at most 32 characters',
    );
  });

  it("the connector's own requests are accepted: preauthorization with ip, partial captures without capturemode, the rest, a debit, a release", async () => {
    const order = {
      customer: { id: 'cus_1', name: 'Test Test', email: 'test@example.com', phone: '+49304658976', phone_country_code: null },
      billing: { address: { first_name: 'Test', last_name: 'Test', line1: 'Mustergasse 5', zip: '10969', city: 'Berlin', country: 'DE' } },
      shipping: null,
      order_details: [{ product_name: 'Test product', quantity: 1, amount: 10_000, product_id: 'sku-1', tax_percentage: 19 }],
      order_tax_amount: 1_597,
      metadata: { birth_date: '2000-01-01' },
      browser_info: { ip_address: '203.0.113.7', device_fingerprint: { payla: 'e7yeryF2of8X_42865_1' } },
      description: null,
      payment_method_type: 'invoice',
      birth_date: null,
      gender: null,
      locale: null,
    };
    const creds = {
      auth_type: 'MultiAuthKey' as const,
      api_key: PAYLA_SANDBOX.portalid,
      key1: PAYLA_SANDBOX.mid,
      key2: PAYLA_SANDBOX.aid,
      api_secret: PAYLA_SANDBOX.portal_key,
    };
    const base = { payment_id: `pay_${nextRef()}XXXXXXXXXXXXXXXXXXXXXX`, amount: 10_000, currency: 'EUR', capture_method: 'manual_multiple', order } as const;
    const send = async (flow: 'authorize' | 'capture' | 'refund' | 'void', over: Partial<ConnectorJob>) => {
      const j = job({ ...base, ...over });
      const r = await post(connector[flow]!.request(j, creds).form!);
      return connector[flow]!.response({ status: 200, body: r.text }, j);
    };
    const a = await send('authorize', {});
    expect(a).toMatchObject({ kind: 'AUTHORIZED' });
    const txid = a.connector_transaction_id!;
    expect(await send('capture', { connector_transaction_id: txid, amount: 4_000, follow_ups_before: 0 })).toMatchObject({ kind: 'CAPTURED' });
    expect(im.transactions.get(txid)).toMatchObject({ captured: 4_000, completed: false, sequence: 1 });
    expect(await send('refund', { connector_transaction_id: txid, amount: 1_000, follow_ups_before: 1 })).toMatchObject({ kind: 'REFUNDED' });
    expect(await send('void', { connector_transaction_id: txid, follow_ups_before: 2 })).toEqual({ kind: 'VOIDED' });
    expect(im.transactions.get(txid)).toMatchObject({ captured: 4_000, refunded: 1_000, released: 6_000, completed: true, sequence: 3 });
  });

  it('a TransactionStatus counts as delivered only when the shop answers TSOK; a 200 with another body is sent again', async () => {
    const url = (u: string) =>
      fetch(`${base}/sandbox/payla/portals/${PAYLA_SANDBOX.portalid}/transaction-status-url`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ url: `${base}${u}` }),
      });
    expect((await url('/hook-json')).status).toBe(200);
    const txid = (await preauth()).lines.txid!;
    let d = im.deliveries.find((x) => x.txid === txid);
    for (let i = 0; i < 100 && !d?.last_status; i += 1) {
      await new Promise((r) => setTimeout(r, 20));
      d = im.deliveries.find((x) => x.txid === txid);
    }
    expect(d).toMatchObject({ delivered: false, last_status: 200, last_error: 'not acknowledged: {"received":true}' });
    expect(d!.next_attempt_at).not.toBeNull();
    expect((await url('/hook')).status).toBe(200);
  });
});
