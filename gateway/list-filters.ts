// The list endpoints' filters as MongoDB conditions: POST /payments/list, POST /refunds/list and GET /disputes/list
// (spec 4.8's amount_filter and start_time/end_time, the disputes' received_time), shared with the merchant
// dashboard's lists (issue 23), which parse their own query into these bodies.
import type { Filter } from 'mongodb';
import type { z } from 'zod';
import type { RefundDoc } from '../adapters/refund-store.ts';
import type { DisputeDoc } from '../lib/dispute-store.ts';
import type { ListDisputesQuery } from '../lib/schemas/dispute.ts';
import type { ListPaymentsFilter } from '../lib/schemas/payment.ts';
import type { ListRefundsFilter } from '../lib/schemas/refund.ts';
import type { StoredPayment } from '../domain/payment.ts';

type AmountFilter = { start_amount?: number | null; end_amount?: number | null } | null | undefined;

export function amountRange(f: AmountFilter): Record<string, number> | undefined {
  const amount: Record<string, number> = {};
  if (f?.start_amount != null) amount.$gte = f.start_amount;
  if (f?.end_amount != null) amount.$lte = f.end_amount;
  return Object.keys(amount).length ? amount : undefined;
}

/** start_time is needed to filter by time; end_time defaults to now. */
export function timeRange(start: string | null | undefined, end: string | null | undefined): Record<string, string> | undefined {
  if (!start && !end) return undefined;
  return { ...(start ? { $gte: new Date(start).toISOString() } : {}), $lte: new Date(end ?? Date.now()).toISOString() };
}

/**
 * GET /payments/list's cursor: the payments after `at` in the list's order (created, then payment_id, newest first),
 * older ones for starting_after, newer ones for ending_before. A payment created in the same millisecond as the
 * cursor's is told apart by its id, so none is skipped or shown twice. The range on `created` bounds the index scan
 * at the cursor; the exclusion reads only index keys (both fields are in the list's indexes).
 */
export function pastCursor(at: { created: string; payment_id: string }, older: boolean): Filter<StoredPayment> {
  return {
    created: { [older ? '$lte' : '$gte']: at.created },
    $nor: [{ created: at.created, payment_id: { [older ? '$gte' : '$lte']: at.payment_id } }],
  } as Filter<StoredPayment>;
}

/** POST /payments/list's body -> the condition on `payments` (limit and offset are the caller's). */
export function paymentsFilter(f: z.infer<typeof ListPaymentsFilter>): Filter<StoredPayment> {
  const filter: Record<string, unknown> = {};
  if (f.payment_id) filter.payment_id = f.payment_id;
  if (f.customer_id) filter.customer_id = f.customer_id;
  if (f.profile_id) filter.profile_id = f.profile_id;
  for (const k of ['status', 'connector', 'currency', 'payment_method', 'payment_method_type'] as const) {
    if (f[k]?.length) filter[k] = { $in: f[k] };
  }
  const amount = amountRange(f.amount_filter);
  if (amount) filter.amount = amount;
  const created = timeRange(f.start_time, f.end_time);
  if (created) filter.created = created;
  return filter as Filter<StoredPayment>;
}

/** POST /refunds/list's body -> the condition on `refunds`. */
export function refundsFilter(f: z.infer<typeof ListRefundsFilter>): Filter<RefundDoc> {
  const filter: Record<string, unknown> = {};
  if (f.payment_id) filter.payment_id = f.payment_id;
  if (f.refund_id) filter.refund_id = f.refund_id;
  if (f.profile_id) filter.profile_id = f.profile_id;
  if (f.connector?.length) filter.connector = { $in: f.connector };
  if (f.merchant_connector_id?.length) filter.merchant_connector_id = { $in: f.merchant_connector_id };
  if (f.currency?.length) filter.currency = { $in: f.currency };
  if (f.refund_status?.length) filter.status = { $in: f.refund_status };
  const amount = amountRange(f.amount_filter);
  if (amount) filter.amount = amount;
  const created = timeRange(f.start_time, f.end_time);
  if (created) filter.created_at = created;
  return filter as Filter<RefundDoc>;
}

/** GET /disputes/list's query -> the condition on `disputes` (received_time is the dispute's created_at). */
export function disputesFilter(q: z.infer<typeof ListDisputesQuery>): Filter<DisputeDoc> {
  const filter: Record<string, unknown> = {};
  const anyOf = (values: readonly string[]) => (values.length === 1 ? values[0] : { $in: values });
  if (q.dispute_status?.length) filter.dispute_status = anyOf(q.dispute_status);
  if (q.dispute_stage?.length) filter.dispute_stage = anyOf(q.dispute_stage);
  if (q.connector?.length) filter.connector = anyOf(q.connector);
  if (q.reason) filter.connector_reason = q.reason;
  const received: Record<string, string> = {};
  if (q.received_time) received.$eq = new Date(q.received_time).toISOString();
  for (const op of ['lt', 'gt', 'lte', 'gte'] as const) {
    const v = q[`received_time.${op}`];
    if (v) received[`$${op}`] = new Date(v).toISOString();
  }
  if (Object.keys(received).length) filter.created_at = received;
  return filter as Filter<DisputeDoc>;
}
