// billie: B2B invoice ("pay later for businesses", API v2), imitated by services/provider-sandbox/providers/billie/.
// Traced to Billie's SDK, shop plugins and docs: README.md here (Sources, UNVERIFIED).
import { z } from 'zod';
import { defineManifest } from '../manifest.ts';

/** BodyKey: api_key = the OAuth2 client id, key1 = the client secret (POST /oauth/token, client credentials). */
export const billieCredentials = z.object({ api_key: z.string().min(1), key1: z.string().min(1) });

export const manifest = defineManifest({
  name: 'billie',
  display_name: 'Billie',
  // Billie's webhooks carry the secret agreed with the merchant in X-Api-Key, not a signature (notification.ts). No
  // refundSync: a credit note is in effect when created.
  flows: ['authorize', 'sync', 'capture', 'void', 'refund', 'notification'],
  // A capture is an invoice (the merchant's invoice number and URL, else the operation id): the provider never
  // captures on its own, so an automatic capture is our capture call once the order is authorized.
  capture_methods: ['automatic', 'manual', 'manual_multiple'],
  automatic_capture: 'follow_up',
  partial_capture: true,
  multiple_capture: true,
  partial_refund: true,
  countries: ['DE', 'AT', 'NL'],
  currencies: ['EUR'],
  customers: ['B2B'],
  required_fields: [
    'customer.email',
    'metadata.company_name',
    'metadata.legal_form',
    'billing.address.line1',
    'billing.address.city',
    'billing.address.zip',
    'billing.address.country',
  ],
  // An invoice names the merchant's invoice document: POST /invoices {..., invoice_url} (Billie's SDK types it
  // non-null; docs.billie.io invoice_create: "Invoice present and reachable for download at invoice_url"). The invoice
  // number has a fallback (the operation id), the URL none.
  capture_fields: ['metadata.invoice_url'],
  auth_type: 'BodyKey',
  credentials: billieCredentials,
  sandbox_account_details: { auth_type: 'BodyKey', api_key: 'billie_sandbox_client_id', key1: 'billie_sandbox_client_secret' },
  settings: {
    // Unset: the provider sandbox (its Billie API root is /billie/api/v2). Set: Billie's API root, e.g.
    // https://paella-sandbox.billie.io/api/v2 or https://paella.billie.io/api/v2.
    base_url: { env: 'BILLIE_BASE_URL', default: 'sandbox' },
    default_api_key: { env: 'BILLIE_API_KEY', default: 'billie_sandbox_client_id' },
  },
  webhook: { scheme: 'shared_secret', header: 'x-api-key' },
  amount_unit: 'major',
  queue: { concurrency: null, limiter: null, attempts: null, backoff_ms: null, rate_limited_ms: 1_000 },
  // README.md: 31 points traced to Billie's own material (Sources), 10 UNVERIFIED (issue 21).
  verification: { verified: 31, unverified: 10, level: 'partial' },
});
