// Disputes of a payment: created and moved only by what a provider reports. Pure.
import { PAYMENT_DISPUTE_FIELDS } from '../lib/schemas/dispute.ts';
import type { DisputeRow } from './payment.ts';

/** The copy of a dispute a Payment embeds (spec 2.10): exactly its listed fields. */
export function paymentDisputeView(d: DisputeRow): Pick<DisputeRow, (typeof PAYMENT_DISPUTE_FIELDS)[number]> {
  return Object.fromEntries(PAYMENT_DISPUTE_FIELDS.map((k) => [k, d[k] ?? null])) as Pick<DisputeRow, (typeof PAYMENT_DISPUTE_FIELDS)[number]>;
}
