import type { ConnectorName } from '../../lib/schemas/common.ts';
import type { Connector } from './connector.ts';
import { serviceTest } from './service_test/index.ts';

/** The connectors that have a worker implementation. */
export const CONNECTORS: Partial<Record<ConnectorName, Connector>> = {
  service_test: serviceTest,
};
