// The connector job for an operation: what a worker needs to call the provider. Pure.
import type { ConnectorJob } from '../../lib/queue.ts';
import type { Operation, StoredPayment, ThreeDsRecord } from './state-machine.ts';

export function jobFor(p: StoredPayment, op: Operation, mode: ConnectorJob['mode'] = 'execute'): ConnectorJob {
  return {
    merchant_id: p.merchant_id,
    payment_id: p.payment_id,
    operation_id: op.operation_id,
    kind: op.kind,
    connector: op.connector,
    merchant_connector_id: p.merchant_connector_id ?? null,
    amount: op.amount,
    currency: p.currency,
    // A payment held for our manual review is only authorized; the capture follows the merchant's approval.
    capture_method: p.review_hold ? 'manual' : p.capture_method ?? 'automatic',
    connector_transaction_id: p.connector_transaction_id,
    customer_email: p.customer?.email ?? p.email ?? (p.billing as { email?: string } | null)?.email ?? null,
    return_url: p.return_url,
    merchant_order_reference_id: p.merchant_order_reference_id,
    mode,
    sync_round: 0,
    ...(op.kind === 'authenticate' && p.three_ds ? authenticationJob(p, p.three_ds) : {}),
  };
}

/** The 3DS server needs the device's data, and the customer's browser for the BRW channel. */
function authenticationJob(p: StoredPayment, t: ThreeDsRecord): Pick<ConnectorJob, 'authentication' | 'connector_transaction_id'> {
  return {
    connector_transaction_id: t.result?.three_dsserver_trans_id ?? null,
    authentication: { authentication_id: t.authentication_id, ...t.request, browser_info: t.request.browser_info ?? (p.browser_info as ThreeDsRecord['request']['browser_info']) ?? null },
  };
}
