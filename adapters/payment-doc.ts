// How a payment is laid out in MongoDB (the projection in `payments`, the snapshot in each `transitions` entry).
// The resource has about 60 top-level fields that stay null until something sets them; stored as such they made a
// simple payment 3.4 kB of BSON, 1 kB of it null fields. They are stored only when set and read back as null, so
// every reader sees the same payment as before while every write and read moves about 30 % fewer bytes
// (docs/decisions.md, "Payments stored without their null fields").
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
const nullWhenAbsent = new Set(NULL_WHEN_ABSENT);

/**
 * The document to store for `p`: `p` without the always-present fields that are null. Typed as the payment it
 * stands for: MongoDB matches a missing field as null in queries, and every read goes through restorePayment.
 */
export function paymentDoc(p: StoredPayment): StoredPayment {
  const doc = { ...p };
  for (const k of NULL_WHEN_ABSENT) if (Reflect.get(doc, k) == null) Reflect.deleteProperty(doc, k);
  return doc;
}

/**
 * A stored payment as read (or the fields of it a projection asked for), with the always-present fields its document
 * leaves out set to null. Documents written before this layout, with their nulls, read the same.
 */
export function restorePayment<T extends object>(doc: T, fields: readonly string[] = NULL_WHEN_ABSENT): T {
  for (const k of fields) if (nullWhenAbsent.has(k) && Reflect.get(doc, k) === undefined) Reflect.set(doc, k, null);
  return doc;
}
