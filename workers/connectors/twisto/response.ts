// Twisto's answers -> outcomes, parsed with Twisto's own shapes (the checkout, the charge, the refund and its list).
import type { Outcome, OutcomeKind } from '../../../domain/payment.ts';
import type { ConnectorJob } from '../../../domain/job.ts';
import type { ProviderResponse } from '../kit/http.ts';
import { readAnswer, UnexpectedAnswer } from '../kit/answer.ts';
import { UNIFIED } from '../kit/errors.ts';
import { declined, errorFields } from './errors.ts';
import { TwistoCharge, TwistoCheckout, type TwistoCheckoutBody, TwistoRefund, TwistoRefundList } from './schemas.ts';

/** The checkout's state as the outcome of its authorization. */
const CHECKOUT_OUTCOME: Record<TwistoCheckoutBody['state'], OutcomeKind> = {
  // The shopper has not finished Twisto's checkout, or Twisto is still scoring (UNVERIFIED: no state of its own).
  created: 'CUSTOMER_ACTION',
  // Scoring accepted: chargeable, our charge (the capture) follows.
  approved: 'AUTHORIZED',
  // Charged already: Twisto's "Immediate Capture" merchant mode, or our own charge.
  completed: 'CAPTURED',
  cancelled: 'DECLINED',
  error: 'FAILED',
};

export function checkoutOutcome(c: TwistoCheckoutBody): Outcome {
  const kind = CHECKOUT_OUTCOME[c.state];
  return {
    kind,
    connector_transaction_id: c.id,
    ...(c.merchant_reference ? { connector_reference_id: c.merchant_reference } : {}),
    ...(kind === 'CUSTOMER_ACTION' && c.uri ? { redirect_url: c.uri } : {}),
    ...(c.state === 'cancelled' ? declined() : {}),
    ...(c.state === 'error' ? { error_code: 'error', error_message: 'The checkout ended in state error at Twisto', ...UNIFIED.provider_error } : {}),
  };
}

/** authorize (the checkout created) and its status sync (the checkout read). */
export function checkoutAnswerOutcome(res: ProviderResponse): Outcome {
  if (res.status >= 400) return { kind: 'FAILED', ...errorFields(res) };
  return checkoutOutcome(readAnswer(TwistoCheckout, res, 'twisto'));
}

const wrongState = (what: string, state: string): Outcome => ({
  kind: 'FAILED',
  error_code: 'invalid_state',
  error_message: `cannot ${what} a checkout in state ${state}`,
  ...UNIFIED.invalid_state,
});

/** capture: the charge, or (a repeat) the checkout already completed. */
export function chargeOutcome(res: ProviderResponse, _job: ConnectorJob, answers: readonly ProviderResponse[] = [res]): Outcome {
  if (res.status >= 400) return { kind: 'FAILED', ...errorFields(res) };
  if (answers.length === 1) {
    const c = readAnswer(TwistoCheckout, res, 'twisto');
    return c.state === 'completed' ? { kind: 'CAPTURED' } : wrongState('charge', c.state);
  }
  const ch = readAnswer(TwistoCharge, res, 'twisto');
  if (ch.state === 'captured')
    return { kind: 'CAPTURED', connector_transaction_id: ch.id, ...(ch.receipt_number ? { connector_reference_id: ch.receipt_number } : {}) };
  if (ch.state === 'rejected')
    return {
      kind: 'DECLINED',
      connector_transaction_id: ch.id,
      error_code: 'rejected',
      error_message: 'Twisto rejected the charge',
      ...UNIFIED.customer_declined,
    };
  return { kind: 'FAILED', connector_transaction_id: ch.id, error_code: ch.state, error_message: `the charge is ${ch.state}`, ...UNIFIED.provider_error };
}

/** void: the checkout cancelled (by our call, or already). */
export function cancelOutcome(res: ProviderResponse): Outcome {
  if (res.status >= 400) return { kind: 'FAILED', ...errorFields(res) };
  const c = readAnswer(TwistoCheckout, res, 'twisto');
  return c.state === 'cancelled' ? { kind: 'VOIDED' } : wrongState('cancel', c.state);
}

/** refund: the refund created, or (a repeat) found in the checkout's list. A refund has no state: made is done. */
export function refundOutcome(res: ProviderResponse, job: ConnectorJob, answers: readonly ProviderResponse[] = [res]): Outcome {
  if (res.status >= 400) return { kind: 'FAILED', ...errorFields(res, 'refund') };
  const r =
    answers.length === 1
      ? readAnswer(TwistoRefundList, res, 'twisto').items.find((x) => x.reference === (job.refund_id ?? job.operation_id))
      : readAnswer(TwistoRefund, res, 'twisto');
  if (!r) throw new UnexpectedAnswer('twisto: the refund list has no refund of ours, yet no refund was made');
  return { kind: 'REFUNDED', connector_transaction_id: r.id };
}

/** refundSync: the refund read. */
export function refundReadOutcome(res: ProviderResponse): Outcome {
  if (res.status >= 400) return { kind: 'FAILED', ...errorFields(res, 'refund') };
  return { kind: 'REFUNDED', connector_transaction_id: readAnswer(TwistoRefund, res, 'twisto').id };
}
