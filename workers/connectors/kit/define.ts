// One definition per connector. A connector is two halves that are written once each:
//  - its manifest (<name>/manifest.ts, `defineManifest`): pure data every process reads: capabilities (flows, capture
//    methods, countries, currencies, customers, required fields), auth (auth_type and the credential zod schema),
//    queue policy (concurrency, BullMQ limiter for the provider's rate limit, attempts, backoff, the pause after a 429;
//    applied by workers/main.ts and adapters/queue.ts jobOptions), the notification scheme (kit/verify.ts checks it in the
//    gateway), amount unit, settings. It is its own file because the gateway and payment-state read it without
//    loading any transformer;
//  - its flows (<name>/index.ts, `defineConnector`): for each flow the request transformer (our job -> the provider's
//    request) and the response transformer (the provider's answer, read with kit/answer.ts -> an Outcome), plus the
//    token flow for providers that issue access tokens and the notification parser.
// defineConnector types every flow's credentials by the manifest's credential schema, and checks at load that the
// flows it is given are exactly those the manifest lists (so capabilities derived from the manifest never promise a
// flow the worker lacks), and that a connector has a notification parser exactly when its manifest names a scheme.
import { defineManifest, FLOWS, type FlowName, type Manifest } from '../manifest.ts';
import type { Connector, Flow, NotificationFlow, TokenFlow } from '../types.ts';

export type { Connector, Flow, FlowName, Manifest, NotificationFlow, TokenFlow };
export { defineManifest };
export type { ProviderNotification, Session } from '../types.ts';

/** The flows of a connector whose credentials are `C` (what its manifest's credential schema gives). */
export type Flows<C> = Omit<Connector<C>, 'manifest'>;

/** The credentials of a manifest's schema. */
export type CredentialsOf<M> = M extends Manifest<infer C> ? C : never;

/** Why a definition does not hold together, or null. Exported for the kit's own tests. */
export function definitionProblem(def: Connector<any>): string | null {
  const m = def.manifest;
  const present = FLOWS.filter((f) => def[f] !== undefined);
  const listed = FLOWS.filter((f) => m.flows.includes(f));
  if (present.join() !== listed.join()) {
    return `${m.name}: the manifest lists the flows ${listed.join(', ') || 'none'}, the definition has ${present.join(', ') || 'none'}`;
  }
  if ((m.webhook !== null) !== (def.notification !== undefined)) {
    return `${m.name}: a notification flow needs a notification scheme in the manifest (webhook), and a scheme needs the flow`;
  }
  if (m.flows.includes('refundSync') && !m.flows.includes('refund')) return `${m.name}: refundSync without refund`;
  return null;
}

/**
 * A connector: its manifest and its flows, typed by the manifest's credentials. Throws at load (the worker's start,
 * and every test that imports the connector) when the flows and the manifest disagree.
 */
export function defineConnector<C>(def: { manifest: Manifest<C> } & Flows<C>): Connector<C> {
  const problem = definitionProblem(def);
  if (problem) throw new Error(`connector definition: ${problem}`);
  return def;
}
