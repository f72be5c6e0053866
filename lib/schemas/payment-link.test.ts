// payment_link_config.allowed_domains: what may go into the secure link's frame-ancestors (issue 19, item 8).
import { describe, expect, it } from 'vitest';
import { CreatePaymentRequest, UpdatePaymentRequest, ConfirmPaymentRequest } from './payment.ts';
import { framingSource } from './payment-link.ts';

const REFUSED = [
  // The issue's values: framing by anyone, an appended directive, and two that answered 500.
  'https://*',
  'https://a.com;sandbox',
  '*',
  'https://a.com; script-src *',
  // Bare TLD and public-suffix wildcards, a wildcard not in front.
  'https://*.com',
  'https://*.example',
  'https://*.co.uk',
  'https://*.com.au',
  'https://shop.*.example',
  'https://*shop.example',
  'https://*.*.shop.example',
  'https://*.1.2.3',
  // Not an origin: path, query, fragment, userinfo, other schemes, no scheme.
  'https://shop.example/checkout',
  'https://shop.example?x=1',
  'https://shop.example#x',
  'https://u:p@shop.example',
  'https://u@shop.example',
  'http://shop.example',
  'javascript:alert(1)',
  'shop.example',
  '//shop.example',
  'wss://shop.example',
  "'self'",
  "'none'",
  'https:',
  'https://',
  // Not a hostname, bad ports, CSP metacharacters.
  'https://-shop.example',
  'https://shop-.example',
  'https://sh_op.example',
  'https://shop..example',
  'https://.shop.example',
  'https://shop.example:0',
  'https://shop.example:65536',
  'https://shop.example:',
  'https://shop.example:x',
  'https://shop.example,https://evil.example',
  'https://shop.example https://evil.example',
  "https://shop.example'",
  'https://[::1]',
  'https://999.1.1.1',
  'https://1.2.3',
  `https://${'a'.repeat(64)}.example`,
  'http://*.localhost',
];

const ACCEPTED: [string, string][] = [
  ['https://shop.example', 'https://shop.example'],
  ['https://shop.example/', 'https://shop.example'],
  ['HTTPS://Shop.Example:8443', 'https://shop.example:8443'],
  ['https://*.shop.example', 'https://*.shop.example'],
  ['https://*.shop.co.uk', 'https://*.shop.co.uk'],
  ['https://shop.co.uk', 'https://shop.co.uk'],
  ['https://bücher.example', 'https://xn--bcher-kva.example'],
  ['https://xn--bcher-kva.example', 'https://xn--bcher-kva.example'],
  ['http://localhost:8080/', 'http://localhost:8080'],
  ['http://127.0.0.1:3000', 'http://127.0.0.1:3000'],
  ['https://93.184.216.34', 'https://93.184.216.34'],
];

describe('framingSource', () => {
  it.each(REFUSED)('refuses %s', (value) => {
    expect(framingSource(value)).toHaveProperty('problem');
  });
  it.each(ACCEPTED)('accepts %s as %s', (value, source) => {
    expect(framingSource(value)).toEqual({ source });
  });
});

describe('payment_link_config.allowed_domains in every payment schema', () => {
  const base = { amount: 100, currency: 'EUR' };
  it.each(REFUSED)('create, update and confirm refuse %s at its index, without throwing', (value) => {
    for (const schema of [CreatePaymentRequest, UpdatePaymentRequest, ConfirmPaymentRequest]) {
      const r = schema.safeParse({ ...base, payment_link_config: { allowed_domains: ['https://ok.example', value] } });
      expect(r.success).toBe(false);
      expect(r.error!.issues[0].path).toEqual(['payment_link_config', 'allowed_domains', 1]);
    }
  });
});
