// Our operations in the service_test provider's dialect (see services/provider-sandbox/providers/service_test/).
import type { ConnectorJob } from '../../../domain/job.ts';
import type { ProviderRequest } from '../kit/http.ts';
import { notificationUrl, type Session } from '../kit/session.ts';

const auth = (apiKey: string) => ({ authorization: `Bearer ${apiKey}` });

export const authorizeRequest = (job: ConnectorJob, apiKey: string, session?: Session): ProviderRequest => ({
  method: 'POST',
  path: '/service_test/v1/payments',
  idempotencyKey: job.operation_id,
  headers: auth(apiKey),
  body: {
    amount: job.amount,
    currency: job.currency,
    reference: job.merchant_order_reference_id ?? job.payment_id,
    capture: job.capture_method === 'manual' || job.capture_method === 'manual_multiple' ? 'manual' : 'automatic',
    customer: { email: job.customer_email },
    return_url: job.return_url,
    // Where the provider sends its notifications about this payment (and its refunds and disputes).
    webhook_url: notificationUrl(session),
    // What the provider signs them with: the account's own notification secret (lib/webhook-secret.ts).
    ...(session?.webhook_secret ? { webhook_secret: session.webhook_secret } : {}),
    // Mandates (issue 22): ask for a reusable reference (a new mandate, or one set up with a zero authorization), or
    // charge off-session on one, with no customer step.
    ...(job.mandate?.kind === 'new' || job.mandate?.kind === 'setup' ? { setup_mandate: true } : {}),
    ...(job.mandate?.kind === 'recurring' && job.mandate.connector_mandate_id ? { mandate: job.mandate.connector_mandate_id, off_session: true } : {}),
  },
});

export const syncRequest = (job: ConnectorJob, apiKey: string): ProviderRequest => ({
  method: 'GET',
  path: `/service_test/v1/payments/${job.connector_transaction_id}`,
  headers: auth(apiKey),
});

// Captures and voids are idempotent at the provider: asking again with the same key returns the result.
export const captureRequest = (job: ConnectorJob, apiKey: string): ProviderRequest => ({
  method: 'POST',
  path: `/service_test/v1/payments/${job.connector_transaction_id}/captures`,
  idempotencyKey: job.operation_id,
  headers: auth(apiKey),
  body: { amount: job.amount },
});

export const voidRequest = (job: ConnectorJob, apiKey: string): ProviderRequest => ({
  method: 'POST',
  path: `/service_test/v1/payments/${job.connector_transaction_id}/void`,
  idempotencyKey: job.operation_id,
  headers: auth(apiKey),
  body: {},
});

export const incrementRequest = (job: ConnectorJob, apiKey: string): ProviderRequest => ({
  method: 'POST',
  path: `/service_test/v1/payments/${job.connector_transaction_id}/increments`,
  idempotencyKey: job.operation_id,
  headers: auth(apiKey),
  body: { amount: job.amount },
});

// A refund names our refund id as its reference; a repeat with the same key returns the first refund.
export const refundRequest = (job: ConnectorJob, apiKey: string): ProviderRequest => ({
  method: 'POST',
  path: `/service_test/v1/payments/${job.connector_transaction_id}/refunds`,
  idempotencyKey: job.operation_id,
  headers: auth(apiKey),
  body: { amount: job.amount, reference: job.refund_id ?? null, reason: job.reason ?? null },
});

export const refundSyncRequest = (job: ConnectorJob, apiKey: string): ProviderRequest => ({
  method: 'GET',
  path: `/service_test/v1/refunds/${job.connector_refund_id}`,
  headers: auth(apiKey),
});
