// What each connector can do, as data: checked before a job is queued. Derived from the connectors' capabilities
// the process handed to domain/capabilities.ts (their manifests); a connector without one (its worker is not built
// yet) is refused with a 400 naming the field, rather than queued for a worker that does not exist.
import type { ConnectorName } from '../lib/schemas/common.ts';
import { manifestOf, type ConnectorCapabilities } from './capabilities.ts';

export interface Capabilities {
  implemented: boolean;
  manual_capture: boolean;
  multiple_capture: boolean;
  incremental_authorization: boolean;
}

const none: Capabilities = { implemented: false, manual_capture: false, multiple_capture: false, incremental_authorization: false };

export const capabilitiesOf = (m: ConnectorCapabilities | undefined): Capabilities =>
  m
    ? {
        implemented: true,
        manual_capture: m.capture_methods.includes('manual'),
        multiple_capture: m.multiple_capture,
        incremental_authorization: m.flows.includes('incrementalAuthorization'),
      }
    : none;

/** What the connector can do (from the capabilities handed in). */
export const capabilities = (c: ConnectorName): Capabilities => capabilitiesOf(manifestOf(c));

/** The connector a payment goes to when nothing names one (routing configuration arrives with merchants' setup). */
export const DEFAULT_CONNECTOR: ConnectorName = 'service_test';

/**
 * The connector account id a merchant without connector accounts is served under: the default connector with the
 * sandbox's default credentials (its settings). Payments show it as merchant_connector_id, and the provider's
 * notifications about them come to /webhooks/{merchant_id}/{DEFAULT_ACCOUNT_ID}. It fits the id format of connector
 * accounts but is never stored as one.
 */
export const DEFAULT_ACCOUNT_ID = 'mca_sandboxdefault000000';
