// Disputes of a payment: created and moved only by what a provider reports. Pure; only payment-state calls the
// decision (disputeOutcome) and records it in the payment's transitions, like any connector outcome.
import { Currency } from '../lib/schemas/common.ts';
import { DISPUTE_STAGES, DISPUTE_STATUSES, PAYMENT_DISPUTE_FIELDS, Dispute, type DisputeStageName, type DisputeStatusName } from '../lib/schemas/dispute.ts';
import type { Decision, DisputeRow, StoredPayment } from './payment.ts';
import { refuse } from './transitions.ts';

/** The copy of a dispute a Payment embeds (spec 2.10): exactly its listed fields. */
export function paymentDisputeView(d: DisputeRow): Pick<DisputeRow, (typeof PAYMENT_DISPUTE_FIELDS)[number]> {
  return Object.fromEntries(PAYMENT_DISPUTE_FIELDS.map((k) => [k, d[k] ?? null])) as Pick<DisputeRow, (typeof PAYMENT_DISPUTE_FIELDS)[number]>;
}

/** The Dispute resource (spec 2.10) of a row: every field, null where unknown. */
export function disputeView(d: DisputeRow): DisputeRow {
  return Object.fromEntries(Object.keys(Dispute.shape).map((k) => [k, d[k as keyof DisputeRow] ?? null])) as DisputeRow;
}

/** A provider's word on a dispute (proto DisputeReport), null where it said nothing. Amount in minor units. */
export interface DisputeReport {
  connector_dispute_id: string;
  amount: number;
  currency: string | null;
  dispute_stage: string;
  dispute_status: string;
  connector_status: string | null;
  connector_reason: string | null;
  connector_reason_code: string | null;
  challenge_required_by: string | null;
  connector_created_at: string | null;
  connector_updated_at: string | null;
}

/** Statuses that end a dispute within its stage; only a later stage reopens it. */
export const CLOSED_DISPUTE_STATUSES: readonly DisputeStatusName[] = [
  'dispute_expired',
  'dispute_accepted',
  'dispute_cancelled',
  'dispute_won',
  'dispute_lost',
];
const stageRank = (s: DisputeStageName) => DISPUTE_STAGES.indexOf(s);

/**
 * Why a report that changes nothing was not applied: 'repeated' (the same or an older report than the one applied),
 * or an invalid move, which the caller logs.
 */
export type IgnoredReport = { kind: 'noop'; reason: string; invalid: boolean };
export type DisputeDecision = Exclude<Decision, { kind: 'noop' }> | IgnoredReport;

/**
 * Apply a provider's report to the payment's disputes: the first report of a connector_dispute_id creates the
 * dispute (dispute_id from ctx, received now), later ones move it. The stage never goes backwards; within a stage a
 * closed status never changes (a later stage reopens); a report no newer than the last applied (the provider's
 * connector_updated_at) is ignored, so a repeated or late notification never moves anything back. The payment's
 * status does not change.
 */
export function disputeOutcome(p: StoredPayment, report: DisputeReport, ctx: { now: string; disputeId: string }): DisputeDecision {
  const bad = badValue(report) ?? beyondPayment(p, report);
  if (bad) return bad;
  const stage = report.dispute_stage as DisputeStageName;
  const status = report.dispute_status as DisputeStatusName;
  const at = (v: string | null) => (v ? new Date(v).toISOString() : null);
  const updatedAt = at(report.connector_updated_at);
  const given = {
    connector_reason: report.connector_reason,
    connector_reason_code: report.connector_reason_code,
    challenge_required_by: at(report.challenge_required_by),
    connector_created_at: at(report.connector_created_at),
  };
  const existing = p.disputes?.find((d) => d.connector_dispute_id === report.connector_dispute_id);
  let row: DisputeRow;
  if (!existing) {
    if (!p.connector) return refuse('IR_05', 'The payment was never sent to a provider: it cannot be disputed', 'payment_id');
    row = {
      dispute_id: ctx.disputeId,
      payment_id: p.payment_id,
      attempt_id: p.attempts?.at(-1)?.attempt_id ?? null,
      amount: String(report.amount),
      currency: (report.currency ?? p.currency) as DisputeRow['currency'],
      dispute_stage: stage,
      dispute_status: status,
      connector: p.connector,
      connector_status: report.connector_status ?? status,
      connector_dispute_id: report.connector_dispute_id,
      ...given,
      created_at: ctx.now,
      connector_updated_at: updatedAt,
      profile_id: p.profile_id ?? null,
      merchant_connector_id: p.merchant_connector_id ?? null,
    };
  } else {
    if (updatedAt && existing.connector_updated_at && updatedAt <= existing.connector_updated_at) {
      return { kind: 'noop', reason: `a report of ${updatedAt}, not newer than the one applied (${existing.connector_updated_at})`, invalid: false };
    }
    const invalid = invalidMove(existing, stage, status);
    if (invalid) return { kind: 'noop', reason: invalid, invalid: true };
    row = {
      ...existing,
      dispute_stage: stage,
      dispute_status: status,
      amount: String(report.amount),
      connector_status: report.connector_status ?? status,
      ...Object.fromEntries(Object.entries(given).filter(([, v]) => v !== null)),
      connector_updated_at: updatedAt ?? existing.connector_updated_at,
    };
    // Without the provider's time to order it by, only a report that changes something is one.
    if (JSON.stringify(row) === JSON.stringify(existing)) return { kind: 'noop', reason: 'the report changes nothing', invalid: false };
  }
  const disputes = existing ? (p.disputes ?? []).map((d) => (d === existing ? row : d)) : [...(p.disputes ?? []), row];
  return { kind: 'apply', payment: { ...p, disputes, updated: ctx.now }, needsConnector: false };
}

/** Why moving `d` to (stage, status) is not allowed, or null. */
function invalidMove(d: DisputeRow, stage: DisputeStageName, status: DisputeStatusName): string | null {
  if (stageRank(stage) < stageRank(d.dispute_stage)) return `the stage cannot go back from ${d.dispute_stage} to ${stage}`;
  if (stage === d.dispute_stage && CLOSED_DISPUTE_STATUSES.includes(d.dispute_status) && status !== d.dispute_status) {
    return `${d.dispute_status} is closed within the stage ${stage}; it cannot become ${status}`;
  }
  return null;
}

/**
 * A dispute is about money the payment took: at most what was captured, in the payment's currency. Anything else is
 * no provider's word about this payment (a forged or misrouted notice) and is refused, naming the field.
 */
function beyondPayment(p: StoredPayment, r: DisputeReport): ReturnType<typeof refuse> | null {
  if (r.currency !== null && r.currency !== p.currency) return refuse('IR_05', `currency ${r.currency} is not the payment's (${p.currency})`, 'currency');
  const captured = p.amount_received ?? 0;
  if (r.amount > captured) return refuse('IR_05', `amount ${r.amount} exceeds what was captured of the payment (${captured})`, 'amount');
  return null;
}

const isTime = (v: string | null) => v === null || !Number.isNaN(Date.parse(v));

/** A report the provider could not have meant: refused, naming the field. */
function badValue(r: DisputeReport): ReturnType<typeof refuse> | null {
  if (!r.connector_dispute_id) return refuse('IR_04', 'connector_dispute_id is required', 'connector_dispute_id');
  if (!(DISPUTE_STAGES as readonly string[]).includes(r.dispute_stage))
    return refuse('IR_05', `dispute_stage must be one of ${DISPUTE_STAGES.join(', ')}`, 'dispute_stage');
  if (!(DISPUTE_STATUSES as readonly string[]).includes(r.dispute_status))
    return refuse('IR_05', `dispute_status must be one of ${DISPUTE_STATUSES.join(', ')}`, 'dispute_status');
  if (!Number.isSafeInteger(r.amount) || r.amount <= 0) return refuse('IR_05', 'amount must be a positive integer (minor units)', 'amount');
  if (r.currency !== null && !Currency.safeParse(r.currency).success) return refuse('IR_05', 'currency is not a currency code', 'currency');
  for (const k of ['challenge_required_by', 'connector_created_at', 'connector_updated_at'] as const) {
    if (!isTime(r[k])) return refuse('IR_05', `${k} must be a timestamp`, k);
  }
  return null;
}
