// What a connector is, as data: its flows, capabilities, credentials, settings and queue policy. A manifest is pure
// data (it imports only lib/schemas/, zod and other manifest files), so every process may read it: domain/ derives
// the capabilities from it, adapters/queue.ts the retry policy, scripts/start.ts and the test stack the worker processes.
import type { z } from 'zod';
import type { CAPTURE_METHODS, ConnectorName, COUNTRIES, CURRENCIES, PAYMENT_METHOD_TYPES } from '../../lib/schemas/common.ts';

/** Every flow a connector may have (workers/connectors/types.ts); a manifest lists those its connector implements. */
export const FLOWS = ['authorize', 'sync', 'capture', 'void', 'incrementalAuthorization', 'refund', 'refundSync', 'notification'] as const;
export type FlowName = (typeof FLOWS)[number];

export interface QueuePolicy {
  /** Jobs one worker process runs at once; null: the service default (WORKER_CONCURRENCY). */
  concurrency: number | null;
  /** BullMQ's `limiter` for the provider's rate limit (at most `max` jobs per `duration` ms per queue), or null. */
  limiter: { max: number; duration: number } | null;
  /** Attempts of a job; null: the service default (JOB_ATTEMPTS). */
  attempts: number | null;
  /** First exponential backoff delay in ms; null: the service default (JOB_BACKOFF_MS). */
  backoff_ms: number | null;
  /** How long a worker pauses its queue after a provider's 429 without Retry-After. */
  rate_limited_ms: number;
}

/**
 * How the gateway knows a notification comes from the provider, checked before anything is written
 * (kit/verify.ts), keyed with the connector account's own notification secret
 * (connector_webhook_details.merchant_secret; lib/webhook-secret.ts):
 * - hmac: an HMAC of the exact raw body, in one header (service_test, mondu, riverty);
 * - shared_secret: the header carries the secret itself, agreed with the provider (Billie), compared in constant time;
 * - unsigned: the provider signs nothing (Unzer). The body is only a hint: the worker never acts on what it says but
 *   asks the provider (a status sync of the payment it names, on that account's own credentials).
 */
export type WebhookSignature =
  | {
      scheme: 'hmac';
      signature_header: string;
      algorithm: 'sha512' | 'sha256';
      encoding: 'hex' | 'base64';
      /**
       * We make the secret (at the account's creation, rotatable) and give it to the provider with each payment
       * (service_test); otherwise the provider issues it and the merchant stores it on the account.
       */
      generated_secret?: boolean;
    }
  | { scheme: 'shared_secret'; header: string }
  | {
      scheme: 'unsigned';
      /**
       * The plain-text body the provider expects as our answer, when it wants more than a 2xx (PAYONE's
       * TransactionStatus: `TSOK`, else it sends the notice again). Default: JSON `{"received": true}`.
       */
      acknowledgement?: string;
    };

/**
 * How much of the connector was checked against the provider's own material (its SDKs, shop plugins, OpenAPI
 * documents, documented examples), counted in its README (workers/connectors/<name>/README.md):
 * - verified: the request and answer points traced to a source (the rows of its `## Sources` tables);
 * - unverified: the points no source shows (the items of its `## UNVERIFIED` list);
 * - level: 'own' for a connector whose provider is ours (service_test: nothing to trace), else verificationLevel() of
 *   the two counts.
 * test/connectors.test.ts counts the README (scripts/connector-verification.ts) and fails when these differ.
 */
export interface Verification {
  verified: number;
  unverified: number;
  level: 'verified' | 'partial' | 'preview' | 'own';
  /**
   * What a merchant must confirm with the provider before going live: every point of the connector's dialect that no
   * published source shows (its README's `## Before going live` list). Required when level is 'preview' (a test
   * checks it); the gateway shows it in the connector account's answer and GET /feature_matrix.
   */
  go_live_checklist?: readonly string[];
}

/**
 * The level two counts give: 'verified' when every point is traced (none unverified); 'partial' when traced points
 * outnumber or equal the unverified ones; 'preview' when nothing is traced (no Sources table yet) or the unverified
 * points outnumber the traced ones. Only the counts decide, so a test can check the level as well as the numbers.
 */
export function verificationLevel(verified: number, unverified: number): Exclude<Verification['level'], 'own'> {
  if (verified === 0 || unverified > verified) return 'preview';
  return unverified === 0 ? 'verified' : 'partial';
}

export interface Manifest<Credentials = unknown> {
  name: ConnectorName;
  /** The flows the connector implements; every other flow of FLOWS is absent. */
  flows: readonly FlowName[];
  capture_methods: readonly (typeof CAPTURE_METHODS)[number][];
  /**
   * How capture_method automatic is done (when capture_methods lists it): 'provider', the authorization captures;
   * 'follow_up', the provider only authorizes and payment-state starts the capture of the whole amount once it has
   * (providers where a capture is a separate call, such as an invoice or a shipment). Default 'provider'.
   */
  automatic_capture?: 'provider' | 'follow_up';
  partial_capture: boolean;
  multiple_capture: boolean;
  /** Where the provider lends: ISO 3166-1 alpha-2 codes, or 'any'. */
  countries: readonly (typeof COUNTRIES)[number][] | 'any';
  /** The currencies it takes, or 'any'. */
  currencies: readonly (typeof CURRENCIES)[number][] | 'any';
  customers: readonly ('B2B' | 'B2C')[];
  /**
   * The customer's step at the provider (a page the customer is redirected to: checkout, authentication, an
   * application): 'always', 'when_asked' (when the provider's decision asks for it), or absent: none.
   */
  customer_step?: 'always' | 'when_asked';
  /** Payment fields the provider needs beyond amount and currency (dotted paths of the payment), for any capture method. */
  required_fields: readonly string[];
  /**
   * Fields every capture call needs at the provider (dotted paths, such as 'metadata.invoice_url' for an invoice). A
   * capture request may carry the same path (spec 4.3's capture `metadata`), which comes first, else the payment's. An
   * automatic capture has no request of its own, so a payment with capture_method automatic must hold them when it
   * is confirmed; a manual capture is checked when it is asked for (domain/capabilities.ts fieldsNeeded). Default none.
   */
  capture_fields?: readonly string[];
  /** The connector account's auth_type, and what its credentials must hold (parsed by the worker). */
  auth_type: 'HeaderKey' | 'BodyKey' | 'SignatureKey' | 'MultiAuthKey';
  credentials: z.ZodType<Credentials>;
  /**
   * The connector_account_details the provider sandbox's imitation accepts: shown by GET /feature_matrix in sandbox
   * mode, and used for a merchant without a connector account (its api_key overridden by settings.default_api_key).
   */
  sandbox_account_details?: { auth_type: Manifest['auth_type']; api_key: string; key1?: string; api_secret?: string; key2?: string };
  /** The name shown to merchants (GET /feature_matrix). */
  display_name?: string;
  /** Refunds of part of the captured amount (where the manifest lists the refund flow). */
  partial_refund?: boolean;
  /**
   * Settings read from the environment at start (names of environment variables, and what applies when one is
   * unset): 'sandbox' is the provider sandbox's address (lib/config.ts sandboxUrl), 'sandbox/<name>' its imitation of a
   * provider whose real paths have no prefix (the real base URL then takes the place of both).
   */
  settings: {
    base_url: { env: string; default: 'sandbox' | string };
    default_api_key: { env: string; default: string };
    /** The provider sandbox's own notification secret (documentation of the imitation's default; accounts store theirs). */
    webhook_secret?: { env: string; default: string };
    /** Further settings the connector reads, by name (Session.settings): an environment variable and its default. */
    extra?: Record<string, { env: string; default: string }>;
  };
  /** How its notifications are signed; null: the provider sends none (the manifest then lists no 'notification' flow). */
  webhook: WebhookSignature | null;
  /** The unit of the amounts the provider's API takes: minor (cents) or major (euros, as a decimal). */
  amount_unit: 'minor' | 'major';
  queue: QueuePolicy;
  /** What was checked against the provider's own material (shown by GET /feature_matrix and README.md's table). */
  verification: Verification;
  /**
   * Mandates (issue 22): what the provider publishes for charging a customer again without them (a recurring token,
   * a recurring payment type), traced in the README's Sources like every other point. Absent or null: none, and a
   * payment asking for a mandate through this connector is refused before anything is queued.
   */
  mandates?: MandateSupport | null;
}

export interface MandateSupport {
  /** The payment method types whose payments may set up a mandate (and be charged again on it). */
  payment_method_types: readonly (typeof PAYMENT_METHOD_TYPES)[number][];
  /** payment_type setup_mandate: a zero authorization, or the provider's verification, that leaves a mandate. */
  setup_mandate: boolean;
}

/**
 * A manifest, with its credentials type taken from its schema: `export const manifest = defineManifest({ ...,
 * credentials: z.object({ api_key: z.string().min(1) }), ... })` instead of spelling Manifest<z.infer<...>>.
 * (Here, not in the kit, so that a manifest imports only manifest files; kit/define.ts names it too.)
 */
export const defineManifest = <S extends z.ZodType>(m: Manifest<z.output<S>> & { credentials: S }): Manifest<z.output<S>> => m;
