// What axytos publishes, read from the files the connector is tested with (workers/connectors/axytos/fixtures/: the
// OpenAPI models transcribed from axytos's generated client, the answers in those models' shapes; SOURCES.md names
// each). Files, never the connector's code: the imitation checks requests by axytos's rules and answers in axytos's
// shapes, so it cannot simply agree with a mistake of the connector's.
import { readFileSync } from 'node:fs';
import { randomBytes } from 'node:crypto';
import { z } from 'zod';

const fixture = (name: string): unknown => JSON.parse(readFileSync(new URL(`../../../../workers/connectors/axytos/fixtures/${name}`, import.meta.url), 'utf8'));

const Operation = z.object({ request: z.string().nullable(), responses: z.record(z.string(), z.string().nullable()) });
const OpenApi = z.object({ operations: z.record(z.string(), Operation), $defs: z.record(z.string(), z.record(z.string(), z.unknown())) });
const openapi = OpenApi.parse(fixture('openapi.json'));
const Answer = z.object({ status: z.number().int(), body: z.unknown() });
const answers = z.record(z.string(), Answer).parse(fixture('answers.json'));

/** A published answer (answers.json) to copy the shape of. */
export function published(name: string): { status: number; body: unknown } {
  const a = answers[name];
  if (!a) throw new Error(`axytos fixtures: no answer ${name}`);
  return structuredClone(a);
}

// ASP.NET's [Required] also refuses an empty string (AllowEmptyStrings is false by default): a required string field
// gets minLength 1 here. UNVERIFIED against the live API, which may accept "".
function requiredNonEmpty(defs: Record<string, Record<string, unknown>>) {
  const Def = z.object({ required: z.array(z.string()).optional(), properties: z.record(z.string(), z.record(z.string(), z.unknown())).optional() }).loose();
  return Object.fromEntries(
    Object.entries(defs).map(([name, def]) => {
      const d = Def.parse(def);
      if (!d.properties || !d.required) return [name, def];
      const properties = Object.fromEntries(
        Object.entries(d.properties).map(([k, p]) => [k, d.required!.includes(k) && p.type === 'string' ? { ...p, minLength: 1 } : p]),
      );
      return [name, { ...def, properties }];
    }),
  );
}
const defs = requiredNonEmpty(openapi.$defs);
const validators = new Map<string, z.ZodType>();
const validator = (model: string) => {
  let v = validators.get(model);
  if (!v) validators.set(model, (v = z.fromJSONSchema({ $defs: defs, $ref: `#/$defs/${model}` })));
  return v;
};

/** ASP.NET's field path: InvoiceAddress.ZipCode, Basket.Positions[0].ProductId. */
const fieldOf = (path: readonly PropertyKey[]) =>
  path.reduce<string>((p, k) => (typeof k === 'number' ? `${p}[${k}]` : `${p ? `${p}.` : ''}${String(k).charAt(0).toUpperCase()}${String(k).slice(1)}`), '') ||
  '$';

export type Answer = { status: number; body: unknown };

/** 400 with ASP.NET's validation problem (ProblemDetails plus errors), as answers.json `validation`. */
export function problem(field: string, message: string): Answer {
  const { body } = published('validation');
  return {
    status: 400,
    body: {
      ...z.record(z.string(), z.unknown()).parse(body),
      traceId: `00-${randomBytes(16).toString('hex')}-${randomBytes(8).toString('hex')}-00`,
      errors: { [field]: [message] },
    },
  };
}

const TITLES: Record<number, string> = { 400: 'Bad Request', 401: 'Unauthorized', 403: 'Forbidden', 404: 'Not Found', 500: 'Internal Server Error' };
/** Any other refusal: ProblemDetails (what axytos's OpenAPI gives 400, 401 and 403) with the reason as its detail. */
export function refused(status: number, detail: string): Answer {
  return { status, body: { type: `https://tools.ietf.org/html/rfc9110#status.${status}`, title: TITLES[status] ?? 'Error', status, detail } };
}

/** The published model of `METHOD /path` (the path under /api/v1), or null: axytos has no such operation. */
export function operationOf(method: string, path: string): z.infer<typeof Operation> | null {
  for (const [k, op] of Object.entries(openapi.operations)) {
    const [m, p] = k.split(' ');
    if (m === method && new RegExp(`^${p!.replace(/\{[^}]+\}/g, '[^/]+')}$`).test(path)) return op;
  }
  return null;
}

/** The request body checked by the operation's published model: null if it conforms, else axytos's 400 naming the field. */
export function checkRequest(method: string, path: string, body: unknown): Answer | null {
  const op = operationOf(method, path);
  if (!op?.request) return null;
  const r = validator(op.request).safeParse(body);
  if (r.success) return null;
  const issue = r.error.issues[0]!;
  const field = fieldOf(issue.path);
  return problem(
    field,
    issue.code === 'invalid_type' && /received undefined/.test(issue.message) ? `The ${field.split('.').at(-1)} field is required.` : issue.message,
  );
}
