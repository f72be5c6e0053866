// Mandates and saved payment methods (issue 22; spec 2.3, 2.11, 4.1, 4.2 and the "mandates" and "payment methods"
// areas its tags name): the resources GET /mandates/{mandate_id}, GET /customers/{customer_id}/mandates and
// GET /customers/{customer_id}/payment_methods answer. A mandate is the customer's consent, kept at the service (and,
// for off_session, the provider's own reference to it), that lets the merchant charge again without the customer.
import { z } from 'zod';
import { MandateData } from './payment.ts';
import { Timestamp } from './common.ts';

/** active: usable; revoked: by the merchant (POST /mandates/revoke/{id}) or the provider; expired: past its end_date. */
export const MANDATE_STATUSES = ['active', 'revoked', 'expired'] as const;
export type MandateStatus = (typeof MANDATE_STATUSES)[number];

const n = <T extends z.ZodType>(t: T) => t.nullable();

export const CustomerAcceptance = MandateData.shape.customer_acceptance.unwrap().unwrap();
export type CustomerAcceptance = z.infer<typeof CustomerAcceptance>;
export const MandateType = MandateData.shape.mandate_type.unwrap().unwrap();
export type MandateType = z.infer<typeof MandateType>;

/** The Mandate resource (Hyperswitch's MandateResponse names, plus what a BNPL mandate holds). */
export const MandateResource = z.object({
  mandate_id: z.string(),
  merchant_id: z.string(),
  customer_id: z.string(),
  status: z.enum(MANDATE_STATUSES),
  payment_method: z.string(),
  payment_method_type: n(z.string()),
  /** The saved payment method this mandate charges (GET /customers/{customer_id}/payment_methods). */
  payment_token: n(z.string()),
  connector: z.string(),
  merchant_connector_id: n(z.string()),
  /** The provider's own reference for charging again (a recurring token), when the provider keeps one. */
  connector_mandate_id: n(z.string()),
  customer_acceptance: n(CustomerAcceptance),
  mandate_type: n(MandateType),
  /** The payment that set the mandate up. */
  original_payment_id: z.string(),
  created_at: Timestamp,
  revoked_at: n(Timestamp),
});
export type MandateResource = z.infer<typeof MandateResource>;

/** POST /mandates/revoke/{mandate_id}'s answer (Hyperswitch's MandateRevokedResponse). */
export const MandateRevoked = z.object({ mandate_id: z.string(), status: z.enum(MANDATE_STATUSES) });

/** A saved payment method (no sensitive data: BNPL has no card; the billing details stay on the payments). */
export const CustomerPaymentMethod = z.object({
  payment_token: z.string(),
  customer_id: z.string(),
  payment_method: z.string(),
  payment_method_type: n(z.string()),
  /** on_session: saved at the service only; off_session: also at the provider (a mandate). */
  setup_future_usage: z.enum(['on_session', 'off_session']),
  connector: z.string(),
  merchant_connector_id: n(z.string()),
  mandate_id: n(z.string()),
  created_at: Timestamp,
  last_used_at: n(Timestamp),
});
export type CustomerPaymentMethod = z.infer<typeof CustomerPaymentMethod>;
