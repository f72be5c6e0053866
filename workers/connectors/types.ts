// A connector: its manifest plus the flows it implements, each a request transformer (our job -> the provider's
// request) and a response transformer (the provider's answer, parsed with zod schemas of the provider's own shapes
// -> a connector-independent outcome). Flows the provider does not have are absent, and the manifest says so.
import type { ConnectorJob } from '../../domain/job.ts';
import type { Outcome } from '../../domain/payment.ts';
import type { ProviderRequest, ProviderResponse } from './kit/http.ts';
import type { FlowName, Manifest } from './manifest.ts';
import type { DisputeReport } from '../../proto/generated/bnpl/paymentstate/v1/DisputeReport.ts';

export interface Flow<Credentials> {
  /** `session.access_token`: the provider's access token, for connectors with a `token` flow. */
  request(job: ConnectorJob, credentials: Credentials, session?: Session): ProviderRequest;
  /**
   * For an operation the provider spreads over several calls (create a customer, then a basket, then authorize): the
   * call after `answers` (every one answered below 400 so far, the first request's first), or null when the last one
   * was made. An answer of 400 or more ends the chain; `response` reads the last answer, with all of them beside it.
   */
  next?(job: ConnectorJob, credentials: Credentials, answers: readonly ProviderResponse[], session?: Session): ProviderRequest | null;
  /** `session`: what the request was given (an answer may name a page of ours, built from the environment). */
  response(res: ProviderResponse, job: ConnectorJob, answers?: readonly ProviderResponse[], session?: Session): Outcome;
}

/**
 * Where the connector runs, resolved by the runtime from the environment for each call: a connector reads no
 * configuration itself (it imports neither lib/config.ts nor process.env), so it stays pure and testable.
 */
export interface Environment {
  /** The provider's base URL the requests go to (manifest settings.base_url: the sandbox's in sandbox mode). */
  base_url: string;
  /** The provider sandbox's address: a base_url under it means our imitation (whose paths may carry a prefix). */
  sandbox_url: string;
  /** The manifest's further settings (settings.extra), each from its environment variable, else its default ('' if none). */
  settings: Record<string, string>;
}

/** What a call carries besides the credentials (the runtime gives every call all that applies). */
export interface Session extends Partial<Environment> {
  access_token?: string;
  /** The connector account's notification secret, for an authorization of a connector whose secret is ours
   * (manifest webhook.generated_secret): the provider signs its notifications about the payment with it. */
  webhook_secret?: string;
  /** Our gateway's address for the provider's notifications about this job's connector account
   * (/webhooks/{merchant_id}/{merchant_connector_id}, under PROVIDER_WEBHOOK_BASE_URL). */
  notification_url?: string;
}

/**
 * How a provider issues access tokens (OAuth2 client credentials and the like). The worker fetches one per connector
 * account, caches it in Redis for all replicas until shortly before it expires, and fetches a new one after a 401.
 * A refusal of the credentials is an Outcome (the job fails with the provider's code), anything else a token.
 */
export interface TokenFlow<Credentials> {
  request(credentials: Credentials, env?: Partial<Environment>): ProviderRequest;
  response(res: ProviderResponse): { access_token: string; expires_in_s: number } | Outcome;
}

/** What a provider's notification says, in our terms. Every one names the payment by the provider's id. */
interface NotificationBase {
  /** The payment at the provider (connector_transaction_id of our payment). */
  connector_transaction_id: string;
  /** The provider's id of the object it is about: ordering is judged per object. */
  object_id: string;
  /** When the provider last changed the object (its updated_at): an older notification never moves anything back. */
  provider_updated_at: string;
}
/** The dispute as payment-state's ReportDispute takes it (proto DisputeReport, without merchant and payment). */
export type DisputeFields = Omit<Required<DisputeReport>, 'merchant_id' | 'payment_id' | 'amount'> & { amount: number };

export type ProviderNotification =
  | (NotificationBase & { object: 'payment'; outcome: Outcome })
  /** A refund: ours by refund_id (the provider's reference), else by the provider's refund id. */
  | (NotificationBase & { object: 'refund'; refund_reference: string | null; connector_refund_id: string; outcome: Outcome })
  | (NotificationBase & { object: 'dispute'; dispute: DisputeFields })
  /**
   * From a provider that signs nothing (manifest webhook scheme 'unsigned'): a payment at the provider changed. Its
   * word is not taken: the worker syncs the payment's open authorization and refunds, asking the provider itself.
   */
  | { object: 'hint'; connector_transaction_id: string; event: string }
  /** Not an object or a shape we know: logged and left (the provider has had its 2xx). */
  | { object: 'unknown'; reason: string };

/**
 * An incoming notification (webhook), already verified by the gateway from the manifest's `webhook` data: parse the
 * provider's raw body with zod schemas of its own shapes into what it says. Never throws: what it cannot read is 'unknown'.
 * `request.query`: the query parameters of the URL it came to, given for an unsigned scheme only (a provider that names
 * the object in the URL it calls, such as Svea's push, whose pushUri template it fills in with the order id).
 */
export interface NotificationFlow {
  parse(rawBody: string, request?: { query?: Record<string, string> }): ProviderNotification;
}

export interface Connector<Credentials = never> {
  manifest: Manifest<Credentials>;
  /** For providers that issue access tokens: how to get one. */
  token?: TokenFlow<Credentials>;
  authorize?: Flow<Credentials>;
  /** The payment's status at the provider (the status sync of an authorization). */
  sync?: Flow<Credentials>;
  capture?: Flow<Credentials>;
  void?: Flow<Credentials>;
  incrementalAuthorization?: Flow<Credentials>;
  refund?: Flow<Credentials>;
  refundSync?: Flow<Credentials>;
  notification?: NotificationFlow;
}

/** The flow a job runs: a status sync of an authorization asks for the payment; any other sync repeats the operation
 * with the same idempotency key (the provider answers with the first result). */
export function flowFor(job: ConnectorJob): Exclude<FlowName, 'notification'> {
  switch (job.kind) {
    case 'authorize':
      return job.mode === 'sync' && job.connector_transaction_id ? 'sync' : 'authorize';
    case 'capture':
      return 'capture';
    case 'void':
      return 'void';
    case 'incremental_authorization':
      return 'incrementalAuthorization';
    // A refund the provider has not named yet is asked again with the same idempotency key.
    case 'refund':
      return job.mode === 'sync' && job.connector_refund_id ? 'refundSync' : 'refund';
    case 'authenticate':
      throw new Error('authentications go to the 3DS server (workers/authentication), not to the provider');
  }
}

/** Moved to the kit (kit/answer.ts); named here too for the tests that import it from types.ts. */
export { UnexpectedAnswer } from './kit/answer.ts';
