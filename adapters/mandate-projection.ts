// The row projection of issue 22: from a payment, the mandate and the saved payment method it set up (written once
// it is authorized, insert-if-absent, so a replayed or repeated projection writes nothing more), and the revocation
// of a mandate the provider said is revoked at its end (a recurring charge refused with the unified code of
// domain/mandates.ts MANDATE_REVOKED_UNIFIED_CODE; active -> revoked once), and a saved payment method's last use.
import type { StoredPayment } from '../domain/payment.ts';
import { mandateOf, revokedAtProviderBy, savedPaymentMethodOf, usedPaymentMethod } from '../domain/mandates.ts';
import type { MandateStore } from './mandate-store.ts';

export async function projectMandates(store: MandateStore, p: StoredPayment): Promise<void> {
  const mandate = mandateOf(p);
  const saved = savedPaymentMethodOf(p);
  await Promise.all([mandate ? store.insertMandate(mandate) : null, saved ? store.insertPaymentMethod(saved) : null]);
  const used = usedPaymentMethod(p);
  if (used) await store.touchPaymentMethod(p.merchant_id, used.payment_token, used.at);
  const revoked = revokedAtProviderBy(p);
  if (revoked) await store.revokeMandate(p.merchant_id, revoked, p.attempts?.at(-1)?.modified_at ?? new Date().toISOString());
}
