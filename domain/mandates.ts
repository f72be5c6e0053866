// Mandates (issue 22): what a payment asks of a mandate, and the checks a recurring payment passes. Pure.
// The payment carries its mandate part (StoredPayment.mandate); once the payment is authorized, the mandate and the
// saved payment method are projections of it (adapters/mandate-store.ts), as refunds are.
import type { CustomerAcceptance, MandateResource, MandateType } from '../lib/schemas/mandate.ts';

/**
 * The mandate part of a payment:
 * - 'new': a payment that also sets up a mandate (setup_future_usage off_session, or payment_type new_mandate);
 * - 'setup': payment_type setup_mandate: a zero authorization (or the provider's verification) that leaves a mandate;
 * - 'recurring': an off-session charge on an existing mandate (mandate_id, or a payment_token with one).
 */
export interface PaymentMandate {
  kind: 'new' | 'setup' | 'recurring';
  /** For new and setup, the id the mandate will have (made at confirm, so a replay names the same one). */
  mandate_id: string;
  customer_acceptance: CustomerAcceptance | null;
  mandate_type: MandateType | null;
  /** The provider's reference: for recurring, the mandate's; for new and setup, what the provider answered. */
  connector_mandate_id: string | null;
}

export type { MandateResource };
