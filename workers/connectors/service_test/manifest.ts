// service_test: our own test connector, imitated by services/provider-sandbox/providers/service_test/.
import { z } from 'zod';
import { defineManifest } from '../manifest.ts';

export const serviceTestCredentials = z.object({ api_key: z.string().min(1) });

export const manifest = defineManifest({
  name: 'service_test',
  display_name: 'Service test (our own test connector)',
  flows: ['authorize', 'sync', 'capture', 'void', 'incrementalAuthorization', 'refund', 'refundSync', 'notification'],
  capture_methods: ['automatic', 'manual', 'manual_multiple'],
  partial_capture: true,
  multiple_capture: true,
  countries: 'any',
  currencies: 'any',
  customers: ['B2B', 'B2C'],
  customer_step: 'when_asked',
  required_fields: [],
  auth_type: 'HeaderKey',
  credentials: serviceTestCredentials,
  sandbox_account_details: { auth_type: 'HeaderKey', api_key: 'sk_sandbox_service_test' },
  partial_refund: true,
  settings: {
    base_url: { env: 'SERVICE_TEST_BASE_URL', default: 'sandbox' },
    default_api_key: { env: 'SERVICE_TEST_API_KEY', default: 'sk_sandbox_service_test' },
  },
  // Each account's secret is ours (lib/webhook-secret.ts), handed to the provider with each payment (request.ts).
  webhook: { scheme: 'hmac', signature_header: 'x-webhook-signature-512', algorithm: 'sha512', encoding: 'hex', generated_secret: true },
  amount_unit: 'minor',
  queue: { concurrency: null, limiter: null, attempts: null, backoff_ms: null, rate_limited_ms: 1_000 },
  // Our own connector to our own provider (the sandbox's service_test): nothing of another's to trace.
  verification: { verified: 0, unverified: 0, level: 'own' },
  // Our own provider keeps a mandate for every recurring-capable type (the imitation's `setup_mandate` and `mandate`
  // fields, services/provider-sandbox/README.md), and sets one up with a zero authorization.
  mandates: {
    payment_method_types: ['invoice', 'subscription_invoice', 'direct_debit', 'subscription_direct_debit', 'installment_invoice', 'installment_direct_debit'],
    setup_mandate: true,
  },
});
