// Merchant setup (admin key): merchant accounts, business profiles, API keys, merchant connector accounts.
import { z } from 'zod';
import { Amount, Connector, Country, Currency, httpUrl, Metadata, PaymentMethodType, Timestamp, str, text } from './common.ts';
import { Routing, type RoutingAlgorithm } from './payment.ts';

export type { RoutingAlgorithm };

const opt = <T extends z.ZodType>(t: T) => t.nullish();

export const ManualReview = z.strictObject({ amount_at_least: Amount });

export const CreateMerchantAccountRequest = z.strictObject({
  merchant_id: z
    .string()
    .min(1)
    .max(64)
    .regex(/^[A-Za-z0-9_-]+$/, 'letters, digits, _ and - only')
    .nullish(),
  merchant_name: opt(text(255)),
  metadata: opt(Metadata),
  /** Our own manual review: confirmed payments of at least this amount wait for the merchant's approve or reject. */
  manual_review: opt(ManualReview),
});

export const UpdateMerchantAccountRequest = z.strictObject({
  merchant_name: opt(text(255)),
  metadata: opt(Metadata),
  manual_review: opt(ManualReview),
  /** The profile payments use when they name none (must be one of the merchant's). */
  default_profile: opt(str(64)),
});

export const WebhookDetails = z.strictObject({ webhook_url: opt(httpUrl()) });

/** Create and update take the same fields, all optional (a new profile without a name gets one). */
const ProfileRequest = z.strictObject({
  profile_name: text(64).min(1).optional(),
  return_url: opt(httpUrl()),
  webhook_details: opt(WebhookDetails),
  /** Signs outgoing webhooks (HMAC-SHA512); generated when not given. */
  payment_response_hash_key: opt(str(255).min(16)),
  /** The default routing of payments that name no connector. */
  routing_algorithm: opt(Routing),
  metadata: opt(Metadata),
});
export const CreateProfileRequest = ProfileRequest;
export const UpdateProfileRequest = ProfileRequest;

export const Expiration = z.union([z.literal('never'), Timestamp]);
export const CreateApiKeyRequest = z.strictObject({
  name: text(64).min(1),
  description: opt(text(256)),
  expiration: Expiration,
});
export const UpdateApiKeyRequest = z.strictObject({
  /** null or absent: the name is left as it is (the leading switch's clients send null for "unchanged"). */
  name: opt(text(64).min(1)),
  description: opt(text(256)),
  expiration: Expiration.optional(),
});

/** Provider credentials (the leading switch's auth types); stored encrypted, answered masked. */
export const ConnectorAccountDetails = z.strictObject({
  auth_type: z.enum(['HeaderKey', 'BodyKey', 'SignatureKey', 'MultiAuthKey']),
  api_key: str(1024).min(1),
  key1: opt(str(1024).min(1)),
  api_secret: opt(str(1024).min(1)),
  key2: opt(str(1024).min(1)),
});

/** What verifies the provider's notifications to this account (service_test: the HMAC key); sealed at rest, answered masked. */
export const ConnectorWebhookDetails = z.strictObject({ merchant_secret: str(1024).min(1) });

/** The leading switch's filter shape: only these, or all but these. */
const AcceptedList = <T extends z.ZodType>(item: T) => z.strictObject({ type: z.enum(['enable_only', 'disable_only']), list: z.array(item).max(300) });

export const PaymentMethodsEnabled = z
  .array(
    z.strictObject({
      payment_method: z.literal('pay_later'),
      payment_method_types: opt(
        z
          .array(
            z.strictObject({
              payment_method_type: PaymentMethodType,
              accepted_currencies: opt(AcceptedList(Currency)),
              accepted_countries: opt(AcceptedList(Country)),
              minimum_amount: opt(Amount),
              maximum_amount: opt(Amount),
              recurring_enabled: opt(z.boolean()),
              installment_payment_enabled: opt(z.boolean()),
            }),
          )
          .max(20),
      ),
    }),
  )
  .max(10);

export const CreateConnectorAccountRequest = z.strictObject({
  connector_type: opt(z.literal('payment_processor')),
  connector_name: Connector,
  connector_label: opt(text(64).min(1)),
  connector_account_details: ConnectorAccountDetails,
  connector_webhook_details: opt(ConnectorWebhookDetails),
  payment_methods_enabled: opt(PaymentMethodsEnabled),
  test_mode: opt(z.boolean()),
  disabled: opt(z.boolean()),
  /** The profile it serves; the merchant's default profile when not given. */
  profile_id: opt(str(64)),
  metadata: opt(Metadata),
});
export const UpdateConnectorAccountRequest = z.strictObject({
  connector_type: opt(z.literal('payment_processor')),
  connector_label: opt(text(64).min(1)),
  connector_account_details: opt(ConnectorAccountDetails),
  connector_webhook_details: opt(ConnectorWebhookDetails),
  payment_methods_enabled: opt(PaymentMethodsEnabled),
  test_mode: opt(z.boolean()),
  disabled: opt(z.boolean()),
  metadata: opt(Metadata),
});

export type CreateConnectorAccountBody = z.infer<typeof CreateConnectorAccountRequest>;
export type ConnectorAccountDetailsValue = z.infer<typeof ConnectorAccountDetails>;
export type ConnectorWebhookDetailsValue = z.infer<typeof ConnectorWebhookDetails>;
export type PaymentMethodsEnabledValue = z.infer<typeof PaymentMethodsEnabled>;

// ---------------------------------------------------------------------------------------------------------------
// Response resources (what the admin routes answer; the routes' views are typed with them, so the OpenAPI document
// and the answers cannot drift apart).

const nul = <T extends z.ZodType>(t: T) => t.nullable();

export const MerchantAccount = z.object({
  merchant_id: z.string(),
  merchant_name: nul(z.string()),
  publishable_key: z.string(),
  metadata: nul(z.record(z.string(), z.unknown())),
  manual_review: nul(ManualReview),
  default_profile: nul(z.string()),
  created: z.string(),
  updated: z.string(),
});
export const MerchantAccountDeleted = z.object({ merchant_id: z.string(), deleted: z.literal(true) });

export const ApiKey = z.object({
  key_id: z.string(),
  merchant_id: z.string(),
  name: z.string(),
  description: nul(z.string()),
  /** The key's first characters, to tell keys apart; the key itself is answered once, by the create. */
  prefix: z.string(),
  created: z.string(),
  expiration: z.string(),
  revoked: z.boolean(),
});
export const ApiKeyCreated = ApiKey.extend({ api_key: z.string() });
export const ApiKeyRevoked = z.object({ merchant_id: z.string(), key_id: z.string(), revoked: z.literal(true) });

export const BusinessProfile = z.object({
  profile_id: z.string(),
  merchant_id: z.string(),
  profile_name: z.string(),
  return_url: nul(z.string()),
  webhook_details: nul(z.object({ webhook_url: z.string().nullish() })),
  payment_response_hash_key: z.string(),
  routing_algorithm: nul(Routing),
  metadata: nul(z.record(z.string(), z.unknown())),
  created_at: z.string(),
  updated_at: z.string(),
});

export const ConnectorAccount = z.object({
  connector_type: z.literal('payment_processor'),
  merchant_connector_id: z.string(),
  merchant_id: z.string(),
  profile_id: nul(z.string()),
  connector_name: Connector,
  connector_label: z.string(),
  /** The credentials, masked (auth_type in clear). */
  connector_account_details: z.record(z.string(), z.string()),
  /** Masked; in clear only in the answer that generated it (create, rotate). */
  connector_webhook_details: nul(z.object({ merchant_secret: z.string() })),
  /** How far the connector was traced to the provider's published material. */
  connector_verification: nul(
    z.object({
      level: z.enum(['verified', 'partial', 'preview', 'own']),
      /** How many of the connector's points were traced to the provider's own material, and how many were not. */
      verified: z.number().int(),
      unverified: z.number().int(),
      /** For a preview: what to confirm with the provider before going live. */
      go_live_checklist: z.array(z.string()).readonly(),
    }),
  ),
  payment_methods_enabled: nul(PaymentMethodsEnabled),
  test_mode: z.boolean(),
  disabled: z.boolean(),
  metadata: nul(z.record(z.string(), z.unknown())),
  created_at: z.string(),
  updated_at: z.string(),
});
export const ConnectorAccountDeleted = z.object({ merchant_id: z.string(), merchant_connector_id: z.string(), deleted: z.literal(true) });

export type MerchantAccountResource = z.infer<typeof MerchantAccount>;
export type ApiKeyResource = z.infer<typeof ApiKey>;
export type BusinessProfileResource = z.infer<typeof BusinessProfile>;
export type ConnectorAccountResource = z.infer<typeof ConnectorAccount>;
