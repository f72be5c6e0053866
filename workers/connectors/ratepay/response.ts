// Ratepay's answers -> outcomes, parsed with schemas.ts (Ratepay's own shapes; HAL JSON).
import type { ConnectorJob } from '../../../domain/job.ts';
import type { Outcome } from '../../../domain/payment.ts';
import { maybeAnswer, readAnswer, UnexpectedAnswer } from '../kit/answer.ts';
import type { ProviderResponse } from '../kit/http.ts';
import { unifiedFor } from './errors.ts';
import { captured, declineOutcome, transactionState } from './state.ts';
import { isManual } from './request.ts';
import { OAuthError, RatepayCancellation, RatepayCapture, RatepayDecline, RatepayRefund, RatepayToken, RatepayTransaction } from './schemas.ts';

/** An error answer as an outcome of `kind`: Ratepay's decline, else the OAuth refusal of the token, else the bare status. */
export function errorOutcome(res: ProviderResponse, kind: 'DECLINED' | 'FAILED'): Outcome {
  const d = maybeAnswer(RatepayDecline, res);
  if (d) return declineOutcome(d, kind);
  const o = maybeAnswer(OAuthError, res);
  if (o)
    return {
      kind: res.status === 401 ? 'FAILED' : kind,
      error_code: o.error,
      error_message: o.error_description ?? o.error,
      ...unifiedFor(res.status === 401 ? 'UNAUTHORIZED' : o.error),
    };
  return { kind, error_code: `http_${res.status}`, error_message: `HTTP ${res.status}`, ...unifiedFor(res.status === 401 ? 'UNAUTHORIZED' : '') };
}

/**
 * authorize: 201 is an authorization (Ratepay decides synchronously), 202 one waiting for the buyer's one-time passcode
 * (PENDING: its status syncs read the transaction until Ratepay decides), a 4xx a decline with its category. An
 * automatic-capture payment is not done yet: PENDING, and its status sync sends the capture (syncOutcome).
 */
export function authorizeOutcome(res: ProviderResponse, job: ConnectorJob): Outcome {
  if (res.status >= 400) return errorOutcome(res, 'DECLINED');
  const t = readAnswer(RatepayTransaction, res, 'ratepay transaction');
  if (res.status === 202) return { kind: 'PENDING', connector_transaction_id: t.ratepay_transaction_id };
  return { kind: isManual(job) ? 'AUTHORIZED' : 'PENDING', connector_transaction_id: t.ratepay_transaction_id };
}

/**
 * sync: the transaction read (transactionState). For automatic capture, an authorized transaction's read is followed
 * by its capture (request.ts syncNext), and the payment is what the capture's answer says.
 */
export function syncOutcome(res: ProviderResponse, job: ConnectorJob, answers: readonly ProviderResponse[] = [res]): Outcome {
  if (answers.length > 1) {
    if (res.status >= 400) return errorOutcome(res, 'FAILED');
    readAnswer(RatepayCapture, res, 'ratepay capture');
    // The payment's id stays the transaction's.
    return { kind: 'CAPTURED', connector_transaction_id: job.connector_transaction_id ?? undefined };
  }
  if (res.status >= 400) return errorOutcome(res, 'DECLINED');
  const read = readAnswer(RatepayTransaction, res, 'ratepay transaction');
  const state = transactionState(read);
  if (isManual(job) || state.kind !== 'AUTHORIZED') return state;
  // Automatic capture: the read links its capture (made by an earlier sync): captured.
  if (captured(read)) return { kind: 'CAPTURED', connector_transaction_id: read.ratepay_transaction_id };
  // Authorized and not captured, yet no capture was sent (syncNext sends it after such a read): never report it as
  // merely authorized.
  throw new UnexpectedAnswer("ratepay: the authorized transaction's capture was not sent");
}

export function captureOutcome(res: ProviderResponse): Outcome {
  if (res.status >= 400) return errorOutcome(res, 'FAILED');
  return { kind: 'CAPTURED', connector_transaction_id: readAnswer(RatepayCapture, res, 'ratepay capture').ratepay_capture_id };
}

export function voidOutcome(res: ProviderResponse): Outcome {
  if (res.status >= 400) return errorOutcome(res, 'FAILED');
  readAnswer(RatepayCancellation, res, 'ratepay cancellation');
  return { kind: 'VOIDED' };
}

/** refund and refund sync: Ratepay refunds synchronously; a refund it refuses (REFUND_AMOUNT_TOO_HIGH) is declined,
 * any other error fails it. */
export function refundOutcome(res: ProviderResponse): Outcome {
  if (res.status >= 400) {
    const o = errorOutcome(res, 'FAILED');
    return o.unified_code === 'UE_6000' ? { ...o, kind: 'DECLINED' } : o;
  }
  return { kind: 'REFUNDED', connector_transaction_id: readAnswer(RatepayRefund, res, 'ratepay refund').ratepay_refund_id };
}

/** The token answer: the JWT and its lifetime; a refusal of the client is the job's failure with the provider's code. */
export function tokenOutcome(res: ProviderResponse): { access_token: string; expires_in_s: number } | Outcome {
  if (res.status >= 400) return errorOutcome(res, 'FAILED');
  const t = readAnswer(RatepayToken, res, 'ratepay token');
  return { access_token: t.access_token, expires_in_s: t.expires_in };
}
