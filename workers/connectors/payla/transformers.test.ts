// payla's transformers against PAYONE's documented shapes (fixtures/): the authorization's form parameters, the
// key=value answers, the error codes, follow-up sequence numbers and the TransactionStatus body.
import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import type { ConnectorJob } from '../../../domain/job.ts';
import { UnexpectedAnswer } from '../types.ts';
import answers from './fixtures/answers.json' with { type: 'json' };
import requests from './fixtures/requests.json' with { type: 'json' };
import { PAYLA_SANDBOX } from './manifest.ts';
import { parseNotification } from './notification.ts';
import { authorizeRequest, basketOf, captureRequest, referenceOf, refundRequest, vatParam, voidRequest } from './request.ts';
import { authorizeOutcome, captureOutcome, refundOutcome, splitLines, voidOutcome } from './response.ts';

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
    customer_email: 't@example.com',
    return_url: null,
    merchant_order_reference_id: 'R1001',
    mode: 'execute',
    sync_round: 0,
    order: {
      customer: { id: 'cus_1', name: 'Test Test', email: 't@example.com', phone: '+49304658976', phone_country_code: null },
      billing: { address: { first_name: 'Test', last_name: 'Test', line1: 'Mustergasse 5', zip: '10969', city: 'Berlin', country: 'DE' } },
      shipping: null,
      order_details: [{ product_name: 'Test', quantity: 1, amount: 10_000, product_id: 'SKU1', tax_percentage: 19 }],
      order_tax_amount: 1_597,
      metadata: { birth_date: '2000-01-01', buyer_type: 'consumer' },
      browser_info: { device_fingerprint: { payla: 'e7yeryF2of8X_42865_3f1c2a' } },
      description: null,
      payment_method_type: 'invoice',
      birth_date: null,
      gender: null,
      locale: null,
    },
    ...over,
  };
}

/** The sheet's example as written (unencoded): split on & and the first =. */
const documented = Object.fromEntries(requests.preauthorization.split('&').map((kv) => [kv.slice(0, kv.indexOf('=')), kv.slice(kv.indexOf('=') + 1)]));

describe('payla requests', () => {
  it('a manual-capture authorization is the documented preauthorization, with the account parameters and md5 key', () => {
    const r = authorizeRequest(job(), creds);
    expect(r).toMatchObject({ method: 'POST', path: '/post-gateway/', answer: 'text' });
    const f = r.form!;
    for (const k of [
      'request',
      'clearingtype',
      'financingtype',
      'mode',
      'amount',
      'currency',
      'firstname',
      'lastname',
      'street',
      'zip',
      'city',
      'country',
      'email',
      'telephonenumber',
      'birthday',
      'businessrelation',
      'it[1]',
      'id[1]',
      'pr[1]',
      'no[1]',
      'de[1]',
      'va[1]',
      'add_paydata[device_token]',
    ]) {
      expect([k, f[k]]).toEqual([k, documented[k]]);
    }
    expect(f).toMatchObject({
      mid: '42865',
      aid: '42949',
      portalid: '2030968',
      api_version: '3.10',
      encoding: 'UTF-8',
      key: createHash('md5').update(PAYLA_SANDBOX.portal_key).digest('hex'),
      reference: 'EFGHIJKLMNOPQRSTUVWXYZ'.slice(-20),
      param: 'R1001',
    });
    expect(f.reference).toHaveLength(20);
    expect(JSON.stringify(f)).not.toContain(PAYLA_SANDBOX.portal_key);
  });

  it('automatic capture is request=authorization; B2B sends company and vatid instead of a birthday', () => {
    const b2b = job({ capture_method: 'automatic' });
    b2b.order!.metadata = { buyer_type: 'business', company_name: 'ACME GmbH', company_vat_id: 'DE123456789' };
    const f = authorizeRequest(b2b, creds).form!;
    expect(f).toMatchObject({ request: 'authorization', businessrelation: 'b2b', company: 'ACME GmbH', vatid: 'DE123456789' });
    expect(f.birthday).toBeUndefined();
  });

  it('the basket: unit gross prices in minor units, shipping as shipment, an uneven line as one position, VAT in percent or basis points', () => {
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
      'va[1]': '19',
      'it[2]': 'shipment',
      'id[2]': 'shipping',
      'pr[2]': '2380',
      'no[2]': '1',
      'de[2]': 'Shipping',
      'va[2]': '19',
      'it[3]': 'goods',
      'id[3]': 'line-3',
      'pr[3]': '1000',
      'no[3]': '1',
      'de[3]': '3 x Pen',
      'va[3]': '770',
    });
    expect(vatParam(7)).toBe('7');
  });

  it('follow-ups number themselves after the accepted ones: capture, release (capture of 0), debit with a negative amount', () => {
    const tx = { connector_transaction_id: '123456789' };
    expect(captureRequest(job({ ...tx, kind: 'capture', amount: 4_000, capture_method: 'manual_multiple', follow_ups_before: 0 }), creds).form).toMatchObject({
      request: 'capture',
      txid: '123456789',
      sequencenumber: '1',
      amount: '4000',
      currency: 'EUR',
      capturemode: 'notcompleted',
    });
    expect(captureRequest(job({ ...tx, kind: 'capture', follow_ups_before: 1 }), creds).form).toMatchObject({ sequencenumber: '2', capturemode: 'completed' });
    expect(voidRequest(job({ ...tx, kind: 'void', follow_ups_before: 0 }), creds).form).toMatchObject({
      request: 'capture',
      amount: '0',
      capturemode: 'completed',
      sequencenumber: '1',
    });
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
      error_code: '2',
      error_message: expect.stringContaining('{key}'),
      unified_code: 'UE_4000',
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
