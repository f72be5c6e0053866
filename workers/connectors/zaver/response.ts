// Zaver's answers -> outcomes, parsed with Zaver's own shapes: the PaymentStatusResponse (create, read, cancel and
// the payment callbacks), the capture answer, and the RefundResponse (create, read, the refund callbacks).
import { z } from 'zod';
import type { Outcome, OutcomeKind } from '../../../domain/payment.ts';
import type { ProviderResponse } from '../kit/http.ts';
import { UNIFIED } from '../kit/errors.ts';
import { readAnswer } from '../kit/answer.ts';
import { errorFields, paymentEnded, refundCancelled } from './errors.ts';

export const PAYMENT_STATUSES = ['CREATED', 'PENDING_CONFIRMATION', 'PENDING_MERCHANT_CAPTURE', 'SETTLED', 'CANCELLED', 'ERROR'] as const;
export const REFUND_STATUSES = ['PENDING_MERCHANT_APPROVAL', 'PENDING_EXECUTION', 'EXECUTED', 'CANCELLED'] as const;
const Amount = z.number().nonnegative();

export const ZaverPayment = z.object({
  paymentId: z.string().min(1),
  paymentStatus: z.enum(PAYMENT_STATUSES),
  amount: Amount,
  currency: z.string(),
  capturedAmount: Amount.nullish(),
  refundedAmount: Amount.nullish(),
  token: z.string().nullish(),
  paymentLink: z.string().nullish(),
  validUntil: z.string().nullish(),
  captureBefore: z.string().nullish(),
  merchantPaymentReference: z.string().nullish(),
  allowedPaymentOperations: z.object({ canCapture: z.boolean(), canRefund: z.boolean(), canCancel: z.boolean() }).partial().nullish(),
});
export const ZaverCapture = z.object({ id: z.string().min(1), amount: Amount, paymentStatus: z.enum(PAYMENT_STATUSES) });
export const ZaverRefund = z.object({
  refundId: z.string().min(1),
  paymentId: z.string().min(1),
  refundAmount: Amount,
  currency: z.string(),
  status: z.enum(REFUND_STATUSES),
  merchantReference: z.string().nullish(),
  description: z.string().nullish(),
  /** When the refund last changed (ISO 8601). */
  lastEvent: z.string().nullish(),
});
export type ZaverPaymentBody = z.infer<typeof ZaverPayment>;
export type ZaverRefundBody = z.infer<typeof ZaverRefund>;

const PAYMENT_OUTCOME: Record<ZaverPaymentBody['paymentStatus'], OutcomeKind> = {
  // The payment link is waiting for the payer.
  CREATED: 'CUSTOMER_ACTION',
  // The payer approved; Zaver (or the payer's bank) has not confirmed yet.
  PENDING_CONFIRMATION: 'PENDING',
  // Authorized, waiting for the merchant's capture.
  PENDING_MERCHANT_CAPTURE: 'AUTHORIZED',
  // Settled without a capture of ours (an account configured for immediate capture), or fully captured.
  SETTLED: 'CAPTURED',
  CANCELLED: 'DECLINED',
  ERROR: 'DECLINED',
};

/** The payment's status as the outcome of its authorization. */
export function paymentOutcome(p: ZaverPaymentBody): Outcome {
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
  return paymentOutcome(readAnswer(ZaverPayment, res, 'zaver'));
}

/** The capture's id is our connector_capture_id. */
export function captureOutcome(res: ProviderResponse): Outcome {
  if (res.status >= 400) return { kind: 'FAILED', ...errorFields(res) };
  return { kind: 'CAPTURED', connector_transaction_id: readAnswer(ZaverCapture, res, 'zaver').id };
}

/** The cancel answers the payment: voided once it is CANCELLED. */
export function cancelOutcome(res: ProviderResponse): Outcome {
  if (res.status >= 400) return { kind: 'FAILED', ...errorFields(res) };
  const p = readAnswer(ZaverPayment, res, 'zaver');
  return p.paymentStatus === 'CANCELLED' ? { kind: 'VOIDED' }
    : { kind: 'FAILED', error_code: p.paymentStatus, error_message: `The payment is ${p.paymentStatus} at Zaver after the cancel`, ...UNIFIED.invalid_state };
}

/** A refund's status: waiting for the merchant's approval or for its execution is pending; executed is refunded. */
export function refundStatusOutcome(r: ZaverRefundBody): Outcome {
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
  return refundStatusOutcome(readAnswer(ZaverRefund, res, 'zaver'));
}
