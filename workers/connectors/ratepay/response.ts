// Ratepay's answers -> outcomes, parsed with the provider's own shapes (HAL JSON).
import { z } from 'zod';
import type { ConnectorJob } from '../../../domain/job.ts';
import type { Outcome, OutcomeKind } from '../../../domain/payment.ts';
import type { ProviderResponse } from '../kit/http.ts';
import { readAnswer, UnexpectedAnswer } from '../kit/answer.ts';
import { unifiedFor } from './errors.ts';
import { isManual } from './request.ts';

const Links = z.object({ self: z.object({ href: z.string() }).optional() }).passthrough().optional();

/** The transaction's status: UNVERIFIED (Ratepay documents no enum; these are the imitation's words). */
export const TransactionStatus = z.enum(['AUTHORIZED', 'PARTIALLY_CAPTURED', 'CAPTURED', 'CANCELLED', 'DECLINED', 'CLOSED']);
export const RatepayTransaction = z.object({
  ratepay_transaction_id: z.string().min(1),
  partner_transaction_id: z.string().nullish(),
  status: TransactionStatus.optional(),
  _links: Links,
});
export const RatepayCapture = z.object({ ratepay_capture_id: z.string().min(1), ratepay_transaction_id: z.string().optional(), _links: Links });
export const RatepayCancellation = z.object({ ratepay_cancellation_id: z.string().min(1), _links: Links });
export const RatepayRefund = z.object({ ratepay_refund_id: z.string().min(1), partner_operation_id: z.string().nullish(), _links: Links });

/** A decline / error: {ratepay_transaction_id?, decline: {category, reasons[]}, message?} (field names UNVERIFIED). */
export const RatepayDecline = z.object({
  ratepay_transaction_id: z.string().optional(),
  decline: z.object({ category: z.string().min(1), reasons: z.array(z.string()).default([]) }),
  message: z.string().optional(),
});
/** The OAuth server's refusal, and the API's 401 for a token it does not take. */
export const OAuthError = z.object({ error: z.string().min(1), error_description: z.string().optional() });
export const RatepayToken = z.object({ access_token: z.string().min(1), expires_in: z.number().positive(), token_type: z.string() });

/** An error answer as an outcome of `kind`: the category is the error code, the reasons (and message) its text. */
export function errorOutcome(res: ProviderResponse, kind: 'DECLINED' | 'FAILED'): Outcome {
  const d = RatepayDecline.safeParse(res.body);
  if (d.success) {
    const { category, reasons } = d.data.decline;
    const text = [reasons.join(', '), d.data.message].filter(Boolean).join(': ') || category;
    return {
      kind, error_code: category, error_message: text, ...unifiedFor(category, reasons),
      ...(d.data.ratepay_transaction_id ? { connector_transaction_id: d.data.ratepay_transaction_id } : {}),
    };
  }
  const o = OAuthError.safeParse(res.body);
  if (o.success) return { kind: res.status === 401 ? 'FAILED' : kind, error_code: o.data.error, error_message: o.data.error_description ?? o.data.error, ...unifiedFor(res.status === 401 ? 'UNAUTHORIZED' : o.data.error) };
  return { kind, error_code: `http_${res.status}`, error_message: `HTTP ${res.status}`, ...unifiedFor(res.status === 401 ? 'UNAUTHORIZED' : '') };
}

/**
 * authorize: a 2xx is an authorization (Ratepay decides synchronously); a 4xx a decline with its category. An
 * automatic-capture payment is not done yet: PENDING, and its status sync sends the capture (syncOutcome).
 */
export function authorizeOutcome(res: ProviderResponse, job: ConnectorJob): Outcome {
  if (res.status >= 400) return errorOutcome(res, 'DECLINED');
  const t = readAnswer(RatepayTransaction, res, 'ratepay');
  return { kind: isManual(job) ? 'AUTHORIZED' : 'PENDING', connector_transaction_id: t.ratepay_transaction_id, connector_reference_id: t.partner_transaction_id ?? undefined };
}

const STATUS: Record<z.infer<typeof TransactionStatus>, OutcomeKind> = {
  AUTHORIZED: 'AUTHORIZED', PARTIALLY_CAPTURED: 'AUTHORIZED', CAPTURED: 'CAPTURED', CANCELLED: 'VOIDED', DECLINED: 'DECLINED', CLOSED: 'CAPTURED',
};

/** sync: for manual capture the transaction read; for automatic capture the answer to its capture. */
export function syncOutcome(res: ProviderResponse, job: ConnectorJob): Outcome {
  if (!isManual(job)) {
    if (res.status >= 400) return errorOutcome(res, 'FAILED');
    readAnswer(RatepayCapture, res, 'ratepay');
    // The payment's id stays the transaction's.
    return { kind: 'CAPTURED', connector_transaction_id: job.connector_transaction_id ?? undefined };
  }
  if (res.status >= 400) return errorOutcome(res, 'DECLINED');
  const t = readAnswer(RatepayTransaction, res, 'ratepay');
  if (!t.status) throw new UnexpectedAnswer('ratepay: the transaction read names no status');
  return { kind: STATUS[t.status], connector_transaction_id: t.ratepay_transaction_id };
}

export function captureOutcome(res: ProviderResponse): Outcome {
  if (res.status >= 400) return errorOutcome(res, 'FAILED');
  return { kind: 'CAPTURED', connector_transaction_id: readAnswer(RatepayCapture, res, 'ratepay').ratepay_capture_id };
}

export function voidOutcome(res: ProviderResponse): Outcome {
  if (res.status >= 400) return errorOutcome(res, 'FAILED');
  readAnswer(RatepayCancellation, res, 'ratepay');
  return { kind: 'VOIDED' };
}

/** refund and refund sync: Ratepay refunds synchronously; a refused refund (REFUND_REJECTED) is declined, any other error fails it. */
export function refundOutcome(res: ProviderResponse): Outcome {
  if (res.status >= 400) {
    const o = errorOutcome(res, 'FAILED');
    return o.unified_code === 'UE_6000' ? { ...o, kind: 'DECLINED' } : o;
  }
  return { kind: 'REFUNDED', connector_transaction_id: readAnswer(RatepayRefund, res, 'ratepay').ratepay_refund_id };
}

/** The token answer: the JWT and its lifetime; a refusal of the client is the job's failure with the provider's code. */
export function tokenOutcome(res: ProviderResponse): { access_token: string; expires_in_s: number } | Outcome {
  if (res.status >= 400) return errorOutcome(res, 'FAILED');
  const t = readAnswer(RatepayToken, res, 'ratepay');
  return { access_token: t.access_token, expires_in_s: t.expires_in };
}
