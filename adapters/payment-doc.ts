// How a payment is laid out in MongoDB: the projection in `payments`, the snapshot in each `transitions` entry, and
// the payment resource in each `events` entry of a payment. The resource has about 60 top-level fields that stay null
// until something sets them; stored as such they made a simple payment 3.4 kB of BSON, 1 kB of it null fields. They
// are stored only when set and read back as null, so every reader sees the same payment as before while every write
// and read moves about 30 % fewer bytes (docs/decisions.md, "Payments stored without their null fields").
import { PAYMENT_FIELDS } from '../lib/schemas/payment.ts';
import type { StoredPayment } from '../domain/payment.ts';

/**
 * The top-level fields a stored payment always holds, null when unset: left out of the document when null, and
 * restored as null when read. Optional fields (three_ds, mandate, request_extras...) are stored as they are.
 */
const NULL_WHEN_ABSENT: readonly string[] = [
  ...PAYMENT_FIELDS,
  'amount_to_capture',
  'routing',
  'request_incremental_authorization',
  'in_flight_since',
] satisfies readonly (keyof StoredPayment)[];
const storedNullable = new Set(NULL_WHEN_ABSENT);
const resourceNullable = new Set<string>(PAYMENT_FIELDS);

/** `o` without those of `fields` that are null. The result stands for `o`: every read restores them (below). */
function leaveOutNulls<T extends object>(o: T, fields: ReadonlySet<string>): T {
  const doc: Partial<T> = {};
  for (const k in o) if (!(o[k] == null && fields.has(k))) doc[k] = o[k];
  return doc as T;
}

/** `doc` with `fields` it lacks set to null. Documents stored with their nulls (before this layout) read the same. */
function restoreNulls<T extends object>(doc: T, fields: readonly string[]): T {
  for (const k of fields) if (Reflect.get(doc, k) === undefined) Reflect.set(doc, k, null);
  return doc;
}

/** The document to store for `p` (a projection or a transition's snapshot). */
export const paymentDoc = (p: StoredPayment): StoredPayment => leaveOutNulls(p, storedNullable);

/** A stored payment as read, or the fields of it a projection asked for (only those are restored). */
export const restorePayment = <T extends object>(doc: T, fields: readonly string[] = NULL_WHEN_ABSENT): T => restoreNulls(doc, fields);

const isRecord = (o: unknown): o is Record<string, unknown> => typeof o === 'object' && o !== null && !Array.isArray(o);

/** The payment resource of a payment's event (object_type payment_details) as stored. */
export const paymentResourceDoc = <T>(o: T): T => (isRecord(o) ? leaveOutNulls(o, resourceNullable) : o);

/**
 * The payment resource of an event as read, its fields in the resource's order (the webhook's body is this object
 * serialised: the same text as before this layout).
 */
export function restorePaymentResource(o: unknown): unknown {
  if (!isRecord(o)) return o;
  const out: Record<string, unknown> = {};
  for (const k of PAYMENT_FIELDS) out[k] = o[k] ?? null;
  return Object.assign(out, o);
}
