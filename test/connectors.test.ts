// Every list of connectors is derived from the manifests (workers/connectors/<name>/manifest.ts): the registry and
// docker-compose.yml's worker services (written by `npm run connectors:gen`, checked here), the capabilities, the
// enum's "not enabled" ones. Pure, no stack.
import { readdirSync, readFileSync, existsSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { capabilities } from '../domain/connectors.ts';
import { CONNECTORS as NAMES } from '../lib/schemas/common.ts';
import { loadConnector } from '../workers/connectors/index.ts';
import { FLOWS, verificationLevel } from '../workers/connectors/manifest.ts';
import { IMPLEMENTED, MANIFESTS } from '../workers/connectors/manifests.ts';
import { connectorFolders, outOfDate, renderCompose, renderConnectorsPage, renderRegistry, renderTable } from '../scripts/connectors-gen.ts';
import { countVerification, readmeChecklist, readmeVerification } from '../scripts/connector-verification.ts';

const root = path.resolve(import.meta.dirname, '..');

describe('connectors from their manifests', () => {
  it('one folder per implemented connector, each with a manifest, in the registry under its own name', async () => {
    const folders = readdirSync(path.join(root, 'workers/connectors'), { withFileTypes: true })
      .filter((e) => e.isDirectory() && e.name !== 'kit')
      .map((e) => e.name)
      .sort();
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
      expect(
        FLOWS.filter((f) => connector[f] !== undefined),
        c,
      ).toEqual(FLOWS.filter((f) => connector.manifest.flows.includes(f)));
    }
  });

  it('capabilities: the implemented ones from their manifests, every other name of the enum not implemented', () => {
    for (const c of NAMES) expect(capabilities(c).implemented, c).toBe(IMPLEMENTED.includes(c));
    expect(capabilities('service_test')).toEqual({ implemented: true, manual_capture: true, multiple_capture: true, incremental_authorization: true });
  });

  it("the registry, docker-compose.yml's worker services and README's connectors table are as `npm run connectors:gen` writes them", async () => {
    expect(
      (await outOfDate()).map(([file]) => file),
      'run npm run connectors:gen',
    ).toEqual([]);
    const compose = readFileSync(path.join(root, 'docker-compose.yml'), 'utf8');
    // worker-webhooks is the merchant webhooks' worker, not a connector's.
    const services = [...compose.matchAll(/^ {2}worker-([a-z0-9_]+):\n((?: {4}.*\n)+)/gm)]
      .map((m) => ({ name: m[1]!, body: m[2]! }))
      .filter((s) => s.name !== 'webhooks');
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

  it("README's table: a row per connector from its capability data", () => {
    const rows = renderTable(Object.values(MANIFESTS).filter((m) => !!m))
      .trim()
      .split('\n')
      .slice(2);
    expect(rows.map((r) => r.split(' | ')[0]!.slice(2))).toEqual(IMPLEMENTED);
    const mondu = rows.find((r) => r.startsWith('| mondu '))!;
    expect(mondu).toContain('automatic (follow-up capture)');
    expect(mondu).toContain('| B2B | always |');
    expect(renderTable([{ ...MANIFESTS.service_test!, partial_capture: false, multiple_capture: false, customer_step: undefined }])).toContain(
      'full amount only | any | any | B2B, B2C | none |',
    );
    expect(rows.find((r) => r.startsWith('| riverty '))).toMatch(/\| partial \(\d+ traced, \d+ unverified\) \|$/);
    expect(rows.find((r) => r.startsWith('| service_test '))).toMatch(/\| own \|$/);
  });
});

describe("verification level: the manifest's counts are its README's", () => {
  it("each connector's manifest states the counts of its README's Sources rows and UNVERIFIED items, and the level they give", () => {
    for (const c of IMPLEMENTED) {
      const v = MANIFESTS[c]!.verification;
      const counted = readmeVerification(c);
      if (v.level === 'own') {
        // Ours (service_test): no provider of another's, nothing to trace, no provider README.
        expect(c).toBe('service_test');
        expect({ counted, verified: v.verified, unverified: v.unverified }).toEqual({ counted: null, verified: 0, unverified: 0 });
        continue;
      }
      expect(counted, `${c}: workers/connectors/${c}/README.md is missing`).not.toBeNull();
      expect({ verified: v.verified, unverified: v.unverified }, `${c}: set its manifest's verification to the README's counts`).toEqual(counted);
      expect(v.level, `${c}: the level of ${v.verified} traced and ${v.unverified} unverified`).toBe(verificationLevel(v.verified, v.unverified));
    }
    // Every provider's connector was traced to its material (issues 20 and 21); openbank's provider publishes little
    // beyond its login and order creation, so it stays a preview (issue 21).
    for (const c of IMPLEMENTED.filter((c) => c !== 'service_test')) expect(MANIFESTS[c]!.verification.verified, c).toBeGreaterThan(0);
    expect(MANIFESTS.openbank!.verification.level).toBe('preview');
  });

  it('a preview connector names what to confirm with the provider before going live, the same list in its manifest and README', () => {
    for (const c of IMPLEMENTED) {
      const v = MANIFESTS[c]!.verification;
      const readme = v.level === 'own' ? null : readFileSync(path.join(root, 'workers/connectors', c, 'README.md'), 'utf8');
      const listed = readme ? readmeChecklist(readme) : null;
      if (v.level !== 'preview') {
        expect({ c, manifest: v.go_live_checklist ?? null }).toEqual({ c, manifest: null });
        continue;
      }
      expect(v.go_live_checklist?.length, `${c}: a preview connector's manifest lists verification.go_live_checklist`).toBeGreaterThan(0);
      expect(listed, `${c}: README.md's ## Before going live lists the manifest's checklist`).toEqual(v.go_live_checklist);
      expect(readme, `${c}: README.md says it is a preview`).toMatch(/\bpreview\b/);
    }
  });

  it("docs/connectors.md: one row per provider's connector with its level, and each preview's checklist", () => {
    const page = readFileSync(path.join(root, 'docs/connectors.md'), 'utf8');
    const manifests = IMPLEMENTED.map((c) => MANIFESTS[c]!);
    // The page is what the definitions render (npm run connectors:gen); outOfDate above checks the file the same way.
    expect(page).toBe(renderConnectorsPage(manifests));
    const rows = page.split('\n').filter((l) => l.startsWith('| ['));
    expect(rows.map((r) => r.slice(3, r.indexOf(']')))).toEqual(IMPLEMENTED.filter((c) => c !== 'service_test'));
    expect(rows).toHaveLength(12);
    for (const m of manifests.filter((m) => m.verification.level !== 'own')) {
      const row = rows.find((r) => r.startsWith(`| [${m.name}]`))!;
      expect(row.split(' | ')[1], m.name).toMatch(new RegExp(`^${m.verification.level} `));
      expect(row, m.name).toContain(
        `| ${m.countries === 'any' ? 'any' : m.countries.join(' ')} | ${m.currencies === 'any' ? 'any' : m.currencies.join(' ')} |`,
      );
      for (const item of m.verification.go_live_checklist ?? []) expect(page, m.name).toContain(`- ${item}`);
    }
    expect(rows.find((r) => r.startsWith('| [openbank]'))).toMatch(/\| preview /);
    // A definition that changes changes the page: a connector that loses its refunds says so.
    const billie = { ...MANIFESTS.billie!, flows: MANIFESTS.billie!.flows.filter((f) => f !== 'refund') };
    expect(renderConnectorsPage([billie])).toMatch(/\| \[billie\]\(.*\) \| [^|]+ \| [^|]+ \| no \|/);
    // The mandates column (issue 22): the manifest's mandates, or no.
    const withMandates = { ...MANIFESTS.billie!, mandates: { payment_method_types: ['subscription_invoice' as const], setup_mandate: true } };
    expect(renderConnectorsPage([withMandates])).toMatch(/\| \[billie\]\(.*\) \|.* \| subscription_invoice; setup_mandate \|$/m);
    expect(renderConnectorsPage([{ ...MANIFESTS.billie!, mandates: null }])).toMatch(/\| \[billie\]\(.*\) \|.* \| no \|$/m);
  });

  it('the Before going live list: items, wrapped lines joined, none without the heading', () => {
    expect(readmeChecklist('# x\n## Before going live\n- a\n- b that\n  wraps\n\n## UNVERIFIED\n- c\n')).toEqual(['a', 'b that wraps']);
    expect(readmeChecklist('# x\n## UNVERIFIED\n- c\n')).toBeNull();
  });

  it('the level rule: preview when nothing is traced or more is unverified than traced, verified when nothing is unverified', () => {
    expect(verificationLevel(0, 0)).toBe('preview');
    expect(verificationLevel(0, 3)).toBe('preview');
    expect(verificationLevel(3, 4)).toBe('preview');
    expect(verificationLevel(4, 4)).toBe('partial');
    expect(verificationLevel(30, 9)).toBe('partial');
    expect(verificationLevel(30, 0)).toBe('verified');
  });

  it('the README parser counts the rows of every table under ## Sources and the top-level items under ## UNVERIFIED, nothing else', () => {
    const readme = [
      '# x',
      '',
      '| field mapping | not a source |',
      '|---|---|',
      '| a | b |',
      '',
      '## Sources',
      'Keys: [A] a repository.',
      '',
      '### Requests',
      '| what | source |',
      '|---|---|',
      '| `POST /a` | [A] |',
      '| a \\| b | [A] x |',
      '',
      '### Answers',
      '| what | meaning | source |',
      '|:--|---|--:|',
      '| `id` | | [A] |',
      '',
      '## UNVERIFIED (designed plausibly)',
      '- one',
      '  continued',
      '- two',
      '',
      '1. three',
      '10. four',
      '   - a sub-point, not counted',
      '',
      '## Field mapping',
      '| ours | theirs |',
      '|---|---|',
      '| a | b |',
      '- not unverified',
    ].join('\n');
    expect(countVerification(readme)).toEqual({ verified: 3, unverified: 4 });
    // An older README: no Sources table (0 traced), its UNVERIFIED list counted.
    expect(countVerification('# y\n## UNVERIFIED\n- a\n- b\n')).toEqual({ verified: 0, unverified: 2 });
    // A row naming no source is not a traced point; a README must say what is UNVERIFIED (even "none").
    expect(() => countVerification('## Sources\n| what | source |\n|---|---|\n| `id` | |\n## UNVERIFIED\n')).toThrow('names no source');
    expect(() => countVerification('## Sources\n| what | source |\n|---|---|\n| `id` | [A] |\n')).toThrow('no `## UNVERIFIED` section');
    expect(() => countVerification('## Sources\n## UNVERIFIED\n## UNVERIFIED\n')).toThrow('two sections');
  });
});
