// twisto: Czech/Polish consumer buy now, pay later (Twisto PSP API v4: hosted checkout, then charges), imitated by
// services/provider-sandbox/providers/twisto/. Sources: README.md here (`## Sources`), fixtures/SOURCES.md.
import { z } from 'zod';
import { defineManifest } from '../manifest.ts';

/**
 * HeaderKey: api_key is the Twisto secret key (`Authorization: Bearer <secret key>`); key1 (optional) the merchant's
 * reference at Twisto, sent as the checkout's `merchant_reference` (else our merchant id): request.ts merchantReference.
 */
export const twistoCredentials = z.object({ api_key: z.string().min(1), key1: z.string().min(1).optional() });
export type TwistoCredentials = z.infer<typeof twistoCredentials>;

export const TWISTO_SANDBOX_KEY = 'twisto_sandbox_secret_key';

export const manifest = defineManifest({
  name: 'twisto',
  display_name: 'Twisto',
  // refundSync reads a refund by its id (GET /refunds/{id}); a refund has no state at Twisto, so it is done once it exists.
  flows: ['authorize', 'sync', 'capture', 'void', 'refund', 'refundSync', 'notification'],
  // An approved checkout is charged by a call of ours (POST /charges): automatic capture follows the authorization.
  capture_methods: ['automatic', 'manual'],
  automatic_capture: 'follow_up',
  // "There is no option for partial capture. If needed, use full capture and partial refund afterwards."
  // (merchant-api/capture-or-cancel-a-charge); charge-create: "currently only the full amount is supported".
  partial_capture: false,
  multiple_capture: false,
  partial_refund: true,
  countries: ['CZ', 'PL'],
  currencies: ['CZK', 'PLN', 'EUR'],
  customers: ['B2C'],
  // Every checkout is Twisto's page: the shopper is always redirected.
  customer_step: 'always',
  // shopper.email and config.redirect_uri are Twisto's required fields of a checkout.
  required_fields: ['customer.email', 'return_url'],
  auth_type: 'HeaderKey',
  credentials: twistoCredentials,
  sandbox_account_details: { auth_type: 'HeaderKey', api_key: TWISTO_SANDBOX_KEY },
  settings: {
    // Unset: the provider sandbox (its Twisto API root is /twisto/psp/v4). Set: Twisto's API root,
    // https://api.twisto.cz/psp/v4 (CZ) or https://api.twisto.pl/psp/v4 (PL).
    base_url: { env: 'TWISTO_BASE_URL', default: 'sandbox' },
    default_api_key: { env: 'TWISTO_API_KEY', default: TWISTO_SANDBOX_KEY },
  },
  // Twisto documents no signature on its webhooks: a webhook is only a hint, on which the worker reads the checkout.
  webhook: { scheme: 'unsigned' },
  amount_unit: 'major',
  queue: { concurrency: null, limiter: null, attempts: null, backoff_ms: null, rate_limited_ms: 1_000 },
  // README.md `## Sources` (issue 21: Twisto's psp-api documentation): 47 rows traced, 11 points UNVERIFIED.
  verification: { verified: 47, unverified: 11, level: 'partial' },
});
