// ratepay: Ratepay's Payment API 2.0 (REST/JSON, decimals, OAuth2 client credentials -> Bearer JWT), imitated by
// services/provider-sandbox/providers/ratepay/. See README.md.
import { z } from 'zod';
import { defineManifest } from '../manifest.ts';

/** BodyKey: api_key = OAuth2 client id, key1 = client secret; key2 = the partner shop id Ratepay gave the merchant
 * (the default when a payment's metadata.partner_shop_id names none). */
export const ratepayCredentials = z.object({
  auth_type: z.literal('BodyKey'),
  api_key: z.string().min(1),
  key1: z.string().min(1),
  key2: z.string().min(1).max(50).optional(),
});

export const RATEPAY_SANDBOX = {
  client_id: 'ratepay_sandbox_client',
  client_secret: 'ratepay_sandbox_client_secret',
  partner_shop_id: 'INTEGRATION_TE_DACH',
} as const;

export const manifest = defineManifest({
  name: 'ratepay',
  display_name: 'Ratepay',
  flows: ['authorize', 'sync', 'capture', 'void', 'refund', 'refundSync'],
  capture_methods: ['automatic', 'manual', 'manual_multiple'],
  partial_capture: true,
  multiple_capture: true,
  partial_refund: true,
  countries: ['DE', 'AT', 'CH', 'NL'],
  currencies: ['EUR', 'CHF'],
  customers: ['B2C', 'B2B'],
  // B2B payments (metadata.buyer_type 'business') also need metadata.company_name (Ratepay's buyer.company.name).
  required_fields: [
    'billing.address.line1',
    'billing.address.zip',
    'billing.address.city',
    'billing.address.country',
    'metadata.birth_date',
    'browser_info.device_fingerprint.ratepay',
  ],
  auth_type: 'BodyKey',
  credentials: ratepayCredentials,
  sandbox_account_details: {
    auth_type: 'BodyKey',
    api_key: RATEPAY_SANDBOX.client_id,
    key1: RATEPAY_SANDBOX.client_secret,
    key2: RATEPAY_SANDBOX.partner_shop_id,
  },
  settings: {
    // The API host (https://api-integration.ratepay.com, https://api.ratepay.com); the token comes from oauth.ratepay.com.
    base_url: { env: 'RATEPAY_BASE_URL', default: 'sandbox' },
    default_api_key: { env: 'RATEPAY_API_KEY', default: RATEPAY_SANDBOX.client_id },
  },
  // The Payment API decides synchronously and notifies nothing about a transaction.
  webhook: null,
  amount_unit: 'major',
  queue: { concurrency: null, limiter: null, attempts: null, backoff_ms: null, rate_limited_ms: 1_000 },
  // README.md: 33 request and answer points traced to the provider's own material (its Sources tables), 12 UNVERIFIED.
  verification: { verified: 33, unverified: 12, level: 'partial' },
});
