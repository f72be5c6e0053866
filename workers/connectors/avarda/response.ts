// Avarda's answers -> outcomes, parsed with schemas.ts (Avarda's published shapes). The order-management calls answer
// with no content (order and cancel 200, return and refund 204: docs.avarda.com order-management pages), so only their
// status is read.
import { z } from 'zod';
import type { ConnectorJob } from '../../../domain/job.ts';
import type { Outcome } from '../../../domain/payment.ts';
import type { ProviderResponse } from '../../provider-http.ts';
import { UnexpectedAnswer } from '../types.ts';
import { ended, errorFields } from './errors.ts';
import { redirectUrl, tranId } from './request.ts';
import { InitializeAnswer, type PaymentStatus, PaymentStatus as PaymentStatusSchema, type PurchaseState, TokenAnswer } from './schemas.ts';

/** Without `tokenExpirationUtc` the token is taken to live 55 minutes (the WooCommerce plugin's cache; docs: 1 h). */
const TOKEN_FALLBACK_S = 55 * 60;

function parse<T>(schema: z.ZodType<T>, res: ProviderResponse): T {
  const r = schema.safeParse(res.body);
  if (!r.success) throw new UnexpectedAnswer(`avarda: unexpected answer (HTTP ${res.status}): ${z.prettifyError(r.error)}`);
  return r.data;
}

/** The token and how long it lives; a refusal of the client is the job's failure with Avarda's words. */
export function tokenOutcome(res: ProviderResponse): { access_token: string; expires_in_s: number } | Outcome {
  if (res.status >= 400) return { kind: 'FAILED', ...errorFields(res) };
  const t = parse(TokenAnswer, res);
  const until = t.tokenExpirationUtc ? Date.parse(t.tokenExpirationUtc) : Number.NaN;
  return { access_token: t.token, expires_in_s: Number.isFinite(until) ? Math.max(1, Math.floor((until - Date.now()) / 1000)) : TOKEN_FALLBACK_S };
}

/** authorize: the purchase is initialized; the customer completes Avarda Checkout on the page that embeds it. */
export function initializeOutcome(res: ProviderResponse, job: ConnectorJob): Outcome {
  if (res.status >= 400) return { kind: 'FAILED', ...errorFields(res) };
  const p = parse(InitializeAnswer, res);
  return { kind: 'CUSTOMER_ACTION', connector_transaction_id: p.purchaseId, redirect_url: redirectUrl(p.jwt, job) };
}

/** The checkout step of a purchase read: `<mode>.step.current`. */
export const stepOf = (p: PaymentStatus): PurchaseState | null => (p.mode === 'B2B' ? p.b2B : p.b2C)?.step.current ?? null;

/** The states the Magento module (Helper/PurchaseState.php) calls dead (`isDead`) and waiting (`isWaiting`). */
const DEAD: ReadonlySet<PurchaseState> = new Set(['TimedOut', 'Outdated', 'Canceled']);
const WAITING: ReadonlySet<PurchaseState> = new Set([
  'WaitingForBankId', 'WaitingForSwish', 'AwaitingCreditApproval', 'RedirectedToDirectPaymentBank', 'RedirectedToNets', 'RedirectedToTupas',
  // Not the customer's turn either: the merchant's own step of the form, and a state Avarda does not name.
  'HandledByMerchant', 'Unknown',
]);

/**
 * sync: Completed is the authorization; a dead session (TimedOut, Outdated, Canceled) ends it (the customer left, was
 * declined in the form, or the session expired: Avarda does not say which); a step waiting on something outside the
 * form is pending; every other step (Initialized, EmailZipEntry, …, PersonalInfo) is the customer still in the form.
 * A step Avarda does not publish does not parse: an unknown outcome, synced again.
 */
export function purchaseOutcome(res: ProviderResponse): Outcome {
  if (res.status >= 400) return { kind: 'FAILED', ...errorFields(res) };
  const p = parse(PaymentStatusSchema, res);
  const step = stepOf(p);
  if (!step) throw new UnexpectedAnswer(`avarda: purchase ${p.purchaseId} names no ${p.mode} step`);
  const id = { connector_transaction_id: p.purchaseId };
  if (step === 'Completed') return { kind: 'AUTHORIZED', ...id };
  if (DEAD.has(step)) return { kind: 'DECLINED', ...id, ...ended(step) };
  if (WAITING.has(step)) return { kind: 'PENDING', ...id };
  return { kind: 'CUSTOMER_ACTION', ...id };
}

/** The activation answers no id: the TranId we sent names it (the capture's connector id, kept for its refunds). */
export const activateOutcome = (res: ProviderResponse, job: ConnectorJob): Outcome =>
  (res.status >= 400 ? { kind: 'FAILED', ...errorFields(res) } : { kind: 'CAPTURED', connector_transaction_id: tranId(job) });

export const cancelOutcome = (res: ProviderResponse): Outcome =>
  (res.status >= 400 ? { kind: 'FAILED', ...errorFields(res) } : { kind: 'VOIDED' });

export const refundOutcome = (res: ProviderResponse, job: ConnectorJob): Outcome =>
  (res.status >= 400 ? { kind: 'FAILED', ...errorFields(res, 'refund') } : { kind: 'REFUNDED', connector_transaction_id: tranId(job) });
