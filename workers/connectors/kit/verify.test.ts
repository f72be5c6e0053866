import { createHmac } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { manifest } from '../service_test/manifest.ts';
import { signBody, verifyNotification, verifySignature } from './verify.ts';

const spec = manifest.webhook as Extract<typeof manifest.webhook, { scheme: 'hmac' }>;
const secret = 'whsec_sandbox_service_test';
const body = '{"id":"evt_0123456789abcdef01234567","type":"payment.updated","data":{"id":"stp_1","status":"captured"}}';
// Computed independently, as the provider does: lowercase hex HMAC-SHA512 of the raw body.
const good = createHmac('sha512', secret).update(body, 'utf8').digest('hex');

describe('webhook signature (service_test: HMAC-SHA512, hex, x-webhook-signature-512)', () => {
  it('the manifest names the header, algorithm and encoding', () => {
    expect(spec).toEqual({ scheme: 'hmac', signature_header: 'x-webhook-signature-512', algorithm: 'sha512', encoding: 'hex', generated_secret: true });
    expect(signBody(spec, secret, body)).toBe(good);
  });
  it('accepts the signature of the exact raw body, in either hex case, from a string or the bytes', () => {
    expect(verifySignature(spec, secret, body, good)).toBe(true);
    expect(verifySignature(spec, secret, Buffer.from(body), good.toUpperCase())).toBe(true);
  });
  it('refuses a missing, empty, truncated or other-key signature, and any change of the body', () => {
    expect(verifySignature(spec, secret, body, undefined)).toBe(false);
    expect(verifySignature(spec, secret, body, '')).toBe(false);
    expect(verifySignature(spec, secret, body, good.slice(0, -2))).toBe(false);
    expect(verifySignature(spec, 'whsec_other', body, good)).toBe(false);
    expect(verifySignature(spec, secret, body.replace('captured', 'declined'), good)).toBe(false);
    expect(verifySignature(spec, secret, `${body} `, good)).toBe(false);
    expect(verifySignature(spec, '', body, createHmac('sha512', '').update(body).digest('hex'))).toBe(false);
  });
  it('base64 and sha256 manifests verify the same way', () => {
    const b64 = { scheme: 'hmac', signature_header: 'x-sig', algorithm: 'sha256', encoding: 'base64' } as const;
    const sig = createHmac('sha256', secret).update(body).digest('base64');
    expect(verifySignature(b64, secret, body, sig)).toBe(true);
    expect(verifySignature(b64, secret, body, sig.toLowerCase())).toBe(sig === sig.toLowerCase());
  });
  it('a shared secret (Billie): the header holds the secret itself, bare or after Basic/Bearer; nothing else passes', () => {
    const shared = { scheme: 'shared_secret', header: 'x-api-key' } as const;
    expect(verifyNotification(shared, 'billie-hook-secret', body, 'billie-hook-secret')).toBe(true);
    expect(verifyNotification(shared, 'billie-hook-secret', body, 'Basic billie-hook-secret')).toBe(true);
    expect(verifyNotification(shared, 'billie-hook-secret', body, 'billie-hook-secre')).toBe(false);
    expect(verifyNotification(shared, 'billie-hook-secret', body, undefined)).toBe(false);
    expect(verifyNotification(shared, null, body, '')).toBe(false);
    expect(verifyNotification(shared, '', body, '')).toBe(false);
  });
  it("hmac through verifyNotification needs the account's secret; unsigned lets any body through (it is only a hint)", () => {
    expect(verifyNotification(spec, secret, body, good)).toBe(true);
    expect(verifyNotification(spec, null, body, good)).toBe(false);
    expect(verifyNotification({ scheme: 'unsigned' }, null, body, undefined)).toBe(true);
  });
});
