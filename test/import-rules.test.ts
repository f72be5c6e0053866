// The shape of the code, from its imports: the rules of .dependency-cruiser.cjs judged by dependency-cruiser, and the
// two checks it cannot express (scripts/import-rules.ts). Pure, no stack.
import { describe, expect, it } from 'vitest';
import { asJavaScript, CREATE_APPEND, codeViolations, importViolations, repoFiles } from '../scripts/import-rules.ts';

const files = repoFiles();

describe('import rules', () => {
  it('hold in this repository', async () => {
    expect(await importViolations(files)).toEqual([]);
    expect(codeViolations(files)).toEqual([]);
  }, 60_000);

  it('see the imports they judge (the check is not vacuous)', () => {
    expect(files.size).toBeGreaterThan(50);
    const js = asJavaScript(files.get('workers/connectors/service_test/response.ts')!);
    // Type-only imports are kept as imports, with the copy's .js names.
    expect(js).toContain("from '../kit/http.js'");
    expect(js).toContain("from './schemas.js'");
    expect(files.get(CREATE_APPEND.file)).toContain(CREATE_APPEND.call);
  });

  // Each broken rule is reported by its name, with the offending file and import. All are judged in one run.
  const broken: [string, string, string, string][] = [
    ['domain-is-pure', 'domain/x1.ts', "import { config } from '../lib/config.ts';", 'lib/config.ts'],
    ['domain-is-pure', 'domain/x2.ts', "import { MongoClient } from 'mongodb';", 'node_modules/mongodb/'],
    ['domain-is-pure', 'domain/x3.ts', "import type { Manifest } from '../workers/connectors/manifest.ts';", 'workers/connectors/manifest.ts'],
    ['lib-schemas-are-pure', 'lib/schemas/x.ts', "import { config } from '../config.ts';", 'lib/config.ts'],
    ['lib-imports-no-domain-no-process-no-connector', 'lib/x1.ts', "import type { StoredPayment } from '../domain/payment.ts';", 'domain/payment.ts'],
    [
      'lib-imports-no-domain-no-process-no-connector',
      'lib/x2.ts',
      "import { MANIFESTS } from '../workers/connectors/manifests.ts';",
      'workers/connectors/manifests.ts',
    ],
    ['lib-imports-no-domain-no-process-no-connector', 'lib/x3.ts', "export { createIntent } from '../gateway/operations.ts';", 'gateway/operations.ts'],
    ['processes-import-no-worker', 'gateway/x.ts', "import { processor } from '../workers/runtime.ts';", 'workers/runtime.ts'],
    [
      'processes-import-no-worker',
      'services/x/y.ts',
      "import { connector } from '../../workers/connectors/service_test/index.ts';",
      'workers/connectors/service_test/index.ts',
    ],
    [
      'sandbox-imports-no-connector-code',
      'services/provider-sandbox/providers/x/imitation.ts',
      "import { manifest } from '../../../../workers/connectors/service_test/manifest.ts';",
      'workers/connectors/service_test/manifest.ts',
    ],
    ['manifests-are-data', 'workers/connectors/x/manifest.ts', "import { config } from '../../../lib/config.ts';", 'lib/config.ts'],
    ['connectors-are-pure', 'workers/connectors/x/request.ts', "import { config } from '../../../lib/config.ts';", 'lib/config.ts'],
    ['connectors-are-pure', 'workers/connectors/x/response.ts', "import { providerCall } from '../../provider-http.ts';", 'workers/provider-http.ts'],
    ['connectors-are-pure', 'workers/connectors/x/errors.ts', "import { unifiedFor } from '../riverty/errors.ts';", 'workers/connectors/riverty/errors.ts'],
    ['connector-kit-is-pure', 'workers/connectors/kit/x.ts', "import { log } from '../../../lib/log.ts';", 'lib/log.ts'],
    ['decisions-only-in-payment-state', 'gateway/x2.ts', "import { beginCapture } from '../domain/begin.ts';", 'domain/begin.ts'],
    ['decisions-only-in-payment-state', 'workers/x.ts', "import { applyOutcome } from '../domain/outcomes.ts';", 'domain/outcomes.ts'],
    ['client-is-standalone', 'client/x1.ts', "import { errors } from '../lib/errors.ts';", 'lib/errors.ts'],
    ['client-is-standalone', 'client/x2.ts', "import { z } from 'zod';", 'node_modules/zod/'],
    ['service-imports-no-client', 'gateway/x3.ts', "import { createPaymentClient } from '../client/index.ts';", 'client/index.ts'],
  ];
  it('fail for each broken rule, naming the rule, the file and the import', async () => {
    const found = await importViolations(new Map([...files, ...broken.map(([, file, source]) => [file, source] as [string, string])]));
    for (const [rule, file, , to] of broken) {
      expect(found, `${rule}: ${file} -> ${to}`).toContainEqual(expect.objectContaining({ rule, from: file, to: expect.stringContaining(to) }));
    }
    // What is allowed stays allowed: a connector's own folder, the kit, domain's job and outcome types, zod.
    const ok = await importViolations(
      new Map([
        ...files,
        [
          'workers/connectors/x/ok.ts',
          [
            "import { z } from 'zod';",
            "import { readAnswer } from '../kit/answer.ts';",
            "import type { ConnectorJob } from '../../../domain/job.ts';",
            "import { manifest } from './manifest.ts';",
          ].join('\n'),
        ],
        ['workers/connectors/x/manifest.ts', "import { z } from 'zod';\nimport type { Manifest } from '../manifest.ts';"],
      ]),
    );
    expect(ok.filter((v) => v.from.startsWith('workers/connectors/x/'))).toEqual([]);
  }, 60_000);

  // What dependency-cruiser cannot express: names and calls.
  const brokenCode = (file: string, source: string) => codeViolations(new Map([...files, [file, source]]));
  it.each([
    [
      'gateway/x.ts',
      "import { authenticationAnswer, beginAuthenticate } from '../domain/three-ds.ts';",
      "gateway/x.ts:1 imports '../domain/three-ds.ts' { beginAuthenticate }: only services/payment-state/ may import a decision",
    ],
    ['gateway/x.ts', "import * as threeDs from '../domain/three-ds.ts';", "gateway/x.ts:1 imports '../domain/three-ds.ts' as a whole: it exports decisions"],
    ['workers/x.ts', "const ok = await deps.store.append(next, { action: 'capture' });", 'workers/x.ts:1 appends a transition'],
    ['gateway/x.ts', "await db.collection('transitions').insertOne(t);", 'gateway/x.ts:1 writes the transitions collection'],
  ])('fail for %s: %s', (file, source, message) => {
    expect(brokenCode(file, source).join('\n')).toContain(message);
  });

  it('allow exactly one transition append in the gateway: the create at seq 0', () => {
    const create = files.get(CREATE_APPEND.file)!;
    expect(
      brokenCode(CREATE_APPEND.file, `${create}\nawait deps.store.append(next, { action: 'capture', operation_id: null, prev: null });`).join('\n'),
    ).toContain(`${CREATE_APPEND.file}:${create.split('\n').length + 1} appends a transition`);
    expect(brokenCode(CREATE_APPEND.file, create.replace(CREATE_APPEND.call, "deps.store.save(intent, { action: 'create'")).join('\n')).toContain(
      'expected exactly one create at seq 0',
    );
    expect(
      brokenCode(
        'gateway/x.ts',
        "import { toResource } from '../domain/intent.ts';\nimport { canStart } from '../domain/transitions.ts';\nimport { authenticationAnswer } from '../domain/three-ds.ts';",
      ),
    ).toEqual([]);
  });
});
