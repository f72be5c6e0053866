// The checkout page: the secure link's frame-ancestors (issue 19, item 8), and its words (issue 23): it names the
// merchant and the order, and says what happened in plain words.
import { describe, expect, it } from 'vitest';
import { PaymentLinkConfig } from '../lib/schemas/payment-link.ts';
import { framingOrigins } from '../domain/intent.ts';
import { pageHeaders } from './checkout-page.ts';
import { createIntent } from '../domain/intent.ts';
import type { StoredPayment } from '../domain/payment.ts';
import { PAYMENT_STATUSES } from '../lib/schemas/common.ts';
import { CUSTOMER_WORDS, checkoutPage } from './checkout-page.ts';

const NOW = new Date();
function payment(extra: Partial<StoredPayment> = {}): StoredPayment {
  const p = createIntent(
    'm1',
    { amount: 12_345, currency: 'EUR', payment_link: true, description: 'Chair <oak>', merchant_order_reference_id: 'ORD-7' },
    { now: NOW, paymentId: `pay_${'1'.repeat(26)}`, clientSecret: (id) => `${id}_secret_x`, newCustomerId: () => 'cus_1', ephemeralSecret: () => 'epk_1' },
  );
  return { ...p, ...extra };
}
const merchant = { merchant_id: 'm1', merchant_name: 'Oak & Sons' };
const stateOf = (html: string) => /<p id="state" role="status">([^<]*)<\/p>/.exec(html)?.[1];

describe('checkout page words', () => {
  it('names the merchant, the amount, the order reference and the description, escaped', () => {
    const html = checkoutPage(payment(), 'n', merchant);
    expect(html).toContain('Pay <strong>Oak &#38; Sons</strong>');
    expect(html).toContain('<h1 id="amount">123.45 EUR</h1>');
    expect(html).toContain('<p id="order">Order ORD-7</p>');
    expect(html).toContain('Chair &#60;oak&#62;');
    expect(html).toContain('<button id="pay">');
    // A merchant without a name: its id.
    expect(checkoutPage(payment(), 'n', { merchant_id: 'm1', merchant_name: null })).toContain('Pay <strong>m1</strong>');
  });

  it('says what happened in plain words, never "This payment is <status>"', () => {
    const cases: [StoredPayment['status'], string][] = [
      ['succeeded', 'Payment received'],
      ['requires_capture', 'Payment authorized — the merchant will take it when your order ships'],
      ['failed', 'Payment failed'],
      ['cancelled', 'This payment was cancelled'],
    ];
    for (const [status, words] of cases) {
      const html = checkoutPage(payment({ status }), 'n', merchant);
      expect(stateOf(html)).toBe(words);
      expect(html).not.toContain('<button id="pay">');
    }
    for (const status of PAYMENT_STATUSES) expect(CUSTOMER_WORDS[status]).not.toMatch(/_|This payment is /);
  });

  it('an unpaid payment whose link expired says so; a paid one still says it was received', () => {
    const past = new Date(Date.now() - 1_000).toISOString();
    expect(stateOf(checkoutPage(payment({ expires_on: past }), 'n', merchant))).toBe('This payment link has expired');
    expect(stateOf(checkoutPage(payment({ expires_on: past, status: 'succeeded' }), 'n', merchant))).toBe('Payment received');
  });

  it("the page's script says the same words after the pay button", () => {
    const html = checkoutPage(payment(), 'n', merchant);
    const words = JSON.parse(/const WORDS = (.*);\n/.exec(html)![1]!);
    expect(words).toEqual(CUSTOMER_WORDS);
  });
});

describe('frame-ancestors of the secure link', () => {
  it('keeps the normalized origins, and the CSP names exactly them', () => {
    const r = PaymentLinkConfig.parse({ allowed_domains: ['https://Shop.Example/', 'https://*.shop.example:8443'], theme: '#000' });
    expect(r.allowed_domains).toEqual(['https://shop.example', 'https://*.shop.example:8443']);
    const origins = framingOrigins({ request_extras: { payment_link_config: r } });
    expect(pageHeaders('n', origins)['content-security-policy']).toMatch(/; frame-ancestors https:\/\/shop\.example https:\/\/\*\.shop\.example:8443$/);
  });
  it('a value stored before the rule never reaches the header', () => {
    const origins = framingOrigins({
      request_extras: { payment_link_config: { allowed_domains: ['https://*', 'https://a.com;sandbox', 'https://shop.example'] } },
    });
    expect(origins).toEqual(['https://shop.example']);
    expect(framingOrigins({ request_extras: { payment_link_config: { allowed_domains: ['https://*', 7] } } })).toBeNull();
  });
});
