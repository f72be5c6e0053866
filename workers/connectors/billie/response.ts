// Billie's answers -> outcomes, parsed with Billie's own shapes (Order, Invoice, credit note {uuid}).
import type { z } from 'zod';
import type { Outcome, OutcomeKind } from '../../../domain/payment.ts';
import type { ProviderResponse } from '../kit/http.ts';
import { readAnswer } from '../kit/answer.ts';
import { declined, errorFields } from './errors.ts';
import { BillieCreditNote, BillieInvoice, BillieOrder, BillieToken } from './schemas.ts';

const ORDER_OUTCOME: Record<z.infer<typeof BillieOrder>['state'], OutcomeKind> = {
  created: 'AUTHORIZED',
  pre_approved: 'AUTHORIZED',
  partially_shipped: 'AUTHORIZED',
  shipped: 'AUTHORIZED',
  paid_out: 'AUTHORIZED',
  late: 'AUTHORIZED',
  complete: 'AUTHORIZED',
  // Billie's manual review; a widget order awaiting the merchant's confirmation.
  waiting: 'PENDING',
  pre_waiting: 'PENDING',
  authorized: 'PENDING',
  declined: 'DECLINED',
  canceled: 'DECLINED',
  cancelled: 'DECLINED',
};
const isCancelled = (state: string) => state === 'canceled' || state === 'cancelled';

/** authorize (create the order) and its status sync (read it). */
export function orderOutcome(res: ProviderResponse): Outcome {
  if (res.status >= 400) return { kind: 'FAILED', ...errorFields(res) };
  const o = readAnswer(BillieOrder, res, 'billie');
  return {
    kind: ORDER_OUTCOME[o.state],
    connector_transaction_id: o.uuid,
    connector_reference_id: o.external_code ?? undefined,
    ...(o.state === 'declined' ? declined(o.decline_reason) : {}),
    ...(isCancelled(o.state) ? { ...declined('canceled'), error_message: 'The order was cancelled at Billie' } : {}),
  };
}

export function invoiceOutcome(res: ProviderResponse): Outcome {
  if (res.status >= 400) return { kind: 'FAILED', ...errorFields(res) };
  const i = readAnswer(BillieInvoice, res, 'billie');
  return { kind: i.state === 'canceled' ? 'FAILED' : 'CAPTURED', connector_transaction_id: i.uuid };
}

/** Cancel answers 204 without a body (or the order, cancelled). */
export function cancelOutcome(res: ProviderResponse): Outcome {
  if (res.status >= 400) return { kind: 'FAILED', ...errorFields(res) };
  if (res.body === null) return { kind: 'VOIDED' };
  return isCancelled(readAnswer(BillieOrder, res, 'billie').state)
    ? { kind: 'VOIDED' }
    : { kind: 'FAILED', error_code: 'state', error_message: 'The order was not cancelled' };
}

export function creditNoteOutcome(res: ProviderResponse): Outcome {
  if (res.status >= 400) return { kind: 'FAILED', ...errorFields(res, 'refund') };
  return { kind: 'REFUNDED', connector_transaction_id: readAnswer(BillieCreditNote, res, 'billie').uuid };
}

/** POST /oauth/token: the token, or the refusal of the credentials as the job's outcome. */
export function tokenAnswer(res: ProviderResponse): { access_token: string; expires_in_s: number } | Outcome {
  if (res.status >= 400) return { kind: 'FAILED', ...errorFields(res) };
  const t = readAnswer(BillieToken, res, 'billie');
  return { access_token: t.access_token, expires_in_s: t.expires_in };
}
