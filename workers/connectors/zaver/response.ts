// Zaver's answers -> outcomes, parsed with Zaver's own shapes (schemas.ts): the PaymentStatusResponse (create, read,
// capture, cancel and the payment callbacks) and the RefundResponse (create, read, the refund callbacks). An answer
// that is not that shape is an unknown outcome (UnexpectedAnswer: retried, then synced), never a guess.
import type { ConnectorJob } from '../../../domain/job.ts';
import { readAnswer, UnexpectedAnswer } from '../kit/answer.ts';
import { UNIFIED } from '../kit/errors.ts';
import type { ProviderResponse } from '../kit/http.ts';
import { type Outcome, outcomeTable } from '../kit/outcome.ts';
import { errorFields, paymentEnded, refundCancelled } from './errors.ts';
import { PaymentStatusResponse, RefundResponse } from './schemas.ts';

const paymentKind = outcomeTable<PaymentStatusResponse['paymentStatus']>({
  // The payment link is waiting for the payer.
  CREATED: 'CUSTOMER_ACTION',
  // The payer approved; Zaver (or the payer's bank) has not confirmed yet.
  PENDING_CONFIRMATION: 'PENDING',
  // Authorized, waiting for the merchant's capture (we create payments with captureMethod deferred).
  PENDING_MERCHANT_CAPTURE: 'AUTHORIZED',
  // Paid: captured (by us, or by Zaver for a payment method that settles at once, e.g. a bank transfer).
  SETTLED: 'CAPTURED',
  CANCELLED: 'DECLINED',
  ERROR: 'DECLINED',
});

/** The payment's status as the outcome of its authorization. */
export function paymentOutcome(p: PaymentStatusResponse): Outcome {
  const kind = paymentKind(p.paymentStatus);
  return {
    kind,
    connector_transaction_id: p.paymentId,
    ...(kind === 'CUSTOMER_ACTION' && p.paymentLink ? { redirect_url: p.paymentLink } : {}),
    ...(p.paymentStatus === 'CANCELLED' || p.paymentStatus === 'ERROR' ? paymentEnded(p.paymentStatus) : {}),
  };
}

/** authorize (create the payment) and its status sync (read it). */
export function paymentAnswerOutcome(res: ProviderResponse): Outcome {
  if (res.status >= 400) return { kind: 'FAILED', ...errorFields(res) };
  return paymentOutcome(readAnswer(PaymentStatusResponse, res, 'zaver payment'));
}

/**
 * The capture answers the payment as it is after the capture (v2: a PaymentStatusResponse, SETTLED once all is
 * captured, else still PENDING_MERCHANT_CAPTURE with capturedAmount grown). Zaver gives the capture no id of its
 * own: it is named by our captureIdempotencyKey (the operation id), which is our connector_capture_id.
 */
export function captureOutcome(res: ProviderResponse, job: Pick<ConnectorJob, 'operation_id'>): Outcome {
  if (res.status >= 400) return { kind: 'FAILED', ...errorFields(res) };
  const p = readAnswer(PaymentStatusResponse, res, 'zaver payment (capture)');
  const captured = p.paymentStatus === 'SETTLED' || (p.paymentStatus === 'PENDING_MERCHANT_CAPTURE' && (p.capturedAmount ?? 0) > 0);
  if (!captured) throw new UnexpectedAnswer(`zaver capture: the payment is ${p.paymentStatus} with ${p.capturedAmount ?? 0} captured after the capture`);
  return { kind: 'CAPTURED', connector_transaction_id: job.operation_id };
}

/** The cancel answers the payment: voided once it is CANCELLED. */
export function cancelOutcome(res: ProviderResponse): Outcome {
  if (res.status >= 400) return { kind: 'FAILED', ...errorFields(res) };
  const p = readAnswer(PaymentStatusResponse, res, 'zaver payment (cancel)');
  return p.paymentStatus === 'CANCELLED'
    ? { kind: 'VOIDED' }
    : { kind: 'FAILED', error_code: p.paymentStatus, error_message: `The payment is ${p.paymentStatus} at Zaver after the cancel`, ...UNIFIED.invalid_state };
}

/**
 * A refund's status: waiting for the merchant's approval (every refund is created so) or for its execution is
 * pending; executed is refunded; cancelled (by the merchant's representative) failed.
 */
export function refundStatusOutcome(r: RefundResponse): Outcome {
  const id = { connector_transaction_id: r.refundId };
  switch (r.status) {
    case 'PENDING_MERCHANT_APPROVAL':
    case 'PENDING_EXECUTION':
      return { kind: 'PENDING', ...id };
    case 'EXECUTED':
      return { kind: 'REFUNDED', ...id };
    case 'CANCELLED':
      return { kind: 'FAILED', ...id, ...refundCancelled };
  }
}

/** refund (create) and refund sync (read). */
export function refundOutcome(res: ProviderResponse): Outcome {
  if (res.status >= 400) return { kind: 'FAILED', ...errorFields(res) };
  return refundStatusOutcome(readAnswer(RefundResponse, res, 'zaver refund'));
}
