// Runs one connector job: call the provider (with the operation id as idempotency key), report the outcome to
// payment-state, and, while the provider has not decided, come back later to ask (status sync).
import { DelayedError, UnrecoverableError, type Job } from 'bullmq';
import { call, errorCodeOf, grpc } from '../lib/grpc.ts';
import { config } from '../lib/config.ts';
import { log } from '../lib/log.ts';
import type { ConnectorJob } from '../lib/queue.ts';
import type { Outcome } from '../services/payment-state/state-machine.ts';
import type { PaymentStateClient } from '../proto/generated/bnpl/paymentstate/v1/PaymentState.ts';
import type { CompleteReply__Output } from '../proto/generated/bnpl/paymentstate/v1/CompleteReply.ts';
import type { Connector, ProviderMapping } from './connectors/connector.ts';
import { threeDsServer } from './authentication/three_ds_server/index.ts';
import { providerCall } from './provider-http.ts';
import type { MerchantStore } from '../lib/merchant-store.ts';
import type { ConnectorAccountDetailsValue } from '../lib/schemas/merchant.ts';

const RETRYABLE = new Set([grpc.status.UNAVAILABLE, grpc.status.DEADLINE_EXCEEDED, grpc.status.ABORTED, grpc.status.RESOURCE_EXHAUSTED, grpc.status.INTERNAL]);
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** Reports an outcome, retrying while payment-state is unreachable; Complete is idempotent so a repeat is harmless. */
export async function report(client: PaymentStateClient, job: ConnectorJob, outcome: Outcome, budgetMs = 30_000): Promise<CompleteReply__Output> {
  const started = Date.now();
  for (let delay = 100; ; delay = Math.min(delay * 2, 2_000)) {
    try {
      return await call<object, CompleteReply__Output>(client, 'Complete', {
        merchant_id: job.merchant_id, payment_id: job.payment_id, operation_id: job.operation_id, outcome,
      }, 5_000);
    } catch (err) {
      const e = err as grpc.ServiceError;
      if (!RETRYABLE.has(e.code)) throw new UnrecoverableError(`Complete refused: ${e.details} (${errorCodeOf(e).code ?? e.code})`);
      if (Date.now() - started > budgetMs) throw err;
      log.warn('payment-state unreachable; retrying the report', { operation_id: job.operation_id, grpc_code: e.code });
      await sleep(delay);
    }
  }
}

/** Provider credentials by connector account, opened from MongoDB and kept briefly (an update applies within CREDENTIALS_TTL_MS). */
export function credentialsCache(setup: MerchantStore, ttlMs = 30_000) {
  const cache = new Map<string, { at: number; value: Promise<ConnectorAccountDetailsValue | null> }>();
  return (job: ConnectorJob): Promise<ConnectorAccountDetailsValue | null> => {
    if (!job.merchant_connector_id) return Promise.resolve(null);
    const key = `${job.merchant_id}:${job.merchant_connector_id}`;
    const hit = cache.get(key);
    if (hit && Date.now() - hit.at < ttlMs) return hit.value;
    const value = setup.credentials(job.merchant_id, job.merchant_connector_id);
    cache.set(key, { at: Date.now(), value });
    value.catch(() => cache.delete(key));
    return value;
  };
}

export function processor(connector: Connector, client: PaymentStateClient, credentialsOf: (job: ConnectorJob) => Promise<ConnectorAccountDetailsValue | null>) {
  return async (job: Job<ConnectorJob>, token?: string): Promise<{ status: string }> => {
    const data = job.data;
    const credentials = await credentialsOf(data);
    // A deleted connector account: the provider cannot be called on its behalf any more.
    if (data.merchant_connector_id && !credentials) throw new UnrecoverableError(`connector account ${data.merchant_connector_id} no longer exists`);
    // An authentication goes to the 3DS server, whatever the payment's connector; everything else to the provider.
    const target: ProviderMapping = data.kind === 'authenticate' ? threeDsServer : connector;
    const res = await providerCall(target.baseUrl(), target.request(data, credentials), target.name);
    const outcome = target.outcome(data, res);
    const reply = await report(client, data, outcome);
    log.info('operation reported', { operation_id: data.operation_id, kind: data.kind, outcome: outcome.kind, applied: reply.applied, status: reply.status });
    if ((outcome.kind === 'PENDING' || outcome.kind === 'CUSTOMER_ACTION') && !data.once) {
      const round = data.sync_round;
      if (round >= config.syncDelaysMs.length) throw new Error(`provider left ${data.operation_id} undecided after ${round} status syncs`);
      await job.updateData({
        ...data, mode: 'sync', sync_round: round + 1,
        connector_transaction_id: outcome.connector_transaction_id ?? data.connector_transaction_id,
      });
      await job.moveToDelayed(Date.now() + config.syncDelaysMs[round], token);
      throw new DelayedError();
    }
    return { status: reply.status };
  };
}
