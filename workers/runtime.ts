// Runs one connector job: call the provider (with the operation id as idempotency key), report the outcome to
// payment-state, and, while the provider has not decided, come back later to ask (status sync).
import { createHash } from 'node:crypto';
import { DelayedError, UnrecoverableError, Worker, type Job } from 'bullmq';
import { call, errorCodeOf, grpc } from '../lib/grpc.ts';
import { config, connectorSetting } from '../lib/config.ts';
import { log } from '../lib/log.ts';
import { actionLabel, record } from '../lib/metrics.ts';
import { defaultAccountSecrets } from '../lib/webhook-secret.ts';
import type { ConnectorJob } from '../domain/job.ts';
import { DEFAULT_ACCOUNT_ID } from '../domain/connectors.ts';
import type { Outcome } from '../domain/payment.ts';
import type { PaymentStateClient } from '../proto/generated/bnpl/paymentstate/v1/PaymentState.ts';
import type { CompleteReply__Output } from '../proto/generated/bnpl/paymentstate/v1/CompleteReply.ts';
import type { OperationTiming } from '../proto/generated/bnpl/paymentstate/v1/OperationTiming.ts';
import type { ProviderMapping } from './connectors/connector.ts';
import { flowFor, type Connector, type Environment, type Session } from './connectors/types.ts';
import { TokenRefused, type TokenCache } from './token-cache.ts';
import { jobFields, outcomeFields } from './job-log.ts';
import { threeDsServer } from './authentication/three_ds_server/index.ts';
import { providerCall, ProviderRateLimited } from './provider-http.ts';
import type { ProviderRequest, ProviderResponse } from './connectors/kit/http.ts';
import { UNIFIED } from './connectors/kit/errors.ts';
import { type ConnectorAccountDoc, credentialsOfAccount, type MerchantStore, webhookDetailsOf } from '../lib/merchant-store.ts';
import type { MerchantCache } from '../lib/merchant-cache.ts';
import type { ConnectorAccountDetailsValue } from '../lib/schemas/merchant.ts';
import { setTimeout as sleep } from 'node:timers/promises';

const RETRYABLE = new Set([grpc.status.UNAVAILABLE, grpc.status.DEADLINE_EXCEEDED, grpc.status.ABORTED, grpc.status.RESOURCE_EXHAUSTED, grpc.status.INTERNAL]);

/** Reports an outcome, retrying while payment-state is unreachable; Complete is idempotent so a repeat is harmless. */
export async function report(
  client: PaymentStateClient,
  job: Pick<ConnectorJob, 'merchant_id' | 'payment_id' | 'operation_id'>,
  outcome: Outcome,
  budgetMs = 30_000,
  timing?: OperationTiming,
): Promise<CompleteReply__Output> {
  const started = Date.now();
  for (let delay = 100; ; delay = Math.min(delay * 2, 2_000)) {
    try {
      return await call<object, CompleteReply__Output>(
        client,
        'Complete',
        {
          merchant_id: job.merchant_id,
          payment_id: job.payment_id,
          operation_id: job.operation_id,
          outcome,
          ...(timing ? { timing } : {}),
        },
        5_000,
      );
    } catch (err) {
      const e = err as grpc.ServiceError;
      if (!RETRYABLE.has(e.code)) throw new UnrecoverableError(`Complete refused: ${e.details} (${errorCodeOf(e).code ?? e.code})`);
      if (Date.now() - started > budgetMs) throw err;
      log.warn('payment-state unreachable; retrying the report', { payment_id: job.payment_id, operation_id: job.operation_id, grpc_code: e.code });
      await sleep(delay);
    }
  }
}

/** Reports a connector job's outcome, counted: bnpl.connector.outcomes and, when it carries an error, bnpl.connector.errors
 * by unified code (`unmapped` when the connector gave the provider's code only). */
export async function reported(
  client: PaymentStateClient,
  job: Pick<ConnectorJob, 'merchant_id' | 'payment_id' | 'operation_id' | 'connector' | 'kind'> & { mode: ConnectorJob['mode'] | 'notification' },
  outcome: Outcome,
  timing?: OperationTiming,
): Promise<CompleteReply__Output> {
  const common = { 'bnpl.connector': job.connector, 'bnpl.operation.kind': job.kind };
  record('connectorOutcomes', { ...common, 'bnpl.outcome.kind': outcome.kind, 'bnpl.job.mode': job.mode });
  if (outcome.unified_code || outcome.error_code) record('connectorErrors', { ...common, 'bnpl.error.code': actionLabel(outcome.unified_code) ?? 'unmapped' });
  return report(client, job, outcome, undefined, timing);
}

/** How long a job waited in its queue: from its enqueue to this worker taking it, for a first execution only (a
 * retry or a status sync waited on purpose). */
export const queueWaitMs = (job: Pick<Job<ConnectorJob>, 'data' | 'attemptsMade' | 'timestamp' | 'processedOn'>): number | undefined =>
  job.data.mode === 'execute' && job.attemptsMade === 0 && job.processedOn ? Math.max(job.processedOn - job.timestamp, 0) : undefined;

/** A connector account's credentials as a job uses them, with what the worker must know of the account now. */
export interface AccountCredentials {
  details: ConnectorAccountDetailsValue;
  disabled: boolean;
  /** Which stored credentials these are: the sealed value itself (sealed afresh, with a new IV, on every change). */
  version: string;
  /** The account's notification secret, opened from the same read (only authorizations of connectors whose secret is
   * ours ask for it). */
  webhookSecret(): string | null;
}

/**
 * Provider credentials by connector account. The account as read is kept in `accounts` (a MerchantCache the process
 * drops a merchant from when a change of its setup is announced: workers/main.ts), so a change through the admin
 * API (new credentials, disabled, deleted) applies to the next job, whichever worker runs it and however old the job
 * is, as it does on the gateway (SETUP_CACHE_MS at most if the announcement is lost). The opening of the sealed value
 * is kept by account and version.
 */
export function credentialsCache(setup: MerchantStore, accounts: MerchantCache<ConnectorAccountDoc | null>, maxEntries = 10_000) {
  const opened = new Map<string, { version: string; details: ConnectorAccountDetailsValue }>();
  return async (job: ConnectorJob): Promise<AccountCredentials | null> => {
    // No account, or the default account: the sandbox default credentials (the manifest's settings).
    if (!job.merchant_connector_id || job.merchant_connector_id === DEFAULT_ACCOUNT_ID) return null;
    const key = `${job.merchant_id}:${job.merchant_connector_id}`;
    const mca = job.merchant_connector_id;
    const a = await accounts.get(
      key,
      () => setup.liveOrRetiredAccount(job.merchant_id, mca),
      (doc) => doc?.merchant_id ?? null,
    );
    if (!a) return null;
    const version = a.connector_account_details_sealed;
    let hit = opened.get(key);
    if (hit?.version !== version) {
      hit = { version, details: credentialsOfAccount(a) };
      opened.delete(key);
      opened.set(key, hit);
      if (opened.size > maxEntries) opened.delete(opened.keys().next().value!);
    }
    return { details: hit.details, disabled: a.disabled, version: shortVersion(version), webhookSecret: () => webhookDetailsOf(a)?.merchant_secret ?? null };
  };
}

/** A short, one-way name of a stored credential (token cache keys, logs): never the sealed value itself. */
const shortVersion = (sealed: string) => createHash('sha256').update(sealed).digest('hex').slice(0, 16);

/** Operations that move money or start a customer's flow: never started for a deleted merchant. A void only releases funds. */
const STARTS = new Set<ConnectorJob['kind']>(['authorize', 'capture', 'incremental_authorization', 'authenticate']);

/**
 * A job of a deleted merchant that has certainly not reached the provider: a first execution, never retried or
 * stalled. Anything else may have been sent, and is run on (the provider dedupes by operation id, and a status sync
 * starts nothing) so that we learn how the charge ended.
 */
const notYetSent = (job: Job<ConnectorJob>) => job.data.mode === 'execute' && STARTS.has(job.data.kind) && job.attemptsMade === 0 && !job.stalledCounter;

export const MERCHANT_DELETED: Outcome = {
  kind: 'FAILED',
  error_code: 'merchant_deleted',
  error_message: 'The merchant account was deleted before this operation was sent to the provider',
};

export const ACCOUNT_DISABLED: Outcome = {
  kind: 'FAILED',
  error_code: 'connector_account_disabled',
  error_message: 'The connector account was disabled before this operation was sent to the provider',
};

export const UNUSABLE_CREDENTIALS = (m: Connector<any>['manifest']): Outcome => ({
  kind: 'FAILED',
  error_code: 'invalid_connector_credentials',
  error_message: `The connector account's credentials are not what ${m.name} takes (${m.auth_type})`,
  ...UNIFIED.credentials_refused,
});

/** What one job sends where, and how its answer is read. */
interface Call {
  name: string;
  baseUrl: string;
  request: ProviderRequest;
  outcome: (res: ProviderResponse, answers?: readonly ProviderResponse[]) => Outcome;
  /** The next call of a flow of several (Flow.next), given the answers so far. */
  next?: (answers: readonly ProviderResponse[]) => ProviderRequest | null;
}

/** The connector account's credentials parsed by the manifest's schema; without an account, the sandbox default. */
export function credentialsFor(connector: Connector<any>, account: ConnectorAccountDetailsValue | null): unknown {
  const m = connector.manifest;
  const given = account ?? { ...(m.sandbox_account_details ?? { auth_type: m.auth_type }), api_key: connectorSetting(m.settings.default_api_key) };
  const credentials = m.credentials.safeParse(given);
  if (!credentials.success) throw new UnrecoverableError(`${m.name}: the connector account's credentials do not fit ${m.auth_type}`);
  return credentials.data;
}

/** Where the connector runs (base URL, the sandbox's address, its further settings), resolved from the environment. */
export function environmentOf(m: Connector<any>['manifest']): Environment {
  const extra = m.settings.extra ?? {};
  return {
    base_url: connectorSetting(m.settings.base_url),
    sandbox_url: config.sandboxUrl,
    settings: Object.fromEntries(Object.entries(extra).map(([name, setting]) => [name, process.env[setting.env] || setting.default])),
  };
}

/** Our gateway's address for the provider's notifications about the job's connector account (the default account's without one). */
export const notificationUrlOf = (job: Pick<ConnectorJob, 'merchant_id' | 'merchant_connector_id'>) =>
  `${config.providerWebhookBaseUrl}/webhooks/${encodeURIComponent(job.merchant_id)}/${encodeURIComponent(job.merchant_connector_id ?? DEFAULT_ACCOUNT_ID)}`;

/** The call a job makes: an authentication goes to the 3DS server, whatever the payment's connector; everything else
 * to the connector's flow, with the account's credentials (and the provider's access token, where it issues one). */
export function callFor(connector: Connector<any>, job: ConnectorJob, account: ConnectorAccountDetailsValue | null, session: Session = {}): Call {
  if (job.kind === 'authenticate') {
    const t: ProviderMapping = threeDsServer;
    return { name: t.name, baseUrl: t.baseUrl(), request: t.request(job, account), outcome: (res) => t.outcome(job, res) };
  }
  const m = connector.manifest;
  const name = flowFor(job);
  const flow = connector[name];
  if (!flow) throw new UnrecoverableError(`${m.name} has no ${name} flow (its manifest lists ${m.flows.join(', ')})`);
  const credentials = credentialsFor(connector, account);
  // Everything the connector may need to know of where it runs comes with the call: it reads no configuration.
  session = { ...environmentOf(m), notification_url: notificationUrlOf(job), ...session };
  return {
    name: m.name,
    baseUrl: session.base_url!,
    request: flow.request(job, credentials, session),
    outcome: (res, answers) => flow.response(res, job, answers, session),
    ...(flow.next ? { next: (answers: readonly ProviderResponse[]) => flow.next!(job, credentials, answers, session) } : {}),
  };
}

/** The cache key of a connector account's token: its id and credentials' version (a token of replaced credentials is
 * never used again), or the sandbox default's. */
const tokenAccount = (job: ConnectorJob, account: AccountCredentials | null) =>
  account && job.merchant_connector_id ? `${job.merchant_id}:${job.merchant_connector_id}:${account.version}` : 'default';

export function processor(
  connector: Connector<any>,
  client: PaymentStateClient,
  credentialsOf: (job: ConnectorJob) => Promise<AccountCredentials | null>,
  merchantExists: (merchantId: string) => Promise<boolean>,
  /** Pauses the queue after a provider's 429 (worker.rateLimit); the job waits without spending an attempt. */
  rateLimit?: (ms: number) => Promise<void>,
  /** Access tokens, for connectors whose provider issues them. */
  tokens?: TokenCache,
) {
  return async (job: Job<ConnectorJob>, token?: string): Promise<{ status: string }> => {
    const data = job.data;
    // Asked on every such job (cached as the merchant's setup is: workers/main.ts): with no connector account the
    // sandbox default would otherwise pay on its behalf.
    if (notYetSent(job) && !(await merchantExists(data.merchant_id))) {
      const reply = await reported(client, data, MERCHANT_DELETED);
      log.warn('operation refused: merchant deleted', { ...jobFields(data), ...outcomeFields(MERCHANT_DELETED), status: reply.status });
      return { status: reply.status };
    }
    const account = await credentialsOf(data);
    const credentials = account?.details ?? null;
    // A deleted connector account: the provider cannot be called on its behalf any more.
    if (data.merchant_connector_id && data.merchant_connector_id !== DEFAULT_ACCOUNT_ID && !credentials)
      throw new UnrecoverableError(`connector account ${data.merchant_connector_id} no longer exists`);
    // A disabled account starts nothing new; what may already be at the provider runs on (with its current credentials).
    if (account?.disabled && notYetSent(job)) {
      const reply = await reported(client, data, ACCOUNT_DISABLED);
      log.warn('operation refused: connector account disabled', { ...jobFields(data), ...outcomeFields(ACCOUNT_DISABLED), status: reply.status });
      return { status: reply.status };
    }
    // Credentials the connector cannot use (an account stored before the gateway checked them): nothing can be sent,
    // so an operation not yet sent fails with that reason instead of waiting in flight.
    if (credentials && data.kind !== 'authenticate' && notYetSent(job) && !connector.manifest.credentials.safeParse(credentials).success) {
      const reply = await reported(client, data, UNUSABLE_CREDENTIALS(connector.manifest));
      log.warn("operation failed: the connector account's credentials do not fit the connector", {
        ...jobFields(data),
        ...outcomeFields(UNUSABLE_CREDENTIALS(connector.manifest)),
        status: reply.status,
      });
      return { status: reply.status };
    }
    const withToken = !!connector.token && data.kind !== 'authenticate';
    const hook = connector.manifest.webhook;
    const withWebhookSecret = data.kind === 'authorize' && hook?.scheme === 'hmac' && !!hook.generated_secret;
    const webhookSecret = async (): Promise<Session> => {
      if (!withWebhookSecret) return {};
      const mca = data.merchant_connector_id ?? DEFAULT_ACCOUNT_ID;
      const secret = mca === DEFAULT_ACCOUNT_ID ? defaultAccountSecrets(data.merchant_id)[0] : account?.webhookSecret();
      return secret ? { webhook_secret: secret } : {};
    };
    const session = async (): Promise<Session> => {
      if (!withToken) return webhookSecret();
      if (!tokens) throw new UnrecoverableError(`${connector.manifest.name} needs a token cache`);
      const baseUrl = connectorSetting(connector.manifest.settings.base_url);
      const env = environmentOf(connector.manifest);
      const flow = { ...connector.token!, request: (c: unknown) => connector.token!.request(c, env) };
      return {
        ...(await webhookSecret()),
        access_token: await tokens.get(connector.manifest.name, tokenAccount(data, account), flow, baseUrl, credentialsFor(connector, credentials)),
      };
    };
    // Server-Timing (issue 24): the provider calls of this operation, timed here and reported with the outcome.
    let providerMs = 0;
    const timedCall = async (baseUrl: string, req: ProviderRequest, name: string) => {
      const start = performance.now();
      try {
        return await providerCall(baseUrl, req, name);
      } finally {
        providerMs += performance.now() - start;
      }
    };
    const send = async (s: Session): Promise<{ target: Call; res: ProviderResponse; answers: ProviderResponse[] }> => {
      const target = callFor(connector, data, credentials, s);
      try {
        let res = await timedCall(target.baseUrl, target.request, target.name);
        const answers = [res];
        // A flow of several calls: each next one while the provider answers below 400.
        for (let req = res.status < 400 ? target.next?.(answers) : null; req; req = res.status < 400 ? target.next!(answers) : null) {
          res = await timedCall(target.baseUrl, req, target.name);
          answers.push(res);
        }
        return { target, res, answers };
      } catch (err) {
        if (!(err instanceof ProviderRateLimited) || !rateLimit) throw err;
        const ms = err.retryAfterMs ?? connector.manifest.queue.rate_limited_ms;
        log.warn('provider rate limit: pausing the queue', { ...jobFields(data), ms });
        await rateLimit(ms);
        throw Worker.RateLimitError();
      }
    };
    let sent: { target: Call; res: ProviderResponse; answers: ProviderResponse[] };
    try {
      sent = await send(await session());
      // A token the provider no longer takes (revoked, rotated): one more try with a new one.
      if (withToken && sent.res.status === 401) {
        await tokens!.invalidate(connector.manifest.name, tokenAccount(data, account));
        sent = await send(await session());
      }
    } catch (err) {
      if (!(err instanceof TokenRefused)) throw err;
      const reply = await reported(client, data, err.outcome);
      log.warn('provider refused the credentials for a token', { ...jobFields(data), ...outcomeFields(err.outcome), status: reply.status });
      return { status: reply.status };
    }
    const outcome = sent.target.outcome(sent.res, sent.answers);
    const reply = await reported(client, data, outcome, { provider_ms: providerMs, queue_ms: queueWaitMs(job) });
    log.info('operation reported', { ...jobFields(data), ...outcomeFields(outcome), applied: reply.applied, status: reply.status });
    if ((outcome.kind === 'PENDING' || outcome.kind === 'CUSTOMER_ACTION') && !data.once) {
      const round = data.sync_round;
      if (round >= config.syncDelaysMs.length) throw new Error(`provider left ${data.operation_id} undecided after ${round} status syncs`);
      // The provider's id of what is pending: the refund's for a refund, the payment's otherwise.
      const known =
        data.kind === 'refund'
          ? { connector_refund_id: outcome.connector_transaction_id ?? data.connector_refund_id }
          : { connector_transaction_id: outcome.connector_transaction_id ?? data.connector_transaction_id };
      await job.updateData({ ...data, mode: 'sync', sync_round: round + 1, ...known });
      record('statusSyncsScheduled', { 'bnpl.connector': data.connector, 'bnpl.operation.kind': data.kind });
      await job.moveToDelayed(Date.now() + config.syncDelaysMs[round], token);
      throw new DelayedError();
    }
    return { status: reply.status };
  };
}
