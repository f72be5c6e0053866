// The shape of the code, from its imports (scripts/import-rules.ts; rules in docs/architecture.md). Pure, no stack.
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { CREATE_APPEND, importsOf, repoFiles, resolveSpecifier, violations } from '../scripts/import-rules.ts';

const root = path.resolve(import.meta.dirname, '..');
const files = repoFiles(root);
const edges = (file: string) => importsOf(files.get(file) ?? '').map((r) => resolveSpecifier(file, r.specifier) ?? r.specifier);

describe('import rules', () => {
  it('hold in this repository', () => {
    expect(violations(files)).toEqual([]);
  });

  it('see the imports they judge (the check is not vacuous)', () => {
    expect(files.size).toBeGreaterThan(50);
    expect(edges('services/payment-state/service.ts')).toEqual(expect.arrayContaining(['domain/begin.ts', 'domain/outcomes.ts', 'ioredis']));
    expect(edges('gateway/routes/payments.ts')).toContain('domain/intent.ts');
    expect(edges('lib/payment-store.ts')).toContain('domain/payment.ts');
    expect(edges('domain/begin.ts')).toEqual(expect.arrayContaining(['lib/schemas/payment.ts', 'domain/transitions.ts']));
    expect(files.get(CREATE_APPEND.file)).toContain(CREATE_APPEND.call);
  });

  it('parse every form of import and export-from', () => {
    const src = [
      "import a from './a.ts';", "import type { B, C as D } from '../b.ts';", "import {\n  e,\n  type F,\n} from './e.ts';",
      "import * as g from './g.ts';", "export { h } from './h.ts';", "export * from './i.ts';", "import './j.ts';",
      "const k = await import('./k.ts');", "import l, { m } from 'zod';",
    ].join('\n');
    const refs = importsOf(src);
    expect(refs.map((r) => r.specifier).sort()).toEqual(['../b.ts', './a.ts', './e.ts', './g.ts', './h.ts', './i.ts', './j.ts', './k.ts', 'zod']);
    expect(refs.find((r) => r.specifier === '../b.ts')!.names).toEqual(['B', 'C']);
    expect(refs.find((r) => r.specifier === './e.ts')!.names).toEqual(['e', 'F']);
    expect(refs.find((r) => r.specifier === './g.ts')!.star).toBe(true);
  });

  // Each broken rule is reported with the offending file, line and import.
  const broken = (file: string, source: string) => violations(new Map([...files, [file, source]]));
  it.each([
    ['domain/x.ts', "import { config } from '../lib/config.ts';", "domain/x.ts:1 imports '../lib/config.ts': domain/ may import only"],
    ['domain/x.ts', "import { MongoClient } from 'mongodb';", "domain/x.ts:1 imports 'mongodb': domain/ may import only"],
    ['domain/x.ts', "import { PaymentStore } from '../services/payment-state/main.ts';", "domain/x.ts:1 imports '../services/payment-state/main.ts'"],
    ['gateway/x.ts', "\nimport { run } from '../workers/runtime.ts';", "gateway/x.ts:2 imports '../workers/runtime.ts': gateway/ and services/ never import workers/"],
    ['services/x/y.ts', "import type { Connector } from '../../workers/connectors/connector.ts';", "services/x/y.ts:1 imports '../../workers/connectors/connector.ts': gateway/ and services/"],
    ['lib/x.ts', "import { createIntent } from '../gateway/operations.ts';", "lib/x.ts:1 imports '../gateway/operations.ts': lib/ never imports a process"],
    ['lib/x.ts', "export { PaymentStateService } from '../services/payment-state/service.ts';", "lib/x.ts:1 imports '../services/payment-state/service.ts': lib/ never imports a process"],
    ['gateway/x.ts', "import { beginCapture } from '../domain/begin.ts';", "gateway/x.ts:1 imports '../domain/begin.ts': only services/payment-state/ may import the decisions in domain/begin.ts"],
    ['workers/x.ts', "import { applyOutcome } from '../domain/outcomes.ts';", "workers/x.ts:1 imports '../domain/outcomes.ts': only services/payment-state/"],
    ['gateway/x.ts', "import { authenticationAnswer, beginAuthenticate } from '../domain/three-ds.ts';", "gateway/x.ts:1 imports '../domain/three-ds.ts' { beginAuthenticate }: only services/payment-state/ may import a decision"],
    ['gateway/x.ts', "import * as threeDs from '../domain/three-ds.ts';", "gateway/x.ts:1 imports '../domain/three-ds.ts' as a whole: it exports decisions"],
    ['workers/connectors/x/manifest.ts', "import { config } from '../../../lib/config.ts';", "workers/connectors/x/manifest.ts:1 imports '../../../lib/config.ts': a connector manifest is pure data"],
    ['domain/x.ts', "import { serviceTest } from '../workers/connectors/service_test/index.ts';", "domain/x.ts:1 imports '../workers/connectors/service_test/index.ts': domain/ may import only"],
    ['gateway/x.ts', "import { CONNECTORS } from '../workers/connectors/index.ts';", "gateway/x.ts:1 imports '../workers/connectors/index.ts': gateway/ and services/ never import workers/"],
    ['workers/x.ts', "const ok = await deps.store.append(next, { action: 'capture' });", 'workers/x.ts:1 appends a transition'],
    ['gateway/x.ts', "await db.collection('transitions').insertOne(t);", "gateway/x.ts:1 writes the transitions collection"],
  ])('fail for %s: %s', (file, source, message) => {
    const found = broken(file, source);
    expect(found.join('\n')).toContain(message);
  });

  it('allow exactly one transition append in the gateway: the create at seq 0', () => {
    const create = files.get(CREATE_APPEND.file)!;
    expect(broken(CREATE_APPEND.file, `${create}\nawait deps.store.append(next, { action: 'capture', operation_id: null, from: null });`).join('\n'))
      .toContain(`${CREATE_APPEND.file}:${create.split('\n').length + 1} appends a transition`);
    expect(broken(CREATE_APPEND.file, create.replace(CREATE_APPEND.call, "deps.store.save(intent, { action: 'create'")).join('\n'))
      .toContain('expected exactly one create at seq 0');
    // Reading what a payment is, and asking whether an action may start, are open to every process.
    // A connector's manifest is data every folder may read.
    expect(broken('domain/x.ts', "import { MANIFESTS } from '../workers/connectors/manifests.ts';\nimport { manifest } from '../workers/connectors/service_test/manifest.ts';")).toEqual([]);
    expect(broken('gateway/x.ts', "import { toResource } from '../domain/intent.ts';\nimport { canStart } from '../domain/transitions.ts';\nimport { authenticationAnswer } from '../domain/three-ds.ts';")).toEqual([]);
  });
});
