// Riverty's answers -> outcomes, each body read with its schema (schemas.ts, Riverty's own shapes) by the kit's
// readAnswer: a body that does not parse is an unknown outcome, never a guess. A risk decline is HTTP 200 with outcome
// Rejected and riskCheckMessages; validation and business errors are HTTP 4xx with a JSON array of messages.
import type { ConnectorJob } from '../../../domain/job.ts';
import type { ProviderResponse } from '../kit/http.ts';
import { maybeAnswer, readAnswer } from '../kit/answer.ts';
import type { Outcome } from '../kit/outcome.ts';
import { unifiedFor } from './errors.ts';
import { orderNumber } from './request.ts';
import { AuthorizeAnswer, CaptureAnswer, ErrorAnswer, type Message, ORDER_STATUS, OrderAnswer, RefundAnswer, VoidAnswer } from './schemas.ts';

const errorFields = (m: Message, status?: number) => ({ error_code: m.code, error_message: m.message, ...unifiedFor(m.code, status, m.actionCode) });

/** An error answer: a decline for the authorization, a failure otherwise; a body not Riverty's still names the status. */
function errorOutcome(res: ProviderResponse, kind: 'DECLINED' | 'FAILED'): Outcome {
  const m: Message = maybeAnswer(ErrorAnswer, res)?.[0] ?? { type: 'TechnicalError', code: `http_${res.status}`, message: `HTTP ${res.status}` };
  return { kind, ...errorFields(m, res.status) };
}

const REJECTED: Message = { type: 'BusinessError', code: 'Rejected', message: 'Riverty rejected the order' };

/** authorize: the risk decision; the payment is known by its order number (our operation id). */
export function authorizeOutcome(res: ProviderResponse, job: ConnectorJob): Outcome {
  if (res.status >= 400) return errorOutcome(res, 'DECLINED');
  const a = readAnswer(AuthorizeAnswer, res, 'riverty authorization');
  const ids = { connector_transaction_id: job.operation_id, connector_reference_id: a.reservationId ?? undefined };
  switch (a.outcome) {
    case 'Accepted':
      return { kind: 'AUTHORIZED', ...ids };
    // Pending: the customer authenticates at Riverty (strong customer authentication), then comes back to merchantUrl.
    case 'Pending':
      return a.secureLoginUrl ? { kind: 'CUSTOMER_ACTION', ...ids, redirect_url: a.secureLoginUrl } : { kind: 'PENDING', ...ids };
    case 'Rejected':
      return { kind: 'DECLINED', ...ids, ...errorFields(a.riskCheckMessages?.[0] ?? REJECTED) };
  }
}

/** Why an order ended without an authorization (the order read carries no risk messages). */
const ENDED: Record<string, string> = {
  Rejected: 'Riverty rejected the order',
  Cancelled: 'The order was cancelled at Riverty (the customer did not confirm it)',
  Expired: 'The order expired at Riverty (the customer did not confirm it in time)',
};

/** sync: the order as Riverty holds it now, by orderDetails.status (schemas.ts ORDER_STATUS). */
export function syncOutcome(res: ProviderResponse, job: ConnectorJob): Outcome {
  if (res.status >= 400) return errorOutcome(res, 'DECLINED');
  const o = readAnswer(OrderAnswer, res, 'riverty order').orderDetails;
  const ids = { connector_transaction_id: o.orderNumber || orderNumber(job) };
  const kind = ORDER_STATUS.kind(o.status);
  // Pending: the customer's authentication is still open; the address from the authorization stays.
  if (kind !== 'DECLINED') return { kind, ...ids };
  return { kind, ...ids, ...errorFields({ type: 'BusinessError', code: o.status, message: ENDED[o.status] ?? `The order is ${o.status}` }) };
}

/** The capture is the invoice: its captureNumber is our connector_capture_id (refunds name it). */
export function captureOutcome(res: ProviderResponse): Outcome {
  if (res.status >= 400) return errorOutcome(res, 'FAILED');
  return { kind: 'CAPTURED', connector_transaction_id: readAnswer(CaptureAnswer, res, 'riverty capture').captureNumber };
}

/** Voided: we void what is left (an empty body), so a 200 is the release; a remainder still reserved is a failure. */
export function voidOutcome(res: ProviderResponse): Outcome {
  if (res.status >= 400) return errorOutcome(res, 'FAILED');
  const remaining = readAnswer(VoidAnswer, res, 'riverty void').remainingAuthorizedAmount;
  return { kind: remaining === undefined || remaining === null || remaining === 0 ? 'VOIDED' : 'FAILED' };
}

/** Riverty refunds at once: the answer is final, its refund number the provider's id. */
export function refundOutcome(res: ProviderResponse): Outcome {
  if (res.status >= 400) return errorOutcome(res, 'FAILED');
  return { kind: 'REFUNDED', connector_transaction_id: readAnswer(RefundAnswer, res, 'riverty refund').refundNumbers[0] };
}
