// unzer: Unzer Invoice (Payment API v1, payment type paylater-invoice), imitated by
// services/provider-sandbox/providers/unzer/. Traced to Unzer's own material: README.md, Sources.
import { z } from 'zod';
import { defineManifest } from '../manifest.ts';

/** The private key (s-priv-… sandbox, p-priv-… production), sent as the Basic user with an empty password. */
export const unzerCredentials = z.object({ api_key: z.string().min(1) });

export const UNZER_SANDBOX_KEY = 's-priv-2a10sandboxunzer0000000000';

export const manifest = defineManifest({
  name: 'unzer',
  display_name: 'Unzer Invoice',
  // Unzer's webhooks are unsigned ({event, publicKey, retrieveUrl, paymentId}): each is a hint on which the worker
  // syncs the payment it names, never trusting the body (notification.ts, README.md).
  flows: ['authorize', 'sync', 'capture', 'void', 'refund', 'refundSync', 'notification'],
  capture_methods: ['automatic', 'manual', 'manual_multiple'],
  partial_capture: true,
  multiple_capture: true,
  partial_refund: true,
  countries: ['DE', 'AT', 'NL', 'CH'],
  currencies: ['EUR', 'CHF'],
  customers: ['B2B', 'B2C'],
  customer_step: 'when_asked',
  // B2C also needs metadata.birth_date (or birth_date), B2B metadata.company_name: required_fields cannot say "for
  // B2C only", so Unzer's own validation error answers a missing one.
  required_fields: [
    'billing.address.first_name',
    'billing.address.last_name',
    'billing.address.line1',
    'billing.address.zip',
    'billing.address.city',
    'billing.address.country',
    'browser_info.device_fingerprint.unzer',
  ],
  auth_type: 'HeaderKey',
  credentials: unzerCredentials,
  sandbox_account_details: { auth_type: 'HeaderKey', api_key: UNZER_SANDBOX_KEY },
  settings: {
    // The real one: https://sbx-api.unzer.com (sandbox keys) or https://api.unzer.com; the paths are /v1/..., /v2/...
    base_url: { env: 'UNZER_BASE_URL', default: 'sandbox/unzer' },
    default_api_key: { env: 'UNZER_API_KEY', default: UNZER_SANDBOX_KEY },
  },
  webhook: { scheme: 'unsigned' },
  amount_unit: 'major',
  queue: { concurrency: null, limiter: null, attempts: null, backoff_ms: null, rate_limited_ms: 1_000 },
  // README.md: 52 points traced to Unzer's own material (its SDKs, Shopware and Magento plugins, docs), 12 UNVERIFIED (issue 21).
  verification: { verified: 52, unverified: 12, level: 'partial' },
});
