// Zinia's (openbank) answers and notification as zod schemas (token, order, shipment, refund, errors), as designed
// from the integration guide's outline (README.md: most UNVERIFIED). Read through the kit: never cast.
import { z } from 'zod';

export const ORDER_STATUSES = ['CREATED', 'PENDING', 'APPROVED', 'PARTIALLY_SHIPPED', 'SHIPPED', 'REFUNDED', 'REJECTED', 'CANCELLED', 'EXPIRED'] as const;

export const Amount = z.number().nonnegative();

export const Reason = z.object({ code: z.string().min(1), message: z.string() });

export const ZiniaToken = z.object({ access_token: z.string().min(1), token_type: z.string().optional(), expires_in: z.number().int().positive() });

export const ZiniaOrder = z.object({
  order_id: z.string().min(1),
  merchant_order_id: z.string(),
  status: z.enum(ORDER_STATUSES),
  amount: Amount,
  currency: z.string(),
  redirect_url: z.string().nullish(),
  rejection_reason: Reason.nullish(),
  shipped_amount: Amount.optional(),
  cancelled_amount: Amount.optional(),
  refunded_amount: Amount.optional(),
});

export const ZiniaShipment = z.object({
  shipment_id: z.string().min(1),
  order_id: z.string(),
  amount: Amount,
  status: z.literal('CONFIRMED'),
  order_status: z.enum(ORDER_STATUSES),
  shipped_amount: Amount,
  remaining_amount: Amount,
});

export const ZiniaRefund = z.object({
  refund_id: z.string().min(1),
  merchant_refund_id: z.string(),
  order_id: z.string(),
  amount: Amount,
  currency: z.string(),
  status: z.enum(['PENDING', 'COMPLETED', 'REJECTED']),
  rejection_reason: Reason.nullish(),
});

export const ZiniaError = z.object({ code: z.string().min(1), message: z.string(), field: z.string().nullish() });

/** Azure API Management's own refusal (no code of Zinia's): a missing or wrong subscription key. */
export const GatewayError = z.object({ statusCode: z.number().int(), message: z.string() });

export const ZiniaNotification = z.object({
  event: z.string().min(1),
  order_id: z.string().min(1),
  merchant_order_id: z.string().nullish(),
  status: z.string().nullish(),
  refund_id: z.string().nullish(),
  timestamp: z.string().nullish(),
});
