// A connector: its manifest plus the flows it implements, each a request transformer (our job -> the provider's
// request) and a response transformer (the provider's answer, parsed with zod schemas of the provider's own shapes
// -> a connector-independent outcome). Flows the provider does not have are absent, and the manifest says so.
import type { ConnectorJob } from '../../domain/job.ts';
import type { Outcome } from '../../domain/payment.ts';
import type { ProviderRequest, ProviderResponse } from '../provider-http.ts';
import type { FlowName, Manifest } from './manifest.ts';

export interface Flow<Credentials> {
  request(job: ConnectorJob, credentials: Credentials): ProviderRequest;
  response(res: ProviderResponse, job: ConnectorJob): Outcome;
}

/** An incoming notification (webhook): verify it, say which object it is about, and what it means. */
export interface NotificationFlow {
  verify(headers: Record<string, string>, rawBody: string, secret: string): boolean;
  identify(body: unknown): { connector_transaction_id: string } | null;
  outcome(body: unknown): Outcome;
}

export interface Connector<Credentials = never> {
  manifest: Manifest<Credentials>;
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
    case 'authorize': return job.mode === 'sync' && job.connector_transaction_id ? 'sync' : 'authorize';
    case 'capture': return 'capture';
    case 'void': return 'void';
    case 'incremental_authorization': return 'incrementalAuthorization';
    // A refund the provider has not named yet is asked again with the same idempotency key.
    case 'refund': return job.mode === 'sync' && job.connector_refund_id ? 'refundSync' : 'refund';
    case 'authenticate': throw new Error('authentications go to the 3DS server (workers/authentication), not to the provider');
  }
}

/** A provider answer that is not the shape the provider documents: retried like an unavailable provider. */
export class UnexpectedAnswer extends Error {}
