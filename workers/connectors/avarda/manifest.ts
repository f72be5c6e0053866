// avarda: Avarda Checkout 3 (partner API: REST/JSON, decimals, a short-lived partner token as Bearer), imitated by
// services/provider-sandbox/providers/avarda/. Every point's source: README.md's Sources table.
import { z } from 'zod';
import { defineManifest } from '../manifest.ts';

/** BodyKey: api_key = Avarda's clientId, key1 = its clientSecret (Avarda issues them per market/currency). */
export const avardaCredentials = z.object({
  auth_type: z.literal('BodyKey'),
  api_key: z.string().min(1),
  key1: z.string().min(1),
});

export const AVARDA_SANDBOX = { client_id: 'avarda_sandbox_client', client_secret: 'avarda_sandbox_client_secret' } as const;

export const manifest = defineManifest({
  name: 'avarda',
  display_name: 'Avarda Checkout',
  // No refundSync: a refund is in effect when answered. The notification is Avarda's completion callback (a hint).
  flows: ['authorize', 'sync', 'capture', 'void', 'refund', 'notification'],
  // Avarda never captures on its own: a capture is the order's activation (POST .../order), a separate call.
  capture_methods: ['automatic', 'manual', 'manual_multiple'],
  automatic_capture: 'follow_up',
  partial_capture: true,
  multiple_capture: true,
  partial_refund: true,
  countries: ['SE', 'NO', 'DK', 'FI'],
  currencies: ['SEK', 'NOK', 'DKK', 'EUR'],
  customers: ['B2C', 'B2B'],
  customer_step: 'always',
  // The customer completes Avarda Checkout's form and is sent back to return_url; the form asks for everything else.
  required_fields: ['billing.address.country', 'return_url'],
  auth_type: 'BodyKey',
  credentials: avardaCredentials,
  sandbox_account_details: { auth_type: 'BodyKey', api_key: AVARDA_SANDBOX.client_id, key1: AVARDA_SANDBOX.client_secret },
  settings: {
    // https://stage.checkout-api.avarda.com (stage) or https://checkout-api.avarda.com; unset: the sandbox's /avarda.
    base_url: { env: 'AVARDA_BASE_URL', default: 'sandbox/avarda' },
    default_api_key: { env: 'AVARDA_API_KEY', default: AVARDA_SANDBOX.client_id },
    // The page embedding Avarda's form (request.ts checkoutPageUrl); unset: <base_url>/checkout, the sandbox's.
    extra: { checkout_page_url: { env: 'AVARDA_CHECKOUT_PAGE_URL', default: '' } },
  },
  // checkoutSetup.completedNotificationUrl gets {"purchaseId"} unsigned: a hint, the worker reads the purchase.
  webhook: { scheme: 'unsigned' },
  amount_unit: 'major',
  queue: { concurrency: null, limiter: null, attempts: null, backoff_ms: null, rate_limited_ms: 1_000 },
  // Recurring payments (README.md ## Sources, "Recurring payments"): a purchase offering them leaves a recurring payment
  // token once Completed; a recurring charge authorizes a new purchase on it without the customer. No zero
  // authorization is published (a purchase's items must add up to more than 0), so no setup_mandate.
  mandates: { payment_method_types: ['invoice', 'subscription_invoice'], setup_mandate: false },
  // README.md: 61 request and answer points traced to the provider's own material (its Sources tables), 13 UNVERIFIED.
  verification: { verified: 61, unverified: 13, level: 'partial' },
});
