// What a payment takes from its merchant's setup: the business profile it belongs to, the manual review rule, and
// at confirm the connector account routing chooses (domain/routing.ts) among the profile's accounts.
//
// The setup is read on every create and confirm but changes rarely, so each gateway keeps a snapshot per merchant.
// A change through the admin API drops it at once in this process and, through Redis, in every other gateway and
// worker (lib/merchant-cache.ts); SETUP_CACHE_MS bounds how stale a snapshot can be if that message is lost. The
// merchant's API keys are kept here too (gateway/auth.ts ApiKeys), dropped by the same message, API_KEY_CACHE_MS at most.
import type { Redis } from 'ioredis';
import type { Db } from 'mongodb';
import { config } from '../lib/config.ts';
import { errors } from '../lib/errors.ts';
import { announceSetupChange, listenSetupChanges, MerchantCache } from '../lib/merchant-cache.ts';
import { MerchantStore, type ConnectorAccountDoc, type MerchantDoc, type ProfileDoc } from '../lib/merchant-store.ts';
import { chooseRoute, type Route, type RouteInput } from '../domain/routing.ts';
import type { ConfirmPaymentBody } from '../lib/schemas/payment.ts';
import { NO_POLICY, type MerchantPolicy, type StoredPayment } from '../domain/payment.ts';
import { canStart } from '../domain/transitions.ts';
import { customerType } from '../domain/capabilities.ts';
import { ApiKeys } from './auth.ts';

interface Snapshot {
  merchant: MerchantDoc | null;
  profiles: ProfileDoc[];
  accounts: ConnectorAccountDoc[];
}

export class MerchantSetup {
  readonly store: MerchantStore;
  /** The merchants' API keys, as keyAuth looks them up. */
  readonly keys: ApiKeys;
  private readonly cache: MerchantCache<Snapshot>;
  private readonly pub: Redis | null;

  constructor(db: Db, opts: { pub?: Redis; ttlMs?: number; keysTtlMs?: number } = {}) {
    this.store = new MerchantStore(db);
    this.keys = new ApiKeys(db, opts.keysTtlMs ?? config.apiKeyCacheMs);
    this.pub = opts.pub ?? null;
    this.cache = new MerchantCache(opts.ttlMs ?? config.setupCacheMs);
  }

  /** Listens for changes made through other gateways (`sub` is a connection of its own, in subscriber mode). */
  listen(sub: Redis): Promise<void> {
    return listenSetupChanges(sub, [this.cache, this.keys.cache]);
  }

  /**
   * The admin API changed this merchant's setup or keys (after the write): forget them here at once, and in every
   * gateway and worker through Redis.
   */
  async changed(merchantId: string): Promise<void> {
    this.cache.drop(merchantId);
    this.keys.cache.drop(merchantId);
    await announceSetupChange(this.pub, merchantId);
  }

  private snapshot(merchantId: string): Promise<Snapshot> {
    return this.cache.get(
      merchantId,
      async () => {
        const [merchant, profiles, accounts] = await Promise.all([
          this.store.merchant(merchantId),
          this.store.profilesOf(merchantId),
          this.store.connectorAccountsOf(merchantId),
        ]);
        return { merchant, profiles, accounts };
      },
      () => merchantId,
    );
  }

  /** The settings payment-state needs for a confirm (our manual review rule). */
  async policy(merchantId: string): Promise<MerchantPolicy> {
    const { merchant } = await this.snapshot(merchantId);
    return merchant?.manual_review ? { manual_review: true, manual_review_amount_at_least: merchant.manual_review.amount_at_least } : NO_POLICY;
  }

  /**
   * The profile of a new payment: profile_id if given (it must be the merchant's), else the profile named by the
   * deprecated business_label, else the merchant's only profile; with several, profile_id is required.
   */
  async profileFor(merchantId: string, body: { profile_id?: string | null; business_label?: string | null }): Promise<string | null> {
    const { profiles } = await this.snapshot(merchantId);
    if (body.profile_id) {
      if (!profiles.some((p) => p.profile_id === body.profile_id)) throw errors.invalid('profile_id', 'no such business profile for this merchant');
      return body.profile_id;
    }
    if (body.business_label) {
      const named = profiles.find((p) => p.profile_name === body.business_label);
      if (!named) throw errors.invalid('business_label', 'no business profile has this name');
      return named.profile_id;
    }
    if (profiles.length > 1) throw errors.missing('profile_id');
    return profiles[0]?.profile_id ?? null;
  }

  /** The connector account a confirm goes to; null when payment-state will refuse the confirm anyway. */
  async route(
    p: StoredPayment,
    body: Pick<ConfirmPaymentBody, 'connector' | 'routing' | 'payment_method_type' | 'currency' | 'billing' | 'metadata'>,
    mandate?: RouteInput['mandate'],
  ): Promise<Route | null> {
    if (canStart(p, 'confirm')) return null;
    const { profiles, accounts: all } = await this.snapshot(p.merchant_id);
    const profile = p.profile_id ? profiles.find((x) => x.profile_id === p.profile_id) : undefined;
    const r = chooseRoute({
      forced: body.connector ?? (p.connector ? [p.connector] : null),
      routing: body.routing ?? p.routing ?? null,
      profileRouting: profile?.routing_algorithm ?? null,
      accounts: all.filter((a) => !p.profile_id || a.profile_id === p.profile_id),
      merchantHasAccounts: all.length > 0,
      paymentMethodType: body.payment_method_type ?? p.payment_method_type,
      currency: body.currency ?? p.currency,
      country: (body.billing ?? (p.billing as typeof body.billing))?.address?.country ?? null,
      customerType: customerType({ metadata: body.metadata ?? p.metadata }),
      mandate: mandate ?? null,
      random: Math.random,
    });
    if ('refused' in r) throw errors.invalid(r.param, r.refused);
    return r;
  }
}
