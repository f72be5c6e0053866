// payment-state: decides every transition with the state machine and records it with the transitions
// compare-and-set. It is the only writer of transitions after a payment's creation.
import type { Redis } from 'ioredis';
import { grpc, RpcError } from '../../lib/grpc.ts';
import { ids } from '../../lib/ids.ts';
import { log } from '../../lib/log.ts';
import { actionLabel, record } from '../../lib/metrics.ts';
import { config } from '../../lib/config.ts';
import { paymentEventsChannel } from '../../lib/redis.ts';
import { capabilities, DEFAULT_CONNECTOR } from '../../domain/connectors.ts';
import { OUTCOME_ACTION, type PaymentAnnouncement, type PaymentEvent, type PaymentStore } from '../../adapters/payment-store.ts';
import type { ConnectorQueues } from '../../adapters/queue.ts';
import { jobFor } from '../../domain/job.ts';
import { mandateOfBegin, paramsOfBegin, toJobMessage } from '../../adapters/begin-params.ts';
import {
  CancelPaymentRequest,
  CapturePaymentRequest,
  ConfirmPaymentRequest,
  IncrementalAuthorizationRequest,
  ReviewDecisionRequest,
  ThreeDsAuthenticationRequest,
  THREE_DS_TRANS_STATUSES,
  UpdatePaymentRequest,
} from '../../lib/schemas/payment.ts';
import type { BeginRequest__Output } from '../../proto/generated/bnpl/paymentstate/v1/BeginRequest.ts';
import type { RoutedConnector__Output } from '../../proto/generated/bnpl/paymentstate/v1/RoutedConnector.ts';
import { Connector } from '../../lib/schemas/common.ts';
import type { BeginReply } from '../../proto/generated/bnpl/paymentstate/v1/BeginReply.ts';
import type { CompleteRequest__Output } from '../../proto/generated/bnpl/paymentstate/v1/CompleteRequest.ts';
import type { CompleteReply } from '../../proto/generated/bnpl/paymentstate/v1/CompleteReply.ts';
import { beginApprove, beginCancel, beginCapture, beginConfirm, beginIncrementalAuthorization, beginReject, beginUpdate } from '../../domain/begin.ts';
import { applyOutcome } from '../../domain/outcomes.ts';
import {
  NO_POLICY,
  SWEEP_KEY,
  type AuthenticationResult,
  type Decision,
  type MerchantPolicy,
  type Outcome,
  type OutcomeKind,
  type StoredPayment,
} from '../../domain/payment.ts';
import { beginAuthenticate } from '../../domain/three-ds.ts';
import { beginRefund, beginRefundUpdate } from '../../domain/refunds.ts';
import { requestHash as requestHashOf } from '../../domain/intent.ts';
import { CreateRefundRequest, RefundId, UpdateRefundRequest } from '../../lib/schemas/refund.ts';
import { CustomerPaymentMethod, MandateResource } from '../../lib/schemas/mandate.ts';
import type { MandateContext } from '../../domain/mandates.ts';

const MAX_RACES = 25;
const OPERATION_ID = /^op_[A-Za-z0-9]{26}$/;

/**
 * The payments this process wrote last, by payment. Deciding on a cached snapshot is safe: an applied decision is
 * checked by the transitions append (a stale seq loses), and any other answer against the newest transition.
 * Its use is the Complete that follows a Begin seconds later (and a capture or refund soon after): at 2,000 entries
 * (a whole payment each, about 1.8 kB of heap) it covers the last minute at the bench's rate; at 20,000 it held
 * about 36 MB of old payments in a process whose own live heap is about 65 MB (issue 24: memory). A miss costs one read.
 */
export const SNAPSHOT_CACHE_MAX = 2_000;
export class SnapshotCache {
  private readonly map = new Map<string, StoredPayment>();
  private readonly max: number;
  constructor(max: number) {
    this.max = max;
  }
  get(key: string): StoredPayment | undefined {
    return this.map.get(key);
  }
  set(key: string, p: StoredPayment): void {
    const had = this.map.get(key);
    if (had && had.seq > p.seq) return;
    this.map.delete(key);
    this.map.set(key, p);
    if (this.map.size > this.max) this.map.delete(this.map.keys().next().value!);
  }
}

export class PaymentStateService {
  private readonly store: PaymentStore;
  private readonly redis: Redis;
  private readonly queues: ConnectorQueues;
  private readonly cache = new SnapshotCache(SNAPSHOT_CACHE_MAX);
  /**
   * The projection write in flight per payment: a transition's projection starts after its predecessor's (which a
   * Begin now writes while the worker already runs), instead of polling for it (PaymentStore.projectPayment).
   */
  private readonly projecting = new Map<string, Promise<void>>();
  constructor(store: PaymentStore, redis: Redis, queues: ConnectorQueues) {
    this.store = store;
    this.redis = redis;
    this.queues = queues;
  }

  /**
   * The Begin is recorded only while BEGIN_APPEND_MARGIN_MS is left before the call's deadline and the caller's
   * not_after_ms, so a caller whose every attempt has passed them can read the store and trust what it finds.
   */
  async begin(req: BeginRequest__Output, callDeadline = Infinity): Promise<BeginReply> {
    const now = new Date().toISOString();
    const deadline = Math.min(callDeadline, Number(req.not_after_ms) || Infinity);
    if (req.operation_id && !OPERATION_ID.test(req.operation_id))
      throw new RpcError(grpc.status.INVALID_ARGUMENT, 'operation_id must be "op_" and 26 letters or digits');
    const operationId = req.operation_id || ids.operation();
    // A Begin sent again because its answer was lost: the first may have been recorded, and the payment may have
    // moved on since (its outcome applied), so the answer is what this operation id recorded, not a new decision.
    const again = req.repeat && req.operation_id ? () => this.recordedBegin(req.merchant_id, req.payment_id, operationId) : null;
    const before = await again?.();
    if (before) return before;
    let params: unknown;
    try {
      params = paramsOfBegin(req);
    } catch (err) {
      throw new RpcError(grpc.status.INVALID_ARGUMENT, `params: ${(err as Error).message}`);
    }
    const begin = BEGIN[req.action as keyof typeof BEGIN];
    if (!begin) throw new RpcError(grpc.status.UNIMPLEMENTED, `action ${req.action} is not available yet`);
    const policy = req.policy
      ? { manual_review: req.policy.manual_review, manual_review_amount_at_least: Number(req.policy.manual_review_amount_at_least) }
      : NO_POLICY;
    const route = req.route?.connector ? req.route : null;
    const mandates = mandateContextOf(req);
    const decide = begin({ now, operationId, policy, route, mandates }, params);
    // A new operation's job is enqueued as soon as it is recorded, beside its projection, so the worker starts one
    // write earlier. If Redis fails (or this process dies first), the caller enqueues it, as it does for a replay.
    let enqueued = false;
    const enqueue = async (d: Decision, p: StoredPayment) => {
      if (d.kind !== 'apply' || !d.needsConnector || !d.operation) return;
      await this.queues.enqueue(jobFor(p, d.operation)).then(
        () => (enqueued = true),
        (err) => log.warn('job not enqueued at Begin; the gateway will', { err, operation_id: d.operation!.operation_id }),
      );
    };
    let recorded: { decision: Decision; payment: StoredPayment };
    try {
      recorded = await this.record(
        req.merchant_id,
        req.payment_id,
        req.action.toLowerCase(),
        operationId,
        decide,
        deadline - config.beginAppendMarginMs,
        undefined,
        enqueue,
      );
    } catch (err) {
      // Refused because the first attempt, still running when this one looked, has been recorded since.
      const first = err instanceof RpcError && err.grpcCode === grpc.status.FAILED_PRECONDITION ? await again?.() : null;
      if (first) return first;
      throw err;
    }
    if (Date.now() > deadline) log.error('a Begin was recorded after its deadline', { operation_id: operationId, payment_id: req.payment_id });
    const { decision, payment } = recorded;
    const op = decision.kind === 'replay' ? decision.operation : decision.kind === 'apply' ? decision.operation : undefined;
    // Applied with no operation: decided by payment-state alone (an update, a cancel before confirmation).
    if (!op) return { operation_id: '', needs_connector: false, job: null, replayed: false, status: payment.status };
    const needsConnector = decision.kind === 'apply' ? decision.needsConnector : op.open;
    return {
      operation_id: op.operation_id,
      needs_connector: needsConnector,
      job: needsConnector ? toJobMessage(jobFor(payment, op)) : null,
      replayed: decision.kind === 'replay',
      status: payment.status,
      enqueued,
    };
  }

  /** What a Begin with this operation id recorded, as a replay of it on the newest state; null if nothing. */
  private async recordedBegin(merchantId: string, paymentId: string, operationId: string): Promise<BeginReply | null> {
    const found = await this.store.transitions.findOne(
      { payment_id: paymentId, merchant_id: merchantId, operation_id: operationId },
      { projection: { seq: 1 } },
    );
    if (!found) return null;
    const latest = (await this.store.latest(merchantId, paymentId))!;
    this.cache.set(`${merchantId}:${paymentId}`, latest);
    // The first attempt's process may have died between its append and its projection: the caller reads the latter.
    const shown = await this.store.find(merchantId, paymentId);
    if (!shown || shown.seq < latest.seq) await this.store.project(latest);
    const op = latest.operations.find((o) => o.operation_id === operationId);
    return {
      operation_id: operationId,
      needs_connector: !!op?.open,
      job: op?.open ? toJobMessage(jobFor(latest, op)) : null,
      replayed: true,
      status: latest.status,
    };
  }

  async complete(req: CompleteRequest__Output): Promise<CompleteReply> {
    const o = req.outcome;
    if (!o || o.kind === 'KIND_UNSPECIFIED') throw new RpcError(grpc.status.INVALID_ARGUMENT, 'outcome.kind is required');
    const outcome: Outcome = {
      kind: o.kind as OutcomeKind,
      connector_transaction_id: o.connector_transaction_id || undefined,
      connector_reference_id: o.connector_reference_id || undefined,
      redirect_url: o.redirect_url || undefined,
      error_code: o.error_code || undefined,
      error_message: o.error_message || undefined,
      unified_code: o.unified_code || undefined,
      unified_message: o.unified_message || undefined,
      authentication: o.authentication ? authenticationOf(o.authentication) : undefined,
      connector_mandate_id: o.connector_mandate_id || undefined,
    };
    const now = new Date().toISOString();
    // An outcome that started the next operation (authorization after 3DS): its job, beside the projection. If Redis
    // loses it (or this process dies first), the sweeper enqueues it again, as for any open operation without a job.
    const followUp = async (d: Decision, p: StoredPayment) => {
      if (d.kind !== 'apply' || !d.followUp) return;
      await this.queues
        .enqueue(jobFor(p, d.followUp))
        .catch((err) => log.warn('follow-up job not enqueued; the sweeper will', { err, operation_id: d.followUp!.operation_id }));
    };
    const { decision, payment } = await this.record(
      req.merchant_id,
      req.payment_id,
      `${OUTCOME_ACTION}${outcome.kind.toLowerCase()}`,
      req.operation_id,
      (p) => applyOutcome(p, req.operation_id, outcome, now),
      Infinity,
      timingOf(req),
      followUp,
    );
    return { applied: decision.kind === 'apply', status: payment.status };
  }

  /**
   * Decide on the current state and append the result as the next transition; if another writer appended first,
   * read the newer state and decide again. Publishes the applied transition for waiting gateways. Also the path of
   * ReportDispute (disputes.ts). `appended` runs once the applied transition is recorded, beside its projection.
   */
  async record(
    merchantId: string,
    paymentId: string,
    action: string,
    operationId: string,
    decide: (p: StoredPayment) => Decision,
    appendBy = Infinity,
    timing?: PaymentEvent['timing'],
    appended?: (decision: Decision, payment: StoredPayment) => Promise<void>,
  ): Promise<{ decision: Decision; payment: StoredPayment }> {
    // Decide on the projection (one read, usually current). An applied decision is checked by the append; any
    // other answer is checked against the newest transition, so a projection that lags never refuses wrongly.
    const key = `${merchantId}:${paymentId}`;
    let current = this.cache.get(key) ?? (await this.store.find(merchantId, paymentId));
    let newest = false;
    // Decided on a transition newer than what we first read: its writer may have died before projecting it.
    let ahead = false;
    for (let i = 0; i < MAX_RACES; i++) {
      if (!current) throw new RpcError(grpc.status.NOT_FOUND, 'Payment does not exist in our records', 'HE_02');
      const decision = decide(current);
      if (decision.kind !== 'apply' && !newest) {
        newest = true;
        const latest = await this.store.latest(merchantId, paymentId);
        if (latest && latest.seq !== current.seq) {
          this.cache.set(key, latest);
          current = latest;
          ahead = true;
          continue;
        }
      }
      if (decision.kind === 'refused') {
        record('transitionsRefused', { 'bnpl.action': actionLabel(action), 'bnpl.error.code': decision.code });
        const status =
          decision.code === 'HE_02' ? grpc.status.NOT_FOUND : decision.code === 'HE_01' ? grpc.status.ALREADY_EXISTS : grpc.status.FAILED_PRECONDITION;
        throw new RpcError(status, decision.message, decision.code, decision.param);
      }
      if (decision.kind !== 'apply') {
        // A repeated report whose first delivery was recorded by a process that died before writing the projection:
        // the projection is what merchants read, so bring it up now rather than at the sweep.
        if (ahead) await this.store.project(current);
        // A report that changed nothing still answers whoever waits for it (a forced status sync).
        if (decision.kind === 'noop') await this.publish({ action: `${action}:unchanged`, operation_id: operationId, payment: current, timing });
        return { decision, payment: current };
      }
      if (Date.now() > appendBy) throw new RpcError(grpc.status.DEADLINE_EXCEEDED, 'Too close to its deadline to be recorded; send it again');
      const next: StoredPayment = { ...decision.payment, seq: current.seq + 1 };
      const opId = decision.operation?.operation_id ?? operationId;
      if (await this.store.append(next, { action, operation_id: opId, prev: current })) {
        this.cache.set(key, next);
        record('transitionsApplied', { 'bnpl.action': actionLabel(action) });
        const applied = { ...decision, payment: next };
        const projected = (this.projecting.get(key) ?? Promise.resolve()).catch(() => undefined).then(() => this.store.project(next));
        this.projecting.set(key, projected);
        try {
          await Promise.all([projected, appended?.(applied, next)]);
        } finally {
          if (this.projecting.get(key) === projected) this.projecting.delete(key);
        }
        await this.publish({ action, operation_id: opId, payment: next, timing });
        return { decision: applied, payment: next };
      }
      current = await this.store.latest(merchantId, paymentId);
      if (current) this.cache.set(key, current);
      newest = true;
      ahead = true;
    }
    throw new RpcError(grpc.status.ABORTED, 'The payment is changing too often; retry');
  }

  /**
   * Announce a recorded state; a lost event only makes a waiting request answer later, from MongoDB. Only an outcome's
   * event carries the payment: a gateway wakes its waiters on outcomes alone (gateway/outcome-waiter.ts) and answers
   * with that payment, and the webhook relay takes any event as a signal to read the outbox. A Begin's (or a
   * dispute's) event is the same announcement without the 4 kB payment (issue 24: one stringify here, one parse in
   * every subscriber, less to send).
   */
  private async publish(e: { action: string; operation_id: string; payment: StoredPayment; timing?: PaymentEvent['timing'] }): Promise<void> {
    const announced: PaymentAnnouncement = {
      merchant_id: e.payment.merchant_id,
      payment_id: e.payment.payment_id,
      operation_id: e.operation_id,
      action: e.action,
      status: e.payment.status,
      seq: e.payment.seq,
    };
    const event: PaymentEvent | PaymentAnnouncement = e.action.startsWith(OUTCOME_ACTION)
      ? { ...announced, payment: e.payment, ...(e.timing ? { timing: e.timing } : {}) }
      : announced;
    await this.redis
      .publish(paymentEventsChannel(), JSON.stringify(event))
      .catch((err) => log.warn('payment event not published', { err, payment_seq: e.payment.seq }));
  }

  /**
   * Enqueue operations begun PICKUP_AFTER_MS ago or more that have no job yet (a crash between Begin and enqueue),
   * in seconds rather than at the sweep; older ones are the sweeper's.
   */
  async pickUp(): Promise<number> {
    const now = Date.now();
    const [from, to] = [new Date(now - config.sweepAfterMs).toISOString(), new Date(now - config.pickupAfterMs).toISOString()];
    const recent = await this.store.payments
      .find({ sweep_key: SWEEP_KEY }, { projection: { _id: 0, merchant_id: 1, payment_id: 1, in_flight_since: 1, operations: 1 } })
      .toArray();
    let enqueued = 0;
    for (const p of recent) {
      if (!p.in_flight_since || p.in_flight_since < from || p.in_flight_since > to) continue;
      for (const op of p.operations.filter((o) => o.open && !o.last_outcome)) {
        if (await this.queues.get(op.connector).getJob(op.operation_id)) continue;
        const full = await this.store.latest(p.merchant_id, p.payment_id);
        const current = full?.operations.find((o) => o.operation_id === op.operation_id);
        if (!full || !current?.open) continue;
        await this.queues.enqueue(jobFor(full, current));
        enqueued++;
      }
    }
    if (enqueued) log.warn('enqueued operations begun without a job', { count: enqueued });
    return enqueued;
  }

  /** Re-enqueue operations whose job was lost (Redis emptied) or gave up (retries exhausted). */
  async sweep(): Promise<number> {
    const cutoff = new Date(Date.now() - config.sweepAfterMs).toISOString();
    let requeued = 0;
    for (const p of await this.store.inFlightSince(cutoff)) {
      for (const op of p.operations.filter((o) => o.open)) {
        const queue = this.queues.get(op.connector);
        const job = await queue.getJob(op.operation_id);
        if (!job) {
          await this.queues.enqueue(jobFor(p, op, op.last_outcome ? 'sync' : 'execute'));
          requeued++;
        } else if (await job.isFailed()) {
          await job.retry('failed');
          requeued++;
        }
      }
    }
    if (requeued) log.warn('sweeper re-enqueued operations', { count: requeued });
    return requeued;
  }
}

type BeginCtx = { now: string; operationId: string; policy: MerchantPolicy; route: RoutedConnector__Output | null; mandates: MandateContext };

/** The mandate and saved payment method the gateway read for a confirm (not set: none), parsed. */
function mandateContextOf(req: BeginRequest__Output): MandateContext {
  const read = <T>(
    schema: { safeParse(v: unknown): { success: true; data: T } | { success: false; error: { issues: { path: PropertyKey[]; message: string }[] } } },
    value: unknown,
    name: string,
    what: string,
  ): T | null => {
    if (value === null) return null;
    const r = schema.safeParse(value);
    if (!r.success) {
      const issue = r.error.issues[0];
      throw new RpcError(grpc.status.INVALID_ARGUMENT, `${name} is not ${what}: ${issue?.path.map(String).join('.')} ${issue?.message}`);
    }
    return r.data;
  };
  const held = mandateOfBegin(req);
  return {
    mandate: read(MandateResource, held.mandate, 'mandate', 'a mandate'),
    paymentMethod: read(CustomerPaymentMethod, held.paymentMethod, 'payment_method', 'a saved payment method'),
  };
}

/** Per action: read its parameters (validated by the gateway; checked again here) and decide on the payment. */
const BEGIN = {
  CONFIRM: (ctx: BeginCtx, params: unknown) => {
    const body = parse(ConfirmPaymentRequest, params);
    return (p: StoredPayment): Decision => {
      const named = ctx.route?.connector ?? body.connector?.[0] ?? p.connector ?? DEFAULT_CONNECTOR;
      const parsed = Connector.safeParse(named);
      if (!parsed.success || !capabilities(parsed.data).implemented) {
        return { kind: 'refused', code: 'IR_05', message: `Connector ${named} is not enabled for this merchant`, param: 'connector' };
      }
      const connector = parsed.data;
      const route = ctx.route
        ? { merchant_connector_id: ctx.route.merchant_connector_id || null, connector_label: ctx.route.connector_label || null, reason: ctx.route.reason }
        : undefined;
      return beginConfirm(p, body, { ...ctx, connector, route, publicBaseUrl: config.publicBaseUrl });
    };
  },
  AUTHENTICATE: (ctx: BeginCtx, params: unknown) => {
    const { client_secret: _secret, ...body } = parse(ThreeDsAuthenticationRequest, params);
    return (p: StoredPayment) => beginAuthenticate(p, body, ctx);
  },
  APPROVE: (ctx: BeginCtx, params: unknown) => {
    parse(ReviewDecisionRequest, params);
    const captureId = ids.capture();
    return (p: StoredPayment) => beginApprove(p, { ...ctx, captureId });
  },
  REJECT: (ctx: BeginCtx, params: unknown) => {
    parse(ReviewDecisionRequest, params);
    return (p: StoredPayment) => beginReject(p, ctx);
  },
  CAPTURE: (ctx: BeginCtx, params: unknown) => {
    const body = parse(CapturePaymentRequest, params);
    const captureId = body.capture_id ?? ids.capture();
    return (p: StoredPayment) => beginCapture(p, body, { ...ctx, captureId });
  },
  CANCEL: (ctx: BeginCtx, params: unknown) => {
    const body = parse(CancelPaymentRequest, params);
    return (p: StoredPayment) => beginCancel(p, body, ctx);
  },
  UPDATE: (ctx: BeginCtx, params: unknown) => {
    const body = parse(UpdatePaymentRequest, params);
    return (p: StoredPayment) => beginUpdate(p, body, ctx);
  },
  REFUND: (ctx: BeginCtx, params: unknown) => {
    const body = parse(CreateRefundRequest, params);
    if (!body.refund_id) throw new RpcError(grpc.status.INVALID_ARGUMENT, 'refund_id is required (the gateway sets one)');
    const withId = { ...body, refund_id: body.refund_id };
    const requestHash = requestHashOf(withId);
    return (p: StoredPayment) => beginRefund(p, withId, { ...ctx, requestHash });
  },
  UPDATE_REFUND: (ctx: BeginCtx, params: unknown) => {
    const { refund_id: refundId, ...body } = parse(UpdateRefundRequest.extend({ refund_id: RefundId }), params);
    return (p: StoredPayment) => beginRefundUpdate(p, { ...body, refund_id: refundId }, ctx);
  },
  INCREMENTAL_AUTHORIZATION: (ctx: BeginCtx, params: unknown) => {
    const body = parse(IncrementalAuthorizationRequest, params);
    const authorizationId = `auth_${ctx.operationId.slice(3)}`;
    return (p: StoredPayment) => beginIncrementalAuthorization(p, body, { ...ctx, authorizationId });
  },
};

const TRANS_STATUSES: ReadonlySet<string> = new Set(THREE_DS_TRANS_STATUSES);
/** proto Authentication (empty string = not given) -> the state machine's result (null = not given). */
function authenticationOf(a: Record<keyof AuthenticationResult, string>): AuthenticationResult {
  const out = Object.fromEntries(Object.entries(a).map(([k, v]) => [k, v || null])) as Record<keyof AuthenticationResult, string | null>;
  return { ...out, trans_status: TRANS_STATUSES.has(a.trans_status) ? (a.trans_status as AuthenticationResult['trans_status']) : null };
}

function parse<T>(
  schema: { safeParse(v: unknown): { success: true; data: T } | { success: false; error: { issues: { path: PropertyKey[]; message: string }[] } } },
  value: unknown,
): T {
  const r = schema.safeParse(value);
  if (r.success) return r.data;
  const issue = r.error.issues[0];
  const param = issue.path.map(String).join('.');
  throw new RpcError(grpc.status.FAILED_PRECONDITION, `Invalid value for ${param}: ${issue.message}`, 'IR_05', param);
}

/** The worker's timing of the operation it reports, as the payment event carries it (absent from older reports). */
function timingOf(req: CompleteRequest__Output): PaymentEvent['timing'] {
  const t = req.timing;
  if (!t) return undefined;
  return { ...(t.provider_ms !== undefined ? { provider_ms: t.provider_ms } : {}), ...(t.queue_ms !== undefined ? { queue_ms: t.queue_ms } : {}) };
}
