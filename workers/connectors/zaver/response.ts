// Zaver's answers -> outcomes, parsed with Zaver's own shapes (schemas.ts): the PaymentStatusResponse (create, read,
// capture, cancel and the payment callbacks) and the RefundResponse (create, read, the refund callbacks). An answer
// that is not that shape is an unknown outcome (UnexpectedAnswer: retried, then synced), never a guess.
import { z } from 'zod';
import type { ConnectorJob } from '../../../domain/job.ts';
import type { Outcome, OutcomeKind } from '../../../domain/payment.ts';
import type { ProviderResponse } from '../../provider-http.ts';
import { UNIFIED } from '../../unified-errors.ts';
import { UnexpectedAnswer } from '../types.ts';
import { errorFields, paymentEnded, refundCancelled } from './errors.ts';
import { PaymentStatusResponse, RefundResponse } from './schemas.ts';

function read<T>(schema: z.ZodType<T>, res: ProviderResponse, what: string): T {
  const r = schema.safeParse(res.body);
  if (!r.success) throw new UnexpectedAnswer(`zaver ${what}: unexpected answer (HTTP ${res.status}): ${z.prettifyError(r.error)}`);
  return r.data;
}

const PAYMENT_OUTCOME: Record<PaymentStatusResponse['paymentStatus'], OutcomeKind> = {
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
};

/** The payment's status as the outcome of its authorization. */
export function paymentOutcome(p: PaymentStatusResponse): Outcome {
  const kind = PAYMENT_OUTCOME[p.paymentStatus];
  return {
    kind, connector_transaction_id: p.paymentId,
    ...(kind === 'CUSTOMER_ACTION' && p.paymentLink ? { redirect_url: p.paymentLink } : {}),
    ...(p.paymentStatus === 'CANCELLED' || p.paymentStatus === 'ERROR' ? paymentEnded(p.paymentStatus) : {}),
  };
}

/** authorize (create the payment) and its status sync (read it). */
export function paymentAnswerOutcome(res: ProviderResponse): Outcome {
  if (res.status >= 400) return { kind: 'FAILED', ...errorFields(res) };
  return paymentOutcome(read(PaymentStatusResponse, res, 'payment'));
}

/**
 * The capture answers the payment as it is after the capture (v2: a PaymentStatusResponse, SETTLED once all is
 * captured, else still PENDING_MERCHANT_CAPTURE with capturedAmount grown). Zaver gives the capture no id of its
 * own: it is named by our captureIdempotencyKey (the operation id), which is our connector_capture_id.
 */
export function captureOutcome(res: ProviderResponse, job: Pick<ConnectorJob, 'operation_id'>): Outcome {
  if (res.status >= 400) return { kind: 'FAILED', ...errorFields(res) };
  const p = read(PaymentStatusResponse, res, 'capture');
  const captured = p.paymentStatus === 'SETTLED' || (p.paymentStatus === 'PENDING_MERCHANT_CAPTURE' && (p.capturedAmount ?? 0) > 0);
  if (!captured) throw new UnexpectedAnswer(`zaver capture: the payment is ${p.paymentStatus} with ${p.capturedAmount ?? 0} captured after the capture`);
  return { kind: 'CAPTURED', connector_transaction_id: job.operation_id };
}

/** The cancel answers the payment: voided once it is CANCELLED. */
export function cancelOutcome(res: ProviderResponse): Outcome {
  if (res.status >= 400) return { kind: 'FAILED', ...errorFields(res) };
  const p = read(PaymentStatusResponse, res, 'cancel');
  return p.paymentStatus === 'CANCELLED' ? { kind: 'VOIDED' }
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
    case 'PENDING_EXECUTION': return { kind: 'PENDING', ...id };
    case 'EXECUTED': return { kind: 'REFUNDED', ...id };
    case 'CANCELLED': return { kind: 'FAILED', ...id, ...refundCancelled };
  }
}

/** refund (create) and refund sync (read). */
export function refundOutcome(res: ProviderResponse): Outcome {
  if (res.status >= 400) return { kind: 'FAILED', ...errorFields(res) };
  return refundStatusOutcome(read(RefundResponse, res, 'refund'));
}
