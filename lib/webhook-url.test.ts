// The SSRF guard on merchants' webhook URLs.
import { describe, expect, it } from 'vitest';
import { isInternalAddress, webhookUrlProblem } from './webhook-url.ts';
import { signWebhook, verifyWebhookSignature } from './merchant-webhook-signature.ts';

describe('webhookUrlProblem', () => {
  it('accepts public http(s) URLs', () => {
    expect(webhookUrlProblem('https://shop.example.com/hooks', false)).toBeNull();
    expect(webhookUrlProblem('http://93.184.216.34:8080/x', false)).toBeNull();
  });
  it('refuses other schemes, credentials, loopback, private, link-local and local names', () => {
    expect(webhookUrlProblem('ftp://shop.example.com/', false)).toMatch(/http/);
    expect(webhookUrlProblem('not a url', false)).toMatch(/absolute/);
    expect(webhookUrlProblem('https://u:p@shop.example.com/', false)).toMatch(/credentials/);
    for (const u of ['http://127.0.0.1:4242/', 'http://localhost/', 'http://api.localhost/', 'http://10.1.2.3/', 'http://172.16.0.1/', 'http://192.168.1.1/',
      'http://169.254.169.254/latest/meta-data', 'http://[::1]/', 'http://[fd00::1]/', 'http://[::ffff:127.0.0.1]/', 'http://0.0.0.0/', 'http://100.64.0.1/']) {
      expect(webhookUrlProblem(u, false), u).toMatch(/WEBHOOK_ALLOW_PRIVATE_URLS/);
      expect(webhookUrlProblem(u, true), u).toBeNull();
    }
    expect(webhookUrlProblem('ftp://127.0.0.1/', true)).toMatch(/http/);
  });
  it('classifies addresses', () => {
    expect(isInternalAddress('8.8.8.8')).toBe(false);
    expect(isInternalAddress('2606:4700::1111')).toBe(false);
    expect(isInternalAddress('127.0.0.53')).toBe(true);
    expect(isInternalAddress('fe80::1')).toBe(true);
  });
});

describe('the merchant signature helper', () => {
  it('verifies the exact body under the hash key, and nothing else', () => {
    const body = '{"event_id":"evt_1"}';
    const sig = signWebhook(body, 'k'.repeat(32));
    expect(sig).toMatch(/^[0-9a-f]{128}$/);
    expect(verifyWebhookSignature(Buffer.from(body), sig, 'k'.repeat(32))).toBe(true);
    expect(verifyWebhookSignature(Buffer.from(body), sig.toUpperCase(), 'k'.repeat(32))).toBe(true);
    expect(verifyWebhookSignature('{"event_id": "evt_1"}', sig, 'k'.repeat(32))).toBe(false);
    expect(verifyWebhookSignature(body, sig, 'x'.repeat(32))).toBe(false);
    expect(verifyWebhookSignature(body, undefined, 'k'.repeat(32))).toBe(false);
  });
});
