// zod validation -> the error body: the first problem found, naming its field.
import type { z } from 'zod';
import { errors, type ApiError } from '../lib/errors.ts';

function valueAt(body: unknown, path: PropertyKey[]): unknown {
  let v: unknown = body;
  for (const k of path) {
    if (v === null || typeof v !== 'object') return undefined;
    v = (v as Record<PropertyKey, unknown>)[k];
  }
  return v;
}

export function toApiError(issues: z.core.$ZodIssue[], body: unknown): ApiError {
  const issue = issues[0];
  const path = issue.path.map(String).join('.');
  if (issue.code === 'unrecognized_keys') {
    const key = issue.keys[0];
    return errors.unknownField(path ? `${path}.${key}` : key);
  }
  if (issue.code !== 'custom' && issue.path.length > 0 && valueAt(body, issue.path) === undefined) return errors.missing(path);
  // A record's key: its own rule's message says what is wrong with it (zod's is only "Invalid key in record").
  if (issue.code === 'invalid_key') return errors.invalid(path, issue.issues[0]?.message ?? issue.message);
  return errors.invalid(path || 'body', issue.message);
}

export function validate<S extends z.ZodType>(schema: S, body: unknown): z.infer<S> {
  if (Array.isArray(body) || (body !== undefined && body !== null && typeof body !== 'object')) {
    throw errors.invalid('body', 'request body must be a JSON object');
  }
  if (body === undefined || body === null) {
    const r = schema.safeParse({});
    if (r.success) return r.data;
    throw errors.invalid('body', 'request body must be a JSON object');
  }
  const r = schema.safeParse(body);
  if (!r.success) throw toApiError(r.error.issues, body);
  return r.data;
}
