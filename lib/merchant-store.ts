// Merchant setup as stored: merchant accounts, business profiles, merchant connector accounts and API keys.
// Secrets (provider credentials, webhook hash keys) are sealed with lib/secret-box.ts; keys only as a keyed hash.
import type { Db } from 'mongodb';
import type { ConnectorName } from './schemas/common.ts';
import type { ConnectorAccountDetailsValue, PaymentMethodsEnabledValue, RoutingAlgorithm } from './schemas/merchant.ts';
import { open } from './secret-box.ts';

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
  payment_methods_enabled: PaymentMethodsEnabledValue | null;
  test_mode: boolean;
  disabled: boolean;
  metadata: Record<string, unknown> | null;
  created_at: string;
  updated_at: string;
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
  readonly apiKeys;
  constructor(db: Db) {
    this.merchants = db.collection<MerchantDoc>('merchants');
    this.profiles = db.collection<ProfileDoc>('business_profiles');
    this.connectorAccounts = db.collection<ConnectorAccountDoc>('connector_accounts');
    this.apiKeys = db.collection<ApiKeyDoc>('api_keys');
  }

  merchant(merchantId: string) {
    return this.merchants.findOne({ merchant_id: merchantId }, noId);
  }
  profile(merchantId: string, profileId: string) {
    return this.profiles.findOne({ profile_id: profileId, merchant_id: merchantId }, noId);
  }
  profilesOf(merchantId: string) {
    return this.profiles.find({ merchant_id: merchantId }, noId).sort({ created_at: 1 }).toArray();
  }
  connectorAccount(merchantId: string, mcaId: string) {
    return this.connectorAccounts.findOne({ merchant_connector_id: mcaId, merchant_id: merchantId }, noId);
  }
  connectorAccountsOf(merchantId: string) {
    return this.connectorAccounts.find({ merchant_id: merchantId }, noId).sort({ created_at: 1 }).toArray();
  }

  /** The provider credentials of a connector account, opened (workers only; never answered or logged). */
  async credentials(merchantId: string, mcaId: string): Promise<ConnectorAccountDetailsValue | null> {
    const a = await this.connectorAccount(merchantId, mcaId);
    return a ? JSON.parse(open(a.connector_account_details_sealed, a.merchant_connector_id)) : null;
  }
}
