// The rules table of the state machine: which action may start in which status, which outcomes each operation can
// have, and the small helpers every transition shares. Pure; anyone may ask whether an action may start.
import type { CaptureMethodName, ConnectorName, PaymentStatusName } from '../lib/schemas/common.ts';
import { capabilities } from './connectors.ts';
import { SWEEP_KEY, type Operation, type OperationKind, type Outcome, type OutcomeKind, type Refusal, type StoredPayment } from './payment.ts';

export type Action = 'confirm' | 'capture' | 'cancel' | 'incremental_authorization' | 'refund' | 'approve' | 'reject' | 'update' | 'authenticate';
export const ACTIONS: readonly Action[] = [
  'confirm',
  'capture',
  'cancel',
  'incremental_authorization',
  'refund',
  'approve',
  'reject',
  'update',
  'authenticate',
];

/**
 * Spec section 3 and the decisions in ARCHITECTURE.md: the statuses in which each action may start, and the code
 * that refuses it in every other status.
 */
export const ACTION_RULES: Record<Action, { from: readonly PaymentStatusName[]; refusedWith: 'IR_14' | 'IR_16' }> = {
  // From failed too, but only as a manual retry (see canStart).
  confirm: { from: ['requires_confirmation', 'requires_payment_method'], refusedWith: 'IR_16' },
  capture: { from: ['requires_capture', 'partially_captured_and_capturable'], refusedWith: 'IR_14' },
  // Spec section 3's four, and partially_captured_and_capturable: ARCHITECTURE.md decides that a cancel after
  // partial captures releases the rest (-> partially_captured), as the leading switch allows.
  cancel: {
    from: ['requires_payment_method', 'requires_capture', 'requires_confirmation', 'requires_customer_action', 'partially_captured_and_capturable'],
    refusedWith: 'IR_16',
  },
  incremental_authorization: { from: ['requires_capture'], refusedWith: 'IR_16' },
  // And while a capture of such a payment is in flight (see refundableStatus in refunds.ts).
  refund: { from: ['succeeded', 'partially_captured', 'partially_captured_and_capturable'], refusedWith: 'IR_14' },
  approve: { from: ['requires_merchant_action'], refusedWith: 'IR_16' },
  reject: { from: ['requires_merchant_action'], refusedWith: 'IR_16' },
  // POST /payments/{id}: only before the payment is confirmed.
  update: { from: ['requires_confirmation', 'requires_payment_method'], refusedWith: 'IR_16' },
  // POST /payments/{id}/3ds/authentication: only while the confirmed payment waits for it (see beginAuthenticate).
  authenticate: { from: ['requires_customer_action'], refusedWith: 'IR_16' },
};

export const TERMINAL_STATUSES: readonly PaymentStatusName[] = ['succeeded', 'failed', 'cancelled', 'partially_captured'];

/** The outcomes each kind of operation can have; any other report is a connector bug and is refused. */
export const OUTCOMES_OF: Record<OperationKind, readonly OutcomeKind[]> = {
  authorize: ['AUTHORIZED', 'CAPTURED', 'DECLINED', 'FAILED', 'CUSTOMER_ACTION', 'PENDING', 'VOIDED'],
  capture: ['CAPTURED', 'PENDING', 'DECLINED', 'FAILED'],
  void: ['VOIDED', 'PENDING', 'DECLINED', 'FAILED'],
  incremental_authorization: ['AUTHORIZED', 'PENDING', 'DECLINED', 'FAILED'],
  authenticate: ['AUTHENTICATED', 'CUSTOMER_ACTION', 'PENDING', 'DECLINED', 'FAILED'],
  refund: ['REFUNDED', 'PENDING', 'DECLINED', 'FAILED'],
};

export const refuse = (code: string, message: string, param?: string): Refusal => ({ kind: 'refused', code, message, param });

export function canStart(p: Pick<StoredPayment, 'status' | 'manual_retry_allowed'>, action: Action): Refusal | null {
  if (ACTION_RULES[action].from.includes(p.status)) return null;
  if (action === 'confirm' && p.status === 'failed' && p.manual_retry_allowed) return null;
  const code = ACTION_RULES[action].refusedWith;
  const verb = action.replace('_', ' ');
  return refuse(code, `You cannot ${verb} this payment because it has status ${p.status}`);
}

export const automaticCapture = (m: CaptureMethodName | null) => m === null || m === 'automatic' || m === 'scheduled' || m === 'sequential_automatic';

export function withFlight(p: StoredPayment, now: string): StoredPayment {
  const open = p.operations.some((o) => o.open);
  const { sweep_key: _k, ...rest } = p;
  return {
    ...rest,
    in_flight: open,
    in_flight_since: open ? (p.in_flight ? p.in_flight_since : now) : null,
    updated: now,
    ...(open ? { sweep_key: SWEEP_KEY } : {}),
  };
}

/** The payment may have its authorization raised later (asked for on create, and the connector supports it). */
export const incrementable = (p: StoredPayment) =>
  p.request_incremental_authorization === true && !!p.connector && capabilities(p.connector).incremental_authorization;

/** The provider authorizes the attempt (and captures it, for automatic capture). */
export function authorizeOperation(
  operationId: string,
  attemptId: string,
  amount: number,
  connector: ConnectorName,
  statusBefore: PaymentStatusName,
  now: string,
): Operation {
  return {
    operation_id: operationId,
    kind: 'authorize',
    ref: attemptId,
    amount,
    connector,
    open: true,
    status_before: statusBefore,
    last_outcome: null,
    created_at: now,
  };
}

export const errorFields = (o: Outcome) => ({
  error_code: o.error_code ?? null,
  error_message: o.error_message ?? null,
  unified_code: o.unified_code ?? null,
  unified_message: o.unified_message ?? null,
});
