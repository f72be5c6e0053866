import { createHmac } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { manifest } from '../workers/connectors/service_test/manifest.ts';
import { signBody, verifySignature } from './webhook-signature.ts';

const spec = manifest.webhook!;
const secret = 'whsec_sandbox_service_test';
const body = '{"id":"evt_0123456789abcdef01234567","type":"payment.updated","data":{"id":"stp_1","status":"captured"}}';
// Computed independently, as the provider does: lowercase hex HMAC-SHA512 of the raw body.
const good = createHmac('sha512', secret).update(body, 'utf8').digest('hex');

describe('webhook signature (service_test: HMAC-SHA512, hex, x-webhook-signature-512)', () => {
  it('the manifest names the header, algorithm and encoding', () => {
    expect(spec).toEqual({ signature_header: 'x-webhook-signature-512', algorithm: 'sha512', encoding: 'hex' });
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
    const b64 = { signature_header: 'x-sig', algorithm: 'sha256', encoding: 'base64' } as const;
    const sig = createHmac('sha256', secret).update(body).digest('base64');
    expect(verifySignature(b64, secret, body, sig)).toBe(true);
    expect(verifySignature(b64, secret, body, sig.toLowerCase())).toBe(sig === sig.toLowerCase());
  });
});
