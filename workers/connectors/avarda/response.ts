// Avarda's answers -> outcomes, parsed with Avarda's own shapes (the partner token, the initialized purchase, the
// purchase read; the order-management calls' bodies are UNVERIFIED and not read beyond their status).
import { z } from 'zod';
import type { ConnectorJob } from '../../../domain/job.ts';
import type { Outcome } from '../../../domain/payment.ts';
import type { ProviderResponse } from '../kit/http.ts';
import { readAnswer, UnexpectedAnswer } from '../kit/answer.ts';
import { errorFields, timedOut } from './errors.ts';
import { redirectUrl } from './request.ts';
import type { Session } from '../kit/session.ts';

/** `tokenExpirationUtc`'s name is UNVERIFIED; without it the token is taken to live 55 minutes (the plugin's cache). */
export const AvardaToken = z.object({ token: z.string().min(1), tokenExpirationUtc: z.string().optional() });
export const InitializedPurchase = z.object({ purchaseId: z.string().min(1), jwt: z.string().min(1), expiredUtc: z.string().optional() });
const Step = z.object({ step: z.object({ current: z.string().min(1) }) }).passthrough();
export const AvardaPurchase = z.object({
  purchaseId: z.string().min(1),
  mode: z.enum(['B2C', 'B2B']),
  b2C: Step.nullish(),
  b2B: Step.nullish(),
  expiredUtc: z.string().optional(),
}).passthrough();

const TOKEN_FALLBACK_S = 55 * 60;

/** The token and how long it lives; a refusal of the client is the job's failure with Avarda's words. */
export function tokenOutcome(res: ProviderResponse): { access_token: string; expires_in_s: number } | Outcome {
  if (res.status >= 400) return { kind: 'FAILED', ...errorFields(res) };
  const t = readAnswer(AvardaToken, res, 'avarda');
  const until = t.tokenExpirationUtc ? Date.parse(t.tokenExpirationUtc) : NaN;
  return { access_token: t.token, expires_in_s: Number.isFinite(until) ? Math.max(1, Math.floor((until - Date.now()) / 1000)) : TOKEN_FALLBACK_S };
}

/** authorize: the purchase is initialized; the customer completes Avarda Checkout on the page that embeds it. */
export function initializeOutcome(res: ProviderResponse, job: ConnectorJob, _answers?: readonly ProviderResponse[], session?: Session): Outcome {
  if (res.status >= 400) return { kind: 'FAILED', ...errorFields(res) };
  const p = readAnswer(InitializedPurchase, res, 'avarda');
  return { kind: 'CUSTOMER_ACTION', connector_transaction_id: p.purchaseId, redirect_url: redirectUrl(p.jwt, job, session) };
}

/** The checkout step of a purchase read: `<mode>.step.current`. */
export const stepOf = (p: z.infer<typeof AvardaPurchase>) => (p.mode === 'B2B' ? p.b2B : p.b2C)?.step.current ?? null;

/**
 * sync: Completed is the authorization; TimedOut ends it (the customer left, was declined in the form, or the
 * session expired: Avarda does not say which); a step waiting on something outside the form (WaitingForBankId,
 * WaitingForSwish, …) is pending; any other step is the customer still in the form.
 */
export function purchaseOutcome(res: ProviderResponse): Outcome {
  if (res.status >= 400) return { kind: 'FAILED', ...errorFields(res) };
  const p = readAnswer(AvardaPurchase, res, 'avarda');
  const step = stepOf(p);
  if (!step) throw new UnexpectedAnswer(`avarda: purchase ${p.purchaseId} names no ${p.mode} step`);
  const id = { connector_transaction_id: p.purchaseId };
  if (step === 'Completed') return { kind: 'AUTHORIZED', ...id };
  if (step === 'TimedOut') return { kind: 'DECLINED', ...id, ...timedOut() };
  if (step.startsWith('WaitingFor')) return { kind: 'PENDING', ...id };
  return { kind: 'CUSTOMER_ACTION', ...id };
}

export const activateOutcome = (res: ProviderResponse): Outcome =>
  (res.status >= 400 ? { kind: 'FAILED', ...errorFields(res) } : { kind: 'CAPTURED' });

export const cancelOutcome = (res: ProviderResponse): Outcome =>
  (res.status >= 400 ? { kind: 'FAILED', ...errorFields(res) } : { kind: 'VOIDED' });

export const refundOutcome = (res: ProviderResponse): Outcome =>
  (res.status >= 400 ? { kind: 'FAILED', ...errorFields(res, 'refund') } : { kind: 'REFUNDED' });
