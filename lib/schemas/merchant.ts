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
