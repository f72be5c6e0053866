// Reading a provider's notification body, once for every connector's notification flow: the raw body as JSON of the
// provider's shape (its zod schema), or the reason it is not (an 'unknown' notification: logged and left, never guessed).
import { z } from 'zod';
import type { ProviderNotification } from '../types.ts';

export type Unreadable = Extract<ProviderNotification, { object: 'unknown' }>;
export const unreadable = (reason: string): Unreadable => ({ object: 'unknown', reason });

/** The body read with `schema`; a body that is not JSON, or not that shape, is unreadable (`what` names the shape). */
export function readBody<T>(rawBody: string, schema: z.ZodType<T>, what: string): { data: T } | Unreadable {
  let json: unknown;
  try {
    json = JSON.parse(rawBody);
  } catch {
    return unreadable('the body is not JSON');
  }
  return readPart(json, schema, what);
}

/** A part of a notification (an envelope's data by its type, a form's fields) read with `schema`, as readBody does. */
export function readPart<T>(value: unknown, schema: z.ZodType<T>, what: string): { data: T } | Unreadable {
  const r = schema.safeParse(value);
  return r.success ? { data: r.data } : unreadable(`not ${what}: ${z.prettifyError(r.error)}`);
}
