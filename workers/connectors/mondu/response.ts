// Mondu's answers -> outcomes, parsed with Mondu's own shapes ({order: …}, {invoice: …}, {credit_note: …}).
import type { z } from 'zod';
import type { Outcome, OutcomeKind } from '../../../domain/payment.ts';
import type { ProviderResponse } from '../kit/http.ts';
import { maybeAnswer, readAnswer } from '../kit/answer.ts';
import { declined, errorFields, isStateError } from './errors.ts';
import { UNIFIED } from '../kit/errors.ts';
import { CreditNoteAnswer, InvoiceAnswer, type MonduOrder, OrderAnswer } from './schemas.ts';

/** The order's state as the outcome of its authorization. */
const ORDER_OUTCOME: Record<z.infer<typeof MonduOrder>['state'], OutcomeKind> = {
  // Before and during the buyer's hosted checkout.
  draft: 'CUSTOMER_ACTION',
  created: 'CUSTOMER_ACTION',
  data_required: 'CUSTOMER_ACTION',
  // The buyer finished the checkout; Mondu decides on our confirm.
  authorized: 'PENDING',
  // Mondu's manual review (up to 24 h), then confirmed or declined.
  pending: 'PENDING',
  confirmed: 'AUTHORIZED',
  shipped: 'AUTHORIZED',
  partially_shipped: 'AUTHORIZED',
  complete: 'AUTHORIZED',
  partially_complete: 'AUTHORIZED',
  declined: 'DECLINED',
  // The buyer cancelled the hosted checkout (our own void answers its call, which closes the authorization first).
  canceled: 'DECLINED',
};

export function orderOutcome(o: z.infer<typeof MonduOrder>): Outcome {
  const kind = ORDER_OUTCOME[o.state];
  return {
    kind,
    connector_transaction_id: o.uuid,
    connector_reference_id: o.external_reference_id ?? undefined,
    ...(kind === 'CUSTOMER_ACTION' && o.hosted_checkout_url ? { redirect_url: o.hosted_checkout_url } : {}),
    ...(o.state === 'declined' ? declined(o.decline_reason) : {}),
    ...(o.state === 'canceled' ? declined('canceled', 'The order was cancelled at Mondu (the buyer left the checkout)') : {}),
  };
}

/** authorize: the created order (its hosted checkout). */
export function orderAnswerOutcome(res: ProviderResponse): Outcome {
  if (res.status >= 400) return { kind: 'FAILED', ...errorFields(res) };
  return orderOutcome(readAnswer(OrderAnswer, res, 'mondu').order);
}

/** Whether the read order calls for our confirm: only an `authorized` one (the buyer finished the checkout). */
export const needsConfirm = (read: ProviderResponse): boolean => maybeAnswer(OrderAnswer, read)?.order.state === 'authorized';

/**
 * The status sync: the order as read, or, when it was `authorized` and we confirmed it, as the confirm answers. A
 * confirm refused on the order's state (another confirm or a webhook came first) leaves the read's word: the next
 * sync reads again.
 */
export function syncOutcome(res: ProviderResponse, answers: readonly ProviderResponse[] = [res]): Outcome {
  const read = answers[0] ?? res;
  if (res !== read && isStateError(res)) return orderAnswerOutcome(read);
  return orderAnswerOutcome(res);
}

export function invoiceOutcome(res: ProviderResponse): Outcome {
  if (res.status >= 400) return { kind: 'FAILED', ...errorFields(res) };
  const i = readAnswer(InvoiceAnswer, res, 'mondu').invoice;
  return {
    kind: i.state === 'canceled' ? 'FAILED' : 'CAPTURED',
    connector_transaction_id: i.uuid,
    // The merchant's number as Mondu shows it (`invoice_number`, woocommerce Presenters/PaymentInfo.php), else as sent.
    connector_reference_id: i.invoice_number ?? i.external_reference_id ?? undefined,
  };
}

export function cancelOutcome(res: ProviderResponse): Outcome {
  if (res.status >= 400) return { kind: 'FAILED', ...errorFields(res) };
  const o = readAnswer(OrderAnswer, res, 'mondu').order;
  return o.state === 'canceled' ? { kind: 'VOIDED' } : { kind: 'FAILED', error_code: 'state', error_message: `state is ${o.state}`, ...UNIFIED.invalid_state };
}

export function creditNoteOutcome(res: ProviderResponse): Outcome {
  if (res.status >= 400) return { kind: 'FAILED', ...errorFields(res, 'refund') };
  const c = readAnswer(CreditNoteAnswer, res, 'mondu').credit_note;
  return { kind: 'REFUNDED', connector_transaction_id: c.uuid };
}
