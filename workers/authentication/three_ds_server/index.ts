// The 3DS server that runs the external 3DS authentication (spec 4.6) for every connector's payments. Its address
// and key come from the environment (THREE_DS_SERVER_URL, THREE_DS_SERVER_API_KEY): the sandbox's by default.
import { config } from '../../../lib/config.ts';
import type { ProviderMapping } from '../../connectors/connector.ts';
import { toRequest } from './request.ts';
import { toOutcome } from './response.ts';

export const threeDsServer: ProviderMapping = {
  name: 'three_ds_server',
  baseUrl: () => config.threeDsServerUrl,
  request: (job) => toRequest(job, config.threeDsServerApiKey),
  outcome: toOutcome,
};
