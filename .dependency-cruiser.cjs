// The architecture's import rules, in one file (docs/architecture.md explains the layers). Checked by
// `npm run lint:deps` (scripts/import-rules.ts, which test/import-rules.test.ts and .ci/run run). They cover the code
// that runs in production: unit tests (*.test.ts) and test/ are not checked.
//
// dependency-cruiser 18 cannot read TypeScript 7 yet, so scripts/import-rules.ts hands it a copy of the sources with
// the types stripped (node:module stripTypeScriptTypes, `import type` kept as an import): paths below match both
// .ts and the copy's .js. Type-only imports count like any other import.
//
// Two rules are not about import paths and stay small checks in scripts/import-rules.ts: which NAMES of domain/ a
// file may import (decisions: begin*, *Outcome), and that only services/payment-state/ appends a transition.

/** A connector's manifest (and the manifest type and generated registry): pure data every process may read. */
const MANIFEST = '^workers/connectors/(manifest|manifests|[^/]+/manifest)\\.[jt]s$';
/** zod, the one package pure code may use. */
const ZOD = '^node_modules/zod/';

/** @type {import('dependency-cruiser').IConfiguration} */
module.exports = {
  forbidden: [
    {
      name: 'domain-is-pure',
      comment:
        'domain/ is the payment model and its decisions: it imports only domain/, lib/schemas/ and zod (no I/O, no ' +
        'config, no connector: what a connector can do is handed to it as data by its callers).',
      severity: 'error',
      from: { path: '^domain/' },
      to: { pathNot: [`^(domain|lib/schemas)/`, ZOD, '^(node:)?crypto$'] },
    },
    {
      name: 'lib-schemas-are-pure',
      comment: "lib/schemas/ (the API's value types) imports only itself and zod, since domain/ imports it.",
      severity: 'error',
      from: { path: '^lib/schemas/' },
      to: { pathNot: ['^lib/schemas/', ZOD] },
    },
    {
      name: 'lib-imports-no-domain-no-process-no-connector',
      comment:
        'lib/ is shared infrastructure (storage, queue, config, telemetry): it imports neither domain/ nor a process ' +
        '(gateway/, services/, workers/) nor any connector; what it needs of them is passed in by its callers.',
      severity: 'error',
      from: { path: '^lib/' },
      to: { path: '^(domain|gateway|services|workers)/' },
    },
    {
      name: 'adapters-import-no-process',
      comment:
        "adapters/ (the domain's stores, queue and gRPC payloads) imports domain/, lib/ and the connectors' manifests " +
        '(the queue policy), never a process (gateway/, services/, workers/ beyond the manifests).',
      severity: 'error',
      from: { path: '^adapters/' },
      to: { path: '^(gateway|services|workers)/', pathNot: MANIFEST },
    },
    {
      name: 'nothing-below-imports-adapters',
      comment: 'domain/ and lib/ sit below adapters/: they never import it.',
      severity: 'error',
      from: { path: '^(domain|lib)/' },
      to: { path: '^adapters/' },
    },
    {
      name: 'processes-import-no-worker',
      comment:
        "gateway/ and services/ never import workers/, except the connectors' manifests (pure data: capabilities, " +
        "queue policy, notification scheme) and the connector kit's notification verification, which the gateway " +
        'applies before anything is written.',
      severity: 'error',
      from: { path: '^(gateway|services)/' },
      to: { path: '^workers/', pathNot: [MANIFEST, '^workers/connectors/kit/verify\\.[jt]s$'] },
    },
    {
      name: 'sandbox-imports-no-connector-code',
      comment:
        "The provider sandbox imitates the providers: it shares the providers' published example files with the " +
        "connectors (read as files), never code, so an imitation cannot simply agree with a connector's mistake.",
      severity: 'error',
      from: { path: '^services/provider-sandbox/' },
      to: { path: '^workers/' },
    },
    {
      name: 'manifests-are-data',
      comment: 'A connector manifest imports only other manifest files, lib/schemas/ and zod, so every process may read it.',
      severity: 'error',
      from: { path: MANIFEST },
      to: { pathNot: [MANIFEST, '^lib/schemas/', ZOD] },
    },
    {
      name: 'connectors-are-pure',
      comment:
        "A connector (workers/connectors/<name>/) turns our job into the provider's request and its answer into our " +
        'outcome, nothing else: it imports its own folder, the connector kit, the connector types, the job and ' +
        'outcome types of domain/, lib/schemas/, zod and node:crypto (signatures). Never the runtime (workers/*.ts), ' +
        'lib/ (config, stores), another connector or the sandbox.',
      severity: 'error',
      from: { path: '^workers/connectors/([^/]+)/', pathNot: '^workers/connectors/kit/' },
      to: {
        pathNot: [
          '^workers/connectors/$1/',
          '^workers/connectors/kit/',
          '^workers/connectors/(manifest|types)\\.[jt]s$',
          '^domain/(job|payment)\\.[jt]s$',
          '^lib/schemas/',
          ZOD,
          '^(node:)?crypto$',
        ],
      },
    },
    {
      name: 'connector-kit-is-pure',
      comment:
        'The connector kit (workers/connectors/kit/) is what connectors share: it imports only the connector types, ' +
        'the job and outcome types of domain/, lib/schemas/, lib/money.ts (exact unit conversions), zod and node:crypto.',
      severity: 'error',
      from: { path: '^workers/connectors/kit/' },
      to: {
        pathNot: [
          '^workers/connectors/kit/',
          '^workers/connectors/(manifest|types)\\.[jt]s$',
          '^domain/(job|payment)\\.[jt]s$',
          '^lib/schemas/',
          '^lib/money\\.[jt]s$',
          ZOD,
          '^(node:)?crypto$',
        ],
      },
    },
    {
      name: 'connector-shared-files-are-pure',
      comment: 'The connector types and registry (workers/connectors/*.ts) import only connector files, domain/ types, lib/schemas/ and zod.',
      severity: 'error',
      from: { path: '^workers/connectors/[^/]+\\.[jt]s$', pathNot: '^workers/connectors/index\\.[jt]s$' },
      to: { pathNot: ['^workers/connectors/', '^domain/(job|payment)\\.[jt]s$', '^lib/schemas/', ZOD, '^proto/generated/'] },
    },
    {
      name: 'decisions-only-in-payment-state',
      comment:
        'The decisions (domain/begin.ts, domain/outcomes.ts) are imported only by services/payment-state/ (and domain/ ' +
        "itself): payment-state is the only writer of a payment's transitions.",
      severity: 'error',
      from: { pathNot: '^(services/payment-state|domain)/' },
      to: { path: '^domain/(begin|outcomes)\\.[jt]s$' },
    },
    {
      name: 'client-is-standalone',
      comment:
        'client/ is the typed client, a package of its own (@bnpl/client): it imports only itself and openapi-fetch, ' +
        "never the service's code; its types come from the OpenAPI document (client/schema.d.ts, `npm run client:gen`).",
      severity: 'error',
      from: { path: '^client/' },
      to: { pathNot: ['^client/', '^node_modules/openapi-fetch/', '^node_modules/openapi-typescript-helpers/'] },
    },
    {
      name: 'service-imports-no-client',
      comment: "The service's code never imports the typed client (client/): the client follows the service, not the reverse.",
      severity: 'error',
      from: { pathNot: '^client/' },
      to: { path: '^client/' },
    },
  ],
  options: {
    doNotFollow: { path: 'node_modules' },
    // node_modules may be a link (worktrees share one): packages are named by where they are imported from.
    preserveSymlinks: true,
    tsPreCompilationDeps: true,
    // Unit tests are not checked (the rules are for what runs in production); packages are judged but not followed.
    exclude: { path: '\\.test\\.[jt]s$' },
  },
};
