// External 3DS authentication: starting it, where each 3DS answer leads, and the answer as the API shows it. Pure.
// beginAuthenticate and authenticateOutcome are decisions (payment-state only); authenticationAnswer reads a payment.
import type { PaymentResource, ThreeDsAuthenticationBody } from '../lib/schemas/payment.ts';
import type { AuthenticationResult, Decision, Operation, Outcome, StoredPayment, ThreeDsRecord } from './payment.ts';
import { authorizeOperation, canStart, errorFields, refuse, withFlight } from './transitions.ts';

/** Waiting for the customer's 3DS authentication, with nothing asked of the provider yet. */
export const awaitingAuthentication = (p: StoredPayment) =>
  p.status === 'requires_customer_action' && !p.operations.some((o) => o.kind === 'authorize' && o.open);

/**
 * Start the external 3DS authentication of a confirmed payment that waits for it (spec 4.6): an authenticate
 * operation at the 3DS server; the payment waits in processing. The attempt's authentication, once started, is
 * returned to a repeated call (in flight, challenged or decided), so a device that repeats the call, for instance
 * after losing the answer, never starts a second one; a new attempt (manual retry) authenticates anew.
 */
export function beginAuthenticate(
  p: StoredPayment,
  body: Omit<ThreeDsAuthenticationBody, 'client_secret'>,
  ctx: { now: string; operationId: string },
): Decision {
  const started =
    p.three_ds && p.status !== 'cancelled' ? p.operations.find((o) => o.kind === 'authenticate' && o.ref === p.three_ds!.authentication_id) : undefined;
  if (started) return { kind: 'replay', operation: started };
  const refused = canStart(p, 'authenticate');
  if (refused) return refused;
  if (p.next_action?.type !== 'three_ds_invoke' || !awaitingAuthentication(p)) {
    return refuse('IR_16', 'This payment is not waiting for a 3DS authentication (confirm it with authentication_type three_ds)');
  }
  if (body.device_channel === 'BRW' && !body.browser_info && !p.browser_info) {
    return refuse('IR_04', "Missing required param: browser_info (device_channel BRW needs the customer's browser data)", 'browser_info');
  }
  const operation: Operation = {
    operation_id: ctx.operationId,
    kind: 'authenticate',
    ref: `authn_${ctx.operationId.slice(3)}`,
    amount: p.amount,
    connector: p.connector ?? 'service_test',
    open: true,
    status_before: p.status,
    last_outcome: null,
    created_at: ctx.now,
  };
  const next: StoredPayment = {
    ...p,
    status: 'processing',
    operations: [...p.operations, operation],
    next_action: null,
    three_ds: { authentication_id: operation.ref, request: body, result: null, challenged: false },
    external_3ds_authentication_attempted: true,
    external_authentication_details: authenticationDetails('started', null, false),
  };
  return { kind: 'apply', payment: withFlight(next, ctx.now), operation, needsConnector: true };
}

export function authenticationDetails(
  status: 'started' | 'pending' | 'success' | 'failed',
  r: AuthenticationResult | null,
  challenged: boolean,
  error?: Outcome,
): NonNullable<PaymentResource['external_authentication_details']> {
  return {
    status,
    authentication_flow: r?.trans_status ? (challenged ? 'challenge' : 'frictionless') : null,
    electronic_commerce_indicator: r?.eci ?? null,
    ds_transaction_id: r?.ds_trans_id ?? null,
    version: r?.message_version ?? null,
    error_code: error?.error_code ?? null,
    error_message: error?.error_message ?? null,
  };
}

/** The 3DS server's answer, as the authentication call shows it (spec 4.6). */
export function authenticationAnswer(p: Pick<StoredPayment, 'three_ds'>) {
  const r = p.three_ds?.result;
  return {
    trans_status: r?.trans_status ?? null,
    three_ds_requestor_url: r?.three_ds_requestor_url ?? null,
    acs_url: r?.acs_url ?? null,
    challenge_request: r?.challenge_request ?? null,
    acs_reference_number: r?.acs_reference_number ?? null,
    acs_trans_id: r?.acs_trans_id ?? null,
    three_dsserver_trans_id: r?.three_dsserver_trans_id ?? null,
    acs_signed_content: r?.acs_signed_content ?? null,
  };
}

/**
 * Where each 3DS answer leads. Y/A (AUTHENTICATED): the provider authorizes next, an operation started here (its id
 * derives from the authentication's, so a repeated report cannot start two). C/D (CUSTOMER_ACTION): the customer
 * completes the challenge; the status sync reads its result. N/R/U/I (DECLINED) or a 3DS server error: failed.
 */
export function authenticateOutcome(p: StoredPayment, op: Operation, o: Outcome, now: string): { payment: StoredPayment; followUp?: Operation } {
  const prior = p.three_ds ?? { authentication_id: op.ref, request: { device_channel: 'BRW', threeds_method_comp_ind: 'U' }, result: null, challenged: false };
  const three_ds: ThreeDsRecord = { ...prior, result: o.authentication ?? prior.result, challenged: prior.challenged || o.kind === 'CUSTOMER_ACTION' };
  const attempt = p.attempts?.at(-1);
  const attempts = (status: string, extra: object = {}) => (p.attempts ?? []).map((a) => (a === attempt ? { ...a, status, modified_at: now, ...extra } : a));
  const r = three_ds.result;
  switch (o.kind) {
    case 'PENDING':
      return { payment: { ...p, three_ds } };
    case 'CUSTOMER_ACTION': {
      const challenge = r?.acs_url ? new URL(r.acs_url) : null;
      if (challenge && r?.challenge_request) challenge.searchParams.set('creq', r.challenge_request);
      return {
        payment: {
          ...p,
          three_ds,
          status: 'requires_customer_action',
          attempts: attempts('authentication_pending'),
          next_action: challenge ? { type: 'redirect_to_url', redirect_to_url: challenge.toString() } : null,
          external_authentication_details: authenticationDetails('pending', r, true),
        },
      };
    }
    case 'AUTHENTICATED': {
      const followUp = authorizeOperation(
        `${op.operation_id}-authorize`,
        attempt?.attempt_id ?? `${p.payment_id}_1`,
        p.amount,
        p.connector ?? op.connector,
        op.status_before,
        now,
      );
      return {
        payment: {
          ...p,
          three_ds,
          status: 'processing',
          attempts: attempts('authentication_successful'),
          next_action: null,
          operations: [...p.operations, followUp],
          external_authentication_details: authenticationDetails('success', r, three_ds.challenged),
        },
        followUp,
      };
    }
    default:
      return {
        payment: {
          ...p,
          three_ds,
          status: 'failed',
          attempts: attempts('authentication_failed', errorFields(o)),
          next_action: null,
          amount_capturable: 0,
          manual_retry_allowed: true,
          ...errorFields(o),
          external_authentication_details: authenticationDetails('failed', r, three_ds.challenged, o),
        },
      };
  }
}
