// The row projection of issue 22: from a payment, the mandate and the saved payment method it set up (written once
// it is authorized, insert-if-absent, so a replayed or repeated projection writes nothing more), and the revocation
// of a mandate the provider said is revoked at its end (a recurring charge refused with the unified code of
// domain/mandates.ts MANDATE_REVOKED_UNIFIED_CODE; active -> revoked once), and a saved payment method's last use.
import type { Db } from 'mongodb';
import type { Redis } from 'ioredis';
import type { StoredPayment } from '../domain/payment.ts';
import { mandateOf, revokedAtProviderBy, savedPaymentMethodOf, usedPaymentMethod } from '../domain/mandates.ts';
import { MerchantStore } from '../lib/merchant-store.ts';
import type { MandateResource } from '../lib/schemas/mandate.ts';
import { EventStore, recordMandateRevoked, WebhookQueue } from './event-store.ts';
import type { MandateStore } from './mandate-store.ts';
import type { PaymentStore } from './payment-store.ts';

/**
 * The mandate_revoked event of a revoked mandate, stored once (its id comes from the mandate) and its delivery queued,
 * filed under the payment that set the mandate up. Used by the merchant's revocation (gateway/mandates.ts) and by a
 * revocation at the provider (projectMandates below), so both announce it the same way.
 */
export class MandateRevocations {
  private readonly events: EventStore;
  private readonly setup: MerchantStore;
  private readonly redis: Redis;
  private readonly payments: PaymentStore;
  // Made at the first revocation: constructing this touches no connection.
  private queue: WebhookQueue | undefined;

  constructor(db: Db, redis: Redis, payments: PaymentStore) {
    this.events = new EventStore(db);
    this.setup = new MerchantStore(db);
    this.redis = redis;
    this.payments = payments;
  }

  async announce(m: MandateResource): Promise<void> {
    const payment = await this.payments.find(m.merchant_id, m.original_payment_id).catch(() => null);
    const profileId = payment?.profile_id ?? (await this.setup.merchant(m.merchant_id))?.default_profile ?? null;
    await recordMandateRevoked(this.events, () => (this.queue ??= new WebhookQueue(this.redis)), m, {
      profile_id: profileId,
      sequence: payment?.seq ?? 0,
    });
  }
}

/** `revocations`: where a revocation at the provider is announced (mandate_revoked), once the mandate turned revoked. */
export async function projectMandates(store: MandateStore, p: StoredPayment, revocations?: MandateRevocations): Promise<void> {
  const mandate = mandateOf(p);
  const saved = savedPaymentMethodOf(p);
  await Promise.all([mandate ? store.insertMandate(mandate) : null, saved ? store.insertPaymentMethod(saved) : null]);
  const used = usedPaymentMethod(p);
  if (used) await store.touchPaymentMethod(p.merchant_id, used.payment_token, used.at);
  const revoked = revokedAtProviderBy(p);
  if (!revoked) return;
  const r = await store.revokeMandate(p.merchant_id, revoked, p.attempts?.at(-1)?.modified_at ?? new Date().toISOString());
  // Announced whenever the mandate reads revoked (not only by the call that changed it): a projection that crashed
  // between the revocation and its event announces it when it runs again; the event's id makes it one.
  if (r?.mandate.status === 'revoked') await revocations?.announce(r.mandate);
}
