// The OpenAPI document, built in process as the gateway builds it: `redocly lint` finds no error and no warning (the
// rules turned off are in redocly.yaml, with their reasons), every route the gateway serves is documented (or listed
// here as no API operation), every operation has its operationId, tag, security and refusals, and every example is
// one the zod schemas accept.
import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, describe, expect, it } from 'vitest';
import type { z } from 'zod';
import { routesOfApp } from '../test/support/routes.ts';
import { COMPONENT_SCHEMAS, DOCUMENTED_ROUTES, ERROR_EXAMPLES, ErrorBody, openApiDocument } from './openapi.ts';

const doc = openApiDocument() as unknown as {
  tags: { name: string }[];
  servers: { url: string }[];
  paths: Record<string, Record<string, Operation>>;
  components: { schemas: Record<string, unknown>; securitySchemes: Record<string, { type: string; in: string; name: string }> };
};
interface Media {
  schema: { $ref?: string };
  example?: unknown;
  examples?: Record<string, { value: unknown }>;
}
interface Operation {
  operationId: string;
  tags: string[];
  summary: string;
  security: Record<string, string[]>[];
  requestBody?: { content: Record<string, Media> };
  responses: Record<string, { description: string; content?: Record<string, Media> }>;
}
const operations = Object.entries(doc.paths).flatMap(([path, methods]) =>
  Object.entries(methods).map(([method, op]) => ({ route: `${method.toUpperCase()} ${path}`, op })),
);

/** Routes that are no API operation: the document itself, its page, health, and the checkout pages and their own calls. */
const NOT_OPERATIONS = [
  'GET /health',
  'GET /openapi.json',
  'GET /docs',
  'GET /docs/scalar.js',
  'GET /payment_link/s/:merchant_id/:payment_id',
  'POST /payment_link/s/:merchant_id/:payment_id/confirm',
  'POST /payment_link/s/:merchant_id/:payment_id/3ds/authentication',
  'GET /payment_link/:merchant_id/:payment_id',
  'POST /payment_link/:merchant_id/:payment_id/confirm',
  'POST /payment_link/:merchant_id/:payment_id/3ds/authentication',
];
/** Operational routes other parts of issue 23 add (metrics, health, queue board, dashboard): not the merchants' API. */
const OPERATIONAL = /^(GET|POST|PUT|DELETE) \/(metrics|health\/|admin\/queues|dashboard)/;

const dir = mkdtempSync(join(tmpdir(), 'openapi-lint-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('redocly lint', () => {
  it('passes with no error and no warning', async () => {
    const file = join(dir, 'openapi.json');
    writeFileSync(file, JSON.stringify(doc, null, 2));
    let out: string;
    try {
      ({ stdout: out } = await promisify(execFile)('npx', ['redocly', 'lint', file, '--config', 'redocly.yaml', '--format', 'json', '--max-problems', '1000'], {
        env: { ...process.env, REDOCLY_TELEMETRY: 'off', REDOCLY_SUPPRESS_UPDATE_NOTICE: 'true' },
        maxBuffer: 64 * 1024 * 1024,
      }));
    } catch (err) {
      // Exit code 1 when it finds errors: its report is still on stdout.
      out = (err as { stdout?: string }).stdout ?? '';
      if (!out) throw err;
    }
    const report = JSON.parse(out) as { problems: { ruleId: string; severity: string; message: string; location: { pointer: string }[] }[] };
    const problems = report.problems.map((p) => `${p.severity} ${p.ruleId}: ${p.message} at ${p.location[0]?.pointer}`);
    expect(problems).toEqual([]);
  }, 120_000);
});

describe('the document', () => {
  it('documents every route the gateway serves', () => {
    const served = routesOfApp().filter((r) => !NOT_OPERATIONS.includes(r) && !OPERATIONAL.test(r));
    expect(served.filter((r) => !DOCUMENTED_ROUTES.includes(r))).toEqual([]);
    expect(DOCUMENTED_ROUTES.filter((r) => !served.includes(r))).toEqual([]);
    expect(operations.length).toBe(DOCUMENTED_ROUTES.length);
  });

  it('names every operation once, tags it with a declared tag, and gives its security', () => {
    const ids = operations.map(({ op }) => op.operationId);
    expect(new Set(ids).size).toBe(ids.length);
    for (const id of [
      'createPayment',
      'retrievePayment',
      'confirmPayment',
      'capturePayment',
      'cancelPayment',
      'createRefund',
      'retrieveRefund',
      'listPayments',
    ]) {
      expect(ids).toContain(id);
    }
    const tags = doc.tags.map((t) => t.name);
    for (const { route, op } of operations) {
      expect(op.operationId, route).toMatch(/^[a-z][A-Za-z]+$/);
      expect(op.tags.length, route).toBe(1);
      expect(tags, route).toContain(op.tags[0]);
      expect(op.summary, route).toBeTruthy();
      expect(Array.isArray(op.security), route).toBe(true);
    }
    expect(doc.servers.length).toBeGreaterThan(0);
  });

  it('has the admin key, the secret key and the publishable key as separate security schemes, each on its routes', () => {
    expect(Object.keys(doc.components.securitySchemes).sort()).toEqual(['admin_api_key', 'api_key', 'publishable_key']);
    const schemesOf = (route: string) =>
      operations
        .find((o) => o.route === route)!
        .op.security.flatMap((s) => Object.keys(s))
        .sort();
    expect(schemesOf('POST /accounts')).toEqual(['admin_api_key']);
    expect(schemesOf('POST /account/{merchant_id}/connectors')).toEqual(['admin_api_key']);
    expect(schemesOf('POST /payments')).toEqual(['api_key']);
    expect(schemesOf('POST /payments/{payment_id}/confirm')).toEqual(['api_key', 'publishable_key']);
    expect(schemesOf('GET /events/{merchant_id}')).toEqual(['admin_api_key', 'api_key']);
    expect(schemesOf('GET /feature_matrix')).toEqual([]);
    expect(schemesOf('POST /webhooks/{merchant_id}/{merchant_connector_id}')).toEqual([]);
  });

  it('answers every refusal with the shared error schema: 401 on keyed routes, 404 where a path names a resource, 429 everywhere', () => {
    for (const { route, op } of operations) {
      const statuses = Object.keys(op.responses);
      expect(statuses, route).toContain('200');
      expect(statuses, route).toContain('429');
      if (op.security.length) expect(statuses, route).toContain('401');
      if (
        /\{(payment_id|refund_id|customer_id|mandate_id|dispute_id|merchant_id|key_id|profile_id|merchant_connector_id|event_id|payment_link_id)\}/.test(route)
      )
        expect(statuses, route).toContain('404');
      if (op.security.some((s) => 'api_key' in s) && !op.security.some((s) => 'publishable_key' in s)) expect(statuses, route).toContain('403');
      for (const [status, r] of Object.entries(op.responses)) {
        if (Number(status) < 400) continue;
        expect(r.content?.['application/json']?.schema, `${route} ${status}`).toEqual({ $ref: '#/components/schemas/Error' });
      }
      // Every body is a named component.
      for (const media of [op.requestBody?.content['application/json'], ...Object.values(op.responses).map((r) => r.content?.['application/json'])]) {
        if (media) expect(media.schema.$ref, route).toMatch(/^#\/components\/schemas\/\w+$/);
      }
    }
    const payment = doc.paths['/payments/{payment_id}/capture'].post.responses;
    expect(Object.keys(payment).sort()).toEqual(['200', '400', '401', '403', '404', '409', '429', '503']);
  });

  it('resolves every $ref', () => {
    const refs = JSON.stringify(doc).match(/"\$ref":"[^"]+"/g) ?? [];
    for (const r of new Set(refs)) {
      const pointer = JSON.parse(`{${r}}`).$ref as string;
      const target = pointer
        .slice(2)
        .split('/')
        .reduce<unknown>((node, key) => (node as Record<string, unknown> | undefined)?.[key], doc);
      expect(target, pointer).toBeDefined();
    }
  });

  it('has examples, each one the zod schemas accept', () => {
    let checked = 0;
    for (const { route, op } of operations) {
      const medias: [string, Media | undefined][] = [
        ['request', op.requestBody?.content['application/json']],
        ...Object.entries(op.responses).map(([s, r]): [string, Media | undefined] => [s, r.content?.['application/json']]),
      ];
      for (const [where, media] of medias) {
        if (!media) continue;
        const name = media.schema.$ref!.split('/').pop()!;
        const schema = (COMPONENT_SCHEMAS as Record<string, z.ZodType>)[name]!;
        const values = [media.example, ...Object.values(media.examples ?? {}).map((e) => e.value)].filter((v) => v !== undefined);
        for (const v of values) {
          const r = schema.safeParse(v);
          expect(r.success, `${route} ${where}: ${r.success ? '' : JSON.stringify(r.error.issues[0])}`).toBe(true);
          checked++;
        }
      }
    }
    for (const e of Object.values(ERROR_EXAMPLES)) expect(ErrorBody.safeParse(e).success).toBe(true);
    expect(checked).toBeGreaterThan(50);
    const create = doc.paths['/payments'].post;
    expect(Object.keys(create.requestBody!.content['application/json'].examples!)).toEqual(['create', 'create_and_confirm']);
    expect(create.responses['200'].content!['application/json'].example).toMatchObject({ payment_id: expect.stringMatching(/^pay_/) });
  });
});
