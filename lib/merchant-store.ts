// Merchant setup as stored: merchant accounts, business profiles, merchant connector accounts and API keys.
// Secrets (provider credentials, webhook hash keys) are sealed with lib/secret-box.ts; keys only as a keyed hash.
import type { Db } from 'mongodb';
import type { ConnectorName } from './schemas/common.ts';
import type { ConnectorAccountDetailsValue, PaymentMethodsEnabledValue, RoutingAlgorithm } from './schemas/merchant.ts';
import { canExist } from './ids.ts';
import { isDuplicateKey } from './mongo.ts';
import { open } from './secret-box.ts';
import { StoredWebhookDetails, type StoredWebhookDetailsValue } from './webhook-secret.ts';

export interface MerchantDoc {
  merchant_id: string;
  merchant_name: string | null;
  publishable_key: string;
  metadata: Record<string, unknown> | null;
  manual_review: { amount_at_least: number } | null;
  /** The business profile made with the account. */
  default_profile: string | null;
  created: string;
  updated: string;
}

export interface ProfileDoc {
  profile_id: string;
  merchant_id: string;
  profile_name: string;
  return_url: string | null;
  webhook_details: { webhook_url?: string | null } | null;
  payment_response_hash_key_sealed: string;
  routing_algorithm: RoutingAlgorithm | null;
  metadata: Record<string, unknown> | null;
  created_at: string;
  updated_at: string;
}

export interface ConnectorAccountDoc {
  merchant_connector_id: string;
  merchant_id: string;
  profile_id: string | null;
  connector_type: 'payment_processor';
  connector_name: ConnectorName;
  connector_label: string;
  connector_account_details_sealed: string;
  /**
   * connector_webhook_details ({merchant_secret}, and the secret it replaced while that is still accepted:
   * lib/webhook-secret.ts) sealed like the credentials; absent or null when the account has none.
   */
  connector_webhook_details_sealed?: string | null;
  payment_methods_enabled: PaymentMethodsEnabledValue | null;
  test_mode: boolean;
  disabled: boolean;
  metadata: Record<string, unknown> | null;
  created_at: string;
  updated_at: string;
}

/** A merchant id once given: kept for ever, deleted merchants' too, so that no id is handed to a second owner. */
export interface MerchantIdDoc {
  merchant_id: string;
  claimed_at: string;
}

export interface ApiKeyDoc {
  key_id: string;
  merchant_id: string;
  name: string;
  description: string | null;
  key_hash: string;
  prefix: string;
  created: string;
  expiration: string | null;
  revoked: boolean;
}

const noId = { projection: { _id: 0 } };

export class MerchantStore {
  readonly merchants;
  readonly profiles;
  readonly connectorAccounts;
  /** Deleted connector accounts, kept so operations already at the provider can still be synced and settled. */
  readonly retiredConnectorAccounts;
  readonly apiKeys;
  /** Every merchant id ever given (unique index merchant_id); never deleted. */
  readonly merchantIds;
  /** Collections whose records name a merchant id that was in use before merchant_ids was kept (indexed by merchant_id). */
  private readonly usedBy;
  constructor(db: Db) {
    this.merchants = db.collection<MerchantDoc>('merchants');
    this.profiles = db.collection<ProfileDoc>('business_profiles');
    this.connectorAccounts = db.collection<ConnectorAccountDoc>('connector_accounts');
    this.retiredConnectorAccounts = db.collection<ConnectorAccountDoc>('retired_connector_accounts');
    this.apiKeys = db.collection<ApiKeyDoc>('api_keys');
    this.merchantIds = db.collection<MerchantIdDoc>('merchant_ids');
    this.usedBy = [db.collection('payments'), db.collection('customers')];
  }

  /**
   * Takes a merchant id for good: false when it was ever taken (by a live or a deleted merchant). The unique-key
   * insert decides, so of concurrent creates with one id exactly one gets it. An id of a merchant deleted before
   * merchant_ids was kept is known by what it left (its payments, its customers).
   */
  async claimMerchantId(merchantId: string): Promise<boolean> {
    try {
      await this.merchantIds.insertOne({ merchant_id: merchantId, claimed_at: new Date().toISOString() });
    } catch (err) {
      if (isDuplicateKey(err)) return false;
      throw err;
    }
    for (const c of this.usedBy) if (await c.findOne({ merchant_id: merchantId }, { projection: { _id: 1 } })) return false;
    return true;
  }

  /** Records an id taken before merchant_ids was kept (a merchant being deleted): a repeat is no change. */
  async keepMerchantId(merchantId: string): Promise<void> {
    await this.merchantIds.insertOne({ merchant_id: merchantId, claimed_at: new Date().toISOString() }).catch((err) => {
      if (!isDuplicateKey(err)) throw err;
    });
  }

  async merchant(merchantId: string) {
    if (!canExist('merchant', merchantId)) return null;
    return this.merchants.findOne({ merchant_id: merchantId }, noId);
  }
  async profile(merchantId: string, profileId: string) {
    if (!canExist('merchant', merchantId) || !canExist('profile', profileId)) return null;
    return this.profiles.findOne({ profile_id: profileId, merchant_id: merchantId }, noId);
  }
  async profilesOf(merchantId: string) {
    if (!canExist('merchant', merchantId)) return [];
    return this.profiles.find({ merchant_id: merchantId }, noId).sort({ created_at: 1 }).toArray();
  }
  async connectorAccount(merchantId: string, mcaId: string) {
    if (!canExist('merchant', merchantId) || !canExist('connectorAccount', mcaId)) return null;
    return this.connectorAccounts.findOne({ merchant_connector_id: mcaId, merchant_id: merchantId }, noId);
  }
  async apiKey(merchantId: string, keyId: string) {
    if (!canExist('merchant', merchantId) || !canExist('keyId', keyId)) return null;
    return this.apiKeys.findOne({ key_id: keyId, merchant_id: merchantId }, noId);
  }
  async connectorAccountsOf(merchantId: string) {
    if (!canExist('merchant', merchantId)) return [];
    return this.connectorAccounts.find({ merchant_id: merchantId }, noId).sort({ created_at: 1 }).toArray();
  }

  /**
   * Deletes connector accounts (one, or all of a merchant's) from the setup. Their sealed credentials move aside
   * first: an operation begun through an account may still be at the provider, and its status sync, capture or void
   * needs them. Copy then delete, so a crash in between leaves an account in both places, never in neither.
   */
  async retireConnectorAccounts(merchantId: string, mcaId?: string): Promise<void> {
    const filter = { merchant_id: merchantId, ...(mcaId ? { merchant_connector_id: mcaId } : {}) };
    for (const a of await this.connectorAccounts.find(filter, noId).toArray()) {
      await this.retiredConnectorAccounts.replaceOne({ merchant_connector_id: a.merchant_connector_id, merchant_id: a.merchant_id }, a, { upsert: true });
    }
    await this.connectorAccounts.deleteMany(filter);
  }

  /** A connector account, live or retired (deleted accounts' operations may still be at the provider). */
  async liveOrRetiredAccount(merchantId: string, mcaId: string): Promise<ConnectorAccountDoc | null> {
    if (!canExist('merchant', merchantId) || !canExist('connectorAccount', mcaId)) return null;
    return (
      (await this.connectorAccount(merchantId, mcaId)) ??
      (await this.retiredConnectorAccounts.findOne({ merchant_connector_id: mcaId, merchant_id: merchantId }, noId))
    );
  }
}

/** The account's provider credentials, opened (workers only; never answered or logged). */
export function credentialsOfAccount(a: ConnectorAccountDoc): ConnectorAccountDetailsValue {
  return JSON.parse(open(a.connector_account_details_sealed, a.merchant_connector_id));
}

/** The account's webhook details, opened (never answered or logged); null when the account has none. */
export function webhookDetailsOf(a: ConnectorAccountDoc): StoredWebhookDetailsValue | null {
  return a.connector_webhook_details_sealed ? StoredWebhookDetails.parse(JSON.parse(open(a.connector_webhook_details_sealed, a.merchant_connector_id))) : null;
}
