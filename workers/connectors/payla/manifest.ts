// payla: Payla's BNPL (PAYONE Secured Invoice, clearingtype fnc / financingtype PIV) through PAYONE's Server API
// (form-encoded key=value calls to one endpoint), imitated by services/provider-sandbox/providers/payla/. See README.md.
import { z } from 'zod';
import { defineManifest } from '../manifest.ts';

/**
 * MultiAuthKey: api_key = PAYONE portalid, key1 = mid (merchant), key2 = aid (sub-account), api_secret = the portal
 * key (sent hashed as `key`, never in clear).
 */
export const paylaCredentials = z.object({
  auth_type: z.literal('MultiAuthKey'),
  api_key: z.string().regex(/^\d{1,7}$/, 'the PAYONE portalid'),
  key1: z.string().regex(/^\d{1,5}$/, 'the PAYONE mid'),
  key2: z.string().regex(/^\d{1,6}$/, 'the PAYONE aid'),
  api_secret: z.string().min(1),
});

export const PAYLA_SANDBOX = { portalid: '2030968', mid: '42865', aid: '42949', portal_key: 'payla-sandbox-portal-key' } as const;

export const manifest = defineManifest({
  name: 'payla',
  display_name: 'PAYONE Secured Invoice (Payla)',
  // No status read exists in PAYONE's Server API (no sync, no refundSync); TransactionStatus notifications only prove
  // themselves by a key in the body, so they are hints (webhook 'unsigned'), which have nothing to sync here.
  flows: ['authorize', 'capture', 'void', 'refund', 'notification'],
  // automatic: request=authorization (reserve and capture in one call); manual: request=preauthorization.
  capture_methods: ['automatic', 'manual', 'manual_multiple'],
  automatic_capture: 'provider',
  partial_capture: true,
  multiple_capture: true,
  partial_refund: true,
  countries: ['DE', 'AT'],
  currencies: ['EUR'],
  customers: ['B2C', 'B2B'],
  // PAYONE also needs the birthday (metadata.birth_date, or the payment's birth_date: one path cannot say "either"),
  // and for B2B metadata.company_name ("for B2B only" neither): PAYONE's own parameter error answers a missing one.
  required_fields: [
    'billing.address.first_name',
    'billing.address.last_name',
    'billing.address.line1',
    'billing.address.zip',
    'billing.address.city',
    'billing.address.country',
    'customer.email',
    'customer.phone',
    'browser_info.device_fingerprint.payla',
    // issue 21: PAYONE requires `ip` on the secured invoice's (pre)authorization (README.md, Sources).
    'browser_info.ip_address',
  ],
  auth_type: 'MultiAuthKey',
  credentials: paylaCredentials,
  sandbox_account_details: {
    auth_type: 'MultiAuthKey',
    api_key: PAYLA_SANDBOX.portalid,
    key1: PAYLA_SANDBOX.mid,
    key2: PAYLA_SANDBOX.aid,
    api_secret: PAYLA_SANDBOX.portal_key,
  },
  settings: {
    // The real one: https://api.pay1.de (test and live alike: `mode` tells them apart); the path is /post-gateway/.
    base_url: { env: 'PAYLA_BASE_URL', default: 'sandbox/payla' },
    default_api_key: { env: 'PAYLA_API_KEY', default: PAYLA_SANDBOX.portalid },
  },
  // PAYONE wants the body TSOK to a TransactionStatus, else it sends it again (woocommerce-3 Plugin::process_callback,
  // shopware-6 WebhookProcessor, magento-2 Controller/Transactionstatus/Index: all answer `TSOK`).
  webhook: { scheme: 'unsigned', acknowledgement: 'TSOK' },
  amount_unit: 'minor',
  queue: { concurrency: null, limiter: null, attempts: null, backoff_ms: null, rate_limited_ms: 1_000 },
  // README.md's Sources (issue 21): 44 points traced to PAYONE's plugins and docs, 13 UNVERIFIED.
  verification: { verified: 44, unverified: 13, level: 'partial' },
});
