// Avarda's answers -> outcomes, parsed with schemas.ts (Avarda's published shapes). The order-management calls answer
// with no content (order and cancel 200, return and refund 204: docs.avarda.com order-management pages), so only their
// status is read.
import type { ConnectorJob } from '../../../domain/job.ts';
import { readAnswer, UnexpectedAnswer } from '../kit/answer.ts';
import { UNIFIED } from '../kit/errors.ts';
import type { ProviderResponse } from '../kit/http.ts';
import type { Session } from '../kit/session.ts';
import type { Outcome } from '../kit/outcome.ts';
import { ended, errorFields } from './errors.ts';
import { mandateReference, redirectUrl, tranId } from './request.ts';
import {
  InitializeAnswer,
  PURCHASE,
  RecurringAnswer,
  type PaymentStatus,
  PaymentStatus as PaymentStatusSchema,
  type PurchaseState,
  TokenAnswer,
} from './schemas.ts';

/** Without `tokenExpirationUtc` the token is taken to live 55 minutes (the WooCommerce plugin's cache; docs: 1 h). */
const TOKEN_FALLBACK_S = 55 * 60;

/** The token and how long it lives; a refusal of the client is the job's failure with Avarda's words. */
export function tokenOutcome(res: ProviderResponse): { access_token: string; expires_in_s: number } | Outcome {
  if (res.status >= 400) return { kind: 'FAILED', ...errorFields(res) };
  const t = readAnswer(TokenAnswer, res, 'avarda token');
  const until = t.tokenExpirationUtc ? Date.parse(t.tokenExpirationUtc) : Number.NaN;
  return { access_token: t.token, expires_in_s: Number.isFinite(until) ? Math.max(1, Math.floor((until - Date.now()) / 1000)) : TOKEN_FALLBACK_S };
}

/** authorize: the purchase is initialized; the customer completes Avarda Checkout on the page that embeds it. */
export function initializeOutcome(res: ProviderResponse, job: ConnectorJob, _answers?: readonly ProviderResponse[], session?: Session): Outcome {
  if (res.status >= 400) return { kind: 'FAILED', ...errorFields(res) };
  const p = readAnswer(InitializeAnswer, res, 'avarda initialized purchase');
  return { kind: 'CUSTOMER_ACTION', connector_transaction_id: p.purchaseId, redirect_url: redirectUrl(p.jwt, job, session) };
}

/** The checkout step of a purchase read: `<mode>.step.current`. */
export const stepOf = (p: PaymentStatus): PurchaseState | null => (p.mode === 'B2B' ? p.b2B : p.b2C)?.step.current ?? null;

/** sync: the purchase's step in our terms (schemas.ts PURCHASE). A step Avarda does not publish does not parse: an
 * unknown outcome, tried again, never a guess. */
export function purchaseOutcome(res: ProviderResponse): Outcome {
  if (res.status >= 400) return { kind: 'FAILED', ...errorFields(res) };
  const p = readAnswer(PaymentStatusSchema, res, 'avarda payment status');
  const step = stepOf(p);
  if (!step) throw new UnexpectedAnswer(`avarda: purchase ${p.purchaseId} names no ${p.mode} step`);
  const id = { connector_transaction_id: p.purchaseId };
  const kind = PURCHASE.kind(step);
  if (kind === 'DECLINED') return { kind, ...id, ...ended(step) };
  // A payment setting up a mandate: once Completed, the purchase's recurring payment token (present only when we
  // offered recurring payments, i.e. for a mandate part new/setup, and the customer kept the consent box ticked) is the
  // mandate's reference at Avarda, with the purchase it belongs to. Read from the answer itself, so it does not depend
  // on the sync job carrying job.mandate.
  const token = p.paymentMethods?.selectedPayment?.recurringPaymentToken;
  if (kind === 'AUTHORIZED' && token) return { kind, ...id, connector_mandate_id: mandateReference(p.purchaseId, token) };
  return { kind, ...id };
}

/**
 * A recurring charge answered 200 with the new purchase: authorized without the customer (the plugin marks the renewal
 * paid on this answer); activated, cancelled and returned like any purchase. A refusal (a token no longer valid, the
 * credit refused) is declined with Avarda's words.
 */
export function recurringOutcome(res: ProviderResponse): Outcome {
  if (res.status >= 400) {
    const e = errorFields(res);
    // 110 "Invalid recurring payment token or origin purchase does not meet conditions for recurring payments" and 120
    // "Recurring payment token expired" (checkout-3/error-codes): the token can no longer be charged, whatever ended
    // it: the mandate is gone at Avarda (UE_7000, our mandate becomes revoked). 121 (limit reached) and 122 (origin
    // purchase not completed) leave it standing.
    if (res.status === 400 && (e.error_code === '110' || e.error_code === '120')) return { kind: 'DECLINED', ...e, ...UNIFIED.mandate_revoked };
    return { kind: res.status >= 500 || e.unified_code === UNIFIED.credentials_refused.unified_code ? 'FAILED' : 'DECLINED', ...e };
  }
  const p = readAnswer(RecurringAnswer, res, 'avarda recurring payment');
  return { kind: 'AUTHORIZED', connector_transaction_id: p.purchaseId };
}

/** The activation answers no id: the TranId we sent names it (the capture's connector id, kept for its refunds). */
export const activateOutcome = (res: ProviderResponse, job: ConnectorJob): Outcome =>
  res.status >= 400 ? { kind: 'FAILED', ...errorFields(res) } : { kind: 'CAPTURED', connector_transaction_id: tranId(job) };

export const cancelOutcome = (res: ProviderResponse): Outcome => (res.status >= 400 ? { kind: 'FAILED', ...errorFields(res) } : { kind: 'VOIDED' });

export const refundOutcome = (res: ProviderResponse, job: ConnectorJob): Outcome =>
  res.status >= 400 ? { kind: 'FAILED', ...errorFields(res, 'refund') } : { kind: 'REFUNDED', connector_transaction_id: tranId(job) };
