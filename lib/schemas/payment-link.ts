// Payment link (spec 2.14, 4.7).
import { z } from 'zod';
import { Amount, Currency, httpUrl, storable, str, Timestamp } from './common.ts';

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

/** A site allowed to frame a secure link, written as its origin: scheme, host and port, no path. */
const FramingOrigin = httpUrl(255)
  .refine((u) => { const x = new URL(u); return x.pathname === '/' && !x.search && !x.hash && !x.username && !x.password && !u.endsWith('#') && !u.endsWith('?'); },
    'must be an origin (scheme://host[:port]) with no path, query or fragment')
  .transform((u) => new URL(u).origin);

/**
 * payment_link_config on create and update. allowed_domains makes the payment's link secure: it is then paid only
 * inside a frame of one of these sites (the open link refuses it). Other keys (theme, logo…) are kept and unused.
 */
export const PaymentLinkConfig = storable(z.looseObject({
  allowed_domains: z.array(FramingOrigin).min(1).max(10).nullish(),
}));

/** GET /payment_link/{id} may carry a JSON body with the payment's client_secret (spec 4.7). */
export const RetrievePaymentLinkRequest = z.strictObject({ client_secret: str(255).nullish() });

/** The checkout page's pay button: nothing to choose yet (BNPL, one payment method). */
export const CheckoutConfirmRequest = z.strictObject({});

export type PaymentLinkResource = z.infer<typeof PaymentLink>;
