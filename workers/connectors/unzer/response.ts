// Unzer's answers -> outcomes, parsed with zod schemas of Unzer's own shapes (transactions, payments, errors).
import type { ConnectorJob } from '../../../domain/job.ts';
import type { Outcome, OutcomeKind } from '../../../domain/payment.ts';
import type { ProviderResponse } from '../kit/http.ts';
import { maybeAnswer, readAnswer, UnexpectedAnswer } from '../kit/answer.ts';
import { UNIFIED } from '../kit/errors.ts';
import { ORDER_ID_IN_USE, unifiedFor } from './errors.ts';
import { orderId } from './request.ts';
import { STATE, UnzerError, UnzerPayment, UnzerTransaction } from './schemas.ts';

/** An error body ({errors: [...]}, on an HTTP error or not), or null. */
export function errorOf(res: ProviderResponse): { code: string; message: string } | null {
  const e = maybeAnswer(UnzerError, res);
  if (e) return { code: e.errors[0]!.code || `HTTP_${res.status}`, message: e.errors[0]!.merchantMessage || 'Unzer reported an error' };
  if (res.status >= 400) return { code: `HTTP_${res.status}`, message: `Unzer answered HTTP ${res.status}` };
  return null;
}

const failure = (kind: OutcomeKind, e: { code: string; message: string }): Outcome => ({
  kind,
  error_code: e.code,
  error_message: e.message,
  ...unifiedFor(e.code),
});

/** What an error answer is: a decline (COR.400.*) asking for credit is DECLINED; the key, the data, the state or
 * Unzer itself failing is FAILED. */
function errorOutcome(e: { code: string; message: string }, credit: boolean): Outcome {
  const unified = unifiedFor(e.code).unified_code;
  return failure(credit && unified === 'UE_1000' ? 'DECLINED' : 'FAILED', e);
}

/** A transaction's error: its message ({code, merchant}). */
const transactionError = (t: UnzerTransaction) => ({ code: t.message?.code ?? 'UNKNOWN', message: t.message?.merchant ?? 'Unzer reported an error' });

/** A transaction answer that succeeded, is pending, or failed (an error transaction or an error body). */
export function transactionOf(res: ProviderResponse): UnzerTransaction | { error: { code: string; message: string } } {
  const e = errorOf(res);
  if (e) return { error: e };
  return readAnswer(UnzerTransaction, res, 'unzer');
}

/** Whether an authorization was refused because its orderId is in use (API.320.200.138). */
export const orderIdInUse = (res: ProviderResponse) => errorOf(res)?.code === ORDER_ID_IN_USE;

/** authorize: the last answer of the chain (type, customer, basket, authorization, charge). */
export function authorizeOutcome(res: ProviderResponse, job: ConnectorJob, answers: readonly ProviderResponse[] = [res]): Outcome {
  // Issue 21: Unzer refuses an orderId it already has (API.320.200.138, php-sdk ApiResponseCodes): our own earlier
  // attempt, whose answer was lost. Not a failure: the payment is read by its orderId (GET /v1/payments/{orderId}) in
  // the status sync, which then names it by its id (and charges an automatic capture approved and not charged).
  if (answers.length === 4 && orderIdInUse(res)) return { kind: 'PENDING', connector_transaction_id: orderId(job) };
  const last = transactionOf(res);
  // An answer before the authorization refused (type, customer, basket): the request was not acceptable.
  if ('error' in last) {
    const auth = answers.length >= 4 ? transactionOf(answers[3]!) : null;
    // The charge after an approved authorization failed: the authorization stands, captured nothing.
    if (answers.length === 5 && auth && !('error' in auth)) return { ...failure('FAILED', last.error), connector_transaction_id: auth.resources?.paymentId };
    return errorOutcome(last.error, answers.length === 4);
  }
  if (answers.length < 4) throw new UnexpectedAnswer(`unzer: the authorization chain ended after ${answers.length} calls`);
  const auth = answers.length === 4 ? last : transactionOf(answers[3]!);
  // The chain charges only after an authorization that succeeded: an error there is not an answer Unzer gives.
  if ('error' in auth) throw new UnexpectedAnswer(`unzer: a charge after the authorization's error ${auth.error.code}`);
  const ids = { connector_transaction_id: auth.resources?.paymentId, connector_reference_id: auth.id };
  if (answers.length === 5) return { ...transactionOutcome(last, 'CAPTURED', false), ...ids };
  return { ...transactionOutcome(last, 'AUTHORIZED', true), ...ids };
}

/** A transaction's outcome: success -> `success`, pending (with a redirect: the customer's step), error. */
function transactionOutcome(t: UnzerTransaction, success: OutcomeKind, credit: boolean): Outcome {
  if (t.isError) return errorOutcome(transactionError(t), credit);
  if (t.isSuccess) return { kind: success };
  if (t.isPending) return t.redirectUrl ? { kind: 'CUSTOMER_ACTION', redirect_url: t.redirectUrl } : { kind: 'PENDING' };
  throw new UnexpectedAnswer(`unzer: transaction ${t.id} is neither success, pending nor error`);
}

/**
 * The authorization's state in a payment read: its authorize transaction, then the payment's state by id. Issue 21:
 * state 4 (payment review) is an overpayment to check after money came in (docs.unzer.com payment-states), not a risk
 * review: a review or customer step is a pending authorize transaction in a payment that is pending (0).
 */
export function paymentState(p: UnzerPayment): Outcome {
  const ids = { connector_transaction_id: p.id };
  const auth = p.transactions.find((t) => t.type === 'authorize');
  if (!auth) throw new UnexpectedAnswer(`unzer: payment ${p.id} has no authorization`);
  if (auth.status === 'error') return { ...failure('DECLINED', { code: 'COR.400.100.101', message: 'The authorization was declined' }), ...ids };
  if (auth.status === 'pending' || auth.status === 'resumed' || p.state.id === STATE.create) return { kind: 'PENDING', ...ids };
  if (p.transactions.some((t) => t.type === 'charge' && t.status === 'pending')) return { kind: 'PENDING', ...ids };
  switch (p.state.id) {
    case STATE.completed:
    case STATE.partly:
    case STATE.payment_review:
    case STATE.chargeback:
      return { kind: 'CAPTURED', ...ids };
    case STATE.canceled:
      return { kind: 'VOIDED', ...ids };
    default:
      return { kind: 'AUTHORIZED', ...ids };
  }
}

/** Whether a read payment is authorized and nothing charged yet (an automatic capture then charges it). */
export const awaitsCharge = (p: UnzerPayment) =>
  p.state.id === STATE.pending &&
  p.transactions.some((t) => t.type === 'authorize' && t.status === 'success') &&
  !p.transactions.some((t) => t.type === 'charge');

/** sync: the payment read; for an automatic capture a charge may follow (the last answer). */
export function syncOutcome(res: ProviderResponse, _job: ConnectorJob, answers: readonly ProviderResponse[] = [res]): Outcome {
  if (answers.length === 1) {
    const e = errorOf(res);
    if (e) return errorOutcome(e, false);
    return paymentState(readAnswer(UnzerPayment, res, 'unzer'));
  }
  const p = readAnswer(UnzerPayment, answers[0]!, 'unzer');
  const t = transactionOf(res);
  if ('error' in t) return { ...failure('FAILED', t.error), connector_transaction_id: p.id };
  return { ...transactionOutcome(t, 'CAPTURED', false), connector_transaction_id: p.id };
}

/** capture: the charge. */
export function captureOutcome(res: ProviderResponse): Outcome {
  const t = transactionOf(res);
  if ('error' in t) return failure('FAILED', t.error);
  return { ...transactionOutcome(t, 'CAPTURED', false), connector_transaction_id: t.id };
}

/** void: the authorization's cancel. */
export function voidOutcome(res: ProviderResponse): Outcome {
  const t = transactionOf(res);
  if ('error' in t) return failure('FAILED', t.error);
  const o = transactionOutcome(t, 'VOIDED', false);
  return o.kind === 'CUSTOMER_ACTION' ? { kind: 'PENDING' } : o;
}

/** A refund Unzer refused: DECLINED, whatever the decline code (refund_declined). */
const refundDeclined = (e: { code: string; message: string }): Outcome => ({
  kind: 'DECLINED',
  error_code: e.code,
  error_message: e.message,
  ...UNIFIED.refund_declined,
});

/** refund and refund sync: the charges' cancel (s-cnl-…); Unzer refusing it (an error transaction, a COR.400.* error
 * body) is a declined refund; a refused request or key fails it. */
export function refundOutcome(res: ProviderResponse): Outcome {
  const t = transactionOf(res);
  if ('error' in t) return t.error.code.startsWith('COR.400.') ? refundDeclined(t.error) : failure('FAILED', t.error);
  if (t.isError) return { ...refundDeclined(transactionError(t)), connector_transaction_id: t.id };
  return { kind: t.isSuccess ? 'REFUNDED' : 'PENDING', connector_transaction_id: t.id };
}
