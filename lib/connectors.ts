// What each connector can do, as data: checked before a job is queued. A connector whose worker is not built yet
// is refused with a 400 naming the field, rather than queued for a worker that does not exist.
import type { ConnectorName } from './schemas/common.ts';

export interface Capabilities {
  implemented: boolean;
  manual_capture: boolean;
  multiple_capture: boolean;
  incremental_authorization: boolean;
}

const none: Capabilities = { implemented: false, manual_capture: false, multiple_capture: false, incremental_authorization: false };

export const CAPABILITIES: Record<ConnectorName, Capabilities> = {
  service_test: { implemented: true, manual_capture: true, multiple_capture: true, incremental_authorization: true },
  axytos: none, billie: none, twisto: none, avarda: none, payla: none, ratepay: none, riverty: none, svea: none,
  unzer: none, zaver: none, openbank: none, mondu: none,
};

/** The connector a payment goes to when nothing names one (routing configuration arrives with merchants' setup). */
export const DEFAULT_CONNECTOR: ConnectorName = 'service_test';
