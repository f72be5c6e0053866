// axytos: "Kauf auf Rechnung" invoice API v1 (B2C and B2B), imitated by services/provider-sandbox/providers/axytos/.
// Reference: ../shared/reference/providers/axytos.md.
import { z } from 'zod';
import { defineManifest } from '../manifest.ts';

/** The static API key, sent in X-API-KEY. */
export const axytosCredentials = z.object({ api_key: z.string().min(1) });

export const AXYTOS_SANDBOX_KEY = 'axytos_sandbox_key_0123456789abcdef';

export const manifest = defineManifest({
  name: 'axytos',
  display_name: 'axytos Kauf auf Rechnung',
  // No notification flow (axytos pushes nothing; shops poll the payment state) and no refund sync (a refund is
  // decided in its answer).
  flows: ['authorize', 'sync', 'capture', 'void', 'refund'],
  capture_methods: ['automatic', 'manual', 'manual_multiple'],
  partial_capture: true,
  multiple_capture: true,
  partial_refund: true,
  countries: ['AT', 'BE', 'CH', 'DE', 'FR', 'IT', 'NL'],
  currencies: ['EUR'],
  customers: ['B2B', 'B2C'],
  required_fields: [
    'billing.address.first_name',
    'billing.address.last_name',
    'billing.address.line1',
    'billing.address.zip',
    'billing.address.city',
    'billing.address.country',
  ],
  auth_type: 'HeaderKey',
  credentials: axytosCredentials,
  sandbox_account_details: { auth_type: 'HeaderKey', api_key: AXYTOS_SANDBOX_KEY },
  settings: {
    // The real one: https://api-sandbox.axytos.com/api/v1 or https://api.axytos.com/api/v1; the paths are /Payments/...
    base_url: { env: 'AXYTOS_BASE_URL', default: 'sandbox/axytos/api/v1' },
    default_api_key: { env: 'AXYTOS_API_KEY', default: AXYTOS_SANDBOX_KEY },
  },
  webhook: null,
  amount_unit: 'major',
  queue: { concurrency: null, limiter: null, attempts: null, backoff_ms: null, rate_limited_ms: 1_000 },
  // README.md: 39 request and answer points traced to the provider's own material (its Sources tables), 14 UNVERIFIED.
  verification: { verified: 39, unverified: 14, level: 'partial' },
});
