// Checks that a webhook delivery is the service's, unaltered and fresh, as the service signs it (Standard Webhooks,
// https://www.standardwebhooks.com): `webhook-id` (the event_id, the same on every retry), `webhook-timestamp`
// (seconds, of this attempt) and `webhook-signature`: `v1,` + base64 HMAC-SHA256 of "{id}.{timestamp}.{raw body}",
// keyed with the UTF-8 bytes of the business profile's payment_response_hash_key; several signatures, space-separated,
// may be sent (one match is enough). A timestamp more than 5 minutes away is refused, so a captured delivery cannot be
// replayed later. Web Crypto only (crypto.subtle): Node, Deno, Bun and edge runtimes alike.
// The body-only X-Webhook-Signature-512 header is not checked here: it is not replay-safe.

import type { components } from './schema.d.ts';

/** Why a delivery was refused. */
export type WebhookProblem = 'missing_headers' | 'invalid_timestamp' | 'timestamp_too_old' | 'timestamp_too_new' | 'no_matching_signature' | 'invalid_body';

export class WebhookVerificationError extends Error {
  readonly problem: WebhookProblem;
  constructor(problem: WebhookProblem) {
    super(`webhook refused: ${problem.replaceAll('_', ' ')}`);
    this.name = 'WebhookVerificationError';
    this.problem = problem;
  }
}

/**
 * A delivered event: `content.object` is the resource (payment, refund, dispute, mandate) as GET answered it at that
 * change, by `content.type`. Generated from the OpenAPI document's `webhooks` (WebhookDelivery).
 */
export type WebhookEvent = components['schemas']['WebhookDelivery'];

export interface VerifyWebhookOptions {
  /** How far (seconds) webhook-timestamp may be from now, either way (default 300). */
  toleranceS?: number;
  /** Now (default: the clock). */
  now?: Date;
}

/** The headers as a fetch Request has them, or as Node's IncomingMessage does. */
export type WebhookHeaders = Headers | Record<string, string | string[] | undefined>;

export const DEFAULT_TOLERANCE_S = 5 * 60;
const encoder = new TextEncoder();

function header(headers: WebhookHeaders, name: string): string | undefined {
  if (headers instanceof Headers) return headers.get(name) ?? undefined;
  const value = Object.entries(headers).find(([k]) => k.toLowerCase() === name)?.[1];
  return Array.isArray(value) ? value[0] : value;
}

/** Equal strings, in a time that does not depend on where they differ. */
function constantTimeEqual(a: string, b: string): boolean {
  if (a.length !== b.length) return false;
  let diff = 0;
  for (let i = 0; i < a.length; i++) diff |= a.charCodeAt(i) ^ b.charCodeAt(i);
  return diff === 0;
}

/** `v1,` + base64 HMAC-SHA256 of "{id}.{timestamp}.{body}" under the hash key's UTF-8 bytes. */
async function signature(id: string, timestampS: string, body: Uint8Array, hashKey: string): Promise<string> {
  const key = await crypto.subtle.importKey('raw', encoder.encode(hashKey), { name: 'HMAC', hash: 'SHA-256' }, false, ['sign']);
  const prefix = encoder.encode(`${id}.${timestampS}.`);
  const signed = new Uint8Array(prefix.length + body.length);
  signed.set(prefix);
  signed.set(body, prefix.length);
  const mac = new Uint8Array(await crypto.subtle.sign('HMAC', key, signed));
  return `v1,${btoa(String.fromCharCode(...mac))}`;
}

const isRecord = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

const CONTENT_TYPES: readonly string[] = ['payment_details', 'refund_details', 'dispute_details', 'mandate_details'];

/** The envelope's fields and the object's presence; the object itself is the service's resource, signed as sent. */
function isWebhookEvent(body: unknown): body is WebhookEvent {
  if (!isRecord(body) || !isRecord(body.content) || !isRecord(body.content.object)) return false;
  const { merchant_id, event_id, event_type, timestamp } = body;
  const type = body.content.type;
  return (
    typeof merchant_id === 'string' &&
    typeof event_id === 'string' &&
    typeof event_type === 'string' &&
    typeof timestamp === 'string' &&
    typeof type === 'string' &&
    CONTENT_TYPES.includes(type)
  );
}

function parseEvent(text: string): WebhookEvent {
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch {
    throw new WebhookVerificationError('invalid_body');
  }
  if (!isWebhookEvent(body)) throw new WebhookVerificationError('invalid_body');
  return body;
}

/**
 * The event of a delivery, once its signature, id and timestamp are checked; throws WebhookVerificationError when
 * they are not. `rawBody`: the body exactly as received (bytes or the undecoded text), never re-serialized JSON.
 * `hashKey`: the profile's payment_response_hash_key; while you rotate it, pass the old and the new one.
 */
export async function verifyWebhook(
  rawBody: string | Uint8Array,
  headers: WebhookHeaders,
  hashKey: string | readonly string[],
  options: VerifyWebhookOptions = {},
): Promise<WebhookEvent> {
  const id = header(headers, 'webhook-id');
  const timestamp = header(headers, 'webhook-timestamp');
  const signatures = header(headers, 'webhook-signature');
  const keys = (typeof hashKey === 'string' ? [hashKey] : hashKey).filter((k) => k.length > 0);
  if (!id || !timestamp || !signatures || keys.length === 0) throw new WebhookVerificationError('missing_headers');
  if (!/^\d+$/.test(timestamp)) throw new WebhookVerificationError('invalid_timestamp');
  const nowS = Math.floor((options.now ?? new Date()).getTime() / 1000);
  const toleranceS = options.toleranceS ?? DEFAULT_TOLERANCE_S;
  if (nowS - Number(timestamp) > toleranceS) throw new WebhookVerificationError('timestamp_too_old');
  if (Number(timestamp) - nowS > toleranceS) throw new WebhookVerificationError('timestamp_too_new');

  const body = typeof rawBody === 'string' ? encoder.encode(rawBody) : rawBody;
  const given = signatures.split(' ').filter(Boolean);
  let matched = false;
  for (const key of keys) {
    const expected = await signature(id, timestamp, body, key);
    // Every signature compared, a match or not: the time taken says nothing about which one matched.
    for (const s of given) matched = constantTimeEqual(s, expected) || matched;
  }
  if (!matched) throw new WebhookVerificationError('no_matching_signature');
  return parseEvent(new TextDecoder().decode(body));
}
