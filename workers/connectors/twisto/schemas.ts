// Twisto's answers and webhook as zod schemas (checkout, charge, refunds, DRF errors), from Twisto's shapes
// (README.md, Sources; fixtures/). Read through the kit (readAnswer, maybeAnswer, readBody): never cast.
import { z } from 'zod';

/** Twisto's amounts: decimal strings, at most two places. */
export const Amount = z.string().regex(/^-?\d{0,8}(\.\d{0,2})?$/);

export const CHECKOUT_STATES = ['created', 'approved', 'completed', 'cancelled', 'error'] as const;

export const TwistoCheckout = z.object({
  id: z.string().min(1),
  uri: z.string().nullish(),
  type: z.string().nullish(),
  state: z.enum(CHECKOUT_STATES),
  created: z.string().nullish(),
  settled: z.string().nullish(),
  order: z.object({ reference: z.string().nullish(), amount: Amount, currency: z.string() }).partial().nullish(),
  merchant_reference: z.string().nullish(),
});

export type TwistoCheckoutBody = z.infer<typeof TwistoCheckout>;

/**
 * The charge-create reference's enum spells `authorised`; Twisto's create-a-charge guide spells `authorized` and asks
 * that a system accept the states it lists: both are read (issue 21).
 */
export const CHARGE_STATES = ['rejected', 'authorised', 'authorized', 'captured', 'cancelled', 'refunded', 'error'] as const;

export const TwistoCharge = z.object({
  id: z.string().min(1),
  reference: z.string().nullish(),
  amount: Amount,
  currency: z.string(),
  captured_amount: Amount.nullish(),
  refunded_amount: Amount.nullish(),
  created_date: z.string().nullish(),
  receipt_number: z.string().nullish(),
  product: z.string().nullish(),
  state: z.enum(CHARGE_STATES),
});

export const TwistoRefund = z.object({
  id: z.string().min(1),
  reason: z.string().nullish(),
  amount: Amount,
  created_date: z.string().nullish(),
  reference: z.string().nullish(),
  checkout_id: z.string().nullish(),
});

export const TwistoRefundList = z.object({
  count: z.number().int(),
  next: z.string().nullish(),
  previous: z.string().nullish(),
  items: z.array(TwistoRefund),
});

export const TwistoDetailError = z.object({ detail: z.string(), code: z.string().nullish() });

export type FieldTree = { [k: string]: string[] | FieldTree | FieldTree[] };

export const TwistoFieldErrors: z.ZodType<FieldTree> = z.record(
  z.string(),
  z.union([z.array(z.string()).min(1), z.lazy(() => TwistoFieldErrors), z.array(z.lazy(() => TwistoFieldErrors))]),
);

export const TwistoWebhook = z.object({
  checkout_id: z.string().min(1),
  state: z.string().min(1),
  total_amount: z.string().nullish(),
  refunded_amount: z.string().nullish(),
  created_date: z.string().nullish(),
  settled_date: z.string().nullish(),
  type: z.string().nullish(),
  external_id: z.string().nullish(),
});
