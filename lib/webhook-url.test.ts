// The SSRF guard on merchants' webhook URLs.
import { describe, expect, it } from 'vitest';
import { addressClass, isInternalAddress, resolveWebhookHost, webhookUrlProblem } from './webhook-url.ts';
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
    for (const u of [
      'http://127.0.0.1:4242/',
      'http://localhost/',
      'http://api.localhost/',
      'http://10.1.2.3/',
      'http://172.16.0.1/',
      'http://192.168.1.1/',
      'http://169.254.169.254/latest/meta-data',
      'http://[::1]/',
      'http://[fd00::1]/',
      'http://[::ffff:127.0.0.1]/',
      'http://0.0.0.0/',
      'http://100.64.0.1/',
    ]) {
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

describe('the SSRF guard by address class (issue 19 item 6)', () => {
  // The four literals of the issue, then the IPv4 forms the WHATWG parser normalizes, then the other IPv6 forms that
  // carry or translate an IPv4 address, and the rest of the non-public classes.
  const refused: [string, RegExp][] = [
    ['http://[::127.0.0.1]/', /ipv4Compatible/],
    ['http://[::ffff:0:7f00:1]/', /rfc6145/],
    ['http://[64:ff9b:1::7f00:1]/', /rfc6052/],
    ['http://[fec0::1]/', /deprecatedSiteLocal/],
    ['http://2130706433/', /127\.0\.0\.1: loopback/],
    ['http://0x7f.1/', /127\.0\.0\.1: loopback/],
    ['http://127.1/', /127\.0\.0\.1: loopback/],
    ['http://0177.0.0.1/', /127\.0\.0\.1: loopback/],
    ['http://0x7f000001:8080/', /127\.0\.0\.1: loopback/],
    ['http://0/', /unspecified/],
    ['http://[::]/', /unspecified/],
    ['http://[::ffff:7f00:1]/', /loopback/],
    ['http://[::ffff:169.254.169.254]/', /linkLocal/],
    ['http://[64:ff9b::7f00:1]/', /loopback/],
    ['http://[64:ff9b::a00:1]/', /private/],
    ['http://[::10.0.0.1]/', /ipv4Compatible/],
    ['http://[2002:7f00:1::]/', /6to4/],
    ['http://[2001::1]/', /teredo/],
    ['http://[2001:db8::1]/', /reserved/],
    ['http://[fc00::1]/', /uniqueLocal/],
    ['http://[ff02::1]/', /multicast/],
    ['http://255.255.255.255/', /broadcast/],
    ['http://192.0.2.1/', /reserved/],
    ['http://198.18.0.1/', /reserved/],
    ['http://224.0.0.1/', /multicast/],
  ];
  it.each(refused)('refuses %s at save time, naming the class', (url, cls) => {
    expect(webhookUrlProblem(url, false)).toMatch(cls);
    expect(webhookUrlProblem(url, false)).toMatch(/WEBHOOK_ALLOW_PRIVATE_URLS/);
    expect(webhookUrlProblem(url, true)).toBeNull();
  });
  it.each([
    'http://8.8.8.8/',
    'https://1.1.1.1:8443/x',
    'http://[2606:4700:4700::1111]/',
    'http://[2a00:1450:4001:80b::200e]/',
    'http://[::ffff:8.8.8.8]/',
    'http://[64:ff9b::808:808]/',
    'https://shop.example.com/hooks',
  ])('accepts the public %s', (url) => {
    expect(webhookUrlProblem(url, false)).toBeNull();
  });
  it('classifies with ipaddr.js: only unicast passes', () => {
    expect(addressClass('93.184.216.34')).toBeNull();
    expect(addressClass('::7f00:1')).toBe('ipv4Compatible');
    expect(addressClass('::ffff:10.0.0.1')).toBe('private');
    expect(addressClass('64:ff9b::8.8.8.8')).toBeNull();
    expect(addressClass('not-an-ip')).toBe('not an IP address');
  });

  const resolver = (answers: string[]) => async () => answers.map((address) => ({ address, family: address.includes(':') ? 6 : 4 }));
  it('at connect time every resolved address must pass (one internal among public ones refuses the host)', async () => {
    await expect(resolveWebhookHost('shop.example.com', false, resolver(['93.184.216.34', '2606:4700::1111']))).resolves.toHaveLength(2);
    await expect(resolveWebhookHost('rebind.example.com', false, resolver(['93.184.216.34', '127.0.0.1']))).rejects.toMatchObject({
      code: 'EWEBHOOKPRIVATE',
      message: /127\.0\.0\.1: loopback/,
    });
    await expect(resolveWebhookHost('rebind.example.com', false, resolver(['::ffff:0:7f00:1']))).rejects.toMatchObject({ code: 'EWEBHOOKPRIVATE' });
    await expect(resolveWebhookHost('rebind.example.com', true, resolver(['127.0.0.1']))).resolves.toEqual([{ address: '127.0.0.1', family: 4 }]);
    await expect(resolveWebhookHost('nothing.example.com', false, resolver([]))).rejects.toMatchObject({ code: 'ENOTFOUND' });
  });
  it('IP literals are checked at connect time too (no DNS lookup to hook)', async () => {
    const never = async () => {
      throw new Error('a literal must not be resolved');
    };
    for (const ip of ['::7f00:1', '::ffff:0:7f00:1', '64:ff9b:1::7f00:1', 'fec0::1', '127.0.0.1']) {
      await expect(resolveWebhookHost(ip, false, never), ip).rejects.toMatchObject({ code: 'EWEBHOOKPRIVATE' });
    }
    await expect(resolveWebhookHost('8.8.8.8', false, never)).resolves.toEqual([{ address: '8.8.8.8', family: 4 }]);
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
