// Payment link (spec 2.14, 4.7).
import { z } from 'zod';
import { Amount, Currency, Timestamp } from './common.ts';

export const PaymentLink = z.object({
  payment_link_id: z.string(),
  merchant_id: z.string(),
  /** Open link: no security checks, no saved payment methods. */
  link_to_pay: z.string(),
  amount: Amount,
  created_at: Timestamp,
  status: z.enum(['active', 'expired']),
  expiry: Timestamp,
  description: z.string().nullable(),
  currency: Currency,
  /** Link with security checks (served only inside the merchant's own site). */
  secure_link: z.string().nullable(),
});

/** GET /payment_link/{id} may carry a JSON body with the payment's client_secret (spec 4.7). */
export const RetrievePaymentLinkRequest = z.strictObject({ client_secret: z.string().max(255).nullish() });

/** The checkout page's pay button: nothing to choose yet (BNPL, one payment method). */
export const CheckoutConfirmRequest = z.strictObject({});

export type PaymentLinkResource = z.infer<typeof PaymentLink>;
