// Where a merchant's events go: its default business profile and each profile's webhook URL and sealed hash key,
// read once per merchant and SETUP_CACHE_MS (lib/merchant-cache.ts) instead of twice per delivery. A profile changed
// through the admin API or the dashboard is dropped at once (the gateway announces it); the TTL bounds a lost message.
import { MerchantCache } from '../../lib/merchant-cache.ts';
import type { MerchantStore, ProfileDoc } from '../../lib/merchant-store.ts';

interface Snapshot {
  defaultProfile: string | null;
  profiles: Map<string, ProfileDoc>;
}

export class WebhookTargets {
  readonly cache: MerchantCache<Snapshot | null>;
  private readonly store: MerchantStore;

  constructor(store: MerchantStore, ttlMs: number) {
    this.store = store;
    this.cache = new MerchantCache(ttlMs);
  }

  /** The merchant's snapshot (null: no such merchant, which is not kept). */
  private snapshot(merchantId: string): Promise<Snapshot | null> {
    return this.cache.get(
      merchantId,
      async () => {
        const [merchant, profiles] = await Promise.all([this.store.merchant(merchantId), this.store.profilesOf(merchantId)]);
        return merchant ? { defaultProfile: merchant.default_profile ?? null, profiles: new Map(profiles.map((p) => [p.profile_id, p])) } : null;
      },
      (s) => (s ? merchantId : null),
    );
  }

  /** The merchant's default profile (null: no such merchant, or none). */
  async defaultProfile(merchantId: string): Promise<string | null> {
    return (await this.snapshot(merchantId))?.defaultProfile ?? null;
  }

  /** The profile an event goes through: its own, else the merchant's default. */
  async profileOf(merchantId: string, profileId: string | null): Promise<ProfileDoc | null> {
    const s = await this.snapshot(merchantId);
    const id = profileId ?? s?.defaultProfile;
    return (id && s?.profiles.get(id)) || null;
  }

  /** The webhook URL the event would go to now (null: none configured). */
  async urlOf(merchantId: string, profileId: string | null): Promise<string | null> {
    return (await this.profileOf(merchantId, profileId))?.webhook_details?.webhook_url ?? null;
  }
}
