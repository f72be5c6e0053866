// service_test's answers -> outcomes.
import type { ConnectorJob } from '../../../lib/queue.ts';
import type { Outcome, OutcomeKind } from '../../../services/payment-state/state-machine.ts';
import type { ProviderResponse } from '../../provider-http.ts';
import { unifiedFor } from './errors.ts';

interface ServiceTestPayment {
  id: string;
  status: 'authorized' | 'captured' | 'declined' | 'requires_action' | 'pending' | 'voided';
  reference?: string;
  redirect_url?: string;
  decline?: { code: string; message: string };
}
interface ServiceTestCapture { id: string; status: 'succeeded' | 'pending' | 'failed' }
interface ServiceTestError { error: { code: string; message: string } }

const PAYMENT_STATUS: Record<ServiceTestPayment['status'], OutcomeKind> = {
  authorized: 'AUTHORIZED', captured: 'CAPTURED', declined: 'DECLINED', requires_action: 'CUSTOMER_ACTION', pending: 'PENDING', voided: 'VOIDED',
};
const CAPTURE_STATUS: Record<ServiceTestCapture['status'], OutcomeKind> = { succeeded: 'CAPTURED', pending: 'PENDING', failed: 'FAILED' };

export function toOutcome(job: ConnectorJob, res: ProviderResponse): Outcome {
  if (res.status >= 400) {
    const err = (res.body as ServiceTestError | null)?.error ?? { code: `http_${res.status}`, message: `HTTP ${res.status}` };
    const declined = job.kind === 'authorize' || job.kind === 'incremental_authorization';
    return { kind: declined ? 'DECLINED' : 'FAILED', error_code: err.code, error_message: err.message, ...unifiedFor(err.code) };
  }
  if (job.kind === 'incremental_authorization') return { kind: 'AUTHORIZED', connector_transaction_id: (res.body as ServiceTestPayment).id };
  if (job.kind === 'authorize') {
    const p = res.body as ServiceTestPayment;
    const kind = PAYMENT_STATUS[p.status];
    return {
      kind,
      connector_transaction_id: p.id,
      connector_reference_id: p.reference,
      redirect_url: p.redirect_url,
      ...(p.decline ? { error_code: p.decline.code, error_message: p.decline.message, ...unifiedFor(p.decline.code) } : {}),
    };
  }
  if (job.kind === 'capture') {
    const c = res.body as ServiceTestCapture;
    return { kind: CAPTURE_STATUS[c.status], connector_transaction_id: c.id };
  }
  return { kind: (res.body as ServiceTestPayment).status === 'voided' ? 'VOIDED' : 'FAILED' };
}
