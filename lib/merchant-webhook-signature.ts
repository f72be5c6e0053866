// For merchants: how to check that a webhook is ours. We sign the exact body we send with the business profile's
// payment_response_hash_key (HMAC-SHA512, hex) in the X-Webhook-Signature-512 header. Verify the raw bytes received,
// before parsing them. No dependencies: copy this file into a Node service as it is (README "Merchant webhooks").
import { createHmac, timingSafeEqual } from 'node:crypto';

/** The signature of a body: hex HMAC-SHA512 under the profile's payment_response_hash_key. */
export function signWebhook(rawBody: string | Buffer, hashKey: string): string {
  return createHmac('sha512', hashKey).update(rawBody).digest('hex');
}

/**
 * Whether `signatureHeader` (the X-Webhook-Signature-512 header) is the signature of `rawBody` under `hashKey`,
 * compared in constant time. Pass the body exactly as received (a Buffer or the undecoded string), not re-serialized JSON.
 */
export function verifyWebhookSignature(rawBody: string | Buffer, signatureHeader: string | string[] | undefined | null, hashKey: string): boolean {
  const given = Array.isArray(signatureHeader) ? signatureHeader[0] : signatureHeader;
  if (!given || !hashKey) return false;
  const a = Buffer.from(given.trim().toLowerCase());
  const b = Buffer.from(signWebhook(rawBody, hashKey));
  return a.length === b.length && timingSafeEqual(a, b);
}
