// The secure link's frame-ancestors comes only from allowed_domains that are origins (issue 19, item 8).
import { describe, expect, it } from 'vitest';
import { PaymentLinkConfig } from '../lib/schemas/payment-link.ts';
import { framingOrigins } from '../domain/intent.ts';
import { pageHeaders } from './checkout-page.ts';

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
