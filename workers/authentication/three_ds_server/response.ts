// The 3DS server's ARes (or result) -> an outcome: Y/A authenticated, C/D the customer acts, N/R/U/I failed.
import type { ConnectorJob } from '../../../domain/job.ts';
import type { AuthenticationResult, Outcome, OutcomeKind } from '../../../domain/payment.ts';
import { UNIFIED } from '../../connectors/kit/errors.ts';
import type { ProviderResponse } from '../../connectors/kit/http.ts';
import { FAILED_STATUS, unifiedFor } from './errors.ts';

interface ARes {
  threeDSServerTransID: string;
  acsTransID?: string;
  dsTransID?: string;
  acsReferenceNumber?: string;
  messageVersion?: string;
  transStatus: string;
  transStatusReason?: string;
  eci?: string;
  acsURL?: string;
  base64EncodedChallengeRequest?: string;
  acsSignedContent?: string;
  threeDSRequestorURL?: string | null;
}

const KIND: Record<string, OutcomeKind> = { Y: 'AUTHENTICATED', A: 'AUTHENTICATED', C: 'CUSTOMER_ACTION', D: 'CUSTOMER_ACTION' };

export function toOutcome(_job: ConnectorJob, res: ProviderResponse): Outcome {
  if (res.status >= 400) {
    const err = (res.body as { error?: { code: string; message: string } } | null)?.error ?? { code: `http_${res.status}`, message: `HTTP ${res.status}` };
    return { kind: 'FAILED', error_code: err.code, error_message: err.message, ...unifiedFor(err.code) };
  }
  const a = res.body as ARes;
  const authentication: AuthenticationResult = {
    trans_status: (['Y', 'N', 'U', 'A', 'R', 'C', 'D', 'I'] as const).find((s) => s === a.transStatus) ?? null,
    trans_status_reason: a.transStatusReason ?? null,
    three_dsserver_trans_id: a.threeDSServerTransID,
    acs_trans_id: a.acsTransID ?? null,
    acs_reference_number: a.acsReferenceNumber ?? null,
    acs_url: a.acsURL ?? null,
    challenge_request: a.base64EncodedChallengeRequest ?? null,
    acs_signed_content: a.acsSignedContent ?? null,
    three_ds_requestor_url: a.threeDSRequestorURL ?? null,
    ds_trans_id: a.dsTransID ?? null,
    eci: a.eci ?? null,
    message_version: a.messageVersion ?? null,
  };
  const kind = KIND[a.transStatus] ?? 'DECLINED';
  if (kind !== 'DECLINED') return { kind, connector_transaction_id: a.threeDSServerTransID, authentication };
  const reason = a.transStatusReason ? ` (reason ${a.transStatusReason})` : '';
  return {
    kind,
    connector_transaction_id: a.threeDSServerTransID,
    authentication,
    error_code: 'authentication_failed',
    error_message: `${FAILED_STATUS[a.transStatus] ?? `Unknown trans_status ${a.transStatus}`}: trans_status ${a.transStatus}${reason}`,
    ...UNIFIED.authentication_failed,
  };
}
