// mondu: B2B buy now, pay later (invoice, SEPA direct debit, installments), imitated by
// services/provider-sandbox/providers/mondu/. Reference: ../shared/reference/providers/mondu.md; README.md here.
import { z } from 'zod';
import { defineManifest } from '../manifest.ts';

/** HeaderKey: api_key is the Mondu API token (header `Api-Token`). */
export const monduCredentials = z.object({ api_key: z.string().min(1) });

export const manifest = defineManifest({
  name: 'mondu',
  display_name: 'Mondu',
  // No refundSync: a credit note is in effect when created (nothing pending to ask about).
  flows: ['authorize', 'sync', 'capture', 'void', 'refund', 'notification'],
  // A capture is an invoice (the merchant's invoice number and URL, else the operation id): the provider never
  // captures on its own, so an automatic capture is our capture call once the order is authorized.
  capture_methods: ['automatic', 'manual', 'manual_multiple'],
  automatic_capture: 'follow_up',
  partial_capture: true,
  multiple_capture: true,
  partial_refund: true,
  countries: ['DE', 'AT', 'NL', 'FR', 'GB'],
  currencies: ['EUR', 'GBP'],
  customers: ['B2B'],
  customer_step: 'always',
  required_fields: [
    'customer.email',
    'metadata.company_name',
    'billing.address.first_name',
    'billing.address.last_name',
    'billing.address.line1',
    'billing.address.city',
    'billing.address.zip',
    'billing.address.country',
    'order_details',
    'return_url',
  ],
  // An invoice names the merchant's invoice PDF: `invoice_url` "required in practice" (reference mondu.md "Invoice
  // (capture) request"; its imitation refuses a missing one). The invoice number has a fallback (the operation id).
  capture_fields: ['metadata.invoice_url'],
  auth_type: 'HeaderKey',
  credentials: monduCredentials,
  sandbox_account_details: { auth_type: 'HeaderKey', api_key: 'mondu_sandbox_api_token' },
  settings: {
    // Unset: the provider sandbox (its Mondu API root is /mondu/api/v1). Set: Mondu's API root, e.g.
    // https://api.demo.mondu.ai/api/v1 (demo) or https://api.mondu.ai/api/v1.
    base_url: { env: 'MONDU_BASE_URL', default: 'sandbox' },
    default_api_key: { env: 'MONDU_API_KEY', default: 'mondu_sandbox_api_token' },
    // Mondu's GET /webhooks/keys `webhook_secret` of the default account.
    webhook_secret: { env: 'MONDU_WEBHOOK_SECRET', default: 'mondu_sandbox_webhook_secret' },
  },
  webhook: { scheme: 'hmac', signature_header: 'x-mondu-signature', algorithm: 'sha256', encoding: 'hex' },
  amount_unit: 'minor',
  queue: { concurrency: null, limiter: null, attempts: null, backoff_ms: null, rate_limited_ms: 1_000 },
  // README.md has no Sources table yet (traced in issue 21): 4 points listed UNVERIFIED, the rest not yet checked.
  verification: { verified: 0, unverified: 4, level: 'preview' },
});
