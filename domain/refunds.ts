// Refunds of a payment: which may start and for how much, and where the provider's answer leads. Pure; only
// payment-state calls the decisions (begin*, *Outcome) and records them in the payment's transitions, which is what
// keeps concurrent refunds from ever summing above what was captured.
import type { PaymentStatusName } from '../lib/schemas/common.ts';
import { REFUND_FIELDS, type CreateRefundBody, type RefundResource, type UpdateRefundBody } from '../lib/schemas/refund.ts';
import type { Decision, Operation, Outcome, RefundRow, StoredPayment } from './payment.ts';
import { canStart, errorFields, refuse, withFlight } from './transitions.ts';
import { manifestOf, refundRefusal } from './capabilities.ts';

/** Refunds that still hold (or have taken back) money: every one but the failed. */
const holding = (r: RefundRow) => r.status !== 'failed';

/**
 * What can still be refunded: captured minus refunds not failed. Within one capture, the smaller of that capture's
 * remainder (its amount minus the refunds that named it) and the payment's remainder: a refund naming a capture is
 * still money taken back from the payment, so refunds that named no capture (or another one) count against it too.
 */
export function refundable(p: StoredPayment, captureId?: string | null): number {
  const refunds = (p.refunds ?? []).filter(holding);
  const ofPayment = (p.amount_received ?? 0) - refunds.reduce((t, r) => t + r.amount, 0);
  if (!captureId) return ofPayment;
  const capture = p.captures?.find((c) => c.capture_id === captureId && c.status === 'charged');
  if (!capture) return 0;
  const ofCapture = capture.amount - refunds.filter((r) => r.capture_id === captureId).reduce((t, r) => t + r.amount, 0);
  return Math.min(ofCapture, ofPayment);
}

/**
 * The status a refund is judged in: a payment whose capture is in flight is `processing`, but what it had captured
 * before stays refundable (the status the capture started from decides).
 */
function refundableStatus(p: StoredPayment): PaymentStatusName {
  if (p.status !== 'processing') return p.status;
  const open = p.operations.filter((o) => o.open && o.kind !== 'refund');
  return open.length > 0 && open.every((o) => o.kind === 'capture') ? open[0]!.status_before : p.status;
}

/**
 * Start a refund: a refund row (pending) and a refund operation. The payment's status does not change, so refunds
 * of one payment never wait for each other; each is accepted or refused on the amount alone.
 */
export function beginRefund(
  p: StoredPayment,
  body: CreateRefundBody & { refund_id: string },
  ctx: { now: string; operationId: string; requestHash: string },
): Decision {
  const existing = p.refunds?.find((r) => r.refund_id === body.refund_id);
  if (existing) {
    if (existing.request_hash !== ctx.requestHash) return refuse('HE_01', 'The refund with the specified refund_id already exists in our records', 'refund_id');
    const op = p.operations.find((o) => o.kind === 'refund' && o.ref === existing.refund_id);
    return op ? { kind: 'replay', operation: op } : { kind: 'noop' };
  }
  if (body.payment_id !== p.payment_id) return refuse('IR_05', 'payment_id does not match the payment', 'payment_id');
  const refused = canStart({ status: refundableStatus(p), manual_retry_allowed: false }, 'refund');
  if (refused) return refused;
  if (body.capture_id && !p.captures?.some((c) => c.capture_id === body.capture_id && c.status === 'charged')) {
    return refuse('IR_05', `capture_id ${body.capture_id} is not a captured capture of this payment`, 'capture_id');
  }
  const left = refundable(p, body.capture_id);
  const amount = body.amount ?? left;
  const within = body.capture_id ? `capture ${body.capture_id} and the payment` : 'the payment';
  if (left <= 0) return refuse('IR_13', `Nothing is left to refund: what ${within} captured is refunded already`, 'amount');
  if (amount > left) {
    return refuse('IR_13', `The refund amount (${amount}) exceeds what ${within} captured and not refunded (${left})`, 'amount');
  }
  const unable = refundRefusal(manifestOf(p.connector), amount, left);
  if (unable) return unable;
  const row: RefundRow = {
    refund_id: body.refund_id,
    payment_id: p.payment_id,
    amount,
    currency: p.currency,
    status: 'pending',
    connector: p.connector,
    reason: body.reason ?? null,
    metadata: body.metadata ?? null,
    error_message: null,
    error_code: null,
    unified_code: null,
    unified_message: null,
    created_at: ctx.now,
    updated_at: ctx.now,
    profile_id: p.profile_id,
    merchant_connector_id: p.merchant_connector_id,
    split_refunds: body.split_refunds ?? null,
    order_details: (body.order_details as RefundResource['order_details']) ?? null,
    capture_id: body.capture_id ?? null,
    connector_refund_id: null,
    request_hash: ctx.requestHash,
  };
  const operation: Operation = {
    operation_id: ctx.operationId,
    kind: 'refund',
    ref: row.refund_id,
    amount,
    connector: p.connector ?? 'service_test',
    open: true,
    status_before: p.status,
    last_outcome: null,
    created_at: ctx.now,
  };
  const next: StoredPayment = { ...p, refunds: [...(p.refunds ?? []), row], operations: [...p.operations, operation] };
  return { kind: 'apply', payment: withFlight(next, ctx.now), operation, needsConnector: true };
}

/** POST /refunds/{id}: reason and metadata change; nothing else does. */
export function beginRefundUpdate(p: StoredPayment, body: UpdateRefundBody & { refund_id: string }, ctx: { now: string }): Decision {
  const row = p.refunds?.find((r) => r.refund_id === body.refund_id);
  if (!row) return refuse('HE_02', 'Refund does not exist in our records');
  const changed: RefundRow = {
    ...row,
    ...(body.reason !== undefined ? { reason: body.reason } : {}),
    ...(body.metadata !== undefined ? { metadata: body.metadata } : {}),
  };
  if (changed.reason === row.reason && JSON.stringify(changed.metadata) === JSON.stringify(row.metadata)) return { kind: 'noop' };
  const next: StoredPayment = {
    ...p,
    updated: ctx.now,
    refunds: (p.refunds ?? []).map((r) => (r.refund_id === row.refund_id ? { ...changed, updated_at: ctx.now } : r)),
  };
  return { kind: 'apply', payment: next, needsConnector: false };
}

/** The provider's answer to a refund: its row says so; the payment's status and captured amount stay. */
export function refundOutcome(p: StoredPayment, op: Operation, o: Outcome, now: string): StoredPayment {
  const status = o.kind === 'REFUNDED' ? ('succeeded' as const) : o.kind === 'PENDING' ? ('pending' as const) : ('failed' as const);
  return {
    ...p,
    refunds: (p.refunds ?? []).map((r) =>
      r.refund_id !== op.ref
        ? r
        : {
            ...r,
            status,
            updated_at: now,
            connector_refund_id: o.connector_transaction_id || r.connector_refund_id,
            ...errorFields(status === 'failed' ? o : { kind: o.kind }),
          },
    ),
  };
}

/** The Refund resource (spec 2.9): what only we keep is left out. */
export function refundView(r: RefundRow): RefundResource {
  return Object.fromEntries(REFUND_FIELDS.map((k) => [k, r[k] ?? null])) as RefundResource;
}
