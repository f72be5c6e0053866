// mondu: B2B buy now, pay later (invoice, SEPA direct debit, installments), imitated by
// services/provider-sandbox/providers/mondu/. Sources: README.md here (docs.mondu.ai, Mondu's own shop plugins).
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
  // An invoice names the merchant's invoice PDF: `invoice_url` is required (docs.mondu.ai Create Invoice; fixtures/
  // rules.json, which its imitation enforces). The invoice number has a fallback (the operation id).
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
  // README.md's Sources (issue 21: docs.mondu.ai and Mondu's WooCommerce, Magento 2 and Shopware 6 plugins): 38 points
  // traced, 11 listed UNVERIFIED.
  verification: { verified: 38, unverified: 11, level: 'partial' },
});
