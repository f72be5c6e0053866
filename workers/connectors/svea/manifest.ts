// svea: Svea Checkout (the customer's checkout iframe: invoice, part payment, account credit, cards, banks) and Svea's
// Payment Admin API (deliveries = captures, cancels, credits = refunds), imitated by services/provider-sandbox/providers/svea/.
import { z } from 'zod';
import { defineManifest } from '../manifest.ts';

/** api_key: Svea's shared secret; key1: the checkout merchant id (both sign every request, README.md). */
export const sveaCredentials = z.object({ api_key: z.string().min(1), key1: z.string().min(1) });

export const manifest = defineManifest({
  name: 'svea',
  display_name: 'Svea Checkout (invoice, part payment, account)',
  flows: ['authorize', 'sync', 'capture', 'void', 'refund', 'refundSync', 'notification'],
  // The checkout only reserves; a capture is a delivery, done when the goods ship. An automatic capture is our
  // delivery call once the order is final.
  capture_methods: ['automatic', 'manual', 'manual_multiple'],
  automatic_capture: 'follow_up',
  partial_capture: true,
  multiple_capture: true,
  countries: ['SE', 'NO', 'FI', 'DK', 'DE'],
  currencies: ['SEK', 'NOK', 'EUR', 'DKK'],
  customers: ['B2B', 'B2C'],
  customer_step: 'always',
  // countryCode is mandatory; the checkout's merchantSettings need the shop's pages (confirmationUri, termsUri).
  required_fields: ['billing.address.country', 'return_url'],
  auth_type: 'BodyKey',
  credentials: sveaCredentials,
  sandbox_account_details: { auth_type: 'BodyKey', api_key: 'svea_sandbox_secret', key1: '124842' },
  partial_refund: true,
  settings: {
    base_url: { env: 'SVEA_BASE_URL', default: 'sandbox/svea' },
    default_api_key: { env: 'SVEA_API_KEY', default: 'svea_sandbox_secret' },
  },
  // Svea's push (to the order's pushUri, naming the order in the URL) and its callback events are not signed: each
  // only says "look at order N"; the worker reads the order (notification.ts).
  webhook: { scheme: 'unsigned' },
  amount_unit: 'minor',
  queue: { concurrency: null, limiter: null, attempts: null, backoff_ms: null, rate_limited_ms: 1_000 },
  // Recurring orders (README.md ## Sources, "Recurring orders"): a checkout order with `recurring: true` leaves a
  // RecurringToken once Final; an order on the token charges the customer again without them. "If recurring is true,
  // only card and invoice payment methods will be available": invoice here. A recurring cart must total above 0, so
  // no zero authorization (setup_mandate).
  mandates: { payment_method_types: ['invoice', 'subscription_invoice'], setup_mandate: false },
  // README.md: 52 request and answer points traced to the provider's own material (its Sources tables), 15 UNVERIFIED.
  verification: { verified: 52, unverified: 15, level: 'partial' },
});
