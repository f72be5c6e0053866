// openbank: Openbank / Santander Consumer's "Zinia" buy now, pay later (pay in 30 days, instalments) for consumers in
// DE, ES and NL, imitated by services/provider-sandbox/providers/openbank/. A preview: Zinia's API reference is not
// public, most of the dialect is our design (README.md: Sources, UNVERIFIED, Before going live).
import { z } from 'zod';
import { defineManifest } from '../manifest.ts';

/**
 * SignatureKey: api_key = the Merchant API Key (header Ocp-Apim-Subscription-Key on every call), key1 = the Client ID,
 * api_secret = the Client Secret (both for POST /auth/login, which issues the Bearer token).
 */
export const openbankCredentials = z.object({ api_key: z.string().min(1), key1: z.string().min(1), api_secret: z.string().min(1) });

export const OPENBANK_SANDBOX = {
  api_key: 'openbank_sandbox_merchant_api_key',
  client_id: 'openbank_sandbox_client_id',
  client_secret: 'openbank_sandbox_client_secret',
} as const;

export const manifest = defineManifest({
  name: 'openbank',
  display_name: 'Openbank Zinia (pay in 30 days, instalments)',
  // Notifications are hints (Zinia's body is {order_id, status, ...}, unsigned): the worker re-reads the order.
  flows: ['authorize', 'sync', 'capture', 'void', 'refund', 'refundSync', 'notification'],
  // Zinia approves a financing; the merchant confirms the shipment (our capture) within the finalisation window, in
  // one or several parts. An automatic capture is our shipment confirmation once the order is approved.
  capture_methods: ['automatic', 'manual', 'manual_multiple'],
  automatic_capture: 'follow_up',
  partial_capture: true,
  multiple_capture: true,
  partial_refund: true,
  countries: ['DE', 'ES', 'NL'],
  currencies: ['EUR'],
  customers: ['B2C'],
  customer_step: 'always',
  // The Link-Up needs the way back. The mobile number and birth date are the customer's to give at Zinia's page
  // (Computop's and payever's Zinia pages); we send them when we have them (customer.phone or billing.phone,
  // metadata.birth_date or birth_date), so they are not required here.
  required_fields: ['customer.email', 'return_url', 'billing.address.line1', 'billing.address.zip', 'billing.address.city', 'billing.address.country'],
  auth_type: 'SignatureKey',
  credentials: openbankCredentials,
  sandbox_account_details: {
    auth_type: 'SignatureKey',
    api_key: OPENBANK_SANDBOX.api_key,
    key1: OPENBANK_SANDBOX.client_id,
    api_secret: OPENBANK_SANDBOX.client_secret,
  },
  settings: {
    // Unset: the provider sandbox's imitation (/openbank). Set: Zinia's API root for the merchant (UNVERIFIED hosts).
    base_url: { env: 'OPENBANK_BASE_URL', default: 'sandbox/openbank' },
    default_api_key: { env: 'OPENBANK_API_KEY', default: OPENBANK_SANDBOX.api_key },
  },
  webhook: { scheme: 'unsigned' },
  amount_unit: 'major',
  queue: { concurrency: null, limiter: null, attempts: null, backoff_ms: null, rate_limited_ms: 1_000 },
  // README.md: 17 rows traced to Zinia's guide, Zinia's help centre and the gateways' pages (Computop, payever,
  // MultiSafepay), 27 points unverified: a preview (issue 21). The go-live list is README.md's `## Before going live`.
  verification: {
    verified: 17,
    unverified: 27,
    level: 'preview',
    go_live_checklist: [
      'The sandbox and production API hosts, and any version prefix of the paths.',
      'The merchant login: its path (we use POST /auth/login), body (client_id, client_secret as JSON) and answer (access_token, expires_in).',
      'How the Merchant API Key is sent (we use the header Ocp-Apim-Subscription-Key on every call, the login included) and the access token (Authorization: Bearer).',
      'The create-order request body of POST /checkout/orders: every field name we send (merchant_order_id, merchant_reference, product, amount, currency, customer, billing_address, shipping_address, items, urls).',
      "Whether the shop may or must send the customer's mobile number, date of birth and, in Spain, national id, and in which format.",
      'Whether the shop chooses the product (we send PAY_IN_30 or INSTALMENTS) or the customer does at Zinia, and the product names per country (NL: pay in 14 days).',
      'The amounts format: decimal euros as JSON numbers (119.00 EUR sent as 119), for the order, its items and every later call.',
      'The create-order answer: the order id, status and redirect URL field names, and the status codes for a new and a repeated order.',
      "The order statuses and their meaning (we expect CREATED, PENDING, APPROVED, PARTIALLY_SHIPPED, SHIPPED, REFUNDED, REJECTED, CANCELLED, EXPIRED) and the rejection reason's shape.",
      'What Zinia appends to the return and cancel URLs when the customer comes back (we expect zinia_order_id and merchant_order_id).',
      'The order read used by the status sync (we use GET /checkout/orders/{order_id}).',
      'The shipment confirmation (our capture): path, body, answer, and whether partial and several shipments are allowed.',
      'The cancellation (our void): path, body, answer, and whether it cancels the rest after a partial shipment.',
      'The refund: path, body, answer, whether refunds can stay pending, and how to read one (we use POST and GET /orders/{order_id}/refunds).',
      'Whether a repeated merchant_order_id, shipment_id or merchant_refund_id returns the first result (retries rely on it).',
      'The error body and codes, and the HTTP statuses Zinia answers refusals with.',
      'The notifications: how their URL is registered, their payload and event names, whether and how they are signed or authenticated, retries, and the answer Zinia expects.',
      "The merchant's basket limits per product (50-750 EUR by default), delivery-address rules for instalments, order expiry and the 10-day shipment window.",
    ],
  },
});
