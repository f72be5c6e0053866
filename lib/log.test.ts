// Logs never carry card data or secrets, at any depth (issue 19, item 10).
import { describe, expect, it } from 'vitest';
import { log, redact } from './log.ts';

const SECRETS = [
  '4111111111111111',
  '5555 5555 5555 4444',
  '737',
  'snd_api_key_value',
  'pay_x_secret_clientsecret',
  'whsec_notification',
  'hunter2-password',
  'hash-key-of-the-profile',
  'provider-api-secret',
  'provider-key1',
  'provider-key2',
  'bearer-token-value',
  'refresh-token-value',
  'checkout-token-value',
  'sig-value',
  'sk_private_pem',
];

/** One object as a careless caller might log it: card data and secrets at every depth, beside fields that stay. */
const careless = {
  payment_id: 'pay_abc',
  amount: 1000,
  object_key: 'events/1.json',
  connector: 'billie',
  body: {
    payment_method_data: { pay_later: { card: { card_number: '4111111111111111', cvc: '737' } } },
    card_number: '5555 5555 5555 4444',
    CVC: '737',
    headers: { 'api-key': 'snd_api_key_value', Authorization: 'Bearer bearer-token-value', 'webhook-signature': 'sig-value' },
    client_secret: 'pay_x_secret_clientsecret',
    profile: { payment_response_hash_key: 'hash-key-of-the-profile', password: 'hunter2-password' },
    connector_account_details: { auth_type: 'BodyKey', api_key: 'x', key1: 'provider-key1' },
    creds: { api_secret: 'provider-api-secret', key2: 'provider-key2', private_key: 'sk_private_pem' },
    webhook_details: { merchant_secret: 'whsec_notification' },
    oauth: { access_token: 'x', refresh_token: 'refresh-token-value', signed_checkout_token: 'checkout-token-value' },
    note: 'customer wrote 4111 1111 1111 1111 in the note',
  },
};
// Deeper than any walk would go by accident.
let deep: Record<string, unknown> = { card_number: '4111111111111111', secret: 'whsec_notification' };
for (let i = 0; i < 30; i++) deep = { level: deep };

function captured(fn: () => void): string {
  const write = process.stdout.write;
  let out = '';
  process.stdout.write = ((chunk: string) => {
    out += chunk;
    return true;
  }) as typeof process.stdout.write;
  try {
    fn();
  } finally {
    process.stdout.write = write;
  }
  return out;
}

describe('log redaction', () => {
  it('logs nothing sensitive from an object carrying card data and secrets at any depth', () => {
    const out = captured(() => {
      log.info('payment request 4111111111111111', careless);
      log.error('failed', { err: new Error('provider refused card 4111-1111-1111-1111'), deep });
    });
    expect(out.split('\n').filter(Boolean)).toHaveLength(2);
    for (const s of SECRETS) expect(out, s).not.toContain(s);
    expect(out).not.toMatch(/4111|5555 5555/);
    // What is not sensitive stays readable, and a masked card keeps its last four digits.
    const line = JSON.parse(out.split('\n')[0]);
    expect(line).toMatchObject({ payment_id: 'pay_abc', amount: 1000, object_key: 'events/1.json', connector: 'billie' });
    expect(line.msg).toBe('payment request [card number ****1111]');
    expect(line.body.note).toBe('customer wrote [card number ****1111] in the note');
    expect(line.body.card_number).toBe('[redacted]');
  });

  it('keys are matched whatever their case, and arrays are walked', () => {
    expect(
      redact({
        list: [
          { Card_Number: '4', CVV: '1' },
          { Api_Key: 'k', session_token: 't' },
        ],
      }),
    ).toEqual({
      list: [
        { Card_Number: '[redacted]', CVV: '[redacted]' },
        { Api_Key: '[redacted]', session_token: '[redacted]' },
      ],
    });
  });
});
