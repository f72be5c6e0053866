// The payment state machine: which action may start in which status, and where each connector outcome leads.
// Pure functions over a payment snapshot; no I/O. payment-state is the only caller that records the results.
import type { PaymentStatusName, CaptureMethodName, ConnectorName } from '../../lib/schemas/common.ts';
import { orderDetailsMismatch, REQUEST_EXTRAS, THREE_DS_TRANS_STATUSES, type PaymentResource, type AttemptRow, type CaptureRow, type CancelPaymentBody, type CapturePaymentBody, type ConfirmPaymentBody, type ThreeDsAuthenticationBody, type IncrementalAuthorizationBody, type RoutingAlgorithm, type UpdatePaymentBody } from '../../lib/schemas/payment.ts';
import { CAPABILITIES } from '../../lib/connectors.ts';

export type Action = 'confirm' | 'capture' | 'cancel' | 'incremental_authorization' | 'refund' | 'approve' | 'reject' | 'update' | 'authenticate';
export const ACTIONS: readonly Action[] = ['confirm', 'capture', 'cancel', 'incremental_authorization', 'refund', 'approve', 'reject', 'update', 'authenticate'];

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
  cancel: { from: ['requires_payment_method', 'requires_capture', 'requires_confirmation', 'requires_customer_action', 'partially_captured_and_capturable'], refusedWith: 'IR_16' },
  incremental_authorization: { from: ['requires_capture'], refusedWith: 'IR_16' },
  refund: { from: ['succeeded', 'partially_captured'], refusedWith: 'IR_14' },
  approve: { from: ['requires_merchant_action'], refusedWith: 'IR_16' },
  reject: { from: ['requires_merchant_action'], refusedWith: 'IR_16' },
  // POST /payments/{id}: only before the payment is confirmed.
  update: { from: ['requires_confirmation', 'requires_payment_method'], refusedWith: 'IR_16' },
  // POST /payments/{id}/3ds/authentication: only while the confirmed payment waits for it (see beginAuthenticate).
  authenticate: { from: ['requires_customer_action'], refusedWith: 'IR_16' },
};

export const TERMINAL_STATUSES: readonly PaymentStatusName[] = ['succeeded', 'failed', 'cancelled', 'partially_captured'];

export type OutcomeKind = 'AUTHORIZED' | 'CAPTURED' | 'DECLINED' | 'CUSTOMER_ACTION' | 'PENDING' | 'VOIDED' | 'FAILED' | 'AUTHENTICATED';

/** What a 3DS server answered for an authenticate operation (proto Authentication); null where it said nothing. */
export interface AuthenticationResult {
  trans_status: (typeof THREE_DS_TRANS_STATUSES)[number] | null;
  trans_status_reason: string | null;
  three_dsserver_trans_id: string | null;
  acs_trans_id: string | null;
  acs_reference_number: string | null;
  acs_url: string | null;
  challenge_request: string | null;
  acs_signed_content: string | null;
  three_ds_requestor_url: string | null;
  ds_trans_id: string | null;
  eci: string | null;
  message_version: string | null;
}

export interface Outcome {
  kind: OutcomeKind;
  connector_transaction_id?: string;
  connector_reference_id?: string;
  redirect_url?: string;
  error_code?: string;
  error_message?: string;
  unified_code?: string;
  unified_message?: string;
  /** For an authenticate operation: the 3DS server's answer. */
  authentication?: AuthenticationResult;
}

export type OperationKind = 'authorize' | 'capture' | 'void' | 'incremental_authorization' | 'authenticate';
export interface Operation {
  operation_id: string;
  kind: OperationKind;
  /** attempt_id for authorize and void, capture_id for capture, authorization_id for incremental authorization, authentication_id for authenticate. */
  ref: string;
  amount: number;
  connector: ConnectorName;
  open: boolean;
  /** Where a failed capture or void returns the payment. */
  status_before: PaymentStatusName;
  last_outcome: OutcomeKind | null;
  created_at: string;
}

/** The stored payment: the API resource plus what payment-state keeps to decide the next transition. */
export type StoredPayment = PaymentResource & {
  /** Request fields kept for later operations that the resource does not show. */
  amount_to_capture: number | null;
  routing: RoutingAlgorithm | null;
  request_incremental_authorization: boolean | null;
  /** Request fields kept with the payment that nothing acts on yet (REQUEST_EXTRAS). */
  request_extras?: Record<string, unknown>;
  /** Our own manual review applies: authorize only, then wait in requires_merchant_action for the merchant. */
  review_hold?: boolean;
  /** The external 3DS authentication of the current attempt: what the customer's device sent, what the 3DS server answered. */
  three_ds?: ThreeDsRecord | null;
  seq: number;
  request_hash: string;
  operations: Operation[];
  in_flight: boolean;
  in_flight_since: string | null;
  sweep_key?: typeof SWEEP_KEY;
};

export interface ThreeDsRecord {
  authentication_id: string;
  request: Omit<ThreeDsAuthenticationBody, 'client_secret'>;
  result: AuthenticationResult | null;
  /** The 3DS server asked for a challenge at some point (authentication_flow challenge, not frictionless). */
  challenged: boolean;
}

export type Refusal = { kind: 'refused'; code: string; message: string; param?: string };
export type Decision =
  | Refusal
  | { kind: 'replay'; operation: Operation }
  | { kind: 'noop' }
  | {
    kind: 'apply'; payment: StoredPayment; operation?: Operation; needsConnector: boolean;
    /** An operation this outcome started (authorization after a successful 3DS authentication): enqueue its job. */
    followUp?: Operation;
  };

const refuse = (code: string, message: string, param?: string): Refusal => ({ kind: 'refused', code, message, param });

export function canStart(p: Pick<StoredPayment, 'status' | 'manual_retry_allowed'>, action: Action): Refusal | null {
  if (ACTION_RULES[action].from.includes(p.status)) return null;
  if (action === 'confirm' && p.status === 'failed' && p.manual_retry_allowed) return null;
  const code = ACTION_RULES[action].refusedWith;
  const verb = action.replace('_', ' ');
  return refuse(code, `You cannot ${verb} this payment because it has status ${p.status}`);
}

const automaticCapture = (m: CaptureMethodName | null) => m === null || m === 'automatic' || m === 'scheduled' || m === 'sequential_automatic';

export function netAmount(p: Pick<PaymentResource, 'amount' | 'order_tax_amount' | 'surcharge_details'>): number {
  return p.amount + (p.surcharge_details?.surcharge_amount ?? 0) + (p.surcharge_details?.tax_amount ?? 0) + (p.order_tax_amount ?? 0);
}

function withFlight(p: StoredPayment, now: string): StoredPayment {
  const open = p.operations.some((o) => o.open);
  const { sweep_key: _k, ...rest } = p;
  return {
    ...rest, in_flight: open, in_flight_since: open ? (p.in_flight ? p.in_flight_since : now) : null, updated: now,
    ...(open ? { sweep_key: SWEEP_KEY } : {}),
  };
}

/** The value of `sweep_key`, a field only payments with an operation in flight carry (indexed for the sweeper). */
export const SWEEP_KEY = 'in_flight';

const CONFIRM_UPDATABLE = [
  'amount', 'currency', 'order_tax_amount', 'amount_to_capture', 'routing', 'capture_method', 'authentication_type', 'billing',
  'shipping', 'off_session', 'description', 'return_url', 'setup_future_usage', 'payment_method_data', 'payment_method',
  'payment_method_type', 'payment_token', 'statement_descriptor_name', 'statement_descriptor_suffix', 'order_details',
  'mandate_data', 'mandate_id', 'browser_info', 'payment_experience', 'metadata', 'merchant_order_reference_id', 'capture_on',
  'allowed_payment_method_types', 'surcharge_details', 'split_payments', 'connector_metadata', 'feature_metadata', 'frm_metadata',
] as const;

/** The request fields apply onto the payment, the customer object kept in step with the deprecated fields. */
function withRequestFields(p: StoredPayment, body: ConfirmPaymentBody | UpdatePaymentBody): StoredPayment {
  const next: StoredPayment = { ...p };
  for (const k of CONFIRM_UPDATABLE) if (body[k] !== undefined && body[k] !== null) (next as Record<string, unknown>)[k] = body[k];
  if (body.customer || body.customer_id || body.email || body.name || body.phone) Object.assign(next, customerFields(body, p.customer));
  const extras = requestExtras(body);
  if (Object.keys(extras).length) next.request_extras = { ...p.request_extras, ...extras };
  return next;
}

export function requestExtras(body: Partial<Record<(typeof REQUEST_EXTRAS)[number], unknown>>): Record<string, unknown> {
  return Object.fromEntries(REQUEST_EXTRAS.filter((k) => body[k] != null).map((k) => [k, body[k]]));
}

/** Rules across fields that a changed amount or order can break. */
function crossFieldRefusal(p: StoredPayment): Refusal | null {
  if (p.amount_to_capture != null && p.amount_to_capture > p.amount) return refuse('IR_05', 'amount_to_capture must not exceed amount', 'amount_to_capture');
  const mismatch = orderDetailsMismatch(p.order_details as { amount: number }[] | null, p.amount);
  return mismatch ? refuse('IR_05', `Invalid value for order_details: ${mismatch}`, 'order_details') : null;
}

/** Update before confirmation: the fields change, derived amounts follow, the status stays. */
export function beginUpdate(p: StoredPayment, body: UpdatePaymentBody, ctx: { now: string }): Decision {
  const refused = canStart(p, 'update');
  if (refused) return refused;
  if (body.payment_id != null && body.payment_id !== p.payment_id) return refuse('IR_05', 'payment_id in the body does not match the path', 'payment_id');
  const next = withRequestFields(p, body);
  if (body.business_label != null) next.business_label = body.business_label;
  if (body.profile_id != null) next.profile_id = body.profile_id;
  if (body.session_expiry != null) next.expires_on = new Date(Date.parse(p.created) + body.session_expiry * 1000).toISOString();
  const crossField = crossFieldRefusal(next);
  if (crossField) return crossField;
  Object.assign(next, { net_amount: netAmount(next), amount_capturable: next.amount, updated: ctx.now });
  return { kind: 'apply', payment: next, needsConnector: false };
}

/** The merchant's settings a confirm consults (proto MerchantPolicy). */
export interface MerchantPolicy {
  manual_review: boolean;
  manual_review_amount_at_least: number;
}
export const NO_POLICY: MerchantPolicy = { manual_review: false, manual_review_amount_at_least: 0 };

/** Start a confirm: a new attempt and an authorize operation; the payment waits in processing. */
export function beginConfirm(
  p: StoredPayment,
  body: ConfirmPaymentBody,
  ctx: {
    now: string; operationId: string; connector: ConnectorName; policy?: MerchantPolicy;
    /** The connector account routing chose, and why (recorded on the attempt). */
    route?: { merchant_connector_id: string | null; connector_label: string | null; reason: string };
    /** Where customers reach the gateway (PUBLIC_BASE_URL): the 3DS authentication call is named from it. */
    publicBaseUrl?: string;
  },
): Decision {
  const refused = canStart(p, 'confirm');
  if (refused) return refused;
  if (body.payment_id != null && body.payment_id !== p.payment_id) return refuse('IR_05', 'payment_id in the body does not match the path', 'payment_id');
  const next = withRequestFields(p, body);
  if (!next.payment_method) return refuse('IR_04', 'Missing required param: payment_method', 'payment_method');
  const crossField = crossFieldRefusal(next);
  if (crossField) return crossField;
  const attemptNo = p.attempt_count + 1;
  const attempt: AttemptRow = {
    attempt_id: `${p.payment_id}_${attemptNo}`, status: 'started', amount: next.amount, created_at: ctx.now, modified_at: ctx.now,
    order_tax_amount: next.order_tax_amount, currency: next.currency, connector: ctx.connector, error_message: null,
    payment_method: next.payment_method, connector_transaction_id: null, capture_method: next.capture_method,
    authentication_type: next.authentication_type, cancellation_reason: null, mandate_id: next.mandate_id, error_code: null,
    payment_token: next.payment_token, connector_metadata: null, payment_experience: next.payment_experience,
    payment_method_type: next.payment_method_type, reference_id: null, unified_code: null, unified_message: null,
    client_source: null, client_version: null, routing_reason: ctx.route?.reason ?? null,
  };
  // three_ds: the customer authenticates first (POST /payments/{id}/3ds/authentication), and the provider is called
  // after that (authenticateOutcome); otherwise the provider authorizes now.
  const threeDs = next.authentication_type === 'three_ds';
  const operation = threeDs ? undefined : authorizeOperation(ctx.operationId, attempt.attempt_id, next.amount, ctx.connector, p.status, ctx.now);
  Object.assign(next, {
    status: threeDs ? 'requires_customer_action' : 'processing', connector: ctx.connector, attempt_count: attemptNo,
    ...(ctx.route ? { merchant_connector_id: ctx.route.merchant_connector_id, connector_label: ctx.route.connector_label } : {}),
    attempts: [...(p.attempts ?? []), threeDs ? { ...attempt, status: 'authentication_pending' } : attempt],
    operations: operation ? [...p.operations, operation] : p.operations, net_amount: netAmount(next), amount_capturable: next.amount,
    error_code: null, error_message: null, unified_code: null, unified_message: null, manual_retry_allowed: false,
    next_action: threeDs ? {
      type: 'three_ds_invoke', redirect_to_url: null,
      three_ds_data: { three_ds_authentication_url: `${ctx.publicBaseUrl ?? ''}/payments/${p.payment_id}/3ds/authentication` },
    } : null,
    review_hold: !!ctx.policy?.manual_review && next.amount >= ctx.policy.manual_review_amount_at_least, merchant_decision: null,
    // The 3DS fields describe the current attempt's authentication.
    three_ds: null, external_3ds_authentication_attempted: threeDs ? false : null, external_authentication_details: null,
  } satisfies Partial<StoredPayment>);
  return { kind: 'apply', payment: withFlight(next, ctx.now), operation, needsConnector: !threeDs };
}

/** The provider authorizes the attempt (and captures it, for automatic capture). */
function authorizeOperation(operationId: string, attemptId: string, amount: number, connector: ConnectorName, statusBefore: PaymentStatusName, now: string): Operation {
  return {
    operation_id: operationId, kind: 'authorize', ref: attemptId, amount, connector, open: true, status_before: statusBefore,
    last_outcome: null, created_at: now,
  };
}

/** Waiting for the customer's 3DS authentication, with nothing asked of the provider yet. */
const awaitingAuthentication = (p: StoredPayment) =>
  p.status === 'requires_customer_action' && !p.operations.some((o) => o.kind === 'authorize' && o.open);

/**
 * Start the external 3DS authentication of a confirmed payment that waits for it (spec 4.6): an authenticate
 * operation at the 3DS server; the payment waits in processing. The attempt's authentication, once started, is
 * returned to a repeated call (in flight, challenged or decided), so a device that repeats the call, for instance
 * after losing the answer, never starts a second one; a new attempt (manual retry) authenticates anew.
 */
export function beginAuthenticate(
  p: StoredPayment, body: Omit<ThreeDsAuthenticationBody, 'client_secret'>, ctx: { now: string; operationId: string },
): Decision {
  const started = p.three_ds && p.status !== 'cancelled'
    ? p.operations.find((o) => o.kind === 'authenticate' && o.ref === p.three_ds!.authentication_id) : undefined;
  if (started) return { kind: 'replay', operation: started };
  const refused = canStart(p, 'authenticate');
  if (refused) return refused;
  if (p.next_action?.type !== 'three_ds_invoke' || !awaitingAuthentication(p)) {
    return refuse('IR_16', 'This payment is not waiting for a 3DS authentication (confirm it with authentication_type three_ds)');
  }
  if (body.device_channel === 'BRW' && !body.browser_info && !p.browser_info) {
    return refuse('IR_04', 'Missing required param: browser_info (device_channel BRW needs the customer\'s browser data)', 'browser_info');
  }
  const operation: Operation = {
    operation_id: ctx.operationId, kind: 'authenticate', ref: `authn_${ctx.operationId.slice(3)}`, amount: p.amount,
    connector: p.connector ?? 'service_test', open: true, status_before: p.status, last_outcome: null, created_at: ctx.now,
  };
  const next: StoredPayment = {
    ...p, status: 'processing', operations: [...p.operations, operation], next_action: null,
    three_ds: { authentication_id: operation.ref, request: body, result: null, challenged: false },
    external_3ds_authentication_attempted: true,
    external_authentication_details: authenticationDetails('started', null, false),
  };
  return { kind: 'apply', payment: withFlight(next, ctx.now), operation, needsConnector: true };
}

function authenticationDetails(
  status: 'started' | 'pending' | 'success' | 'failed', r: AuthenticationResult | null, challenged: boolean, error?: Outcome,
): NonNullable<PaymentResource['external_authentication_details']> {
  return {
    status, authentication_flow: r?.trans_status ? (challenged ? 'challenge' : 'frictionless') : null,
    electronic_commerce_indicator: r?.eci ?? null, ds_transaction_id: r?.ds_trans_id ?? null, version: r?.message_version ?? null,
    error_code: error?.error_code ?? null, error_message: error?.error_message ?? null,
  };
}

/** The 3DS server's answer, as the authentication call shows it (spec 4.6). */
export function authenticationAnswer(p: Pick<StoredPayment, 'three_ds'>) {
  const r = p.three_ds?.result;
  return {
    trans_status: r?.trans_status ?? null, three_ds_requestor_url: r?.three_ds_requestor_url ?? null, acs_url: r?.acs_url ?? null,
    challenge_request: r?.challenge_request ?? null, acs_reference_number: r?.acs_reference_number ?? null,
    acs_trans_id: r?.acs_trans_id ?? null, three_dsserver_trans_id: r?.three_dsserver_trans_id ?? null,
    acs_signed_content: r?.acs_signed_content ?? null,
  };
}

/** Start a capture: a capture row and a capture operation; the payment waits in processing. */
export function beginCapture(
  p: StoredPayment,
  body: CapturePaymentBody,
  ctx: { now: string; operationId: string; captureId: string },
): Decision {
  if (body.capture_id) {
    const op = p.operations.find((o) => o.kind === 'capture' && o.ref === body.capture_id);
    if (op) return { kind: 'replay', operation: op };
  }
  const refused = canStart(p, 'capture');
  if (refused) return refused;
  if (automaticCapture(p.capture_method)) {
    return refuse('IR_14', `This payment has capture_method ${p.capture_method ?? 'automatic'}; it is captured when confirmed`);
  }
  const amount = body.amount_to_capture ?? (p.capture_method === 'manual' ? Math.min(p.amount_to_capture ?? p.amount_capturable, p.amount_capturable) : p.amount_capturable);
  if (amount <= 0) return refuse('IR_05', 'amount_to_capture must be greater than 0', 'amount_to_capture');
  if (amount > p.amount_capturable) {
    return refuse('IR_06', `amount_to_capture (${amount}) is greater than amount_capturable (${p.amount_capturable})`, 'amount_to_capture');
  }
  return startCapture(p, amount, body.order_details ?? null, ctx);
}

/** A capture row and its operation; the payment waits in processing with the amount no longer capturable. */
function startCapture(
  p: StoredPayment, amount: number, orderDetails: CaptureRow['order_details'], ctx: { now: string; operationId: string; captureId: string },
): Decision {
  const attemptId = p.attempts?.at(-1)?.attempt_id ?? `${p.payment_id}_1`;
  const capture: CaptureRow = {
    capture_id: ctx.captureId, status: 'started', amount, connector: p.connector, authorized_attempt_id: attemptId,
    capture_sequence: (p.captures?.length ?? 0) + 1, currency: p.currency, order_details: orderDetails,
    connector_capture_id: null, error_message: null, error_code: null, error_reason: null, reference_id: null,
  };
  const operation: Operation = {
    operation_id: ctx.operationId, kind: 'capture', ref: ctx.captureId, amount, connector: p.connector ?? 'service_test',
    open: true, status_before: p.status, last_outcome: null, created_at: ctx.now,
  };
  const next: StoredPayment = {
    ...p, status: 'processing', captures: [...(p.captures ?? []), capture], operations: [...p.operations, operation],
    amount_capturable: p.amount_capturable - amount,
  };
  return { kind: 'apply', payment: withFlight(next, ctx.now), operation, needsConnector: true };
}

/** The payment may have its authorization raised later (asked for on create, and the connector supports it). */
const incrementable = (p: StoredPayment) =>
  p.request_incremental_authorization === true && !!p.connector && CAPABILITIES[p.connector].incremental_authorization;

/**
 * The merchant approves a payment held in our manual review: a manual-capture payment becomes requires_capture;
 * an automatic one is captured now, as its confirm would have done.
 */
export function beginApprove(p: StoredPayment, ctx: { now: string; operationId: string; captureId: string }): Decision {
  const refused = canStart(p, 'approve');
  if (refused) return refused;
  const approved: StoredPayment = { ...p, merchant_decision: 'approve', review_hold: false, updated: ctx.now };
  if (automaticCapture(p.capture_method)) {
    return startCapture(approved, Math.min(p.amount_to_capture ?? p.amount_capturable, p.amount_capturable), null, ctx);
  }
  const next: StoredPayment = { ...approved, status: 'requires_capture', incremental_authorization_allowed: incrementable(p) };
  return { kind: 'apply', payment: withFlight(next, ctx.now), needsConnector: false };
}

/** The merchant rejects a payment held in our manual review: the provider releases the authorization -> failed. */
export function beginReject(p: StoredPayment, ctx: { now: string; operationId: string }): Decision {
  const refused = canStart(p, 'reject');
  if (refused) return refused;
  return startVoid({ ...p, merchant_decision: 'reject', review_hold: false }, null, ctx);
}

/**
 * Start a cancel. Nothing authorized at the provider yet (before confirm): cancelled at once, locally. Otherwise
 * the provider releases the authorization (a void operation) and the payment waits in processing.
 */
export function beginCancel(p: StoredPayment, body: CancelPaymentBody, ctx: { now: string; operationId: string }): Decision {
  const refused = canStart(p, 'cancel');
  if (refused) return refused;
  if (body.amount_to_cancel != null && body.amount_to_cancel > p.amount_capturable) {
    return refuse('IR_06', `amount_to_cancel (${body.amount_to_cancel}) is greater than what is not captured (${p.amount_capturable})`, 'amount_to_cancel');
  }
  const reason = body.cancellation_reason ?? null;
  // Nothing is authorized at the provider before confirmation, nor while the customer's 3DS authentication is
  // awaited: cancelled at once, and a pending challenge ends with it.
  if (p.status === 'requires_confirmation' || p.status === 'requires_payment_method' || awaitingAuthentication(p)) {
    const last = p.attempts?.at(-1);
    const next: StoredPayment = {
      ...p, status: 'cancelled', cancellation_reason: reason, amount_capturable: 0, amount_cancelled: p.amount, updated: ctx.now, next_action: null,
      operations: p.operations.map((o) => (o.open ? { ...o, open: false, last_outcome: 'VOIDED' as const } : o)),
      attempts: (p.attempts ?? []).map((a) => (a === last && p.status === 'requires_customer_action' ? { ...a, status: 'voided', cancellation_reason: reason, modified_at: ctx.now } : a)),
    };
    return { kind: 'apply', payment: withFlight(next, ctx.now), needsConnector: false };
  }
  return startVoid(p, reason, ctx);
}

/** A void operation releasing the authorization at the provider; the payment waits in processing. */
function startVoid(p: StoredPayment, reason: string | null, ctx: { now: string; operationId: string }): Decision {
  const attempt = p.attempts?.at(-1);
  const operation: Operation = {
    operation_id: ctx.operationId, kind: 'void', ref: attempt?.attempt_id ?? `${p.payment_id}_1`, amount: p.amount_capturable,
    connector: p.connector ?? 'service_test', open: true, status_before: p.status, last_outcome: null, created_at: ctx.now,
  };
  const next: StoredPayment = {
    ...p, status: 'processing', cancellation_reason: reason, operations: [...p.operations, operation],
    attempts: (p.attempts ?? []).map((a) => (a === attempt ? { ...a, status: 'void_initiated', cancellation_reason: reason, modified_at: ctx.now } : a)),
  };
  return { kind: 'apply', payment: withFlight(next, ctx.now), operation, needsConnector: true };
}

/**
 * Start an incremental authorization: `amount` is the new total. Only in requires_capture and only where the
 * payment allows it (asked for on create, and the connector supports it).
 */
export function beginIncrementalAuthorization(
  p: StoredPayment, body: IncrementalAuthorizationBody, ctx: { now: string; operationId: string; authorizationId: string },
): Decision {
  const refused = canStart(p, 'incremental_authorization');
  if (refused) return refused;
  if (!p.incremental_authorization_allowed) return refuse('IR_16', 'Incremental authorization is not allowed for this payment');
  if (body.amount <= p.amount) return refuse('IR_05', `amount must be greater than the amount authorized now (${p.amount})`, 'amount');
  const operation: Operation = {
    operation_id: ctx.operationId, kind: 'incremental_authorization', ref: ctx.authorizationId, amount: body.amount,
    connector: p.connector ?? 'service_test', open: true, status_before: p.status, last_outcome: null, created_at: ctx.now,
  };
  const row = {
    authorization_id: ctx.authorizationId, amount: body.amount, status: 'processing' as const, previously_authorized_amount: p.amount,
    error_code: null, error_message: null,
  };
  const next: StoredPayment = {
    ...p, status: 'processing', operations: [...p.operations, operation],
    incremental_authorizations: [...(p.incremental_authorizations ?? []), row],
  };
  return { kind: 'apply', payment: withFlight(next, ctx.now), operation, needsConnector: true };
}

/** The outcomes each kind of operation can have; any other report is a connector bug and is refused. */
export const OUTCOMES_OF: Record<OperationKind, readonly OutcomeKind[]> = {
  authorize: ['AUTHORIZED', 'CAPTURED', 'DECLINED', 'FAILED', 'CUSTOMER_ACTION', 'PENDING', 'VOIDED'],
  capture: ['CAPTURED', 'PENDING', 'DECLINED', 'FAILED'],
  void: ['VOIDED', 'PENDING', 'DECLINED', 'FAILED'],
  incremental_authorization: ['AUTHORIZED', 'PENDING', 'DECLINED', 'FAILED'],
  authenticate: ['AUTHENTICATED', 'CUSTOMER_ACTION', 'PENDING', 'DECLINED', 'FAILED'],
};

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
  const next = op.kind === 'authorize' ? authorizeOutcome(base, op, outcome, now)
    : op.kind === 'capture' ? captureOutcome(base, op, outcome)
    : op.kind === 'void' ? voidOutcome(base, op, outcome)
    : incrementOutcome(base, op, outcome);
  return { kind: 'apply', payment: withFlight(next.payment, now), needsConnector: false };
}

/**
 * Where each 3DS answer leads. Y/A (AUTHENTICATED): the provider authorizes next, an operation started here (its id
 * derives from the authentication's, so a repeated report cannot start two). C/D (CUSTOMER_ACTION): the customer
 * completes the challenge; the status sync reads its result. N/R/U/I (DECLINED) or a 3DS server error: failed.
 */
function authenticateOutcome(p: StoredPayment, op: Operation, o: Outcome, now: string): { payment: StoredPayment; followUp?: Operation } {
  const prior = p.three_ds ?? { authentication_id: op.ref, request: { device_channel: 'BRW', threeds_method_comp_ind: 'U' }, result: null, challenged: false };
  const three_ds: ThreeDsRecord = { ...prior, result: o.authentication ?? prior.result, challenged: prior.challenged || o.kind === 'CUSTOMER_ACTION' };
  const attempt = p.attempts?.at(-1);
  const attempts = (status: string, extra: object = {}) =>
    (p.attempts ?? []).map((a) => (a === attempt ? { ...a, status, modified_at: now, ...extra } : a));
  const r = three_ds.result;
  switch (o.kind) {
    case 'PENDING':
      return { payment: { ...p, three_ds } };
    case 'CUSTOMER_ACTION': {
      const challenge = r?.acs_url ? new URL(r.acs_url) : null;
      if (challenge && r?.challenge_request) challenge.searchParams.set('creq', r.challenge_request);
      return {
        payment: {
          ...p, three_ds, status: 'requires_customer_action', attempts: attempts('authentication_pending'),
          next_action: challenge ? { type: 'redirect_to_url', redirect_to_url: challenge.toString() } : null,
          external_authentication_details: authenticationDetails('pending', r, true),
        },
      };
    }
    case 'AUTHENTICATED': {
      const followUp = authorizeOperation(`${op.operation_id}-authorize`, attempt?.attempt_id ?? `${p.payment_id}_1`, p.amount, p.connector ?? op.connector, op.status_before, now);
      return {
        payment: {
          ...p, three_ds, status: 'processing', attempts: attempts('authentication_successful'), next_action: null,
          operations: [...p.operations, followUp], external_authentication_details: authenticationDetails('success', r, three_ds.challenged),
        },
        followUp,
      };
    }
    default:
      return {
        payment: {
          ...p, three_ds, status: 'failed', attempts: attempts('authentication_failed', errorFields(o)), next_action: null,
          amount_capturable: 0, manual_retry_allowed: true, ...errorFields(o),
          external_authentication_details: authenticationDetails('failed', r, three_ds.challenged, o),
        },
      };
  }
}

const errorFields = (o: Outcome) => ({
  error_code: o.error_code ?? null, error_message: o.error_message ?? null,
  unified_code: o.unified_code ?? null, unified_message: o.unified_message ?? null,
});

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
};

/** Statuses in which the authorized amount is still on hold and capturable. */
const HOLDS_AUTHORIZATION: readonly PaymentStatusName[] = ['requires_capture', 'processing', 'requires_customer_action', 'requires_merchant_action'];

function authorizeOutcome(p: StoredPayment, op: Operation, o: Outcome, now: string): { kind: 'apply'; payment: StoredPayment } {
  const rule = AUTHORIZE_OUTCOMES[o.kind];
  // Held for our manual review: the provider only authorized it (the job asked for a manual capture).
  const status = o.kind === 'AUTHORIZED' && p.review_hold ? 'requires_merchant_action' : rule.status(p);
  const failed = status === 'failed';
  const attempts = (p.attempts ?? []).map((a) => a.attempt_id !== op.ref ? a : {
    ...a, status: rule.attempt, modified_at: now,
    connector_transaction_id: o.connector_transaction_id || a.connector_transaction_id,
    reference_id: o.connector_reference_id || a.reference_id,
    ...(failed ? errorFields(o) : {}),
  });
  const captured = o.kind === 'CAPTURED' ? (p.amount_to_capture ?? p.amount) : null;
  const payment: StoredPayment = {
    ...p, status, attempts,
    connector_transaction_id: o.connector_transaction_id || p.connector_transaction_id,
    reference_id: o.connector_reference_id || p.reference_id,
    next_action: o.kind === 'CUSTOMER_ACTION' && o.redirect_url ? { type: 'redirect_to_url', redirect_to_url: o.redirect_url } : null,
    amount_capturable: HOLDS_AUTHORIZATION.includes(status) ? p.amount : 0,
    amount_received: captured ?? p.amount_received,
    manual_retry_allowed: failed,
    incremental_authorization_allowed: status === 'requires_capture' && incrementable(p),
    ...(failed ? errorFields(o) : {}),
  };
  return { kind: 'apply', payment };
}

function captureOutcome(p: StoredPayment, op: Operation, o: Outcome): { kind: 'apply'; payment: StoredPayment } {
  const charged = o.kind === 'CAPTURED';
  const failed = o.kind === 'DECLINED' || o.kind === 'FAILED';
  const captures = (p.captures ?? []).map((c) => c.capture_id !== op.ref ? c : {
    ...c, status: charged ? 'charged' as const : failed ? 'failed' as const : 'pending' as const,
    connector_capture_id: o.connector_transaction_id || c.connector_capture_id,
    reference_id: o.connector_reference_id || c.reference_id,
    ...(failed ? { error_code: o.error_code ?? null, error_message: o.error_message ?? null, error_reason: o.unified_message ?? null } : {}),
  });
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
  const attemptStatus = { succeeded: 'charged', partially_captured: 'partial_charged', partially_captured_and_capturable: 'partial_charged_and_chargeable' }[status as string]!;
  const attempts = (p.attempts ?? []).map((a, i, all) => (i === all.length - 1 ? { ...a, status: attemptStatus } : a));
  return { kind: 'apply', payment: { ...p, captures, attempts, status, amount_received: received, amount_capturable: capturable, ...errorFields({ kind: o.kind }) } };
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
        ...p, status, operations, attempts: attempts('voided'), next_action: null, amount_capturable: 0,
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
  const rows = (p.incremental_authorizations ?? []).map((r) => r.authorization_id !== op.ref ? r : {
    ...r, status: success ? 'success' as const : 'failure' as const,
    error_code: success ? null : o.error_code ?? null, error_message: success ? null : o.error_message ?? null,
  });
  // A failure is recorded on its row only: the payment and its amounts stay as they were.
  if (!success) return { kind: 'apply', payment: { ...p, status: op.status_before, incremental_authorizations: rows } };
  const grown = { ...p, amount: op.amount };
  return {
    kind: 'apply',
    payment: {
      ...grown, status: op.status_before, incremental_authorizations: rows, net_amount: netAmount(grown),
      amount_capturable: op.amount - (p.amount_received ?? 0), authorization_count: (p.authorization_count ?? 0) + 1,
    },
  };
}

export type CustomerView = NonNullable<PaymentResource['customer']>;
type CustomerFields = Pick<PaymentResource, 'customer' | 'customer_id' | 'email' | 'name' | 'phone' | 'birth_date' | 'gender' | 'locale' | 'ssn'>;

/**
 * The customer object and the deprecated top-level fields, kept in step (spec 2.2). `known` is the customer as
 * stored already (attached by id): what the request leaves out comes from it.
 */
export function customerFields(
  body: Pick<ConfirmPaymentBody, 'customer' | 'customer_id' | 'email' | 'name' | 'phone' | 'phone_country_code'>,
  known: CustomerView | null,
  newId?: () => string,
): Partial<CustomerFields> {
  const c = body.customer ?? {};
  const requestedId = c.id ?? body.customer_id ?? null;
  const base = known && (!requestedId || requestedId === known.id) ? known : null;
  const email = c.email ?? body.email ?? base?.email ?? null;
  const name = c.name ?? body.name ?? base?.name ?? null;
  const phone = c.phone ?? body.phone ?? base?.phone ?? null;
  const id = requestedId ?? base?.id ?? (email || name || phone ? newId?.() ?? null : null);
  const personal = Object.fromEntries((['birth_date', 'gender', 'locale', 'ssn'] as const).filter((k) => c[k] != null).map((k) => [k, c[k]]));
  if (!id && !email && !name && !phone) return personal;
  return {
    customer: { id, name, email, phone, phone_country_code: c.phone_country_code ?? body.phone_country_code ?? base?.phone_country_code ?? null },
    customer_id: id, email, name, phone, ...personal,
  };
}
