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

  constructor(store: MerchantStore, ttlMs: number) {
    this.cache = new MerchantCache(
      async (merchantId) => {
        const [merchant, profiles] = await Promise.all([store.merchant(merchantId), store.profilesOf(merchantId)]);
        return merchant ? { defaultProfile: merchant.default_profile ?? null, profiles: new Map(profiles.map((p) => [p.profile_id, p])) } : null;
      },
      { ttlMs },
    );
  }

  /** The merchant's default profile (null: no such merchant, or none). */
  async defaultProfile(merchantId: string): Promise<string | null> {
    return (await this.cache.get(merchantId))?.defaultProfile ?? null;
  }

  /** The profile an event goes through: its own, else the merchant's default. */
  async profileOf(merchantId: string, profileId: string | null): Promise<ProfileDoc | null> {
    const s = await this.cache.get(merchantId);
    const id = profileId ?? s?.defaultProfile;
    return (id && s?.profiles.get(id)) || null;
  }

  /** The webhook URL the event would go to now (null: none configured). */
  async urlOf(merchantId: string, profileId: string | null): Promise<string | null> {
    return (await this.profileOf(merchantId, profileId))?.webhook_details?.webhook_url ?? null;
  }
}
