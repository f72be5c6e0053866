// A provider HTTP API with one request and one answer mapping: the 3DS server (workers/authentication/). Payment
// connectors have flows (workers/connectors/types.ts).
import type { ConnectorJob } from '../../domain/job.ts';
import type { Outcome } from '../../domain/payment.ts';
import type { ProviderRequest, ProviderResponse } from './kit/http.ts';
import type { ConnectorAccountDetailsValue } from '../../lib/schemas/merchant.ts';

/** A provider HTTP API seen from a worker: a payment connector, or the 3DS server that authenticates customers. */
export interface ProviderMapping {
  name: string;
  /** The provider's base URL (the sandbox in sandbox mode) and the credentials it takes. */
  baseUrl(): string;
  /**
   * The request that performs the job's operation, or asks for its result when job.mode is 'sync'. `credentials`
   * are the merchant connector account's, or null for the sandbox default of a merchant without accounts.
   */
  request(job: ConnectorJob, credentials: ConnectorAccountDetailsValue | null): ProviderRequest;
  /** What the provider's answer means for the operation. */
  outcome(job: ConnectorJob, res: ProviderResponse): Outcome;
}
