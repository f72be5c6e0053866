// What a payment takes from its merchant's setup: the business profile it belongs to, and at confirm the connector
// account routing chooses (lib/routing.ts) among the profile's accounts.
import type { Db } from 'mongodb';
import { errors } from '../lib/errors.ts';
import { MerchantStore } from '../lib/merchant-store.ts';
import { chooseRoute, type Route } from '../lib/routing.ts';
import type { ConfirmPaymentBody } from '../lib/schemas/payment.ts';
import { canStart, type StoredPayment } from '../services/payment-state/state-machine.ts';

export class MerchantSetup {
  readonly store: MerchantStore;
  constructor(db: Db) {
    this.store = new MerchantStore(db);
  }

  /**
   * The profile of a new payment: profile_id if given (it must be the merchant's), else the profile named by the
   * deprecated business_label, else the merchant's only profile; with several, profile_id is required.
   */
  async profileFor(merchantId: string, body: { profile_id?: string | null; business_label?: string | null }): Promise<string | null> {
    if (body.profile_id) {
      if (!(await this.store.profile(merchantId, body.profile_id))) throw errors.invalid('profile_id', 'no such business profile for this merchant');
      return body.profile_id;
    }
    const profiles = await this.store.profilesOf(merchantId);
    if (body.business_label) {
      const named = profiles.find((p) => p.profile_name === body.business_label);
      if (!named) throw errors.invalid('business_label', 'no business profile has this name');
      return named.profile_id;
    }
    if (profiles.length > 1) throw errors.missing('profile_id');
    return profiles[0]?.profile_id ?? null;
  }

  /** The connector account a confirm goes to; null when payment-state will refuse the confirm anyway. */
  async route(p: StoredPayment, body: Pick<ConfirmPaymentBody, 'connector' | 'routing' | 'payment_method_type'>): Promise<Route | null> {
    if (canStart(p, 'confirm')) return null;
    const merchantId = p.merchant_id;
    const [all, profile] = await Promise.all([
      this.store.connectorAccountsOf(merchantId),
      p.profile_id ? this.store.profile(merchantId, p.profile_id) : null,
    ]);
    const r = chooseRoute({
      forced: body.connector ?? (p.connector ? [p.connector] : null),
      routing: body.routing ?? p.routing ?? null,
      profileRouting: profile?.routing_algorithm ?? null,
      accounts: all.filter((a) => !p.profile_id || a.profile_id === p.profile_id),
      merchantHasAccounts: all.length > 0,
      paymentMethodType: body.payment_method_type ?? p.payment_method_type,
      random: Math.random,
    });
    if ('refused' in r) throw errors.invalid(r.param, r.refused);
    return r;
  }
}
