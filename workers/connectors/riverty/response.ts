// Riverty's answers -> outcomes, parsed with schemas.ts (Riverty's own shapes). A risk decline is HTTP 200 with
// outcome Rejected and riskCheckMessages; validation and business errors are HTTP 4xx with a JSON array of messages.
import { z } from 'zod';
import type { Outcome } from '../../../domain/payment.ts';
import type { ConnectorJob } from '../../../domain/job.ts';
import type { ProviderResponse } from '../../provider-http.ts';
import { UnexpectedAnswer } from '../types.ts';
import { unifiedFor } from './errors.ts';
import { orderNumber } from './request.ts';
import { AuthorizeAnswer, CaptureAnswer, ErrorAnswer, type Message, OrderAnswer, RefundAnswer, VoidAnswer } from './schemas.ts';

function parse<T>(schema: z.ZodType<T>, res: ProviderResponse): T {
  const r = schema.safeParse(res.body);
  if (!r.success) throw new UnexpectedAnswer(`riverty: unexpected answer (HTTP ${res.status}): ${z.prettifyError(r.error)}`);
  return r.data;
}

const errorFields = (m: Message, status?: number) => ({ error_code: m.code, error_message: m.message, ...unifiedFor(m.code, status, m.actionCode) });

/** An error answer: a decline for the authorization, a failure otherwise; a body not Riverty's still names the status. */
function errorOutcome(res: ProviderResponse, kind: 'DECLINED' | 'FAILED'): Outcome {
  const parsed = ErrorAnswer.safeParse(res.body);
  const m: Message = parsed.success ? parsed.data[0]! : { type: 'TechnicalError', code: `http_${res.status}`, message: `HTTP ${res.status}` };
  return { kind, ...errorFields(m, res.status) };
}

const REJECTED: Message = { type: 'BusinessError', code: 'Rejected', message: 'Riverty rejected the order' };

/** authorize: the risk decision; the payment is known by its order number (our operation id). */
export function authorizeOutcome(res: ProviderResponse, job: ConnectorJob): Outcome {
  if (res.status >= 400) return errorOutcome(res, 'DECLINED');
  const a = parse(AuthorizeAnswer, res);
  const ids = { connector_transaction_id: job.operation_id, connector_reference_id: a.reservationId ?? undefined };
  switch (a.outcome) {
    case 'Accepted': return { kind: 'AUTHORIZED', ...ids };
    // Pending: the customer authenticates at Riverty (strong customer authentication), then comes back to merchantUrl.
    case 'Pending': return a.secureLoginUrl ? { kind: 'CUSTOMER_ACTION', ...ids, redirect_url: a.secureLoginUrl } : { kind: 'PENDING', ...ids };
    case 'Rejected': return { kind: 'DECLINED', ...ids, ...errorFields(a.riskCheckMessages?.[0] ?? REJECTED) };
  }
}

/** Why an order that ended without an authorization did (the order read carries no risk messages). */
const ENDED: Record<'Rejected' | 'Cancelled' | 'Expired', string> = {
  Rejected: 'Riverty rejected the order',
  Cancelled: 'The order was cancelled at Riverty (the customer did not confirm it)',
  Expired: 'The order expired at Riverty (the customer did not confirm it in time)',
};

/**
 * sync: the order as Riverty holds it now, by orderDetails.status. Pending is the order waiting for the customer's
 * authentication (the only Pending Riverty documents): the payment keeps waiting for the customer (CUSTOMER_ACTION
 * without a new address: the one from the authorization stays).
 */
export function syncOutcome(res: ProviderResponse, job: ConnectorJob): Outcome {
  if (res.status >= 400) return errorOutcome(res, 'DECLINED');
  const o = parse(OrderAnswer, res).orderDetails;
  const ids = { connector_transaction_id: o.orderNumber || orderNumber(job) };
  switch (o.status) {
    case 'Accepted': return { kind: 'AUTHORIZED', ...ids };
    case 'Pending': return { kind: 'CUSTOMER_ACTION', ...ids };
    case 'Rejected':
    case 'Cancelled':
    case 'Expired':
      return { kind: 'DECLINED', ...ids, ...errorFields({ type: 'BusinessError', code: o.status, message: ENDED[o.status] }) };
  }
}

/** The capture is the invoice: its captureNumber is our connector_capture_id (refunds name it). */
export function captureOutcome(res: ProviderResponse): Outcome {
  if (res.status >= 400) return errorOutcome(res, 'FAILED');
  return { kind: 'CAPTURED', connector_transaction_id: parse(CaptureAnswer, res).captureNumber };
}

/** Voided: we void what is left (an empty body), so a 200 is the release; a remainder still reserved is a failure. */
export function voidOutcome(res: ProviderResponse): Outcome {
  if (res.status >= 400) return errorOutcome(res, 'FAILED');
  const remaining = parse(VoidAnswer, res).remainingAuthorizedAmount;
  return { kind: remaining === undefined || remaining === null || remaining === 0 ? 'VOIDED' : 'FAILED' };
}

/** Riverty refunds at once: the answer is final, its refund number the provider's id. */
export function refundOutcome(res: ProviderResponse): Outcome {
  if (res.status >= 400) return errorOutcome(res, 'FAILED');
  return { kind: 'REFUNDED', connector_transaction_id: parse(RefundAnswer, res).refundNumbers[0] };
}
