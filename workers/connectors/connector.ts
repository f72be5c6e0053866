// The small surface every connector has: map our operation to the provider's request, map the provider's
// answer and errors back to a connector-independent outcome.
import type { ConnectorJob } from '../../lib/queue.ts';
import type { ConnectorName } from '../../lib/schemas/common.ts';
import type { Outcome } from '../../services/payment-state/state-machine.ts';
import type { ProviderRequest, ProviderResponse } from '../provider-http.ts';
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

/** A payment connector (one BullMQ queue each). */
export interface Connector extends ProviderMapping {
  name: ConnectorName;
}
