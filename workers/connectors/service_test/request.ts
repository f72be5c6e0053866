// Our operations in the service_test provider's dialect (see services/provider-sandbox/service_test.ts).
import type { ConnectorJob } from '../../../lib/queue.ts';
import type { ProviderRequest } from '../../provider-http.ts';

export function toRequest(job: ConnectorJob, apiKey: string): ProviderRequest {
  const headers = { authorization: `Bearer ${apiKey}` };
  const pay = job.connector_transaction_id;
  if (job.mode === 'sync' && pay) {
    if (job.kind === 'authorize') return { method: 'GET', path: `/service_test/v1/payments/${pay}`, headers };
    // Captures and voids are idempotent at the provider: asking again with the same key returns the result.
  }
  switch (job.kind) {
    case 'authorize':
      return {
        method: 'POST', path: '/service_test/v1/payments', idempotencyKey: job.operation_id, headers,
        body: {
          amount: job.amount,
          currency: job.currency,
          reference: job.merchant_order_reference_id ?? job.payment_id,
          capture: job.capture_method === 'manual' || job.capture_method === 'manual_multiple' ? 'manual' : 'automatic',
          customer: { email: job.customer_email },
          return_url: job.return_url,
        },
      };
    case 'capture':
      return { method: 'POST', path: `/service_test/v1/payments/${pay}/captures`, idempotencyKey: job.operation_id, headers, body: { amount: job.amount } };
    case 'void':
      return { method: 'POST', path: `/service_test/v1/payments/${pay}/void`, idempotencyKey: job.operation_id, headers, body: {} };
    case 'incremental_authorization':
      return { method: 'POST', path: `/service_test/v1/payments/${pay}/increments`, idempotencyKey: job.operation_id, headers, body: { amount: job.amount } };
    case 'authenticate':
      throw new Error('authentications go to the 3DS server (workers/authentication), not to the provider');
  }
}
