// Provider notifications are signed: an HMAC of the exact raw body with the connector account's webhook secret, in
// the header the connector's manifest names (workers/connectors/manifest.ts WebhookSignature). Pure.
import { createHmac, timingSafeEqual } from 'node:crypto';
import type { WebhookSignature } from '../workers/connectors/manifest.ts';

/** The signature a provider sends with this body, in the manifest's encoding. */
export function signBody(spec: WebhookSignature, secret: string, body: Buffer | string): string {
  return createHmac(spec.algorithm, secret).update(body).digest(spec.encoding);
}

/** Whether `given` (the header's value; undefined when absent) is the body's signature, compared in constant time. */
export function verifySignature(spec: WebhookSignature, secret: string, body: Buffer | string, given: string | undefined): boolean {
  if (!given || !secret) return false;
  const expected = Buffer.from(signBody(spec, secret, body));
  // Hex is case-insensitive; base64 is not.
  const actual = Buffer.from(spec.encoding === 'hex' ? given.trim().toLowerCase() : given.trim());
  return actual.length === expected.length && timingSafeEqual(actual, expected);
}
