// Where each connector outcome leads: applyOutcome closes the operation and moves the payment. Pure; only
// payment-state calls it and records the result.
import type { PaymentStatusName } from '../lib/schemas/common.ts';
import { netAmount, type Decision, type Operation, type Outcome, type OutcomeKind, type StoredPayment } from './payment.ts';
import { startCapture } from './begin.ts';
import { followUpCapture } from './capabilities.ts';
import { authenticateOutcome } from './three-ds.ts';
import { refundOutcome } from './refunds.ts';
import { automaticCapture, errorFields, incrementable, OUTCOMES_OF, refuse, withFlight } from './transitions.ts';

/** Apply a connector outcome to its operation. A repeated or late report changes nothing. */
export function applyOutcome(p: StoredPayment, operationId: string, outcome: Outcome, now: string): Decision {
  const op = p.operations.find((o) => o.operation_id === operationId);
  if (!op) return refuse('HE_02', `Operation ${operationId} does not exist on this payment`);
  if (!OUTCOMES_OF[op.kind].includes(outcome.kind)) return refuse('IR_05', `A ${op.kind} operation cannot end ${outcome.kind}`, 'outcome.kind');
  if (!op.open || op.last_outcome === outcome.kind) return { kind: 'noop' };
  const final = !(outcome.kind === 'PENDING' || outcome.kind === 'CUSTOMER_ACTION');
  const closed: Operation = { ...op, open: !final, last_outcome: outcome.kind };
  const base: StoredPayment = { ...p, operations: p.operations.map((o) => (o.operation_id === operationId ? closed : o)) };
  if (op.kind === 'authenticate') {
    const { payment, followUp } = authenticateOutcome(base, op, outcome, now);
    return { kind: 'apply', payment: withFlight(payment, now), needsConnector: false, ...(followUp ? { followUp } : {}) };
  }
  if (op.kind === 'refund') return { kind: 'apply', payment: withFlight(refundOutcome(base, op, outcome, now), now), needsConnector: false };
  if (op.kind === 'authorize' && outcome.kind === 'AUTHORIZED') {
    const authorized = authorizeOutcome(base, op, outcome, now).payment;
    if (authorized.status === 'requires_capture' && automaticCapture(p.capture_method) && followUpCapture(op.connector)) {
      // The provider only authorizes: the automatic capture is ours to start, as an operation derived from this one
      // (a repeated report is a noop above, so it cannot start two).
      const captureId = `cap_${op.operation_id
        .replace(/^op_/, '')
        .replace(/[^A-Za-z0-9]/g, '')
        .slice(0, 26)}`;
      const amount = Math.min(p.amount_to_capture ?? authorized.amount_capturable, authorized.amount_capturable);
      const started = startCapture(authorized, amount, null, { now, operationId: `${op.operation_id}-capture`, captureId });
      if (started.kind === 'apply') return { kind: 'apply', payment: started.payment, needsConnector: false, followUp: started.operation };
    }
    return { kind: 'apply', payment: withFlight(authorized, now), needsConnector: false };
  }
  const next =
    op.kind === 'authorize'
      ? authorizeOutcome(base, op, outcome, now)
      : op.kind === 'capture'
        ? captureOutcome(base, op, outcome)
        : op.kind === 'void'
          ? voidOutcome(base, op, outcome)
          : incrementOutcome(base, op, outcome);
  return { kind: 'apply', payment: withFlight(next.payment, now), needsConnector: false };
}

/** The attempt status each confirm outcome leads to, and the payment status. */
const AUTHORIZE_OUTCOMES: Record<OutcomeKind, { attempt: string; status: (p: StoredPayment) => PaymentStatusName }> = {
  AUTHORIZED: { attempt: 'authorized', status: () => 'requires_capture' },
  CAPTURED: { attempt: 'charged', status: (p) => ((p.amount_to_capture ?? p.amount) < p.amount ? 'partially_captured' : 'succeeded') },
  DECLINED: { attempt: 'failure', status: () => 'failed' },
  FAILED: { attempt: 'failure', status: () => 'failed' },
  CUSTOMER_ACTION: { attempt: 'authentication_pending', status: () => 'requires_customer_action' },
  PENDING: { attempt: 'pending', status: () => 'processing' },
  VOIDED: { attempt: 'voided', status: () => 'cancelled' },
  AUTHENTICATED: { attempt: 'authentication_successful', status: () => 'processing' },
  REFUNDED: { attempt: 'failure', status: () => 'failed' }, // never reported for an authorization (OUTCOMES_OF)
};

/** Statuses in which the authorized amount is still on hold and capturable. */
const HOLDS_AUTHORIZATION: readonly PaymentStatusName[] = ['requires_capture', 'processing', 'requires_customer_action', 'requires_merchant_action'];

function authorizeOutcome(p: StoredPayment, op: Operation, o: Outcome, now: string): { kind: 'apply'; payment: StoredPayment } {
  const rule = AUTHORIZE_OUTCOMES[o.kind];
  // Held for our manual review: the provider only authorized it (the job asked for a manual capture).
  const status = o.kind === 'AUTHORIZED' && p.review_hold ? 'requires_merchant_action' : rule.status(p);
  const failed = status === 'failed';
  const attempts = (p.attempts ?? []).map((a) =>
    a.attempt_id !== op.ref
      ? a
      : {
          ...a,
          status: rule.attempt,
          modified_at: now,
          connector_transaction_id: o.connector_transaction_id || a.connector_transaction_id,
          reference_id: o.connector_reference_id || a.reference_id,
          ...(failed ? errorFields(o) : {}),
        },
  );
  const captured = o.kind === 'CAPTURED' ? (p.amount_to_capture ?? p.amount) : null;
  const payment: StoredPayment = {
    ...p,
    status,
    attempts,
    connector_transaction_id: o.connector_transaction_id || p.connector_transaction_id,
    reference_id: o.connector_reference_id || p.reference_id,
    next_action: o.kind === 'CUSTOMER_ACTION' && o.redirect_url ? { type: 'redirect_to_url', redirect_to_url: o.redirect_url } : null,
    amount_capturable: HOLDS_AUTHORIZATION.includes(status) ? p.amount : 0,
    amount_received: captured ?? p.amount_received,
    manual_retry_allowed: failed,
    incremental_authorization_allowed: status === 'requires_capture' && incrementable(p),
    ...(failed ? errorFields(o) : {}),
    // A mandate set up with this authorization: the provider's reference to charge the customer again (issue 22).
    ...(o.connector_mandate_id && p.mandate && p.mandate.kind !== 'recurring'
      ? { connector_mandate_id: o.connector_mandate_id, mandate: { ...p.mandate, connector_mandate_id: o.connector_mandate_id } }
      : {}),
  };
  return { kind: 'apply', payment };
}

function captureOutcome(p: StoredPayment, op: Operation, o: Outcome): { kind: 'apply'; payment: StoredPayment } {
  const charged = o.kind === 'CAPTURED';
  const failed = o.kind === 'DECLINED' || o.kind === 'FAILED';
  const captures = (p.captures ?? []).map((c) =>
    c.capture_id !== op.ref
      ? c
      : {
          ...c,
          status: charged ? ('charged' as const) : failed ? ('failed' as const) : ('pending' as const),
          connector_capture_id: o.connector_transaction_id || c.connector_capture_id,
          reference_id: o.connector_reference_id || c.reference_id,
          ...(failed ? { error_code: o.error_code ?? null, error_message: o.error_message ?? null, error_reason: o.unified_message ?? null } : {}),
        },
  );
  if (failed) {
    return { kind: 'apply', payment: { ...p, captures, status: op.status_before, amount_capturable: p.amount_capturable + op.amount, ...errorFields(o) } };
  }
  if (!charged) return { kind: 'apply', payment: { ...p, captures } };
  const received = (p.amount_received ?? 0) + op.amount;
  let status: PaymentStatusName;
  let capturable: number;
  if (received >= p.amount) [status, capturable] = ['succeeded', 0];
  else if (p.capture_method === 'manual_multiple') [status, capturable] = ['partially_captured_and_capturable', p.amount - received];
  else [status, capturable] = ['partially_captured', 0];
  const attemptStatus = { succeeded: 'charged', partially_captured: 'partial_charged', partially_captured_and_capturable: 'partial_charged_and_chargeable' }[
    status as string
  ]!;
  const attempts = (p.attempts ?? []).map((a, i, all) => (i === all.length - 1 ? { ...a, status: attemptStatus } : a));
  return {
    kind: 'apply',
    payment: { ...p, captures, attempts, status, amount_received: received, amount_capturable: capturable, ...errorFields({ kind: o.kind }) },
  };
}

function voidOutcome(p: StoredPayment, op: Operation, o: Outcome): { kind: 'apply'; payment: StoredPayment } {
  const attempts = (status: string) => (p.attempts ?? []).map((a) => (a.attempt_id === op.ref ? { ...a, status } : a));
  const rejected = op.status_before === 'requires_merchant_action';
  if (o.kind === 'VOIDED') {
    // A rejected review ends failed, as in the leading switch; a cancel ends cancelled (or partially_captured).
    const status: PaymentStatusName = rejected ? 'failed' : (p.amount_received ?? 0) > 0 ? 'partially_captured' : 'cancelled';
    // The authorization is gone: an authorization still waiting for the customer or a review ends with it.
    const operations = p.operations.map((x) => (x.kind === 'authorize' && x.open ? { ...x, open: false, last_outcome: 'VOIDED' as const } : x));
    return {
      kind: 'apply',
      payment: {
        ...p,
        status,
        operations,
        attempts: attempts('voided'),
        next_action: null,
        amount_capturable: 0,
        amount_cancelled: rejected ? p.amount_cancelled : p.amount - (p.amount_received ?? 0),
      },
    };
  }
  if (o.kind === 'PENDING') return { kind: 'apply', payment: p };
  // A failed void leaves the hold in place: back to where it was, with the error recorded (and a rejection undone).
  const decision = rejected ? { merchant_decision: null, review_hold: true } : {};
  return { kind: 'apply', payment: { ...p, status: op.status_before, attempts: attempts('void_failed'), ...decision, ...errorFields(o) } };
}

function incrementOutcome(p: StoredPayment, op: Operation, o: Outcome): { kind: 'apply'; payment: StoredPayment } {
  if (o.kind === 'PENDING') return { kind: 'apply', payment: p };
  const success = o.kind === 'AUTHORIZED';
  const rows = (p.incremental_authorizations ?? []).map((r) =>
    r.authorization_id !== op.ref
      ? r
      : {
          ...r,
          status: success ? ('success' as const) : ('failure' as const),
          error_code: success ? null : (o.error_code ?? null),
          error_message: success ? null : (o.error_message ?? null),
        },
  );
  // A failure is recorded on its row only: the payment and its amounts stay as they were.
  if (!success) return { kind: 'apply', payment: { ...p, status: op.status_before, incremental_authorizations: rows } };
  const grown = { ...p, amount: op.amount };
  return {
    kind: 'apply',
    payment: {
      ...grown,
      status: op.status_before,
      incremental_authorizations: rows,
      net_amount: netAmount(grown),
      amount_capturable: op.amount - (p.amount_received ?? 0),
      authorization_count: (p.authorization_count ?? 0) + 1,
    },
  };
}
