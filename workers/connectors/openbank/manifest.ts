// openbank: Openbank / Santander Consumer's "Zinia" buy now, pay later (pay in 30 days, instalments) for consumers in
// DE, ES and NL, imitated by services/provider-sandbox/providers/openbank/. Reference:
// ../shared/reference/providers/openbank.md (sourcing weak: most of the dialect is UNVERIFIED, see README.md).
import { z } from 'zod';
import { defineManifest } from '../manifest.ts';

/**
 * SignatureKey: api_key = the Merchant API Key (header Ocp-Apim-Subscription-Key on every call), key1 = the Client ID,
 * api_secret = the Client Secret (both for POST /auth/login, which issues the Bearer token).
 */
export const openbankCredentials = z.object({ api_key: z.string().min(1), key1: z.string().min(1), api_secret: z.string().min(1) });

export const OPENBANK_SANDBOX = {
  api_key: 'openbank_sandbox_merchant_api_key',
  client_id: 'openbank_sandbox_client_id',
  client_secret: 'openbank_sandbox_client_secret',
} as const;

export const manifest = defineManifest({
  name: 'openbank',
  display_name: 'Openbank Zinia (pay in 30 days, instalments)',
  // Notifications are hints (Zinia's body is {order_id, status, ...}, unsigned): the worker re-reads the order.
  flows: ['authorize', 'sync', 'capture', 'void', 'refund', 'refundSync', 'notification'],
  // Zinia approves a financing; the merchant confirms the shipment (our capture) within the finalisation window, in
  // one or several parts. An automatic capture is our shipment confirmation once the order is approved.
  capture_methods: ['automatic', 'manual', 'manual_multiple'],
  automatic_capture: 'follow_up',
  partial_capture: true,
  multiple_capture: true,
  partial_refund: true,
  countries: ['DE', 'ES', 'NL'],
  currencies: ['EUR'],
  customers: ['B2C'],
  customer_step: 'always',
  // The Link-Up needs the way back; the mobile number and birth date Zinia requires are refused by Zinia itself
  // (they may come from several of our fields: customer.phone or billing.phone, metadata.birth_date or birth_date).
  required_fields: ['customer.email', 'return_url', 'billing.address.line1', 'billing.address.zip', 'billing.address.city', 'billing.address.country'],
  auth_type: 'SignatureKey',
  credentials: openbankCredentials,
  sandbox_account_details: {
    auth_type: 'SignatureKey',
    api_key: OPENBANK_SANDBOX.api_key,
    key1: OPENBANK_SANDBOX.client_id,
    api_secret: OPENBANK_SANDBOX.client_secret,
  },
  settings: {
    // Unset: the provider sandbox's imitation (/openbank). Set: Zinia's API root for the merchant (UNVERIFIED hosts).
    base_url: { env: 'OPENBANK_BASE_URL', default: 'sandbox/openbank' },
    default_api_key: { env: 'OPENBANK_API_KEY', default: OPENBANK_SANDBOX.api_key },
  },
  webhook: { scheme: 'unsigned' },
  amount_unit: 'major',
  queue: { concurrency: null, limiter: null, attempts: null, backoff_ms: null, rate_limited_ms: 1_000 },
  // README.md has no Sources table yet (traced in issue 21): 8 points listed UNVERIFIED, the rest not yet checked.
  verification: { verified: 0, unverified: 8, level: 'preview' },
});
