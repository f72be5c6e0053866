// payla's transformers against PAYONE's own material (README.md, Sources; fixtures/SOURCES.md): the requests we build
// obey PAYONE's published rules (fixtures/rules.json) and match the secured-invoice preauthorization PAYONE's
// shopware-6 plugin publishes (fixtures/published/); the key=value answers, error codes, follow-up sequence numbers
// and the TransactionStatus body are read through the schemas.
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import type { ConnectorJob } from '../../../domain/job.ts';
import { firstBreach, RequestRules } from '../../../lib/request-rules.ts';
import { UnexpectedAnswer } from '../types.ts';
import answers from './fixtures/answers.json' with { type: 'json' };
import { manifest, PAYLA_SANDBOX } from './manifest.ts';
import { parseNotification } from './notification.ts';
import { authorizeRequest, basketOf, captureRequest, referenceOf, refundRequest, vatParam, voidRequest } from './request.ts';
import { authorizeOutcome, captureOutcome, refundOutcome, splitLines, voidOutcome } from './response.ts';

const read = (name: string) => JSON.parse(readFileSync(new URL(`./fixtures/${name}`, import.meta.url), 'utf8'));
type Call = 'authorize' | 'capture' | 'void' | 'debit';
const RULES = read('rules.json');
const rules = (call: Call) => RequestRules.parse(RULES[call]);
const forbidden = (call: Call) => z.record(z.string(), z.array(z.string())).parse(RULES.forbidden)[call] ?? [];
/** A form as the rules read it: the basket positions it[n]..va[n] as items[n-1]. */
function view(form: Record<string, string>): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  const items: Record<string, string>[] = [];
  for (const [k, v] of Object.entries(form)) {
    const m = /^(it|id|pr|no|de|va)\[(\d+)\]$/.exec(k);
    if (m) (items[Number(m[2]) - 1] ??= {})[m[1]!] = v;
    else out[k] = v;
  }
  if (items.length) out.items = items;
  return out;
}
/** The first published rule the form breaks (a forbidden parameter, then rules.json), or null. */
function broken(call: Call, form: Record<string, string>) {
  const extra = forbidden(call).find((k) => k in form);
  return extra ? { field: extra, message: `${extra} must not be sent` } : firstBreach(rules(call), view(form));
}

const creds = {
  auth_type: 'MultiAuthKey' as const,
  api_key: PAYLA_SANDBOX.portalid,
  key1: PAYLA_SANDBOX.mid,
  key2: PAYLA_SANDBOX.aid,
  api_secret: PAYLA_SANDBOX.portal_key,
};
const text = (body: string) => ({ status: 200, body });

function job(over: Partial<ConnectorJob> = {}): ConnectorJob {
  return {
    merchant_id: 'm1',
    payment_id: 'pay_ABCDEFGHIJKLMNOPQRSTUVWXYZ',
    operation_id: 'op_1',
    kind: 'authorize',
    connector: 'payla',
    amount: 10_000,
    currency: 'EUR',
    capture_method: 'manual',
    connector_transaction_id: null,
    customer_email: 'test@example.com',
    return_url: null,
    merchant_order_reference_id: 'R1001',
    mode: 'execute',
    sync_round: 0,
    order: {
      customer: { id: 'cus_1', name: 'Test Test', email: 'test@example.com', phone: '+49304658976', phone_country_code: null },
      billing: { address: { first_name: 'Test', last_name: 'Test', line1: 'Mustergasse 5', zip: '10969', city: 'Berlin', country: 'DE' } },
      shipping: { address: { first_name: 'Test', last_name: 'Test', line1: 'Mustergasse 5', zip: '10969', city: 'Berlin', country: 'DE' } },
      order_details: [{ product_name: 'Test product', quantity: 1, amount: 10_000, product_id: '5013210425384', tax_percentage: 19 }],
      order_tax_amount: 1_597,
      metadata: { birth_date: '2000-01-01', buyer_type: 'consumer' },
      browser_info: { ip_address: '203.0.113.7', device_fingerprint: { payla: 'e7yeryF2of8X_42865_3f1c2a' } },
      description: null,
      payment_method_type: 'invoice',
      birth_date: null,
      gender: null,
      locale: null,
    },
    ...over,
  };
}

/** PAYONE's own secured-invoice preauthorization (shopware-6's credentials test), its values as strings. */
const published: Record<string, string> = Object.fromEntries(Object.entries(read('published/preauthorization-request.json')).map(([k, v]) => [k, String(v)]));

describe('payla requests', () => {
  it("a manual-capture authorization is PAYONE's published preauthorization, with the account parameters and sha384 key", () => {
    const r = authorizeRequest(job(), creds);
    expect(r).toMatchObject({ method: 'POST', path: '/post-gateway/', answer: 'text' });
    const f = r.form!;
    // Every parameter of the published example we send has the example's value; va[1] is in basis points (the
    // plugins' own line items: 1900), where the credentials test writes 19 (percent): PAYONE takes both.
    const same = Object.keys(published).filter((k) => !['successurl', 'errorurl', 'backurl', 'va[1]'].includes(k));
    for (const k of same) expect([k, f[k]]).toEqual([k, published[k]]);
    expect(f['va[1]']).toBe('1900');
    expect(f).toMatchObject({
      mid: '42865',
      aid: '42949',
      portalid: '2030968',
      api_version: '3.10',
      encoding: 'UTF-8',
      key: createHash('sha384').update(PAYLA_SANDBOX.portal_key).digest('hex'),
      reference: 'EFGHIJKLMNOPQRSTUVWXYZ'.slice(-20),
      param: 'R1001',
      'add_paydata[device_token]': 'e7yeryF2of8X_42865_3f1c2a',
    });
    expect(f.reference).toHaveLength(20);
    expect(JSON.stringify(f)).not.toContain(PAYLA_SANDBOX.portal_key);
  });

  it('issue 21: the (pre)authorization carries the customer IP as `ip` (required), and the manifest makes the gateway require it', () => {
    const f = authorizeRequest(job(), creds).form!;
    expect(f.ip).toBe('203.0.113.7');
    expect(manifest.required_fields).toContain('browser_info.ip_address');
    // Without it, PAYONE's published rules refuse the request, naming `ip` (the old code never sent it).
    const noIp = job();
    noIp.order!.browser_info = { device_fingerprint: { payla: 'tok' } };
    expect(broken('authorize', authorizeRequest(noIp, creds).form!)).toEqual({ field: 'ip', message: 'ip is required' });
  });

  it('issue 21: a capture sends no capturemode (nor settleaccount), whatever the capture method; a void neither', () => {
    const tx = { connector_transaction_id: '123456789', kind: 'capture' as const };
    for (const capture_method of ['manual', 'manual_multiple'] as const) {
      const f = captureRequest(job({ ...tx, capture_method, follow_ups_before: 0 }), creds).form!;
      expect(f.capturemode).toBeUndefined();
      expect(f.settleaccount).toBeUndefined();
      expect(broken('capture', f)).toBeNull();
    }
    const v = voidRequest(job({ ...tx, kind: 'void', follow_ups_before: 0 }), creds).form!;
    expect(v).toMatchObject({ request: 'capture', amount: '0', sequencenumber: '1' });
    expect(v.capturemode).toBeUndefined();
    expect(broken('void', v)).toBeNull();
    // The rules catch the old request.
    expect(broken('capture', { ...captureRequest(job(tx), creds).form!, capturemode: 'completed' })).toMatchObject({ field: 'capturemode' });
  });

  it('issue 21: a capture carries the basket: the lines it names, the whole order, or one position for a part', () => {
    const tx = { connector_transaction_id: '123456789', kind: 'capture' as const, follow_ups_before: 0 };
    const whole = captureRequest(job(tx), creds).form!;
    expect(whole).toMatchObject({ 'it[1]': 'goods', 'id[1]': '5013210425384', 'pr[1]': '10000', 'no[1]': '1', 'de[1]': 'Test product', 'va[1]': '1900' });
    const named = captureRequest(
      job({
        ...tx,
        amount: 4_000,
        capture_details: {
          capture_metadata: null,
          metadata: null,
          order_details: [{ product_name: 'Lamp', quantity: 2, amount: 4_000, tax_percentage: 19, product_id: 'sku-lamp' }],
        },
      }),
      creds,
    ).form!;
    expect(named).toMatchObject({ 'id[1]': 'sku-lamp', 'pr[1]': '2000', 'no[1]': '2', 'de[1]': 'Lamp', 'va[1]': '1900' });
    const part = captureRequest(job({ ...tx, amount: 4_000 }), creds).form!;
    expect(part).toMatchObject({ 'it[1]': 'goods', 'id[1]': 'capture', 'pr[1]': '4000', 'no[1]': '1', 'va[1]': '1900' });
    for (const f of [whole, named, part]) expect(broken('capture', f)).toBeNull();
  });

  it('issue 21: a debit carries the basket with negative prices: the whole order, or one position for a part', () => {
    const tx = { connector_transaction_id: '123456789', kind: 'refund' as const, follow_ups_before: 1 };
    const all = refundRequest(job(tx), creds).form!;
    expect(all).toMatchObject({
      request: 'debit',
      amount: '-10000',
      sequencenumber: '2',
      'it[1]': 'goods',
      'id[1]': '5013210425384',
      'pr[1]': '-10000',
      'no[1]': '1',
    });
    const part = refundRequest(job({ ...tx, amount: 2_500, reason: 'damaged' }), creds).form!;
    expect(part).toMatchObject({
      amount: '-2500',
      'id[1]': 'refund',
      'pr[1]': '-2500',
      'no[1]': '1',
      'de[1]': 'Refund',
      'va[1]': '1900',
      narrative_text: 'damaged',
    });
    for (const f of [all, part]) expect(broken('debit', f)).toBeNull();
    // A small part keeps the order's one rate (not a rate rounded from a tax share of a few cents).
    expect(refundRequest(job({ ...tx, amount: 101 }), creds).form!['va[1]']).toBe('1900');
    const mixed = job({ ...tx, amount: 101 });
    mixed.order!.order_details = [
      { product_name: 'Book', quantity: 1, amount: 5_000, tax_percentage: 7, total_tax_amount: 327 },
      { product_name: 'Lamp', quantity: 1, amount: 5_000, tax_percentage: 19, total_tax_amount: 798 },
    ];
    mixed.order!.order_tax_amount = 1_125;
    expect(refundRequest(mixed, creds).form!['va[1]']).toBe(vatParam(Math.round((11 / 90) * 1000) / 10));
    // The old debit (no basket) breaks the rules.
    const old = Object.fromEntries(Object.entries(part).filter(([k]) => !/^(it|id|pr|no|de|va)\[/.test(k)));
    expect(broken('debit', old)).toMatchObject({ field: 'items' });
  });

  it("every request obeys PAYONE's published rules (fixtures/rules.json); the rules can fail", () => {
    const b2b = job({ capture_method: 'automatic' });
    b2b.order!.metadata = { buyer_type: 'business', company_name: 'ACME GmbH', company_vat_id: 'DE123456789', birth_date: '1970-05-06' };
    for (const j of [job(), b2b]) expect(broken('authorize', authorizeRequest(j, creds).form!)).toBeNull();
    const f = authorizeRequest(job(), creds).form!;
    expect(broken('authorize', { ...f, reference: 'R'.repeat(21) })).toEqual({ field: 'reference', message: 'reference must be at most 20 characters' });
    expect(broken('authorize', { ...f, country: 'CH' })).toMatchObject({ field: 'country' });
    expect(broken('authorize', { ...f, 'id[1]': 'x'.repeat(33) })).toMatchObject({ field: 'items[0].id' });
  });

  it('automatic capture is request=authorization; B2B sends company and vatid, and the birthday too (PAYONE requires it for both)', () => {
    const b2b = job({ capture_method: 'automatic' });
    b2b.order!.metadata = { buyer_type: 'business', company_name: 'ACME GmbH', company_vat_id: 'DE123456789', birth_date: '1970-05-06' };
    const f = authorizeRequest(b2b, creds).form!;
    expect(f).toMatchObject({ request: 'authorization', businessrelation: 'b2b', company: 'ACME GmbH', vatid: 'DE123456789', birthday: '19700506' });
    b2b.order!.metadata = { buyer_type: 'business', company_name: 'ACME GmbH' };
    expect(broken('authorize', authorizeRequest(b2b, creds).form!)).toEqual({ field: 'birthday', message: 'birthday is required' });
  });

  it('the basket: unit gross prices in minor units, shipping as shipment, an uneven line as one position, VAT in basis points', () => {
    expect(
      basketOf([
        { product_name: 'Lamp', quantity: 2, amount: 9_520, tax_percentage: 19, product_id: 'sku-lamp' },
        { product_name: 'Shipping', quantity: 1, amount: 2_380, tax_percentage: 19, category: 'shipping_costs' },
        { product_name: 'Pen', quantity: 3, amount: 1_000, tax_percentage: 7.7 },
      ]),
    ).toEqual({
      'it[1]': 'goods',
      'id[1]': 'sku-lamp',
      'pr[1]': '4760',
      'no[1]': '2',
      'de[1]': 'Lamp',
      'va[1]': '1900',
      'it[2]': 'shipment',
      'id[2]': 'shipping',
      'pr[2]': '2380',
      'no[2]': '1',
      'de[2]': 'Shipping',
      'va[2]': '1900',
      'it[3]': 'goods',
      'id[3]': 'line-3',
      'pr[3]': '1000',
      'no[3]': '1',
      'de[3]': '3 x Pen',
      'va[3]': '770',
    });
    expect(vatParam(7)).toBe('700');
    expect(vatParam(0)).toBe('0');
  });

  it('follow-ups number themselves after the accepted ones: capture, release (capture of 0), debit with a negative amount', () => {
    const tx = { connector_transaction_id: '123456789' };
    expect(captureRequest(job({ ...tx, kind: 'capture', amount: 4_000, capture_method: 'manual_multiple', follow_ups_before: 0 }), creds).form).toMatchObject({
      request: 'capture',
      txid: '123456789',
      sequencenumber: '1',
      amount: '4000',
      currency: 'EUR',
    });
    expect(captureRequest(job({ ...tx, kind: 'capture', follow_ups_before: 1 }), creds).form).toMatchObject({ sequencenumber: '2' });
    expect(voidRequest(job({ ...tx, kind: 'void', follow_ups_before: 0 }), creds).form).toMatchObject({ request: 'capture', amount: '0', sequencenumber: '1' });
    expect(refundRequest(job({ ...tx, kind: 'refund', amount: 2_500, follow_ups_before: 2 }), creds).form).toMatchObject({
      request: 'debit',
      amount: '-2500',
      sequencenumber: '3',
    });
  });

  it("the reference keeps 20 of PAYONE's characters of the payment id", () => {
    expect(referenceOf('pay_abcdefghijklmnopqrstuvwxyz')).toBe('ghijklmnopqrstuvwxyz');
    expect(referenceOf('my order #1')).toBe('myorder1');
  });
});

describe('payla answers', () => {
  it('splits key=value lines (LF or CRLF; a value keeps its own =)', () => {
    expect(splitLines('status=APPROVED\r\ntxid=1\nx=a=b\n\n')).toEqual({ status: 'APPROVED', txid: '1', x: 'a=b' });
  });

  it("APPROVED: authorized (preauthorization) or captured (authorization), the txid the payment's id, userid its reference", () => {
    expect(authorizeOutcome(text(answers.preauthorization_approved), job())).toEqual({
      kind: 'AUTHORIZED',
      connector_transaction_id: '123456789',
      connector_reference_id: '987654321',
    });
    expect(authorizeOutcome(text(answers.preauthorization_approved), job({ capture_method: 'automatic' })).kind).toBe('CAPTURED');
    expect(authorizeOutcome(text(answers.pending), job())).toEqual({ kind: 'PENDING', connector_transaction_id: '123456790' });
  });

  it("ERROR: PAYONE's errorcode and messages; a risk decline UE_1000, a parameter UE_2000, the key FAILED with UE_4000", () => {
    expect(authorizeOutcome(text(answers.error_risk_decline), job())).toEqual({
      kind: 'DECLINED',
      error_code: '307',
      error_message: 'Declined by risk check (customer: Leider ist die Zahlung per Rechnungskauf nicht möglich.)',
      unified_code: 'UE_1000',
      unified_message: 'The customer was declined by the provider',
    });
    expect(authorizeOutcome(text(answers.error_parameter), job())).toMatchObject({ kind: 'DECLINED', error_code: '1001', unified_code: 'UE_2000' });
    expect(authorizeOutcome(text(answers.error_key), job())).toMatchObject({
      kind: 'FAILED',
      error_code: '1001',
      error_message: expect.stringContaining('{key}'),
      unified_code: 'UE_4000',
    });
    // PAYONE's published list gives 1-99 to the card issuer's answers (2 "Authorization declined"): not the account's
    // credentials, which the old mapping made of every code below 100.
    expect(authorizeOutcome(text('status=ERROR\nerrorcode=2\nerrormessage=Authorization declined\n'), job())).toMatchObject({
      kind: 'DECLINED',
      error_code: '2',
      unified_code: 'UE_9000',
    });
  });

  it('follow-ups: captured under "<txid>-<sequencenumber>", voided, refunded; a refused debit DECLINED UE_6000; a sequence error UE_3000', () => {
    const tx = { connector_transaction_id: '123456789', follow_ups_before: 1 };
    expect(captureOutcome(text(answers.capture_approved), job({ ...tx, kind: 'capture' }))).toEqual({
      kind: 'CAPTURED',
      connector_transaction_id: '123456789-2',
    });
    expect(voidOutcome(text(answers.capture_approved))).toEqual({ kind: 'VOIDED' });
    expect(refundOutcome(text(answers.debit_approved), job({ ...tx, kind: 'refund' }))).toEqual({ kind: 'REFUNDED', connector_transaction_id: '123456789-2' });
    expect(refundOutcome(text(answers.debit_declined), job({ ...tx, kind: 'refund' }))).toMatchObject({
      kind: 'DECLINED',
      error_code: '991',
      unified_code: 'UE_6000',
    });
    // The sequence number taken: maybe by this operation's own lost attempt. Never failed: left in flight.
    expect(captureOutcome(text(answers.error_sequence), job({ ...tx, kind: 'capture' }))).toEqual({ kind: 'PENDING' });
  });

  it("an answer that is not PAYONE's is unexpected (retried), never an outcome", () => {
    expect(() => authorizeOutcome({ status: 200, body: { status: 'APPROVED' } }, job())).toThrow(UnexpectedAnswer);
    expect(() => authorizeOutcome(text('<html>gateway timeout</html>'), job())).toThrow(UnexpectedAnswer);
    expect(() => authorizeOutcome(text('status=APPROVED\n'), job())).toThrow(UnexpectedAnswer);
  });
});

describe('payla TransactionStatus', () => {
  it('is a hint naming the txid and the txaction (its key in the body is checked by nothing of ours)', () => {
    expect(parseNotification(answers.transaction_status_appointed)).toEqual({ object: 'hint', connector_transaction_id: '123456789', event: 'appointed' });
    expect(parseNotification(answers.transaction_status_debit)).toEqual({ object: 'hint', connector_transaction_id: '123456789', event: 'debit' });
    expect(parseNotification('{"event":"x"}').object).toBe('unknown');
    expect(parseNotification('key=abc&txaction=appointed&txid=1&portalid=1').object).toBe('unknown');
  });
});

describe('mandates (issue 22)', () => {
  it('declares none, and the README says what was searched: PAYONE publishes no recurring charge for the secured invoice', () => {
    // Absent `mandates`: the gateway refuses a mandate request through payla before anything is queued.
    expect(manifest.mandates ?? null).toBeNull();
    const readme = readFileSync(new URL('./README.md', import.meta.url), 'utf8');
    const line = /^## Mandates\n\n(.+)$/m.exec(readme)?.[1] ?? '';
    expect(line).toMatch(/^None published\b.*refused up front\. Searched \(\d{4}-\d{2}-\d{2}\): /);
  });
});
