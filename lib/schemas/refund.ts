// Refunds: the create, update and list bodies (spec 4.8, 4.9; ARCHITECTURE.md "Refund create") and the Refund
// resource (spec 2.9).
import { z } from 'zod';
import { Amount, Connector, Currency, FreeObject, Metadata, PaymentRef, Timestamp, str, text } from './common.ts';
import { MAX_LIST_OFFSET, rangesInOrder } from './list-limits.ts';
import { OrderLine, OrderLineResource } from './order-line.ts';

const opt = <T extends z.ZodType>(t: T) => t.nullish();
const n = <T extends z.ZodType>(t: T) => t.nullable();

export const REFUND_STATUSES = ['succeeded', 'failed', 'pending', 'review'] as const;
export const RefundStatus = z.enum(REFUND_STATUSES);

/** refund_id: merchant-chosen, or generated ("ref_" + 26). */
export const RefundId = str(64)
  .min(1)
  .regex(/^[A-Za-z0-9_-]+$/, 'refund_id is letters, digits, "_" and "-"');

/** split_refunds (spec 2.9): keyed by a connector-specific name. Kept and echoed; nothing acts on it yet. */
const SplitRefunds = z.record(str(64), z.strictObject({ revert_platform_fee: opt(z.boolean()), revert_transfer: opt(z.boolean()) }));

/** POST /refunds. */
export const CreateRefundRequest = z.strictObject({
  payment_id: PaymentRef,
  /** Default: what is captured and not yet refunded (refunds not failed). */
  amount: opt(Amount.min(1, 'amount must be greater than 0')),
  reason: opt(text(255)),
  refund_id: opt(RefundId),
  metadata: opt(Metadata),
  /** Refund within one capture: at most what is left of that capture. */
  capture_id: opt(str(64)),
  split_refunds: opt(SplitRefunds),
  order_details: opt(z.array(OrderLine).max(1000)),
  /** The leading switch's refund type; only instant refunds exist here. */
  refund_type: opt(z.enum(['instant'])),
});

/** POST /refunds/{id}: reason and metadata only (spec 4.9). */
export const UpdateRefundRequest = z.strictObject({ reason: opt(text(255)), metadata: opt(Metadata) });

/** POST /refunds/list (spec 4.8). */
export const ListRefundsFilter = z
  .strictObject({
    payment_id: opt(PaymentRef),
    refund_id: opt(RefundId),
    profile_id: opt(str(64)),
    start_time: opt(Timestamp),
    end_time: opt(Timestamp),
    limit: opt(z.number().int().min(1).max(100)),
    offset: opt(z.number().int().min(0).max(MAX_LIST_OFFSET)),
    amount_filter: opt(z.strictObject({ start_amount: opt(Amount), end_amount: opt(Amount) })),
    connector: opt(z.array(Connector).max(20)),
    merchant_connector_id: opt(z.array(str(64)).max(50)),
    currency: opt(z.array(Currency).max(200)),
    refund_status: opt(z.array(RefundStatus).max(4)),
  })
  .superRefine(
    rangesInOrder([
      [
        ['amount_filter', 'start_amount'],
        ['amount_filter', 'end_amount'],
      ],
      [['start_time'], ['end_time']],
    ]),
  );

export const Refund = z.object({
  refund_id: z.string(),
  payment_id: z.string(),
  amount: Amount,
  currency: Currency,
  status: RefundStatus,
  connector: n(Connector),
  reason: n(z.string()),
  metadata: n(FreeObject),
  error_message: n(z.string()),
  error_code: n(z.string()),
  unified_code: n(z.string()),
  unified_message: n(z.string()),
  created_at: Timestamp,
  updated_at: Timestamp,
  profile_id: n(z.string()),
  merchant_connector_id: n(z.string()),
  split_refunds: n(z.unknown()),
  order_details: n(z.array(OrderLineResource)),
  capture_id: n(z.string()),
});

export type CreateRefundBody = z.infer<typeof CreateRefundRequest>;
export type UpdateRefundBody = z.infer<typeof UpdateRefundRequest>;
export type RefundResource = z.infer<typeof Refund>;
export type RefundStatusName = z.infer<typeof RefundStatus>;
export const REFUND_FIELDS = Object.keys(Refund.shape) as (keyof RefundResource)[];
