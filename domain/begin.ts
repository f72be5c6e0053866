// The decisions that start an operation (update, confirm, capture, approve, reject, cancel, incremental
// authorization): pure functions over a payment snapshot. Only payment-state calls them and records the result.
import type { ConnectorName } from '../lib/schemas/common.ts';
import type {
  AttemptRow,
  CancelPaymentBody,
  CapturePaymentBody,
  CaptureRow,
  ConfirmPaymentBody,
  IncrementalAuthorizationBody,
  UpdatePaymentBody,
} from '../lib/schemas/payment.ts';
import { netAmount, type CaptureDetails, type Decision, type MerchantPolicy, type Operation, type StoredPayment } from './payment.ts';
import { crossFieldRefusal, withRequestFields } from './request-fields.ts';
import { awaitingAuthentication } from './three-ds.ts';
import { captureRefusal, confirmRefusal, followUpCapture, mandateRefusal, manifestOf } from './capabilities.ts';
import { mandateAsked, prepareMandate, type MandateContext } from './mandates.ts';
import { authorizeOperation, automaticCapture, canStart, incrementable, refuse, withFlight } from './transitions.ts';

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

/** Start a confirm: a new attempt and an authorize operation; the payment waits in processing. */
export function beginConfirm(
  p: StoredPayment,
  body: ConfirmPaymentBody,
  ctx: {
    now: string;
    operationId: string;
    connector: ConnectorName;
    policy?: MerchantPolicy;
    /** The connector account routing chose, and why (recorded on the attempt). */
    route?: { merchant_connector_id: string | null; connector_label: string | null; reason: string };
    /** Where customers reach the gateway (PUBLIC_BASE_URL): the 3DS authentication call is named from it. */
    publicBaseUrl?: string;
    /** What the gateway read for a payment charged on a mandate or a saved payment method (issue 22). */
    mandates?: MandateContext;
  },
): Decision {
  const refused = canStart(p, 'confirm');
  if (refused) return refused;
  if (body.payment_id != null && body.payment_id !== p.payment_id) return refuse('IR_05', 'payment_id in the body does not match the path', 'payment_id');
  // The mandate part (issue 22): a mandate or a saved payment method fills the payment method in.
  const next = prepareMandate(withRequestFields(p, body), body.customer_acceptance, { ...ctx.mandates, now: ctx.now });
  if ('kind' in next) return next;
  if (!next.payment_method) return refuse('IR_04', 'Missing required param: payment_method', 'payment_method');
  const crossField = crossFieldRefusal(next);
  if (crossField) return crossField;
  const unable = confirmRefusal(manifestOf(ctx.connector), next);
  if (unable) return unable;
  const asked = mandateAsked(next, ctx.mandates ?? {});
  const noMandate = asked && mandateRefusal(manifestOf(ctx.connector), next, asked);
  if (noMandate) return noMandate;
  const held = next.mandate?.kind === 'recurring' ? ctx.mandates?.mandate : null;
  if (
    held &&
    (held.connector !== ctx.connector || (held.merchant_connector_id && ctx.route && ctx.route.merchant_connector_id !== held.merchant_connector_id))
  ) {
    return refuse('IR_05', `mandate_id names a mandate held by another connector account (${held.connector}); route the payment to it`, 'mandate_id');
  }
  const attemptNo = p.attempt_count + 1;
  const attempt: AttemptRow = {
    attempt_id: `${p.payment_id}_${attemptNo}`,
    status: 'started',
    amount: next.amount,
    created_at: ctx.now,
    modified_at: ctx.now,
    order_tax_amount: next.order_tax_amount,
    currency: next.currency,
    connector: ctx.connector,
    error_message: null,
    payment_method: next.payment_method,
    connector_transaction_id: null,
    capture_method: next.capture_method,
    authentication_type: next.authentication_type,
    cancellation_reason: null,
    mandate_id: next.mandate_id,
    error_code: null,
    payment_token: next.payment_token,
    connector_metadata: null,
    payment_experience: next.payment_experience,
    payment_method_type: next.payment_method_type,
    reference_id: null,
    unified_code: null,
    unified_message: null,
    client_source: null,
    client_version: null,
    routing_reason: ctx.route?.reason ?? null,
  };
  // three_ds: the customer authenticates first (POST /payments/{id}/3ds/authentication), and the provider is called
  // after that (authenticateOutcome); otherwise the provider authorizes now.
  const threeDs = next.authentication_type === 'three_ds';
  const operation = threeDs ? undefined : authorizeOperation(ctx.operationId, attempt.attempt_id, next.amount, ctx.connector, p.status, ctx.now);
  Object.assign(next, {
    status: threeDs ? 'requires_customer_action' : 'processing',
    connector: ctx.connector,
    attempt_count: attemptNo,
    ...(ctx.route ? { merchant_connector_id: ctx.route.merchant_connector_id, connector_label: ctx.route.connector_label } : {}),
    attempts: [...(p.attempts ?? []), threeDs ? { ...attempt, status: 'authentication_pending' } : attempt],
    operations: operation ? [...p.operations, operation] : p.operations,
    net_amount: netAmount(next),
    amount_capturable: next.amount,
    error_code: null,
    error_message: null,
    unified_code: null,
    unified_message: null,
    manual_retry_allowed: false,
    next_action: threeDs
      ? {
          type: 'three_ds_invoke',
          redirect_to_url: null,
          three_ds_data: { three_ds_authentication_url: `${ctx.publicBaseUrl ?? ''}/payments/${p.payment_id}/3ds/authentication` },
        }
      : null,
    review_hold: !!ctx.policy?.manual_review && next.amount >= ctx.policy.manual_review_amount_at_least,
    merchant_decision: null,
    // The 3DS fields describe the current attempt's authentication.
    three_ds: null,
    external_3ds_authentication_attempted: threeDs ? false : null,
    external_authentication_details: null,
  } satisfies Partial<StoredPayment>);
  return { kind: 'apply', payment: withFlight(next, ctx.now), operation, needsConnector: !threeDs };
}

/** Start a capture: a capture row and a capture operation; the payment waits in processing. */
export function beginCapture(p: StoredPayment, body: CapturePaymentBody, ctx: { now: string; operationId: string; captureId: string }): Decision {
  if (body.capture_id) {
    const op = p.operations.find((o) => o.kind === 'capture' && o.ref === body.capture_id);
    if (op) return { kind: 'replay', operation: op };
  }
  const refused = canStart(p, 'capture');
  if (refused) return refused;
  // An automatic capture that we start after the authorization (followUpCapture) and that failed may be captured again.
  if (automaticCapture(p.capture_method) && !(followUpCapture(p.connector) && p.status === 'requires_capture')) {
    return refuse('IR_14', `This payment has capture_method ${p.capture_method ?? 'automatic'}; it is captured when confirmed`);
  }
  const amount =
    body.amount_to_capture ?? (p.capture_method === 'manual' ? Math.min(p.amount_to_capture ?? p.amount_capturable, p.amount_capturable) : p.amount_capturable);
  if (amount <= 0) return refuse('IR_05', 'amount_to_capture must be greater than 0', 'amount_to_capture');
  if (amount > p.amount_capturable) {
    return refuse('IR_06', `amount_to_capture (${amount}) is greater than amount_capturable (${p.amount_capturable})`, 'amount_to_capture');
  }
  const unable = captureRefusal(manifestOf(p.connector), p, amount, body);
  if (unable) return unable;
  const details: CaptureDetails = {
    capture_metadata: (body.capture_metadata as Record<string, unknown> | null | undefined) ?? null,
    metadata: body.metadata ?? null,
    order_details: body.order_details ?? null,
    ...(body.statement_descriptor_name != null || body.statement_descriptor_suffix != null || body.statement_descriptor_prefix != null
      ? {
          statement_descriptor: {
            name: body.statement_descriptor_name ?? null,
            suffix: body.statement_descriptor_suffix ?? null,
            prefix: body.statement_descriptor_prefix ?? null,
          },
        }
      : {}),
  };
  return startCapture(p, amount, body.order_details ?? null, ctx, details);
}

/** A capture row and its operation; the payment waits in processing with the amount no longer capturable. */
export function startCapture(
  p: StoredPayment,
  amount: number,
  orderDetails: CaptureRow['order_details'],
  ctx: { now: string; operationId: string; captureId: string },
  details?: CaptureDetails,
): Decision {
  const attemptId = p.attempts?.at(-1)?.attempt_id ?? `${p.payment_id}_1`;
  const capture: CaptureRow = {
    capture_id: ctx.captureId,
    status: 'started',
    amount,
    connector: p.connector,
    authorized_attempt_id: attemptId,
    capture_sequence: (p.captures?.length ?? 0) + 1,
    currency: p.currency,
    order_details: orderDetails,
    connector_capture_id: null,
    error_message: null,
    error_code: null,
    error_reason: null,
    reference_id: null,
  };
  const operation: Operation = {
    operation_id: ctx.operationId,
    kind: 'capture',
    ref: ctx.captureId,
    amount,
    connector: p.connector ?? 'service_test',
    open: true,
    status_before: p.status,
    last_outcome: null,
    created_at: ctx.now,
    ...(details ? { capture_details: details } : {}),
  };
  const next: StoredPayment = {
    ...p,
    status: 'processing',
    captures: [...(p.captures ?? []), capture],
    operations: [...p.operations, operation],
    amount_capturable: p.amount_capturable - amount,
  };
  return { kind: 'apply', payment: withFlight(next, ctx.now), operation, needsConnector: true };
}

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
      ...p,
      status: 'cancelled',
      cancellation_reason: reason,
      amount_capturable: 0,
      amount_cancelled: p.amount,
      updated: ctx.now,
      next_action: null,
      operations: p.operations.map((o) => (o.open ? { ...o, open: false, last_outcome: 'VOIDED' as const } : o)),
      attempts: (p.attempts ?? []).map((a) =>
        a === last && p.status === 'requires_customer_action' ? { ...a, status: 'voided', cancellation_reason: reason, modified_at: ctx.now } : a,
      ),
    };
    return { kind: 'apply', payment: withFlight(next, ctx.now), needsConnector: false };
  }
  return startVoid(p, reason, ctx);
}

/** A void operation releasing the authorization at the provider; the payment waits in processing. */
function startVoid(p: StoredPayment, reason: string | null, ctx: { now: string; operationId: string }): Decision {
  const attempt = p.attempts?.at(-1);
  const operation: Operation = {
    operation_id: ctx.operationId,
    kind: 'void',
    ref: attempt?.attempt_id ?? `${p.payment_id}_1`,
    amount: p.amount_capturable,
    connector: p.connector ?? 'service_test',
    open: true,
    status_before: p.status,
    last_outcome: null,
    created_at: ctx.now,
  };
  const next: StoredPayment = {
    ...p,
    status: 'processing',
    cancellation_reason: reason,
    operations: [...p.operations, operation],
    attempts: (p.attempts ?? []).map((a) => (a === attempt ? { ...a, status: 'void_initiated', cancellation_reason: reason, modified_at: ctx.now } : a)),
  };
  return { kind: 'apply', payment: withFlight(next, ctx.now), operation, needsConnector: true };
}

/**
 * Start an incremental authorization: `amount` is the new total. Only in requires_capture and only where the
 * payment allows it (asked for on create, and the connector supports it).
 */
export function beginIncrementalAuthorization(
  p: StoredPayment,
  body: IncrementalAuthorizationBody,
  ctx: { now: string; operationId: string; authorizationId: string },
): Decision {
  const refused = canStart(p, 'incremental_authorization');
  if (refused) return refused;
  if (!p.incremental_authorization_allowed) return refuse('IR_16', 'Incremental authorization is not allowed for this payment');
  if (body.amount <= p.amount) return refuse('IR_05', `amount must be greater than the amount authorized now (${p.amount})`, 'amount');
  const operation: Operation = {
    operation_id: ctx.operationId,
    kind: 'incremental_authorization',
    ref: ctx.authorizationId,
    amount: body.amount,
    connector: p.connector ?? 'service_test',
    open: true,
    status_before: p.status,
    last_outcome: null,
    created_at: ctx.now,
  };
  const row = {
    authorization_id: ctx.authorizationId,
    amount: body.amount,
    status: 'processing' as const,
    previously_authorized_amount: p.amount,
    error_code: null,
    error_message: null,
  };
  const next: StoredPayment = {
    ...p,
    status: 'processing',
    operations: [...p.operations, operation],
    incremental_authorizations: [...(p.incremental_authorizations ?? []), row],
  };
  return { kind: 'apply', payment: withFlight(next, ctx.now), operation, needsConnector: true };
}
