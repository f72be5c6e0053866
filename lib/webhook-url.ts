// The SSRF guard on merchants' webhook URLs. A merchant names the URL and we call it from inside our network, so it
// must be http(s) and must reach only public unicast addresses, unless WEBHOOK_ALLOW_PRIVATE_URLS=true (local
// testing). Addresses are classified by ipaddr.js (`range()`: only `unicast` passes), after unwrapping the IPv6 forms
// that carry an IPv4 address. Checked twice: when a profile is saved (the URL's text: scheme, credentials, literal
// addresses, local names) and at every delivery (resolveWebhookHost: every address the name resolves to must pass,
// and the connection is made to those vetted addresses only, so DNS rebinding cannot swap in another between check and
// connect; an IP literal is checked the same way).
import { lookup as dnsLookup, type LookupAddress, type LookupOptions } from 'node:dns';
import { isIP } from 'node:net';
import ipaddr from 'ipaddr.js';

const nat64WellKnown = ipaddr.parseCIDR('64:ff9b::/96');

/**
 * Why an IP address may not receive webhooks (its class: loopback, private, linkLocal, ...), or null for a public unicast
 * address. IPv4-mapped (::ffff:a.b.c.d) and NAT64 well-known-prefix (64:ff9b::a.b.c.d) addresses are judged by the IPv4
 * address they carry; the other IPv6 forms that embed or translate IPv4 (IPv4-compatible ::a.b.c.d, ::ffff:0:a.b.c.d,
 * the local-use NAT64 prefix 64:ff9b:1::/48, 6to4, Teredo) are refused outright: no merchant needs them, and each could
 * lead to an internal IPv4 address. Not an IP address at all: 'not an IP address'.
 */
export function addressClass(address: string): string | null {
  if (!ipaddr.isValid(address)) return 'not an IP address';
  let ip = ipaddr.process(address);
  if (ip.kind() === 'ipv6' && ip.match(nat64WellKnown)) {
    const b = (ip as ipaddr.IPv6).toByteArray();
    ip = new ipaddr.IPv4(b.slice(12));
  }
  const range = ip.range();
  if (range !== 'unicast') return range;
  // ipaddr.js calls the deprecated IPv4-compatible block ::/96 unicast: refuse it (::7f00:1 is 127.0.0.1 on some stacks).
  if (ip.kind() === 'ipv6' && (ip as ipaddr.IPv6).parts.slice(0, 6).every((p) => p === 0)) return 'ipv4Compatible';
  return null;
}

/** Whether an IP address is anything but public unicast (loopback, private, link-local, reserved, ...), or not an IP. */
export function isInternalAddress(address: string): boolean {
  return addressClass(address) !== null;
}

const ALLOW_HINT = '(WEBHOOK_ALLOW_PRIVATE_URLS=true allows it for local testing)';

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
  // The WHATWG parser has already turned 2130706433, 0x7f.1 and 127.1 into 127.0.0.1, and [::127.0.0.1] into [::7f00:1].
  const host = hostOf(url).toLowerCase();
  if (host === 'localhost' || host.endsWith('.localhost') || host.endsWith('.internal') || host.endsWith('.local')) {
    return `must not name a local host (${host}) ${ALLOW_HINT}`;
  }
  if (isIP(host)) {
    const cls = addressClass(host);
    if (cls) return `must not name a loopback, private or otherwise non-public address (${host}: ${cls}) ${ALLOW_HINT}`;
  }
  return null;
}

/** The URL's host as a name or a bare IP address (no IPv6 brackets). */
export function hostOf(url: URL): string {
  return url.hostname.replace(/^\[|\]$/g, '');
}

type Resolver = (hostname: string) => Promise<LookupAddress[]>;
const systemResolver: Resolver = (hostname) =>
  new Promise((resolve, reject) => {
    dnsLookup(hostname, { all: true }, (err, addresses) => (err ? reject(err) : resolve(addresses)));
  });

/**
 * The addresses a webhook to `hostname` may connect to: an IP literal itself, or everything the name resolves to. Every
 * one must be public unicast (unless allowPrivate), or it throws (code EWEBHOOKPRIVATE) naming the address refused.
 */
export async function resolveWebhookHost(hostname: string, allowPrivate: boolean, resolver: Resolver = systemResolver): Promise<LookupAddress[]> {
  const family = isIP(hostname);
  const list = family ? [{ address: hostname, family }] : await resolver(hostname);
  if (!list.length) throw Object.assign(new Error(`webhook host ${hostname} resolves to no address`), { code: 'ENOTFOUND' });
  if (allowPrivate) return list;
  for (const a of list) {
    const cls = addressClass(a.address);
    if (cls) throw Object.assign(new Error(`webhook URL resolves to a non-public address (${a.address}: ${cls}); refused`), { code: 'EWEBHOOKPRIVATE' });
  }
  return list;
}

type LookupCallback = (err: NodeJS.ErrnoException | null, address: string | LookupAddress[], family?: number) => void;

/** A `lookup` for http.request that answers only the vetted addresses (no second DNS query that could answer otherwise). */
export function pinnedLookup(vetted: LookupAddress[]) {
  return (_hostname: string, options: LookupOptions, callback: LookupCallback): void => {
    const list = options.family === 4 || options.family === 6 ? vetted.filter((a) => a.family === options.family) : vetted;
    if (!list.length) return callback(Object.assign(new Error('no vetted address of the family asked for'), { code: 'ENOTFOUND' }), '');
    if (options.all) return callback(null, list);
    callback(null, list[0]!.address, list[0]!.family);
  };
}
