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

/**
 * The payment's state, read by its id as Unzer's SDKs do (php-sdk src/Constants/PaymentState.php, java-sdk
 * ApiToSdkConverter.getPaymentState): 0 pending, 1 completed, 2 canceled, 3 partly, 4 payment review (an overpayment to
 * check: docs.unzer.com payment-states), 5 chargeback, 6 create. The name's spelling is not relied on (issue 21: the
 * PHP SDK spells 4 "payment review", our schema only knew "payment_review").
 */
export const PaymentStateId = z.number().int().min(0).max(6);
export const STATE = { pending: 0, completed: 1, canceled: 2, partly: 3, payment_review: 4, chargeback: 5, create: 6 } as const;

/** GET /v1/payments/{id}: the payment's state and its transactions. */
export const UnzerPayment = z.object({
  id: z.string().min(1),
  state: z.object({ id: PaymentStateId, name: z.string().optional() }),
  amount: z.object({ total: z.string(), charged: z.string(), canceled: z.string(), remaining: z.string() }),
  currency: z.string(),
  orderId: z.string().nullish(),
  transactions: z.array(
    z.object({ type: z.string(), status: z.enum(['pending', 'success', 'error', 'resumed']), url: z.string().optional(), amount: z.string().optional() }),
  ),
});

export type UnzerPayment = z.infer<typeof UnzerPayment>;

/** An error body: {id: s-err-…, url, timestamp, errors: [{code, merchantMessage, customerMessage, status?}]} (the Java
 * SDK's TestData.errorJson; the PHP SDK reads errors[0] and defaults a missing code or message to ''). */
export const UnzerError = z.object({
  id: z.string().optional(),
  isError: z.boolean().optional(),
  errors: z.array(z.object({ code: z.string().optional(), merchantMessage: z.string().optional(), customerMessage: z.string().optional() })).min(1),
});

/** A notification: {event, publicKey, retrieveUrl, paymentId} (docs.unzer.com notifications). Ids are s-… in the sandbox
 * and p-… in production (php-sdk src/Services/IdService.php `[s|p]{1}-pay-`): issue 21, only s-pay- was read before. */
export const Webhook = z.object({
  event: z.string().min(1),
  paymentId: z.string().regex(/^[sp]-pay-[A-Za-z0-9-]+$/),
  publicKey: z.string().optional(),
  retrieveUrl: z.string().optional(),
});
