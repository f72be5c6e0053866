// Client-side calls (spec section 5): the publishable key plus the payment's client_secret act on that one payment.
import { timingSafeEqual } from 'node:crypto';
import type { Request } from 'express';
import { errors } from '../lib/errors.ts';
import type { StoredPayment } from '../domain/payment.ts';

/** What a customer's browser may set when it confirms; everything else stays the merchant's to decide. */
export const CLIENT_CONFIRM_FIELDS = new Set([
  'client_secret',
  'payment_method',
  'payment_method_type',
  'payment_method_data',
  'payment_experience',
  'payment_token',
  'browser_info',
  'customer_acceptance',
  'billing',
  'shipping',
]);

const same = (a: string, b: string) => a.length === b.length && timingSafeEqual(Buffer.from(a), Buffer.from(b));

/**
 * With the publishable key, the client_secret must be the payment's and unexpired (IR_08 missing or expired,
 * IR_09 another payment's or wrong). With the secret key a client_secret is refused: it belongs to the browser.
 */
export function checkClientSecret(req: Request, p: Pick<StoredPayment, 'client_secret' | 'expires_on'>, given: string | null | undefined): void {
  if (req.caller?.kind !== 'publishable') {
    if (given != null) throw errors.invalid('client_secret', 'is sent with the publishable key only, never with a secret key');
    return;
  }
  if (!given) throw errors.clientSecretMissing();
  if (!p.client_secret || !same(given, p.client_secret)) throw errors.clientSecretMismatch();
  if (p.expires_on && Date.parse(p.expires_on) <= Date.now()) throw errors.clientSecretExpired();
}

/** A publishable-key confirm may only carry the customer's own fields. */
export function checkClientConfirmFields(req: Request, body: Record<string, unknown>): void {
  if (req.caller?.kind !== 'publishable') return;
  const merchantOnly = Object.keys(body).find((k) => !CLIENT_CONFIRM_FIELDS.has(k));
  if (merchantOnly) throw errors.forbidden(`${merchantOnly} cannot be set with the publishable key`);
}
