// Every test process hands domain/ the connectors' capabilities, as the gateway, payment-state and the workers do at
// their start (domain/capabilities.ts useCapabilities): the unit tests call domain/ in-process.
import { useCapabilities } from '../domain/capabilities.ts';
import { MANIFESTS } from '../workers/connectors/manifests.ts';

useCapabilities(MANIFESTS);
