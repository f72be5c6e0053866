// One payment's history for the dashboard (issue 23), in time order: its transitions (MongoDB `transitions`, what
// payment-state applied), the provider calls (the payment's operations: what was asked of which connector and what
// it answered), the merchant events derived from it and each webhook delivery attempt (`events`, `event_attempts`),
// and the trace ids the transitions were recorded under. The same records docs/runbook.md "Read a stuck payment's
// history" reads by hand.
import type { Db } from 'mongodb';
import { EventStore, type AttemptDoc, type EventDoc } from '../../adapters/event-store.ts';
import type { PaymentStore, Transition } from '../../adapters/payment-store.ts';
import { toDecimalString } from '../../lib/money.ts';
import type { Operation, StoredPayment } from '../../domain/payment.ts';

export type TimelineKind = 'transition' | 'provider_call' | 'event' | 'webhook_attempt';

export interface TimelineEntry {
  at: string;
  kind: TimelineKind;
  /** What happened, in words. */
  title: string;
  /** The ids and values behind it. */
  detail: string;
  /** true: went well, false: did not, null: neither (still open, or not a result). */
  ok: boolean | null;
  trace_id: string | null;
}

/** At the same instant: the transition first, then the call it started, the event, its delivery. */
const RANK: Record<TimelineKind, number> = { transition: 0, provider_call: 1, event: 2, webhook_attempt: 3 };

const ACTIONS: Record<string, string> = {
  create: 'Created',
  update: 'Updated',
  confirm: 'Confirmed by the customer',
  authenticate: '3DS authentication started',
  capture: 'Capture asked',
  cancel: 'Cancel asked',
  refund: 'Refund asked',
  update_refund: 'Refund updated',
  incremental_authorization: 'Higher authorization asked',
  approve: 'Approved by the merchant',
  reject: 'Rejected by the merchant',
};
const OUTCOMES: Record<string, string> = {
  authorized: 'authorized',
  captured: 'captured',
  declined: 'declined',
  customer_action: 'the customer must act',
  pending: 'pending',
  voided: 'voided',
  failed: 'failed',
  authenticated: 'authenticated',
  refunded: 'refunded',
};
const words = (s: string) => s.replaceAll('_', ' ');

/** A transition's action in words: `outcome:captured` -> "Provider answered: captured". */
export function actionTitle(action: string): string {
  const [head, tail] = action.split(':', 2) as [string, string | undefined];
  if (head === 'outcome' && tail) return `Provider answered: ${OUTCOMES[tail] ?? words(tail)}`;
  if (head === 'dispute' && tail) return `Dispute: ${words(tail)}`;
  return ACTIONS[action] ?? words(action).replace(/^./, (c) => c.toUpperCase());
}

const OPERATION_WORDS: Record<Operation['kind'], string> = {
  authorize: 'authorize',
  capture: 'capture',
  void: 'void',
  incremental_authorization: 'incremental authorization',
  authenticate: '3DS authentication',
  refund: 'refund',
};
const GOOD_OUTCOMES = new Set(['AUTHORIZED', 'CAPTURED', 'VOIDED', 'AUTHENTICATED', 'REFUNDED']);

function transitionEntry(t: Transition): TimelineEntry {
  const failed = t.to === 'failed' || /^outcome:(declined|failed)$/.test(t.action);
  return {
    at: t.at,
    kind: 'transition',
    title: actionTitle(t.action),
    detail: `#${t.seq} ${t.from ? `${words(t.from)} → ` : ''}${words(t.to)}${t.operation_id ? ` · ${t.operation_id}` : ''}`,
    ok: failed ? false : null,
    trace_id: t.trace_id,
  };
}

function operationEntry(p: StoredPayment, op: Operation, traceOf: Map<string, string | null>): TimelineEntry {
  const outcome = op.last_outcome ? words(op.last_outcome.toLowerCase()) : op.open ? 'waiting for the provider' : 'no answer recorded';
  return {
    at: op.created_at,
    kind: 'provider_call',
    title: `${op.connector}: ${OPERATION_WORDS[op.kind]} ${toDecimalString(op.amount, p.currency)} ${p.currency}`,
    detail: `${op.operation_id} · ${op.ref} · ${outcome}`,
    ok: op.last_outcome ? GOOD_OUTCOMES.has(op.last_outcome) : null,
    trace_id: traceOf.get(op.operation_id) ?? null,
  };
}

function eventEntry(e: EventDoc): TimelineEntry {
  return {
    at: e.created_at,
    kind: 'event',
    title: `Event ${e.event_type}`,
    detail: `${e.event_id} · ${words(e.delivery_status)}, ${e.delivery_attempts ?? 0} attempt${e.delivery_attempts === 1 ? '' : 's'}`,
    ok: e.delivery_status === 'delivered' ? true : e.delivery_status === 'failed' ? false : null,
    trace_id: null,
  };
}

function attemptEntry(a: AttemptDoc): TimelineEntry {
  const answer = a.response ? `HTTP ${a.response.status_code}` : (a.error ?? 'no answer');
  return {
    at: a.started_at,
    kind: 'webhook_attempt',
    title: `Webhook ${a.delivered ? 'delivered' : 'not delivered'}${a.trigger === 'manual' ? ' (sent again by hand)' : ''}`,
    detail: `${a.url ?? 'no webhook URL set'} · ${answer} · ${a.duration_ms} ms · ${a.event_id}`,
    ok: a.delivered,
    trace_id: null,
  };
}

/** The entries, oldest first. */
export function buildTimeline(input: { payment: StoredPayment; transitions: Transition[]; events: EventDoc[]; attempts: AttemptDoc[] }): TimelineEntry[] {
  // A provider call's trace: the trace of the transition that began it.
  const traceOf = new Map<string, string | null>();
  for (const t of input.transitions) if (t.operation_id && !traceOf.has(t.operation_id)) traceOf.set(t.operation_id, t.trace_id);
  const entries = [
    ...input.transitions.map(transitionEntry),
    ...input.payment.operations.map((op) => operationEntry(input.payment, op, traceOf)),
    ...input.events.map(eventEntry),
    ...input.attempts.map(attemptEntry),
  ];
  return entries
    .map((e, i) => ({ e, i }))
    .sort((a, b) => Date.parse(a.e.at) - Date.parse(b.e.at) || RANK[a.e.kind] - RANK[b.e.kind] || a.i - b.i)
    .map(({ e }) => e);
}

/** The distinct trace ids of the transitions, in the order first seen. */
export const traceIdsOf = (transitions: Pick<Transition, 'trace_id'>[]): string[] => [
  ...new Set(transitions.map((t) => t.trace_id).filter((id): id is string => !!id)),
];

/** The trace viewer's page of a trace (TRACE_VIEWER_URL, `{trace_id}` replaced), or null when none is configured. */
export function traceLink(traceId: string, template: string): string | null {
  if (!template || !/^[0-9a-f]{32}$/.test(traceId)) return null;
  return template.replaceAll('{trace_id}', traceId);
}

/** At most this many events of one payment are read (a payment has a handful; a flood stays bounded). */
const MAX_EVENTS = 200;

/** The stored records of one payment of the merchant's, or null when the merchant has no such payment. */
export async function readTimeline(
  db: Db,
  store: PaymentStore,
  merchantId: string,
  paymentId: string,
): Promise<{ payment: StoredPayment; entries: TimelineEntry[]; traceIds: string[] } | null> {
  const payment = await store.find(merchantId, paymentId);
  if (!payment) return null;
  const events = new EventStore(db);
  const [transitions, eventDocs] = await Promise.all([
    // Without the snapshots (the whole payment after each transition): the payment itself is read above.
    store.transitions
      .find({ merchant_id: merchantId, payment_id: paymentId }, { projection: { _id: 0, snapshot: 0 } })
      .sort({ seq: 1 })
      .toArray(),
    events.events
      .find({ merchant_id: merchantId, payment_id: paymentId }, { projection: { _id: 0, object: 0 } })
      .sort({ sequence: 1, order: 1 })
      .limit(MAX_EVENTS)
      .toArray(),
  ]);
  const attempts = eventDocs.length
    ? await events.attempts
        .find({ merchant_id: merchantId, event_id: { $in: eventDocs.map((e) => e.event_id) } }, { projection: { _id: 0, request: 0 } })
        .sort({ started_at: 1 })
        .toArray()
    : [];
  return { payment, entries: buildTimeline({ payment, transitions, events: eventDocs, attempts }), traceIds: traceIdsOf(transitions) };
}
