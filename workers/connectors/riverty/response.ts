// Riverty's answers -> outcomes, parsed with Riverty's own shapes. A risk decline is HTTP 200 with outcome Rejected
// and riskCheckMessages; validation and business errors are HTTP 4xx with a JSON array of message objects.
import { z } from 'zod';
import type { Outcome } from '../../../domain/payment.ts';
import type { ConnectorJob } from '../../../domain/job.ts';
import type { ProviderResponse } from '../kit/http.ts';
import { readAnswer } from '../kit/answer.ts';
import { unifiedFor } from './errors.ts';
import { orderNumber } from './request.ts';

export const RivertyMessage = z.object({
  type: z.string(),
  code: z.string(),
  message: z.string(),
  customerFacingMessage: z.string().nullish(),
  actionCode: z.string().nullish(),
  fieldReference: z.string().nullish(),
});
export const RivertyErrors = z.array(RivertyMessage).min(1);

const Outcome_ = z.enum(['Accepted', 'Pending', 'Rejected']);
export const RivertyAuthorization = z.object({
  outcome: Outcome_,
  reservationId: z.string().nullish(),
  checkoutId: z.string().nullish(),
  riskCheckMessages: z.array(RivertyMessage).nullish(),
  /** Strong customer authentication: where the customer goes (UNVERIFIED name; redirectUrl accepted too). */
  secureLoginUrl: z.string().nullish(),
  redirectUrl: z.string().nullish(),
});
/** GET /orders/{number} (UNVERIFIED shape): the order with the authorization's outcome. */
export const RivertyOrder = RivertyAuthorization.extend({ orderDetails: z.object({ number: z.string() }) });
const Amount = z.number().nonnegative();
export const RivertyCapture = z.object({
  captureNumber: z.string().min(1), capturedAmount: Amount, authorizedAmount: Amount, remainingAuthorizedAmount: Amount,
  totalCapturedAmount: Amount, totalRefundedAmount: Amount,
});
export const RivertyVoid = z.object({
  totalCapturedAmount: Amount, totalAuthorizedAmount: Amount, remainingAuthorizedAmount: Amount, voidedAmount: Amount, totalRefundedAmount: Amount,
});
export const RivertyRefund = z.object({
  refundNumbers: z.array(z.string().min(1)).min(1), totalCapturedAmount: Amount, totalAuthorizedAmount: Amount,
  totalRefundedAmount: Amount, remainingAuthorizedAmount: Amount,
});

type Message = z.infer<typeof RivertyMessage>;
const errorFields = (m: Message, status?: number) => ({ error_code: m.code, error_message: m.message, ...unifiedFor(m.code, status) });

/** An error answer: a decline for the authorization, a failure otherwise; a body not Riverty's still names the status. */
function errorOutcome(res: ProviderResponse, kind: 'DECLINED' | 'FAILED'): Outcome {
  const parsed = RivertyErrors.safeParse(res.body);
  const m: Message = parsed.success ? parsed.data[0]! : { type: 'TechnicalError', code: `http_${res.status}`, message: `HTTP ${res.status}` };
  return { kind, ...errorFields(m, res.status) };
}

const REJECTED: Message = { type: 'BusinessError', code: 'Rejected', message: 'Riverty rejected the order' };

/** The authorization (or the order read back) in our terms; the payment is known by its order number. */
function authorizationOutcome(a: z.infer<typeof RivertyAuthorization>, number: string): Outcome {
  const ids = { connector_transaction_id: number, connector_reference_id: a.reservationId ?? undefined };
  switch (a.outcome) {
    case 'Accepted': return { kind: 'AUTHORIZED', ...ids };
    case 'Pending': {
      const url = a.secureLoginUrl ?? a.redirectUrl ?? undefined;
      return url ? { kind: 'CUSTOMER_ACTION', ...ids, redirect_url: url } : { kind: 'PENDING', ...ids };
    }
    case 'Rejected': return { kind: 'DECLINED', ...ids, ...errorFields(a.riskCheckMessages?.[0] ?? REJECTED) };
  }
}

/** authorize: the risk decision. */
export function authorizeOutcome(res: ProviderResponse, job: ConnectorJob): Outcome {
  if (res.status >= 400) return errorOutcome(res, 'DECLINED');
  return authorizationOutcome(readAnswer(RivertyAuthorization, res, 'riverty'), job.operation_id);
}

/** sync: the order as Riverty holds it now. */
export function syncOutcome(res: ProviderResponse, job: ConnectorJob): Outcome {
  if (res.status >= 400) return errorOutcome(res, 'DECLINED');
  const o = readAnswer(RivertyOrder, res, 'riverty');
  return authorizationOutcome(o, o.orderDetails.number || orderNumber(job));
}

/** The capture is the invoice: its captureNumber is our connector_capture_id (refunds name it). */
export function captureOutcome(res: ProviderResponse): Outcome {
  if (res.status >= 400) return errorOutcome(res, 'FAILED');
  return { kind: 'CAPTURED', connector_transaction_id: readAnswer(RivertyCapture, res, 'riverty').captureNumber };
}

/** Voided when nothing of the reservation is left. */
export function voidOutcome(res: ProviderResponse): Outcome {
  if (res.status >= 400) return errorOutcome(res, 'FAILED');
  return { kind: readAnswer(RivertyVoid, res, 'riverty').remainingAuthorizedAmount === 0 ? 'VOIDED' : 'FAILED' };
}

/** Riverty refunds at once: the answer is final, its refund number the provider's id. */
export function refundOutcome(res: ProviderResponse): Outcome {
  if (res.status >= 400) return errorOutcome(res, 'FAILED');
  return { kind: 'REFUNDED', connector_transaction_id: readAnswer(RivertyRefund, res, 'riverty').refundNumbers[0] };
}
