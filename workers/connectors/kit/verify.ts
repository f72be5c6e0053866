// Notification verification, once for every connector: how a provider's notification proves where it comes from, as its connector's manifest says
// (workers/connectors/manifest.ts WebhookSignature): an HMAC of the exact raw body, or a shared secret in a header,
// keyed with the connector account's webhook secret. Pure.
import { createHmac, timingSafeEqual } from 'node:crypto';
import type { WebhookSignature } from '../manifest.ts';

type Hmac = Extract<WebhookSignature, { scheme: 'hmac' }>;

/** The signature a provider sends with this body, in the manifest's encoding. */
export function signBody(spec: Hmac, secret: string, body: Buffer | string): string {
  return createHmac(spec.algorithm, secret).update(body).digest(spec.encoding);
}

const sameBytes = (a: Buffer, b: Buffer) => a.length === b.length && timingSafeEqual(a, b);

/** Whether `given` (the header's value; undefined when absent) is the body's signature, compared in constant time. */
export function verifySignature(spec: Hmac, secret: string, body: Buffer | string, given: string | undefined): boolean {
  if (!given || !secret) return false;
  // Hex is case-insensitive; base64 is not.
  return sameBytes(Buffer.from(spec.encoding === 'hex' ? given.trim().toLowerCase() : given.trim()), Buffer.from(signBody(spec, secret, body)));
}

/** The header a scheme reads, if any. */
export const proofHeader = (spec: WebhookSignature): string | null =>
  spec.scheme === 'hmac' ? spec.signature_header : spec.scheme === 'shared_secret' ? spec.header : null;

/**
 * Whether the notification is the provider's by its scheme. `unsigned` proves nothing and is let through: what such a
 * body says is never acted on (the worker asks the provider instead), so it needs no secret either.
 */
export function verifyNotification(spec: WebhookSignature, secret: string | null, body: Buffer | string, header: string | undefined): boolean {
  switch (spec.scheme) {
    case 'unsigned':
      return true;
    case 'hmac':
      return !!secret && verifySignature(spec, secret, body, header);
    // `Basic <secret>`, `Bearer <secret>` or the bare secret, as the merchant agreed it with the provider.
    case 'shared_secret':
      return !!secret && !!header && sameBytes(Buffer.from(header.trim().replace(/^(Basic|Bearer)\s+/i, '')), Buffer.from(secret));
  }
}
