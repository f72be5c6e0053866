// service_test: our own test connector, speaking to the provider sandbox's service_test API.
import { config } from '../../../lib/config.ts';
import type { Connector } from '../connector.ts';
import { toRequest } from './request.ts';
import { toOutcome } from './response.ts';

/** The sandbox's key, for merchants that have no connector account yet. */
const defaultApiKey = () => process.env.SERVICE_TEST_API_KEY || 'sk_sandbox_service_test';

export const serviceTest: Connector = {
  name: 'service_test',
  baseUrl: () => process.env.SERVICE_TEST_BASE_URL || config.sandboxUrl,
  request: (job, credentials) => toRequest(job, credentials?.api_key ?? defaultApiKey()),
  outcome: toOutcome,
};
