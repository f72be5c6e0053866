// zaver: Zaver's Payment Link API v2 and Refund API v1 (Swedish pay-later and instant payments, the payer's own step
// on Zaver's payment link), imitated by services/provider-sandbox/providers/zaver/. Sources: README.md here.
import { z } from 'zod';
import { defineManifest } from '../manifest.ts';

/** HeaderKey: api_key is the Zaver API key (`Authorization: Bearer <key>`). */
export const zaverCredentials = z.object({ api_key: z.string().min(1) });

export const manifest = defineManifest({
  name: 'zaver',
  display_name: 'Zaver',
  flows: ['authorize', 'sync', 'capture', 'void', 'refund', 'refundSync', 'notification'],
  // The payer authorizes on Zaver's payment link (PENDING_MERCHANT_CAPTURE); the merchant captures by a call of its
  // own before captureBefore. An automatic capture is that call once authorized.
  capture_methods: ['automatic', 'manual', 'manual_multiple'],
  automatic_capture: 'follow_up',
  partial_capture: true,
  multiple_capture: true,
  partial_refund: true,
  // UNVERIFIED beyond these: the sheet lists markets "SE, DE, AT, FI...".
  countries: ['SE', 'DE', 'AT', 'FI'],
  currencies: ['SEK', 'EUR'],
  customers: ['B2C'],
  // Every payment goes through Zaver's payment link, where the payer identifies and approves.
  customer_step: 'always',
  // The payer comes back from the payment link to successUrl / cancelUrl; `market` is required by Zaver
  // (SDK PaymentCreationRequest::setMarket).
  required_fields: ['billing.address.country', 'return_url'],
  auth_type: 'HeaderKey',
  credentials: zaverCredentials,
  sandbox_account_details: { auth_type: 'HeaderKey', api_key: 'zaver_sandbox_api_key' },
  settings: {
    // Zaver's paths have no prefix (https://api.test.zaver.com/payments/link/v2, prod https://api.zaver.com: SDK
    // src/Config/Endpoint.php since 2025-03; the .se hosts are the v1 era's); unset: the sandbox's /zaver.
    base_url: { env: 'ZAVER_BASE_URL', default: 'sandbox/zaver' },
    default_api_key: { env: 'ZAVER_API_KEY', default: 'zaver_sandbox_api_key' },
    // The merchant's static callback token, which Zaver sends as `Authorization: Bearer <token>`.
    webhook_secret: { env: 'ZAVER_CALLBACK_TOKEN', default: 'zaver_sandbox_callback_token' },
  },
  webhook: { scheme: 'shared_secret', header: 'authorization' },
  amount_unit: 'major',
  queue: { concurrency: null, limiter: null, attempts: null, backoff_ms: null, rate_limited_ms: 1_000 },
  // README.md: 37 request and answer points traced to the provider's own material (its Sources tables), 14 UNVERIFIED.
  verification: { verified: 37, unverified: 14, level: 'partial' },
});
