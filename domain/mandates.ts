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

// (issue 22, api lane: the view below; imported here so that it merges beside the logic above)
import type { StoredPayment } from './payment.ts';

/**
 * The mandate a payment sets up, as GET /mandates/{mandate_id} shows it (status active: the status a read answers is
 * the stored one, expired past its end date: adapters/mandate-store.ts effectiveStatus). null when the payment sets up
 * none: no mandate part, a recurring charge (it uses a mandate, it makes none), or no customer or connector to hold it.
 * Pure and deterministic (created_at is the payment's last change), so the mandate_active event and the row projection
 * built from the same transition are the same document.
 */
export function mandateView(p: StoredPayment): MandateResource | null {
  const m = p.mandate;
  if (!m || m.kind === 'recurring') return null;
  const customerId = p.customer?.id ?? p.customer_id ?? null;
  if (!customerId || !p.connector) return null;
  return {
    mandate_id: m.mandate_id,
    merchant_id: p.merchant_id,
    customer_id: customerId,
    status: 'active',
    payment_method: p.payment_method ?? 'pay_later',
    payment_method_type: p.payment_method_type ?? null,
    payment_token: p.payment_token ?? null,
    connector: p.connector,
    merchant_connector_id: p.merchant_connector_id ?? null,
    connector_mandate_id: m.connector_mandate_id ?? p.connector_mandate_id ?? null,
    customer_acceptance: m.customer_acceptance ?? null,
    mandate_type: m.mandate_type ?? null,
    original_payment_id: p.payment_id,
    created_at: p.updated,
    revoked_at: null,
  };
}
