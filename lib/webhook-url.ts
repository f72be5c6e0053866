// The SSRF guard on merchants' webhook URLs. A merchant names the URL and we call it from inside our network, so it
// must be http(s) and must not reach loopback, private, link-local or otherwise internal addresses, unless
// WEBHOOK_ALLOW_PRIVATE_URLS=true (local testing). Checked twice: when a profile is saved (the URL's text: scheme,
// credentials, literal addresses, localhost) and at every delivery on the addresses the name resolves to, by the
// connection's own DNS lookup, so a name that resolves to an internal address later (DNS rebinding) is refused too.
import { lookup as dnsLookup, type LookupAddress, type LookupOptions } from 'node:dns';
import { BlockList, isIP } from 'node:net';

const blocked = new BlockList();
for (const [net, bits] of [
  ['0.0.0.0', 8], ['10.0.0.0', 8], ['100.64.0.0', 10], ['127.0.0.0', 8], ['169.254.0.0', 16], ['172.16.0.0', 12],
  ['192.0.0.0', 24], ['192.0.2.0', 24], ['192.168.0.0', 16], ['198.18.0.0', 15], ['198.51.100.0', 24], ['203.0.113.0', 24],
  ['224.0.0.0', 4], ['240.0.0.0', 4],
] as const) blocked.addSubnet(net, bits, 'ipv4');
for (const [net, bits] of [['::', 128], ['::1', 128], ['fc00::', 7], ['fe80::', 10], ['ff00::', 8], ['2001:db8::', 32], ['64:ff9b::', 96]] as const) {
  blocked.addSubnet(net, bits, 'ipv6');
}

/** Whether an IP address is loopback, private, link-local, shared, reserved, documentation or multicast. */
export function isInternalAddress(address: string): boolean {
  const v = isIP(address);
  if (v === 4) return blocked.check(address, 'ipv4');
  if (v === 6) {
    const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(address);
    if (mapped) return blocked.check(mapped[1]!, 'ipv4');
    return blocked.check(address, 'ipv6');
  }
  return true;
}

/** Why the URL may not receive webhooks (a sentence), or null. `allowPrivate` lifts only the address rules. */
export function webhookUrlProblem(raw: string, allowPrivate: boolean): string | null {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    return 'must be an absolute http(s) URL';
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') return 'must be an http(s) URL';
  if (url.username || url.password) return 'must not carry credentials';
  if (allowPrivate) return null;
  const host = url.hostname.replace(/^\[|\]$/g, '').toLowerCase();
  if (host === 'localhost' || host.endsWith('.localhost') || host.endsWith('.internal') || host.endsWith('.local')) {
    return `must not name a local host (${host}) (WEBHOOK_ALLOW_PRIVATE_URLS=true allows it for local testing)`;
  }
  if (isIP(host) && isInternalAddress(host)) {
    return `must not name a loopback or private address (${host}) (WEBHOOK_ALLOW_PRIVATE_URLS=true allows it for local testing)`;
  }
  return null;
}

type LookupCallback = (err: NodeJS.ErrnoException | null, address: string | LookupAddress[], family?: number) => void;

/** A DNS lookup for http.request that refuses internal addresses (unless allowed): the address connected to is checked. */
export function guardedLookup(allowPrivate: boolean) {
  return (hostname: string, options: LookupOptions, callback: LookupCallback): void => {
    dnsLookup(hostname, { ...options, all: true }, (err, addresses) => {
      if (err) return callback(err, '');
      const list = addresses as LookupAddress[];
      const bad = allowPrivate ? undefined : list.find((a) => isInternalAddress(a.address));
      if (bad) {
        return callback(Object.assign(new Error(`webhook URL resolves to an internal address (${bad.address}); refused`), { code: 'EWEBHOOKPRIVATE' }), '');
      }
      if (options.all) return callback(null, list);
      callback(null, list[0]!.address, list[0]!.family);
    });
  };
}
