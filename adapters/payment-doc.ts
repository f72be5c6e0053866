// How a payment is laid out in MongoDB: the projection in `payments`, the snapshot in each `transitions` entry, and
// the payment resource in each `events` entry of a payment. The resource has about 60 top-level fields, and each
// attempt, capture and refund about 15, that stay null until something sets them; stored as such they made a simple
// payment 3.4 kB of BSON, 1.2 kB of it null fields. They are stored only when set and read back as null, so every
// reader sees the same payment as before while every write and read moves about a third fewer bytes
// (docs/decisions.md, "Payments stored without their null fields").
import type { z } from 'zod';
import { Attempt, Capture, PAYMENT_FIELDS } from '../lib/schemas/payment.ts';
import { Refund } from '../lib/schemas/refund.ts';
import type { StoredPayment } from '../domain/payment.ts';

/** The fields of `schema` that are always there and may be null: those a document leaves out when null. */
const alwaysNullable = (schema: z.ZodObject) =>
  new Set(Object.entries(schema.shape).flatMap(([k, s]) => (!s.safeParse(undefined).success && s.safeParse(null).success ? [k] : [])));

/**
 * A kind of object whose null fields are left out: its fields in order, which of them read back as null, and the
 * arrays of rows in it that are laid out the same way.
 */
interface Layout {
  order: readonly string[];
  nullable: ReadonlySet<string>;
  rows: ReadonlyMap<string, Layout>;
  /** What a read does for each field of `order`, worked out once (a read of a payment is on every GET). */
  steps: readonly Step[];
  ordered: ReadonlySet<string>;
}
/** One field of a layout: whether it reads back as null when missing, and the layout of its rows if it has any. */
interface Step {
  key: string;
  nullable: boolean;
  rows: Layout | undefined;
}
const layout = (order: readonly string[], nullable: ReadonlySet<string>, rows: [string, Layout][] = []): Layout => {
  const byKey = new Map(rows);
  return {
    order,
    nullable,
    rows: byKey,
    steps: order.map((key) => ({ key, nullable: nullable.has(key), rows: byKey.get(key) })),
    ordered: new Set(order),
  };
};
const ATTEMPT = layout(Object.keys(Attempt.shape), alwaysNullable(Attempt));
const CAPTURE = layout(Object.keys(Capture.shape), alwaysNullable(Capture));
/** A refund as the resource shows it, and as the payment keeps it (domain/payment.ts RefundRow). */
const REFUND = layout(Object.keys(Refund.shape), alwaysNullable(Refund));
const REFUND_ROW = layout([...REFUND.order, 'connector_refund_id', 'request_hash'], new Set([...REFUND.nullable, 'connector_refund_id']));

/**
 * A stored payment's top-level fields that are always there, null when unset (the resource's and those payment-state
 * keeps). Optional fields (three_ds, mandate, request_extras...) are stored as they are.
 */
const STORED: readonly string[] = [
  ...PAYMENT_FIELDS,
  'amount_to_capture',
  'routing',
  'request_incremental_authorization',
  'in_flight_since',
] satisfies readonly (keyof StoredPayment)[];
const STORED_PAYMENT = layout(STORED, new Set(STORED), [
  ['attempts', ATTEMPT],
  ['captures', CAPTURE],
  ['refunds', REFUND_ROW],
]);
const PAYMENT_RESOURCE = layout(PAYMENT_FIELDS, new Set(PAYMENT_FIELDS), [
  ['attempts', ATTEMPT],
  ['captures', CAPTURE],
  ['refunds', REFUND],
]);

const isRecord = (o: unknown): o is Record<string, unknown> => typeof o === 'object' && o !== null && !Array.isArray(o);

/** `o` without its nullable fields that are null; its attempts, captures and refunds the same. */
function leaveOutNulls<T extends object>(o: T, l: Layout): T {
  const doc: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(o)) {
    if (v == null && l.nullable.has(k)) continue;
    const rows = l.rows.get(k);
    doc[k] = rows && Array.isArray(v) ? v.map((r) => (isRecord(r) ? leaveOutNulls(r, rows) : r)) : v;
  }
  return doc as T;
}

/**
 * `doc` as stored, with the nullable fields it leaves out set to null, in the layout's order, then the rest (so that
 * the JSON of a resource is the same text as before this layout); `fields`: only those (a projection's). Documents
 * stored with their nulls (before this layout) read the same.
 */
function restoreNulls<T extends object>(doc: T, l: Layout, fields?: readonly string[]): T {
  const from = doc as Record<string, unknown>;
  const out: Record<string, unknown> = {};
  const steps = fields ? projected(l, fields) : l;
  for (const { key, nullable, rows } of steps.steps) {
    const v = from[key];
    if (v === undefined) {
      if (nullable) out[key] = null;
    } else out[key] = rows && Array.isArray(v) ? v.map((r) => (isRecord(r) ? restoreNulls(r, rows) : r)) : v;
  }
  for (const k in from) if (!steps.ordered.has(k)) out[k] = from[k];
  return out as T;
}

/** The layout restricted to a projection's fields (the lists' PAYMENT_FIELDS), worked out once per fields list. */
const projections = new WeakMap<readonly string[], Layout>();
function projected(l: Layout, fields: readonly string[]): Layout {
  let p = projections.get(fields);
  if (!p) {
    p = layout(fields, l.nullable, [...l.rows]);
    projections.set(fields, p);
  }
  return p;
}

/** The document to store for `p` (a projection or a transition's snapshot). */
export const paymentDoc = (p: StoredPayment): StoredPayment => leaveOutNulls(p, STORED_PAYMENT);

/** A stored payment as read, or the fields of it a projection asked for (only those are restored). */
export const restorePayment = <T extends object>(doc: T, fields?: readonly string[]): T => restoreNulls(doc, STORED_PAYMENT, fields);

/** The payment resource of a payment's event (object_type payment_details) as stored. */
export const paymentResourceDoc = <T>(o: T): T => (isRecord(o) ? leaveOutNulls(o, PAYMENT_RESOURCE) : o);

/** The payment resource of an event as read: every field, in the resource's order (the webhook's body is its JSON). */
export function restorePaymentResource(o: unknown): unknown {
  return isRecord(o) ? restoreNulls(o, PAYMENT_RESOURCE) : o;
}
