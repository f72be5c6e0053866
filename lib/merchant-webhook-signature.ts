// For merchants: how to check that a webhook is ours and fresh. Every delivery carries two signatures under the business
// profile's payment_response_hash_key:
// - Standard Webhooks (https://www.standardwebhooks.com): `webhook-id` (the event_id, the same on every retry),
//   `webhook-timestamp` (seconds, this attempt) and `webhook-signature` (`v1,<base64 HMAC-SHA256 of "{id}.{timestamp}.{body}">`).
//   The HMAC key is the hash key's UTF-8 bytes; as a Standard Webhooks secret that is `whsec_` + their base64
//   (standardWebhookSecret). Refuse a timestamp more than 5 minutes away: an old delivery replayed is refused.
// - X-Webhook-Signature-512: hex HMAC-SHA512 of the body alone (Hyperswitch-compatible). It proves who sent the body,
//   not when: anyone holding one delivery can send it again forever. Prefer the Standard Webhooks headers.
// Verify the raw bytes received, before parsing them. No dependencies: copy this file into a Node service as it is
// (README "Merchant webhooks"), or use the `standardwebhooks` package with standardWebhookSecret(hashKey).
import { createHmac, timingSafeEqual } from 'node:crypto';

/** How far (seconds) a delivery's webhook-timestamp may be from now, either way: the Standard Webhooks default. */
export const WEBHOOK_TOLERANCE_S = 5 * 60;

/** The signature of a body: hex HMAC-SHA512 under the profile's payment_response_hash_key. */
export function signWebhook(rawBody: string | Buffer, hashKey: string): string {
  return createHmac('sha512', hashKey).update(rawBody).digest('hex');
}

/**
 * Whether `signatureHeader` (the X-Webhook-Signature-512 header) is the signature of `rawBody` under `hashKey`,
 * compared in constant time. Pass the body exactly as received (a Buffer or the undecoded string), not re-serialized JSON.
 * Not replay-safe: prefer verifyStandardWebhook.
 */
export function verifyWebhookSignature(rawBody: string | Buffer, signatureHeader: string | string[] | undefined | null, hashKey: string): boolean {
  const given = Array.isArray(signatureHeader) ? signatureHeader[0] : signatureHeader;
  if (!given || !hashKey) return false;
  const a = Buffer.from(given.trim().toLowerCase());
  const b = Buffer.from(signWebhook(rawBody, hashKey));
  return a.length === b.length && timingSafeEqual(a, b);
}

/** The profile's hash key as a Standard Webhooks secret (`new Webhook(standardWebhookSecret(hashKey))` of `standardwebhooks`). */
export function standardWebhookSecret(hashKey: string): string {
  return `whsec_${Buffer.from(hashKey, 'utf8').toString('base64')}`;
}

/** The `webhook-signature` header value: `v1,` + base64 HMAC-SHA256 of "{id}.{timestamp}.{body}" under the hash key. */
export function signStandardWebhook(id: string, timestampS: number, rawBody: string | Buffer, hashKey: string): string {
  const mac = createHmac('sha256', Buffer.from(hashKey, 'utf8')).update(`${id}.${timestampS}.`).update(rawBody).digest('base64');
  return `v1,${mac}`;
}

type Headers = Record<string, string | string[] | undefined>;
const header = (h: Headers, name: string): string | undefined => {
  const v = Object.entries(h).find(([k]) => k.toLowerCase() === name)?.[1];
  return Array.isArray(v) ? v[0] : v;
};

/**
 * Why a delivery fails Standard Webhooks verification ('missing headers', 'timestamp too old', 'timestamp too new',
 * 'no matching signature'), or null when it is ours, unaltered and fresh. `headers` as Node's IncomingMessage has them.
 */
export function standardWebhookProblem(rawBody: string | Buffer, headers: Headers, hashKey: string, nowS = Math.floor(Date.now() / 1000)): string | null {
  const id = header(headers, 'webhook-id');
  const ts = header(headers, 'webhook-timestamp');
  const sigs = header(headers, 'webhook-signature');
  if (!id || !ts || !sigs || !hashKey) return 'missing headers';
  if (!/^\d+$/.test(ts)) return 'invalid timestamp';
  const t = Number(ts);
  if (nowS - t > WEBHOOK_TOLERANCE_S) return 'timestamp too old';
  if (t - nowS > WEBHOOK_TOLERANCE_S) return 'timestamp too new';
  const expected = Buffer.from(signStandardWebhook(id, t, rawBody, hashKey));
  // The header may carry several space-separated signatures (during a key rotation): one match is enough.
  const ok = sigs.split(' ').some((s) => {
    const given = Buffer.from(s);
    return given.length === expected.length && timingSafeEqual(given, expected);
  });
  return ok ? null : 'no matching signature';
}
