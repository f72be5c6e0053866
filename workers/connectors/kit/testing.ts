// For connectors' tests: the Session the runtime would hand a call (workers/runtime.ts callFor), with the sandbox's
// default address and our notification address for the job's account, so a transformer test says what it is given.
import type { ConnectorJob } from '../../../domain/job.ts';
import type { Session } from '../types.ts';

/** The sandbox's default address (lib/config.ts SANDBOX_PORT 8090). */
export const TEST_SANDBOX_URL = 'http://127.0.0.1:8090';
/** Our gateway's default address for providers' notifications in the tests. */
export const TEST_GATEWAY_URL = 'https://gateway.example';

/** The session of a call for `job`: base_url the sandbox (or `over.base_url`), notification_url the job's account's. */
export function testSession(job: Pick<ConnectorJob, 'merchant_id' | 'merchant_connector_id'>, over: Session = {}): Session {
  return {
    base_url: TEST_SANDBOX_URL,
    sandbox_url: TEST_SANDBOX_URL,
    settings: {},
    notification_url: `${TEST_GATEWAY_URL}/webhooks/${job.merchant_id}/${job.merchant_connector_id ?? 'mca_sandboxdefault000000'}`,
    ...over,
  };
}
