// Runs one notification job: the connector's notification flow reads the provider's body, and what it says becomes
// an outcome through payment-state like any worker result (Complete on the open operation it is about, or
// ReportDispute). What came of it is written on the inbox record (lib/notification-inbox.ts).
//
// Trust: only a notice whose scheme authenticates the account gets this far with a body we read (an unsigned one is a
// hint), and even then a notice that would raise money (an authorization or capture) is not applied: it asks for a
// status sync of the payment, and the provider's answer is what applies. Failures and declines apply directly.
// Every notice-asked sync is debounced per operation (ConnectorQueues.enqueueNoticeSync).
//
// Ordering: payment-state ignores an outcome for a closed operation, so a late "pending" never reopens a payment that
// is authorized or captured. Beyond that, a notification older (provider's updated_at) than one already acted on
// about the same provider object is not applied at all (result 'stale'): two undecided states never swap back.
import { UnrecoverableError, type Job } from 'bullmq';
import { DEFAULT_ACCOUNT_ID } from '../domain/connectors.ts';
import type { NotificationJob } from '../domain/job.ts';
import type { Operation, Outcome, StoredPayment } from '../domain/payment.ts';
import { call, errorCodeOf, grpc } from '../lib/grpc.ts';
import { log } from '../lib/log.ts';
import type { NotificationInbox, NotificationResult } from '../lib/notification-inbox.ts';
import type { CompleteReply__Output } from '../proto/generated/bnpl/paymentstate/v1/CompleteReply.ts';
import type { PaymentStateClient } from '../proto/generated/bnpl/paymentstate/v1/PaymentState.ts';
import { flowFor, type Connector, type ProviderNotification } from './connectors/types.ts';
import { jobFor } from '../domain/job.ts';
import type { PaymentStore } from '../adapters/payment-store.ts';
import type { ConnectorQueues } from '../adapters/queue.ts';
import { reported } from './runtime.ts';

/** Where a notice's payment is read: the projection, with the fields stored without their nulls restored. */
type Payments = Pick<PaymentStore, 'findByConnectorTransaction'>;
type Known = Exclude<ProviderNotification, { object: 'unknown' | 'hint' }>;
interface Done {
  result: NotificationResult;
  note?: string;
  status?: string;
}

/** Waiting for something that will come (the authorization's own answer, payment-state's dispute handler): retried with backoff. */
class NotYet extends Error {}

export function notificationProcessor(
  connector: Connector<any>,
  client: PaymentStateClient,
  payments: Payments,
  inbox: NotificationInbox,
  queues: Pick<ConnectorQueues, 'enqueueNoticeSync'>,
) {
  return async (job: Job<NotificationJob>): Promise<{ result: NotificationResult; note?: string }> => {
    const data = job.data;
    const where = { merchant_id: data.merchant_id, merchant_connector_id: data.merchant_connector_id, body_sha256: data.body_sha256 };
    const recorded = await inbox.find(where);
    // Queued again (a provider's repeat after the job was removed): acted on already.
    if (recorded?.result) return { result: recorded.result, note: 'processed before' };
    const flow = connector.notification;
    const n: ProviderNotification = flow
      ? flow.parse(data.body, data.query ? { query: data.query } : {})
      : { object: 'unknown', reason: `${connector.manifest.name} has no notification flow` };
    if (n.object === 'unknown') {
      log.info('notification ignored', { ...where, reason: n.reason });
      await inbox.done(where, { result: 'ignored', note: n.reason });
      return { result: 'ignored', note: n.reason };
    }
    if (n.object === 'hint') {
      let done: Done;
      try {
        done = await syncOnHint(connector, n, data, payments, queues);
      } catch (err) {
        if (err instanceof NotYet && job.attemptsMade + 1 < (job.opts.attempts ?? 1)) throw err;
        if (!(err instanceof NotYet)) throw err;
        done = { result: 'ignored', note: err.message };
      }
      log.info('notification processed', {
        ...where,
        event: n.event,
        connector_transaction_id: n.connector_transaction_id,
        result: done.result,
        note: done.note,
      });
      await inbox.done(where, { result: done.result, note: done.note });
      return { result: done.result, note: done.note };
    }
    const objectKey = `${n.object}:${n.object_id}`;
    const mark = { object_key: objectKey, provider_updated_at: n.provider_updated_at };
    const newer = await inbox.newerProcessed(where, objectKey, n.provider_updated_at);
    if (newer) {
      const note = `a newer notification about ${objectKey} (${newer.provider_updated_at}) was acted on already`;
      log.info('notification stale', { ...where, object_key: objectKey, provider_updated_at: n.provider_updated_at, newer: newer.provider_updated_at });
      await inbox.done(where, { result: 'stale', note, ...mark });
      return { result: 'stale', note };
    }
    let done: Done;
    try {
      done = await act(connector, n, data, client, payments, queues);
    } catch (err) {
      const last = job.attemptsMade + 1 >= (job.opts.attempts ?? 1);
      if (err instanceof NotYet && !last) {
        log.warn('notification not applicable yet; retrying', { ...where, object_key: objectKey, reason: err.message, attempt: job.attemptsMade + 1 });
        throw err;
      }
      if (!(err instanceof NotYet || err instanceof UnrecoverableError)) throw err;
      done = { result: 'ignored', note: err.message };
    }
    log.info('notification processed', {
      ...where,
      object_key: objectKey,
      provider_updated_at: n.provider_updated_at,
      result: done.result,
      note: done.note,
      status: done.status,
    });
    await inbox.done(where, { result: done.result, note: done.note, ...mark });
    return { result: done.result, note: done.note };
  };
}

/** Outcomes that would raise money (authorized or captured): never taken from a notice, only from the provider's read. */
const RAISES_MONEY = new Set<Outcome['kind']>(['AUTHORIZED', 'CAPTURED']);

async function act(
  connector: Connector<any>,
  n: Known,
  job: NotificationJob,
  client: PaymentStateClient,
  payments: Payments,
  queues: Pick<ConnectorQueues, 'enqueueNoticeSync'>,
): Promise<Done> {
  const p = await payments.findByConnectorTransaction(job.merchant_id, n.connector_transaction_id);
  // The authorization's own answer (which names the provider's id) may still be on its way to payment-state.
  if (!p) throw new NotYet(`no payment of this merchant has connector_transaction_id ${n.connector_transaction_id}`);
  // Only the account the payment went through speaks for it.
  if ((p.merchant_connector_id ?? DEFAULT_ACCOUNT_ID) !== job.merchant_connector_id) {
    return { result: 'ignored', note: `payment ${p.payment_id} is not served by connector account ${job.merchant_connector_id}` };
  }
  // payment-state applies an outcome once, and never to a closed operation.
  const complete = async (op: Operation | undefined, outcome: Outcome, what: string): Promise<Done> => {
    if (!op) return { result: 'unchanged', note: `no open ${what} on payment ${p.payment_id}` };
    const reply = await reported(
      client,
      { merchant_id: p.merchant_id, payment_id: p.payment_id, operation_id: op.operation_id, connector: op.connector, kind: op.kind, mode: 'notification' },
      outcome,
    );
    return { result: reply.applied ? 'applied' : 'unchanged', status: reply.status };
  };
  switch (n.object) {
    case 'payment': {
      const auth = p.operations.find((o) => o.kind === 'authorize' && o.open);
      if (!auth || !RAISES_MONEY.has(n.outcome.kind)) return complete(auth, n.outcome, 'authorization');
      const asked = await syncOpen(connector, p, [auth], queues);
      return asked.result === 'synced'
        ? { ...asked, note: `says ${n.outcome.kind}, which raises money: confirmed by a status read at the provider (${asked.note})` }
        : { result: 'ignored', note: `says ${n.outcome.kind}, which raises money, and ${connector.manifest.name} has no status read to confirm it` };
    }
    case 'refund': {
      const row = p.refunds?.find((r) => (n.refund_reference && r.refund_id === n.refund_reference) || r.connector_refund_id === n.connector_refund_id);
      if (!row) return { result: 'ignored', note: `payment ${p.payment_id} has no refund ${n.refund_reference ?? n.connector_refund_id}` };
      return complete(
        p.operations.find((o) => o.kind === 'refund' && o.ref === row.refund_id && o.open),
        n.outcome,
        `refund ${row.refund_id}`,
      );
    }
    case 'dispute':
      return reportDispute(client, { merchant_id: p.merchant_id, payment_id: p.payment_id, ...n.dispute });
  }
}

/**
 * An unsigned hint: the payment it names (this merchant's, through this account) gets a one-off status sync of each
 * open authorization and refund, which reads the provider's state with the account's credentials. Captures and voids
 * are not repeated on a hint: their own jobs and syncs decide them.
 */
async function syncOnHint(
  connector: Connector<any>,
  n: Extract<ProviderNotification, { object: 'hint' }>,
  job: NotificationJob,
  payments: Payments,
  queues: Pick<ConnectorQueues, 'enqueueNoticeSync'>,
): Promise<Done> {
  const p = await payments.findByConnectorTransaction(job.merchant_id, n.connector_transaction_id);
  if (!p) throw new NotYet(`no payment of this merchant has connector_transaction_id ${n.connector_transaction_id}`);
  if ((p.merchant_connector_id ?? DEFAULT_ACCOUNT_ID) !== job.merchant_connector_id) {
    return { result: 'ignored', note: `payment ${p.payment_id} is not served by connector account ${job.merchant_connector_id}` };
  }
  return syncOpen(
    connector,
    p,
    p.operations.filter((op) => op.open && (op.kind === 'authorize' || op.kind === 'refund')),
    queues,
  );
}

/** Asks the provider about these open operations of the payment (one pending sync each, merged across notices). */
async function syncOpen(connector: Connector<any>, p: StoredPayment, ops: Operation[], queues: Pick<ConnectorQueues, 'enqueueNoticeSync'>): Promise<Done> {
  const reads = ops.map((op) => jobFor(p, op, 'sync')).filter((j) => connector.manifest.flows.includes(flowFor(j)));
  if (!reads.length) return { result: 'unchanged', note: `payment ${p.payment_id} has no open authorization or refund to sync` };
  await Promise.all(reads.map((j) => queues.enqueueNoticeSync(j)));
  return { result: 'synced', note: `synced ${reads.map((j) => j.operation_id).join(', ')} of payment ${p.payment_id}`, status: p.status };
}

const RETRYABLE = new Set([grpc.status.UNAVAILABLE, grpc.status.DEADLINE_EXCEEDED, grpc.status.ABORTED, grpc.status.RESOURCE_EXHAUSTED, grpc.status.INTERNAL]);

async function reportDispute(client: PaymentStateClient, report: Record<string, unknown>): Promise<Done> {
  try {
    const reply = await call<object, CompleteReply__Output>(client, 'ReportDispute', report, 5_000);
    return { result: reply.applied ? 'applied' : 'unchanged', status: reply.status };
  } catch (err) {
    const e = err as grpc.ServiceError;
    // A payment-state without the dispute handler yet (a rolling deploy): retried with backoff, and once the attempts
    // are spent the job stays failed with the inbox record unprocessed, so the provider's repeat runs it again.
    if (e.code === grpc.status.UNIMPLEMENTED) {
      log.warn('payment-state does not take ReportDispute yet; the dispute notification will be retried', {
        payment_id: report.payment_id,
        connector_dispute_id: report.connector_dispute_id,
      });
      throw new Error('payment-state does not take ReportDispute yet');
    }
    if (RETRYABLE.has(e.code)) throw err;
    // Not about this payment as it stands (above what was captured, another currency, a bad value): refused, logged.
    const note = `ReportDispute refused: ${e.details} (${errorCodeOf(e).code ?? e.code}${errorCodeOf(e).param ? `, ${errorCodeOf(e).param}` : ''})`;
    log.warn('dispute notification refused', {
      payment_id: report.payment_id,
      connector_dispute_id: report.connector_dispute_id,
      amount: report.amount,
      currency: report.currency,
      reason: note,
    });
    return { result: 'refused', note };
  }
}
