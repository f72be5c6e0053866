// Unzer's answers -> outcomes, parsed with zod schemas of Unzer's own shapes (transactions, payments, errors).
import type { ConnectorJob } from '../../../domain/job.ts';
import type { Outcome, OutcomeKind } from '../../../domain/payment.ts';
import type { ProviderResponse } from '../kit/http.ts';
import { maybeAnswer, readAnswer, UnexpectedAnswer } from '../kit/answer.ts';
import { unifiedFor } from './errors.ts';
import { UnzerError, UnzerPayment, UnzerTransaction } from './schemas.ts';

/** An error body ({errors: [...]}, on an HTTP error or not), or null. */
export function errorOf(res: ProviderResponse): { code: string; message: string } | null {
  const e = maybeAnswer(UnzerError, res);
  if (e) return { code: e.errors[0]!.code, message: e.errors[0]!.merchantMessage };
  if (res.status >= 400) return { code: `HTTP_${res.status}`, message: `Unzer answered HTTP ${res.status}` };
  return null;
}

const failure = (kind: OutcomeKind, e: { code: string; message: string }): Outcome => ({
  kind,
  error_code: e.code,
  error_message: e.message,
  ...unifiedFor(e.code),
});

/** What an error answer is: the key refused or the request invalid fails; anything else asking for credit is a decline. */
function errorOutcome(e: { code: string; message: string }, credit: boolean): Outcome {
  const unified = unifiedFor(e.code).unified_code;
  return failure(credit && unified !== 'UE_4000' && unified !== 'UE_2000' ? 'DECLINED' : 'FAILED', e);
}

/** A transaction's error: its message ({code, merchant}). */
const transactionError = (t: UnzerTransaction) => ({ code: t.message?.code ?? 'UNKNOWN', message: t.message?.merchant ?? 'Unzer reported an error' });

/** A transaction answer that succeeded, is pending, or failed (an error transaction or an error body). */
export function transactionOf(res: ProviderResponse): UnzerTransaction | { error: { code: string; message: string } } {
  const e = errorOf(res);
  if (e) return { error: e };
  return readAnswer(UnzerTransaction, res, 'unzer');
}

/** authorize: the last answer of the chain (type, customer, basket, authorization, charge). */
export function authorizeOutcome(res: ProviderResponse, _job: ConnectorJob, answers: readonly ProviderResponse[] = [res]): Outcome {
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

/** The authorization's state in a payment read: its authorize transaction, then the payment's state. */
export function paymentState(p: UnzerPayment): Outcome {
  const ids = { connector_transaction_id: p.id };
  const auth = p.transactions.find((t) => t.type === 'authorize');
  if (!auth) throw new UnexpectedAnswer(`unzer: payment ${p.id} has no authorization`);
  if (auth.status === 'error') return { ...failure('DECLINED', { code: 'COR.400.100.101', message: 'The authorization was declined' }), ...ids };
  if (auth.status === 'pending' || auth.status === 'resumed' || p.state.name === 'payment_review' || p.state.name === 'create')
    return { kind: 'PENDING', ...ids };
  if (p.transactions.some((t) => t.type === 'charge' && t.status === 'pending')) return { kind: 'PENDING', ...ids };
  switch (p.state.name) {
    case 'completed':
    case 'partly':
    case 'chargeback':
      return { kind: 'CAPTURED', ...ids };
    case 'canceled':
      return { kind: 'VOIDED', ...ids };
    default:
      return { kind: 'AUTHORIZED', ...ids };
  }
}

/** Whether a read payment is authorized and nothing charged yet (an automatic capture then charges it). */
export const awaitsCharge = (p: UnzerPayment) =>
  p.state.name === 'pending' &&
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

/** refund and refund sync: the charges' cancel (s-cnl-…); Unzer refusing it is a declined refund. */
export function refundOutcome(res: ProviderResponse): Outcome {
  const t = transactionOf(res);
  if ('error' in t) return failure(unifiedFor(t.error.code).unified_code === 'UE_6000' ? 'DECLINED' : 'FAILED', t.error);
  if (t.isError) {
    const e = transactionError(t);
    return { ...failure('DECLINED', e), connector_transaction_id: t.id };
  }
  return { kind: t.isSuccess ? 'REFUNDED' : 'PENDING', connector_transaction_id: t.id };
}
