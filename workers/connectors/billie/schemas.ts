// Billie's answers and webhook as zod schemas (order, invoice, credit note, token, errors), from Billie's own shapes
// (README.md, Sources; fixtures/). Read through the kit (readAnswer, maybeAnswer, readBody): never cast.
import { z } from 'zod';

export const Amount = z.object({ net: z.number(), gross: z.number(), tax: z.number() });

export const ORDER_STATES = [
  'created',
  'declined',
  'waiting',
  'pre_waiting',
  'authorized',
  'pre_approved',
  'partially_shipped',
  'shipped',
  'paid_out',
  'late',
  'complete',
  'canceled',
  // Billie's order-states page spells it "cancelled", its SDK "canceled": both are read (issue 21).
  'cancelled',
] as const;

export const BillieOrder = z.object({
  uuid: z.string().min(1),
  external_code: z.string().nullish(),
  state: z.enum(ORDER_STATES),
  decline_reason: z.string().nullish(),
  amount: Amount,
});

export const BillieInvoice = z.object({ uuid: z.string().min(1), state: z.string().optional(), amount: Amount.optional() });

export const BillieCreditNote = z.object({ uuid: z.string().min(1) });

export const BillieToken = z.object({ token_type: z.string().optional(), expires_in: z.number().int().positive(), access_token: z.string().min(1) });

export const BillieError = z.object({ errors: z.array(z.object({ title: z.string(), code: z.string().nullish(), source: z.string().nullish() })).min(1) });

export const OAuthError = z.object({ error: z.string(), error_description: z.string().nullish() });

export const Webhook = z
  .object({
    event: z.string().min(1),
    created_at: z.string().regex(/^\d{4}-\d{2}-\d{2}[ T]\d{2}:\d{2}:\d{2}/),
    order_id: z.string().nullish(),
    order_uuid: z.string().min(1),
    /** UNVERIFIED: the declined event's payload is not documented; Billie's order carries decline_reason. */
    decline_reason: z.string().nullish(),
  })
  .passthrough();
