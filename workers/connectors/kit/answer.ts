// Reading a provider's answer: parse, don't cast. A body is read with the zod schema of the provider's own shape
// (the connector's schemas.ts, written from the provider's published examples) and comes out typed. A body that
// is not that shape is not guessed at: it is an unknown outcome (UnexpectedAnswer), which the runtime treats as an
// unavailable provider: the job fails this attempt, is logged with the message (naming the path of each field that
// did not parse), and BullMQ runs it again later with the same idempotency key (adapters/queue.ts jobOptions, the
// connector's queue policy), which for a pending payment is a status sync. Nothing is reported to payment-state.
import type { z } from 'zod';
import type { ProviderResponse } from './http.ts';

/** A provider answer that is not the shape the provider documents: retried like an unavailable provider. */
export class UnexpectedAnswer extends Error {
  /** Where the body did not parse: each issue's path (dotted, `(body)` for the whole body) and message. */
  readonly issues: readonly { path: string; message: string }[];
  constructor(message: string, issues: readonly { path: string; message: string }[] = []) {
    super(message);
    this.name = 'UnexpectedAnswer';
    this.issues = issues;
  }
}

/** A zod error's issues as `path: message` (path dotted, array indexes in brackets). */
export function issuesOf(error: z.ZodError): { path: string; message: string }[] {
  return error.issues.map((i) => ({
    path: i.path.reduce<string>((p, k) => (typeof k === 'number' ? `${p}[${k}]` : p ? `${p}.${String(k)}` : String(k)), '') || '(body)',
    message: i.message,
  }));
}

/**
 * The answer's body parsed with `schema`: typed data, or an UnexpectedAnswer naming `what` (the connector and the
 * object, e.g. 'riverty order'), the HTTP status and the path of each field that did not parse.
 */
export function readAnswer<T>(schema: z.ZodType<T>, res: ProviderResponse, what: string): T {
  return readValue(schema, res.body, `${what} (HTTP ${res.status})`);
}

/** Any value of a provider's (a header's content, a part of an answer) parsed with `schema`, as readAnswer does. */
export function readValue<T>(schema: z.ZodType<T>, value: unknown, what: string): T {
  const r = schema.safeParse(value);
  if (r.success) return r.data;
  const issues = issuesOf(r.error);
  throw new UnexpectedAnswer(`${what}: unexpected answer: ${issues.map((i) => `${i.path}: ${i.message}`).join('; ')}`, issues);
}

/** The body parsed with `schema`, or null: for shapes that are optional by nature, such as an error answer's body. */
export function maybeAnswer<T>(schema: z.ZodType<T>, res: ProviderResponse): T | null {
  const r = schema.safeParse(res.body);
  return r.success ? r.data : null;
}
