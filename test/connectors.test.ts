// Every list of connectors is derived from the manifests (workers/connectors/<name>/manifest.ts): the registry and
// docker-compose.yml's worker services (written by `npm run connectors:gen`, checked here), the capabilities, the
// enum's "not enabled" ones. Pure, no stack.
import { readdirSync, readFileSync, existsSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { capabilities } from '../domain/connectors.ts';
import { CONNECTORS as NAMES } from '../lib/schemas/common.ts';
import { loadConnector } from '../workers/connectors/index.ts';
import { FLOWS } from '../workers/connectors/manifest.ts';
import { IMPLEMENTED, MANIFESTS } from '../workers/connectors/manifests.ts';
import { connectorFolders, outOfDate, renderCompose, renderRegistry, renderTable } from '../scripts/connectors-gen.ts';

const root = path.resolve(import.meta.dirname, '..');

describe('connectors from their manifests', () => {
  it('one folder per implemented connector, each with a manifest, in the registry under its own name', async () => {
    const folders = readdirSync(path.join(root, 'workers/connectors'), { withFileTypes: true }).filter((e) => e.isDirectory() && e.name !== 'kit').map((e) => e.name).sort();
    // Every folder but the connector kit (workers/connectors/kit/) is a connector.
    expect(folders).toEqual(IMPLEMENTED);
    for (const c of IMPLEMENTED) {
      expect(existsSync(path.join(root, 'workers/connectors', c, 'manifest.ts'))).toBe(true);
      expect(MANIFESTS[c]!.name).toBe(c);
      expect((await loadConnector(c)).manifest).toBe(MANIFESTS[c]);
      expect(NAMES).toContain(c);
    }
    await expect(loadConnector('not_a_connector' as never)).rejects.toThrow('not_a_connector has no manifest');
  });

  it('a connector has exactly the flows its manifest lists', async () => {
    for (const c of IMPLEMENTED) {
      const connector = await loadConnector(c);
      expect(FLOWS.filter((f) => connector[f] !== undefined), c).toEqual(FLOWS.filter((f) => connector.manifest.flows.includes(f)));
    }
  });

  it('capabilities: the implemented ones from their manifests, every other name of the enum not implemented', () => {
    for (const c of NAMES) expect(capabilities(c).implemented, c).toBe(IMPLEMENTED.includes(c));
    expect(capabilities('service_test')).toEqual({ implemented: true, manual_capture: true, multiple_capture: true, incremental_authorization: true });
  });

  it('the registry, docker-compose.yml\'s worker services and README\'s connectors table are as `npm run connectors:gen` writes them', async () => {
    expect((await outOfDate()).map(([file]) => file), 'run npm run connectors:gen').toEqual([]);
    const compose = readFileSync(path.join(root, 'docker-compose.yml'), 'utf8');
    // worker-webhooks is the merchant webhooks' worker, not a connector's.
    const services = [...compose.matchAll(/^ {2}worker-([a-z0-9_]+):\n((?: {4}.*\n)+)/gm)].map((m) => ({ name: m[1]!, body: m[2]! })).filter((s) => s.name !== 'webhooks');
    expect(services.map((s) => s.name).sort()).toEqual(IMPLEMENTED);
    for (const s of services) expect(s.body).toContain(`command: ["node", "workers/main.ts", "--connector", "${s.name}"]`);
  });

  it('a new connector folder with a manifest is all the generator needs: it joins the registry and the compose file', () => {
    const names = [...connectorFolders(), 'billie'].sort();
    const registry = renderRegistry(names);
    expect(registry).toContain("import { manifest as billie } from './billie/manifest.ts';");
    expect(registry).toContain('  billie: billie,');
    const compose = renderCompose(readFileSync(path.join(root, 'docker-compose.yml'), 'utf8'), names);
    expect(compose).toContain('command: ["node", "workers/main.ts", "--connector", "billie"]');
    expect(compose).toContain('command: ["node", "workers/main.ts", "--connector", "service_test"]');
  });

  it('README\'s table: a row per connector from its capability data', () => {
    const rows = renderTable(Object.values(MANIFESTS).filter((m) => !!m)).trim().split('\n').slice(2);
    expect(rows.map((r) => r.split(' | ')[0]!.slice(2))).toEqual(IMPLEMENTED);
    const mondu = rows.find((r) => r.startsWith('| mondu '))!;
    expect(mondu).toContain('automatic (follow-up capture)');
    expect(mondu).toContain('| B2B | always |');
    expect(renderTable([{ ...MANIFESTS.service_test!, partial_capture: false, multiple_capture: false, customer_step: undefined }])).toContain('full amount only | any | any | B2B, B2C | none |');
  });
});
