// riverty (formerly Arvato AfterPay), eCommerce API v3: invoice / installments for consumers and companies, imitated
// by services/provider-sandbox/providers/riverty/.
import { z } from 'zod';
import { defineManifest } from '../manifest.ts';

export const rivertyCredentials = z.object({ api_key: z.string().min(1) });

export const manifest = defineManifest({
  name: 'riverty',
  display_name: 'Riverty (invoice and installments)',
  flows: ['authorize', 'sync', 'capture', 'void', 'refund', 'notification'],
  // Hosts (docs.riverty.com FAQ): partner test https://api.bnpl-pt.riverty.io, production https://api.bnpl.riverty.io,
  // every path under /api/v3 (request.ts API). RIVERTY_BASE_URL unset: the provider sandbox's imitation.
  // An authorization is a reservation; the capture is the invoice, sent when the goods ship (README.md). An automatic
  // capture is our capture call once the reservation is made.
  capture_methods: ['automatic', 'manual', 'manual_multiple'],
  automatic_capture: 'follow_up',
  partial_capture: true,
  multiple_capture: true,
  countries: ['DE', 'AT', 'CH', 'NL', 'BE', 'SE', 'NO', 'DK', 'FI'],
  currencies: ['EUR', 'NOK', 'SEK', 'DKK', 'CHF'],
  customers: ['B2B', 'B2C'],
  customer_step: 'when_asked',
  required_fields: ['billing.address.country', 'billing.address.line1', 'billing.address.zip', 'billing.address.city'],
  auth_type: 'HeaderKey',
  credentials: rivertyCredentials,
  sandbox_account_details: { auth_type: 'HeaderKey', api_key: 'riverty_sandbox_api_key' },
  partial_refund: true,
  settings: {
    base_url: { env: 'RIVERTY_BASE_URL', default: 'sandbox/riverty' },
    default_api_key: { env: 'RIVERTY_API_KEY', default: 'riverty_sandbox_api_key' },
  },
  // Riverty's webhooks page shows a `Riverty-Signature: t=…,v1=…` header but not the string it signs (UNVERIFIED), and
  // its CustomerAuthenticationCompleted example carries none: a webhook is a hint on which the worker reads the order
  // (notification.ts), so its word is never taken and no secret is needed.
  webhook: { scheme: 'unsigned' },
  amount_unit: 'major',
  queue: { concurrency: null, limiter: null, attempts: null, backoff_ms: null, rate_limited_ms: 1_000 },
  // README.md: 34 request and answer points traced to the provider's own material (its Sources tables), 9 UNVERIFIED.
  verification: { verified: 34, unverified: 9, level: 'partial' },
});
