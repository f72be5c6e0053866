// A connector's implementation, loaded from its folder (workers/connectors/<name>/index.ts exports `connector`) for a
// name that has a manifest (workers/connectors/manifests.ts): the manifests are the only list of connectors.
import type { ConnectorName } from '../../lib/schemas/common.ts';
import type { Connector } from './types.ts';
import { MANIFESTS } from './manifests.ts';

// Each connector's flows take its own credential shape; the runtime parses the account's credentials with the
// manifest's schema before calling a flow.
export async function loadConnector(name: ConnectorName): Promise<Connector<any>> {
  const manifest = MANIFESTS[name];
  if (!manifest) throw new Error(`${name} has no manifest: not an implemented connector`);
  const { connector } = (await import(new URL(`./${name}/index.ts`, import.meta.url).href)) as { connector: Connector<any> };
  if (connector?.manifest !== manifest) throw new Error(`workers/connectors/${name}/index.ts must export \`connector\` with its manifest`);
  return connector;
}
