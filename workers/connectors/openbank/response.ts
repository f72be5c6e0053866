// Zinia's answers -> outcomes, parsed with the shapes the sandbox's Zinia answers (designed, UNVERIFIED: README.md).
// The order's status carries the decision: CREATED (the customer is at the Link-Up), PENDING (a manual review),
// APPROVED and what follows it (shipped, refunded), REJECTED, CANCELLED, EXPIRED.
import type { z } from 'zod';
import type { Outcome } from '../../../domain/payment.ts';
import type { ProviderResponse } from '../kit/http.ts';
import { readAnswer } from '../kit/answer.ts';
import { errorFields, fieldsOf } from './errors.ts';
import { type Reason, ZiniaOrder, ZiniaRefund, ZiniaShipment, ZiniaToken } from './schemas.ts';

const failed = (res: ProviderResponse, kind: 'DECLINED' | 'FAILED'): Outcome => ({ kind, ...errorFields(res) });

/** POST /auth/login: the token, or the refusal of the credentials as the job's outcome. */
export function tokenAnswer(res: ProviderResponse): { access_token: string; expires_in_s: number } | Outcome {
  if (res.status >= 400) return failed(res, 'FAILED');
  const t = readAnswer(ZiniaToken, res, 'openbank');
  return { access_token: t.access_token, expires_in_s: t.expires_in };
}

const NOT_COMPLETED: Record<'REJECTED' | 'CANCELLED' | 'EXPIRED', z.infer<typeof Reason>> = {
  REJECTED: { code: 'CREDIT_CHECK_REJECTED', message: 'Zinia rejected the financing' },
  CANCELLED: { code: 'CUSTOMER_CANCELLED', message: 'The order was cancelled at Zinia' },
  EXPIRED: { code: 'ORDER_EXPIRED', message: 'The customer did not complete the application in time' },
};

/** The order in our terms: Zinia's order id is our connector_transaction_id. */
export function orderStatusOutcome(o: z.infer<typeof ZiniaOrder>): Outcome {
  const id = { connector_transaction_id: o.order_id };
  switch (o.status) {
    case 'CREATED':
      return o.redirect_url ? { kind: 'CUSTOMER_ACTION', ...id, redirect_url: o.redirect_url } : { kind: 'PENDING', ...id };
    case 'PENDING':
      return { kind: 'PENDING', ...id };
    case 'APPROVED':
    case 'PARTIALLY_SHIPPED':
    case 'SHIPPED':
    case 'REFUNDED':
      return { kind: 'AUTHORIZED', ...id };
    case 'REJECTED':
    case 'CANCELLED':
    case 'EXPIRED': {
      const r = o.rejection_reason ?? NOT_COMPLETED[o.status];
      return { kind: 'DECLINED', ...id, ...fieldsOf(r.code, r.message) };
    }
  }
}

/** authorize (create the order: the customer goes to its redirect_url) and the status sync (read it). */
export function orderOutcome(res: ProviderResponse): Outcome {
  if (res.status >= 400) return failed(res, 'DECLINED');
  return orderStatusOutcome(readAnswer(ZiniaOrder, res, 'openbank'));
}

/** The shipment confirmation is the capture: its shipment id our connector_capture_id. */
export function shipmentOutcome(res: ProviderResponse): Outcome {
  if (res.status >= 400) return failed(res, 'FAILED');
  return { kind: 'CAPTURED', connector_transaction_id: readAnswer(ZiniaShipment, res, 'openbank').shipment_id };
}

/** Voided when Zinia cancelled what was left (nothing shipped: CANCELLED; after partial shipments: the rest). */
export function cancelOutcome(res: ProviderResponse): Outcome {
  if (res.status >= 400) return failed(res, 'FAILED');
  const o = readAnswer(ZiniaOrder, res, 'openbank');
  const open = o.amount - (o.shipped_amount ?? 0) - (o.cancelled_amount ?? 0);
  return o.status === 'CANCELLED' || open <= 0
    ? { kind: 'VOIDED' }
    : { kind: 'FAILED', error_code: o.status, error_message: `The order is ${o.status} at Zinia, not cancelled` };
}

/** A refund: COMPLETED at once, PENDING (decided later: notification hint or refund sync), or REJECTED. */
export function refundOutcome(res: ProviderResponse): Outcome {
  if (res.status >= 400) return failed(res, 'FAILED');
  const r = readAnswer(ZiniaRefund, res, 'openbank');
  const id = { connector_transaction_id: r.refund_id };
  switch (r.status) {
    case 'COMPLETED':
      return { kind: 'REFUNDED', ...id };
    case 'PENDING':
      return { kind: 'PENDING', ...id };
    case 'REJECTED': {
      const why = r.rejection_reason ?? { code: 'REFUND_REJECTED', message: 'Zinia rejected the refund' };
      return { kind: 'FAILED', ...id, ...fieldsOf(why.code, why.message) };
    }
  }
}
