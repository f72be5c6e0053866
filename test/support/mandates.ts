// Mandates and saved payment methods for the stack tests of issue 22's resources. Until the payment path that sets
// them up (a confirmed payment with setup_future_usage / mandate_data) is merged, a mandate exists only when a test
// writes it: through MandateStore, as the payment-state projection will, never by hand into the collection.
import type { Db } from 'mongodb';
import { MandateStore, type MandateDoc, type PaymentMethodDoc } from '../../adapters/mandate-store.ts';

export function mandateDoc(m: Pick<MandateDoc, 'mandate_id' | 'merchant_id' | 'customer_id' | 'original_payment_id'> & Partial<MandateDoc>): MandateDoc {
  return {
    status: 'active',
    payment_method: 'pay_later',
    payment_method_type: 'subscription_invoice',
    payment_token: null,
    connector: 'service_test',
    merchant_connector_id: null,
    connector_mandate_id: `stm_${m.mandate_id}`,
    customer_acceptance: { acceptance_type: 'online', accepted_at: '2026-11-01T10:00:00.000Z', online: { ip_address: '192.0.2.7', user_agent: 'Mozilla/5.0' } },
    mandate_type: { single_use: { amount: 10_000, currency: 'EUR', end_date: '2099-01-01T00:00:00.000Z' } },
    created_at: new Date().toISOString(),
    revoked_at: null,
    ...m,
  };
}

export function paymentMethodDoc(pm: Pick<PaymentMethodDoc, 'payment_token' | 'merchant_id' | 'customer_id'> & Partial<PaymentMethodDoc>): PaymentMethodDoc {
  return {
    payment_method: 'pay_later',
    payment_method_type: 'subscription_invoice',
    setup_future_usage: 'off_session',
    connector: 'service_test',
    merchant_connector_id: null,
    mandate_id: null,
    created_at: new Date().toISOString(),
    last_used_at: null,
    ...pm,
  };
}

/** Writes them as the projection will (insert if absent). */
export async function insertMandates(db: Db, mandates: MandateDoc[], paymentMethods: PaymentMethodDoc[] = []): Promise<void> {
  const store = new MandateStore(db);
  for (const m of mandates) await store.insertMandate(m);
  for (const pm of paymentMethods) await store.insertPaymentMethod(pm);
}
