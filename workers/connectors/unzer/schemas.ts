// Unzer's answers and notifications as zod schemas (transactions, payments, errors, the webhook), from Unzer's own
// shapes (README.md, Sources; fixtures/). Read through the kit (readAnswer, maybeAnswer, readBody): never cast.
import { z } from 'zod';

/** Any created resource: a type (s-piv-…), a customer (s-cst-…), a basket (s-bsk-…). */
export const UnzerResource = z.object({ id: z.string().min(1) });

export const Message = z.object({ code: z.string(), merchant: z.string().optional(), customer: z.string().optional() });

/** A transaction: authorization (s-aut-…), charge (s-chg-…), cancel (s-cnl-…). */
export const UnzerTransaction = z.object({
  id: z.string().min(1),
  isSuccess: z.boolean(),
  isPending: z.boolean(),
  isError: z.boolean(),
  isResumed: z.boolean().optional(),
  redirectUrl: z.string().optional(),
  message: Message.optional(),
  amount: z.string().optional(),
  currency: z.string().optional(),
  orderId: z.string().nullish(),
  resources: z.object({ paymentId: z.string().optional() }).passthrough().optional(),
});

export type UnzerTransaction = z.infer<typeof UnzerTransaction>;

/** GET /v1/payments/{id}: the payment's state and its transactions. */
export const UnzerPayment = z.object({
  id: z.string().min(1),
  state: z.object({ id: z.number().int(), name: z.enum(['pending', 'completed', 'canceled', 'partly', 'payment_review', 'chargeback', 'create']) }),
  amount: z.object({ total: z.string(), charged: z.string(), canceled: z.string(), remaining: z.string() }),
  currency: z.string(),
  orderId: z.string().nullish(),
  transactions: z.array(
    z.object({ type: z.string(), status: z.enum(['pending', 'success', 'error', 'resumed']), url: z.string().optional(), amount: z.string().optional() }),
  ),
});

export type UnzerPayment = z.infer<typeof UnzerPayment>;

export const UnzerError = z.object({
  id: z.string().optional(),
  isError: z.boolean().optional(),
  errors: z.array(z.object({ code: z.string(), merchantMessage: z.string(), customerMessage: z.string().optional() })).min(1),
});

export const Webhook = z.object({
  event: z.string().min(1),
  paymentId: z.string().regex(/^s-pay-[A-Za-z0-9]+$/),
  publicKey: z.string().optional(),
  retrieveUrl: z.string().optional(),
});
