// Starting an operation from the gateway: ask payment-state (Begin), enqueue the connector job, wait for the
// outcome up to CONFIRM_WAIT_MS, then answer with the payment as recorded (processing if the provider is slow).
import { call, errorCodeOf, grpc, outcomeUnknown } from '../lib/grpc.ts';
import { canExist, idempotencyScope, ids, requestId } from '../lib/ids.ts';
import { log } from '../lib/log.ts';
import { jobFor } from '../domain/job.ts';
import { ApiError, errors } from '../lib/errors.ts';
import { config } from '../lib/config.ts';
import type { PaymentStore } from '../adapters/payment-store.ts';
import type { RefundStore } from '../adapters/refund-store.ts';
import type { ConnectorQueues } from '../adapters/queue.ts';
import type { WebhookQueue } from '../adapters/event-store.ts';
import type { ConnectorJob } from '../domain/job.ts';
import type { StoredPayment } from '../domain/payment.ts';
import type { ConfirmPaymentBody } from '../lib/schemas/payment.ts';
import type { PaymentStateClient } from '../proto/generated/bnpl/paymentstate/v1/PaymentState.ts';
import type { BeginReply__Output } from '../proto/generated/bnpl/paymentstate/v1/BeginReply.ts';
import type { BeginRequest } from '../proto/generated/bnpl/paymentstate/v1/BeginRequest.ts';
import { beginMandate, beginParams, fromJobMessage } from '../adapters/begin-params.ts';
import type { Action } from '../proto/generated/bnpl/paymentstate/v1/Action.ts';
import type { Redis } from 'ioredis';
import type { OutcomeWaiter } from './outcome-waiter.ts';
import type { Customers } from './customers.ts';
import type { PaymentLinks } from './payment-links.ts';
import type { MerchantSetup } from './merchant-setup.ts';
import type { MandateStore } from '../adapters/mandate-store.ts';
import { paymentMethodResource } from './mandates.ts';
import { currentTiming, timed } from './server-timing.ts';
import { mandateAsked, newPaymentToken, prepareMandate } from '../domain/mandates.ts';
import { withRequestFields } from '../domain/request-fields.ts';
import { canStart } from '../domain/transitions.ts';
import { DEFAULT_ACCOUNT_ID } from '../domain/connectors.ts';
import { Connector, PaymentMethodType } from '../lib/schemas/common.ts';
import type { CustomerPaymentMethod, MandateResource } from '../lib/schemas/mandate.ts';
import { setTimeout as sleep } from 'node:timers/promises';

export interface Deps {
  store: PaymentStore;
  refunds: RefundStore;
  paymentState: PaymentStateClient;
  queues: ConnectorQueues;
  waiter: OutcomeWaiter;
  customers: Customers;
  links: PaymentLinks;
  /** The gateway's Redis connection (rate limits). */
  redis: Redis;
  /** Profiles and connector routing from the merchant's setup. */
  setup: MerchantSetup;
  /** Mandates and saved payment methods (issue 22): a confirm reads the one it charges on. */
  mandates: MandateStore;
  /** The merchant webhook queue's producer (the queue dashboard shows it beside the connectors' queues). */
  webhookQueue: WebhookQueue;
}

/** gRPC status -> the API's error. */
export function fromRpcError(err: unknown): ApiError {
  const e = err as grpc.ServiceError;
  const { code, param } = errorCodeOf(e);
  switch (e.code) {
    case grpc.status.FAILED_PRECONDITION:
    case grpc.status.INVALID_ARGUMENT:
      return new ApiError(400, code ?? 'IR_05', e.details, param);
    case grpc.status.NOT_FOUND:
      return code === 'HE_02' && /^Refund/.test(e.details) ? errors.notFound('Refund') : notFoundNaming('Payment', 'payment_id');
    case grpc.status.ALREADY_EXISTS:
      return errors.duplicate(e.details, param);
    case grpc.status.ABORTED:
      return errors.busy('The payment is being changed by another request; retry');
    case grpc.status.UNIMPLEMENTED:
      return new ApiError(501, 'IR_00', e.details);
    default:
      return errors.unavailable();
  }
}

/** What a confirm takes from the merchant's setup: the review rule and the routed connector account. */
async function confirmContext(deps: Deps, merchantId: string, paymentId: string, body: ConfirmPaymentBody, payment?: StoredPayment) {
  const p = payment ?? (await deps.store.find(merchantId, paymentId));
  // A payment that cannot be confirmed now is refused by payment-state as before: nothing to read for it.
  const confirmable = p && !canStart(p, 'confirm') ? p : null;
  const held = confirmable ? await mandateOf(deps, confirmable, body ?? {}) : { mandate: null, paymentMethod: null };
  // A charge on a mandate goes through the connector account that holds it.
  const m = held.mandate;
  const routeBody: ConfirmPaymentBody = m
    ? {
        ...body,
        connector: undefined,
        routing: {
          type: 'single',
          data:
            m.merchant_connector_id && m.merchant_connector_id !== DEFAULT_ACCOUNT_ID
              ? { connector: Connector.parse(m.connector), merchant_connector_id: m.merchant_connector_id }
              : Connector.parse(m.connector),
        },
        payment_method_type: body?.payment_method_type ?? PaymentMethodType.safeParse(m.payment_method_type).data,
      }
    : (body ?? {});
  // The mandate part's refusals before anything is written (a create with confirm stores its payment only after
  // this); payment-state decides again on what it records.
  const requested = confirmable ? withRequestFields(confirmable, body ?? {}) : null;
  const prepared = requested ? prepareMandate(requested, body?.customer_acceptance, { ...held, now: new Date().toISOString() }) : null;
  if (prepared && 'kind' in prepared) throw new ApiError(400, prepared.code, prepared.message, prepared.param);
  // Only a connector that keeps mandates takes a payment that asks for one (the domain refuses it otherwise).
  const asked = requested ? mandateAsked(requested, { paymentMethod: held.paymentMethod }) : null;
  const [policy, route] = await Promise.all([deps.setup.policy(merchantId), p ? deps.setup.route(m ? { ...p, connector: null } : p, routeBody, asked) : null]);
  return {
    policy,
    ...beginMandate(held),
    ...(route
      ? {
          route: {
            connector: route.connector,
            merchant_connector_id: route.merchant_connector_id ?? '',
            connector_label: route.connector_label ?? '',
            reason: route.reason,
          },
        }
      : {}),
  };
}

const notFoundNaming = (what: string, param: string) => new ApiError(404, 'HE_02', `${what} does not exist in our records`, param);

/**
 * The mandate and the saved payment method a confirm names (mandate_id; payment_token, whose mandate an off-session
 * payment charges on), read from this merchant's own: another merchant's id is not found, as an unknown one is.
 */
async function mandateOf(
  deps: Deps,
  p: StoredPayment,
  body: ConfirmPaymentBody,
): Promise<{ mandate: MandateResource | null; paymentMethod: CustomerPaymentMethod | null }> {
  const token = body.payment_token ?? p.payment_token;
  const ownToken = !token || p.mandate || token === newPaymentToken(p.merchant_id, p.payment_id);
  const pm = ownToken ? null : await deps.mandates.getPaymentMethod(p.merchant_id, token);
  if (!ownToken && !pm) throw notFoundNaming('Payment method', 'payment_token');
  const offSession = body.off_session ?? p.off_session;
  // Our own mandate_id on a payment that sets one up is not a charge on it.
  const named = body.mandate_id ?? (p.mandate && p.mandate.kind !== 'recurring' ? null : p.mandate_id) ?? (offSession ? pm?.mandate_id : null);
  const mandate = named ? await deps.mandates.getMandate(p.merchant_id, named) : null;
  if (named && !mandate) throw notFoundNaming('Mandate', 'mandate_id');
  // The store reads them back whole (a null it did not keep is null): payment-state parses them strictly.
  return { mandate, paymentMethod: pm ? paymentMethodResource(pm) : null };
}

/**
 * Checks a confirm against the merchant's setup (routing can refuse) before anything is written; `payment` is the
 * intent of a create with confirm=true, which is not stored yet.
 */
export const prepareConfirm = (deps: Deps, p: StoredPayment, body: ConfirmPaymentBody) => confirmContext(deps, p.merchant_id, p.payment_id, body, p);

export async function runOperation(
  deps: Deps,
  merchantId: string,
  paymentId: string,
  action: Action,
  params: unknown,
  prepared?: Awaited<ReturnType<typeof confirmContext>>,
): Promise<StoredPayment> {
  // An id no payment can have is not found, as an unknown one is (never a 400 about its shape).
  if (!canExist('payment', paymentId)) throw notFoundNaming('Payment', 'payment_id');
  const context = action === 'CONFIRM' ? (prepared ?? (await confirmContext(deps, merchantId, paymentId, params as ConfirmPaymentBody))) : {};
  const operationId = requestId('op', `${action}:${paymentId}`, ids.operation);
  // payment-state may enqueue a new operation's job itself, before it answers: its outcome can be published before
  // Begin's answer arrives, so the wait starts first (for as long as Begin may take; the usual wait from its answer).
  const early = deps.waiter.wait(operationId, config.beginRetryMs + config.beginAttemptMs + config.confirmWaitMs);
  let begun: Awaited<ReturnType<typeof begin>>;
  try {
    begun = await begin(deps, merchantId, paymentId, operationId, {
      merchant_id: merchantId,
      payment_id: paymentId,
      action,
      ...beginParams(action, params as object | null | undefined),
      ...context,
    });
  } catch (err) {
    early.cancel();
    throw err;
  }
  early.timeoutIn(config.confirmWaitMs);
  const { reply, fromStore } = begun;
  if (!reply.needs_connector || reply.replayed || reply.operation_id !== operationId) early.cancel();
  if (reply.needs_connector) {
    const opId = reply.operation_id;
    const until = Date.now() + config.confirmWaitMs;
    const decided = (id: string) => async () => !!(await deps.store.find(merchantId, paymentId))?.operations.find((o) => o.operation_id === id)?.last_outcome;
    // A replayed operation may have its outcome already; a new one's wait started before Begin.
    const { done } = reply.replayed || opId !== operationId ? deps.waiter.wait(opId, config.confirmWaitMs, decided(opId)) : early;
    // jobId = operation id: enqueuing an operation that is already queued (a replay) adds nothing.
    if (!reply.job) throw errors.unavailable();
    if (!reply.enqueued) await deps.queues.enqueue(reply.job);
    // The outcome's event carries the payment as recorded (after its projection was written): no read needed.
    let event = await done;
    currentTiming()?.addReported(event?.timing);
    // An automatic capture the authorization started (domain/outcomes.ts): its outcome is the answer, within the wait.
    const capture = event?.payment.operations.find((o) => o.operation_id === `${opId}-capture` && o.open);
    if (capture && until > Date.now()) {
      event = (await deps.waiter.wait(capture.operation_id, until - Date.now(), decided(capture.operation_id)).done) ?? null;
      currentTiming()?.addReported(event?.timing);
    }
    if (event) return event.payment;
  }
  // Recorded while payment-state was going down: its projection may not have been written.
  const payment = await timed('store', fromStore ? deps.store.latest(merchantId, paymentId) : deps.store.find(merchantId, paymentId));
  if (!payment) throw errors.notFound('Payment');
  return payment;
}

/**
 * Begin under an operation id of our choosing, sent again (repeat) while payment-state does not answer, for up to
 * BEGIN_RETRY_MS. If no attempt got an answer, the transitions decide: payment-state records a Begin only before
 * its deadline, so once every attempt's deadline has passed the store shows for good whether the operation was
 * started. Started: it goes on as if payment-state had answered. Not started: the error, and it stays unstarted.
 */
async function begin(
  deps: Deps,
  merchantId: string,
  paymentId: string,
  operationId: string,
  request: BeginRequest,
): Promise<{ reply: Begun; fromStore: boolean }> {
  // An id derived from the request's Idempotency-Key may have been begun by the same request run before (its gateway
  // died): payment-state looks it up first, as for a repeat.
  const derived = !!idempotencyScope.getStore();
  const giveUpAt = Date.now() + config.beginRetryMs;
  let lastDeadline = 0;
  for (let attempt = 0; ; attempt++) {
    lastDeadline = Date.now() + config.beginAttemptMs;
    try {
      const reply = await timed(
        'payment-state',
        call<BeginRequest, BeginReply__Output>(
          deps.paymentState,
          'Begin',
          { ...request, operation_id: operationId, repeat: attempt > 0 || derived, not_after_ms: lastDeadline },
          config.beginAttemptMs,
          { waitForReady: true },
        ),
      );
      return { reply: { ...reply, job: reply.job ? fromJobMessage(reply.job) : null }, fromStore: false };
    } catch (err) {
      // Refunds of one payment are accepted or refused on the amount alone, never because the payment is busy.
      if ((err as grpc.ServiceError).code === grpc.status.ABORTED && request.action === 'REFUND' && Date.now() < giveUpAt) {
        await sleep(Math.random() * 50);
        continue;
      }
      if (!outcomeUnknown(err)) throw fromRpcError(err);
      const pause = Math.min(100 * 2 ** attempt, 1_000);
      if (Date.now() + pause >= giveUpAt) break;
      await sleep(pause);
    }
  }
  await sleep(Math.max(lastDeadline - Date.now(), 0));
  const recorded = (await deps.store.transitionsOf(merchantId, paymentId)).some((t) => t.operation_id === operationId);
  if (!recorded) throw errors.unavailable('A service the request needs is unavailable; nothing was started, retry later');
  const latest = (await deps.store.latest(merchantId, paymentId))!;
  const op = latest.operations.find((o) => o.operation_id === operationId);
  log.warn('Begin unanswered but recorded; answering from the store', { operation_id: operationId, payment_id: paymentId });
  return {
    reply: {
      operation_id: operationId,
      needs_connector: !!op?.open,
      job: op?.open ? jobFor(latest, op) : null,
      replayed: true,
      status: latest.status,
      enqueued: false,
    },
    fromStore: true,
  };
}

/** Begin's answer, its job as the queue takes it. */
type Begun = Omit<BeginReply__Output, 'job'> & { job: ConnectorJob | null };
