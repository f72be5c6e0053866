// Merchant events, derived from a stored transition and the one before it. Pure: the relay (workers/webhooks/relay.ts)
// reads the two transitions, calls deriveEvents and stores what it returns; deriving the same transition twice gives
// the same events with the same ids, so a relay that crashes half-way and runs again writes each event once.
//
// The table of event types (EVENT_TYPES below is the source; README "Merchant webhooks" shows it):
//   payment_* and action_required: the payment's status changed (from the status before this transition); the
//     reference switch's mapping, plus payment_partially_captured for our two partial-capture statuses.
//   payment_captured: a capture of the payment was charged (manual capture, partial or full; an automatic capture is
//     payment_succeeded alone). Reference event, ours per capture.
//   payment_capture_failed, payment_cancel_failed: a capture or void the provider refused (the payment returns to the
//     status it had; no status event for that return). Ours.
//   payment_incremental_authorization: an incremental authorization was decided (its row says success or failure). Ours.
//   refund_succeeded, refund_failed: a refund of the payment reached that status. Reference events.
//   dispute_*: a dispute of the payment was opened or moved; the type is the dispute's new status (reference events).
//   mandate_active: a payment that sets up a mandate (its mandate part is new or setup) became authorized or
//     succeeded: the mandate exists from then on (reference event). mandate_revoked: the mandate was revoked (written
//     by the revocation, not by a transition: mandateRevokedEvent; reference event). Both about the mandate
//     (object_type mandate_details, the object GET /mandates/{mandate_id} answers).
// One transition can give several events (a capture that completes the payment: payment_captured then
// payment_succeeded); `order` keeps their order within the transition, and (sequence, order) orders a payment's events.
import { createHash } from 'node:crypto';
import type { PaymentStatusName } from '../lib/schemas/common.ts';
import { DISPUTE_STATUSES } from '../lib/schemas/dispute.ts';
import { EVENT_TYPE_NAMES as NAMES, type EventTypeName } from '../lib/schemas/event.ts';
import type { StoredPayment } from './payment.ts';
import { toResource } from './intent.ts';
import { refundView } from './refunds.ts';
import { disputeView } from './disputes.ts';
import { mandateOf, type MandateResource } from './mandates.ts';

export type EventObjectType = 'payment_details' | 'refund_details' | 'dispute_details' | 'mandate_details';

interface EventTypeInfo {
  object_type: EventObjectType;
  when: string;
  reference: boolean;
}

/** Every event type a merchant can receive: what it is about and when it is sent. */
export const EVENT_TYPES = {
  payment_succeeded: { object_type: 'payment_details', when: 'the payment became succeeded (captured in full)', reference: true },
  payment_failed: { object_type: 'payment_details', when: 'the payment became failed', reference: true },
  payment_processing: {
    object_type: 'payment_details',
    when: 'the payment became processing (a provider call in flight or under provider review)',
    reference: true,
  },
  payment_cancelled: { object_type: 'payment_details', when: 'the payment became cancelled', reference: true },
  payment_authorized: { object_type: 'payment_details', when: 'the payment became requires_capture (authorized, manual capture)', reference: true },
  payment_captured: { object_type: 'payment_details', when: 'a manual capture of the payment was charged (partial or full)', reference: true },
  action_required: { object_type: 'payment_details', when: 'the payment became requires_customer_action or requires_merchant_action', reference: true },
  payment_partially_captured: {
    object_type: 'payment_details',
    when: 'the payment became partially_captured or partially_captured_and_capturable',
    reference: false,
  },
  payment_capture_failed: { object_type: 'payment_details', when: 'the provider refused a capture (the payment keeps what it had)', reference: false },
  payment_cancel_failed: { object_type: 'payment_details', when: 'the provider refused a void (the hold is still there)', reference: false },
  payment_incremental_authorization: {
    object_type: 'payment_details',
    when: 'an incremental authorization was decided (its row: success or failure)',
    reference: false,
  },
  refund_succeeded: { object_type: 'refund_details', when: 'a refund became succeeded', reference: true },
  refund_failed: { object_type: 'refund_details', when: 'a refund became failed', reference: true },
  ...(Object.fromEntries(
    DISPUTE_STATUSES.map((s) => [s, { object_type: 'dispute_details', when: `a dispute was opened or moved with status ${s}`, reference: true }]),
  ) as Record<(typeof DISPUTE_STATUSES)[number], EventTypeInfo>),
  mandate_active: {
    object_type: 'mandate_details',
    when: 'a payment that sets up a mandate became authorized or succeeded: the mandate is active',
    reference: true,
  },
  mandate_revoked: {
    object_type: 'mandate_details',
    when: 'a mandate was revoked (POST /mandates/revoke/{mandate_id}, or its customer deleted)',
    reference: true,
  },
} satisfies Record<EventTypeName, EventTypeInfo>;

export type EventType = EventTypeName;
export const EVENT_TYPE_NAMES = NAMES;

/** The event a status change gives; statuses absent here (requires_payment_method, requires_confirmation) give none. */
export const STATUS_EVENTS: Partial<Record<PaymentStatusName, EventType>> = {
  succeeded: 'payment_succeeded',
  failed: 'payment_failed',
  processing: 'payment_processing',
  cancelled: 'payment_cancelled',
  requires_capture: 'payment_authorized',
  requires_customer_action: 'action_required',
  requires_merchant_action: 'action_required',
  partially_captured: 'payment_partially_captured',
  partially_captured_and_capturable: 'payment_partially_captured',
};

export interface DerivedEvent {
  event_id: string;
  event_type: EventType;
  object_type: EventObjectType;
  object_id: string;
  /** Position within the transition: (sequence, order) orders a payment's events. */
  order: number;
  /** The API resource as GET answers it at this transition. */
  object: unknown;
}

/** Deterministic: the same transition and event always get the same id. */
export function eventId(merchantId: string, paymentId: string, seq: number, type: EventType, objectId: string): string {
  return `evt_${createHash('sha256')
    .update(JSON.stringify([merchantId, paymentId, seq, type, objectId]))
    .digest('hex')
    .slice(0, 32)}`;
}

/** What the transition before tells about a transition's events: which ones, about which object. The rest (the
 * object, the order, the id) follows from the transition alone (materializeEvents). */
export interface EventHead {
  event_type: EventType;
  object_id: string;
}

/**
 * The events of the transition that produced `next`, given the payment as the transition before it left it (null for
 * the first transition).
 */
export function deriveEvents(prev: StoredPayment | null, next: StoredPayment): DerivedEvent[] {
  return materializeEvents(next, eventHeads(prev, next));
}

/**
 * Which events the transition that produced `next` gives, in their order. Its writer (the append) knows the payment
 * before it and stores these with the transition, so the relay needs no read of the transition before.
 */
export function eventHeads(prev: StoredPayment | null, next: StoredPayment): EventHead[] {
  const out: EventHead[] = [];
  const paymentEvent = (event_type: EventType) => out.push({ event_type, object_id: next.payment_id });

  // Rows that moved in this transition.
  const prevCaptures = new Map((prev?.captures ?? []).map((c) => [c.capture_id, c.status]));
  const newlyCharged = (next.captures ?? []).some((c) => c.status === 'charged' && prevCaptures.get(c.capture_id) !== 'charged');
  const captureFailed = (next.captures ?? []).some((c) => c.status === 'failed' && prevCaptures.get(c.capture_id) !== 'failed');
  const prevIncr = new Map((prev?.incremental_authorizations ?? []).map((a) => [a.authorization_id, a.status]));
  const incrDecided = (next.incremental_authorizations ?? []).some((a) => a.status !== 'processing' && prevIncr.get(a.authorization_id) !== a.status);
  // A void the provider refused: the payment went back from processing to where it was, with the void's error.
  const prevOps = new Map((prev?.operations ?? []).map((o) => [o.operation_id, o]));
  const voidFailed = next.operations.some(
    (o) => o.kind === 'void' && !o.open && prevOps.get(o.operation_id)?.open && next.status !== 'cancelled' && next.status !== 'failed',
  );

  if (newlyCharged) paymentEvent('payment_captured');
  if (captureFailed) paymentEvent('payment_capture_failed');
  if (voidFailed) paymentEvent('payment_cancel_failed');
  if (incrDecided) paymentEvent('payment_incremental_authorization');
  const statusChanged = prev === null ? false : prev.status !== next.status;
  // Returning to the status before a refused capture or void is not news of its own: the failure event says it.
  const returned = (captureFailed || voidFailed || incrDecided) && prev?.status === 'processing';
  const statusEvent = STATUS_EVENTS[next.status];
  if ((statusChanged || (prev === null && statusEvent)) && statusEvent && !returned) paymentEvent(statusEvent);

  const prevRefunds = new Map((prev?.refunds ?? []).map((r) => [r.refund_id, r.status]));
  for (const r of next.refunds ?? []) {
    if (r.status === prevRefunds.get(r.refund_id)) continue;
    const type = r.status === 'succeeded' ? 'refund_succeeded' : r.status === 'failed' ? 'refund_failed' : null;
    if (type) out.push({ event_type: type, object_id: r.refund_id });
  }

  const prevDisputes = new Map((prev?.disputes ?? []).map((d) => [d.dispute_id, d]));
  for (const d of next.disputes ?? []) {
    const before = prevDisputes.get(d.dispute_id);
    if (before && before.dispute_status === d.dispute_status && before.dispute_stage === d.dispute_stage) continue;
    out.push({ event_type: d.dispute_status, object_id: d.dispute_id });
  }

  // The mandate the payment sets up exists once the payment is authorized (or succeeded at once).
  const mandate = mandateOf(next);
  if (mandate && !(prev && mandateOf(prev))) out.push({ event_type: 'mandate_active', object_id: mandate.mandate_id });
  return out;
}

/** The events `heads` name, whole: each one's object as GET answers it at `next`, its order and its id. */
export function materializeEvents(next: StoredPayment, heads: readonly EventHead[]): DerivedEvent[] {
  let payment: unknown;
  const objectOf = (h: EventHead, object_type: EventObjectType): unknown => {
    if (object_type === 'payment_details') return (payment ??= toResource(next));
    const found =
      object_type === 'refund_details'
        ? (next.refunds ?? []).filter((r) => r.refund_id === h.object_id).map((r) => refundView(r))
        : object_type === 'dispute_details'
          ? (next.disputes ?? []).filter((d) => d.dispute_id === h.object_id).map((d) => disputeView(d))
          : [mandateOf(next)].filter((m) => m?.mandate_id === h.object_id);
    if (!found.length) throw new Error(`${h.event_type} of ${next.payment_id} at ${next.seq}: no ${object_type} ${h.object_id} in the transition`);
    return found[0];
  };
  return heads.map((h, order) => {
    const { object_type } = EVENT_TYPES[h.event_type];
    return {
      event_id: eventId(next.merchant_id, next.payment_id, next.seq, h.event_type, h.object_id),
      event_type: h.event_type,
      object_type,
      object_id: h.object_id,
      order,
      object: objectOf(h, object_type),
    };
  });
}

/** mandate_revoked's `order` within its payment's transition: after every event that transition derived. */
export const MANDATE_REVOKED_ORDER = 1_000;

/**
 * The mandate_revoked event of a revoked mandate (`m`: as GET answers it now, status revoked). One per mandate: its id
 * comes from the mandate alone, so a revocation retried after a crash, or revoked twice, stores and delivers one event.
 * It is filed under the payment that set the mandate up (payment_id), after that payment's events.
 */
export function mandateRevokedEvent(m: MandateResource): Omit<DerivedEvent, 'order'> {
  return {
    event_id: eventId(m.merchant_id, m.original_payment_id, -1, 'mandate_revoked', m.mandate_id),
    event_type: 'mandate_revoked',
    object_type: 'mandate_details',
    object_id: m.mandate_id,
    object: m,
  };
}

/** The body a merchant receives for an event: exactly these fields, serialized once and signed as sent. */
export interface WebhookPayload {
  merchant_id: string;
  event_id: string;
  event_type: EventType;
  content: { type: EventObjectType; object: unknown };
  timestamp: string;
}

export function webhookPayload(e: {
  merchant_id: string;
  event_id: string;
  event_type: EventType;
  object_type: EventObjectType;
  object: unknown;
  created_at: string;
}): WebhookPayload {
  return {
    merchant_id: e.merchant_id,
    event_id: e.event_id,
    event_type: e.event_type,
    content: { type: e.object_type, object: e.object },
    timestamp: e.created_at,
  };
}
