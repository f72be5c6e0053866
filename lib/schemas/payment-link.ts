// Payment link (spec 2.14, 4.7).
import { z } from 'zod';
import { Amount, Currency, storable, str, Timestamp } from './common.ts';

export const PaymentLink = z.object({
  payment_link_id: z.string(),
  merchant_id: z.string(),
  /** Open link: no security checks, no saved payment methods. */
  link_to_pay: z.string(),
  amount: Amount,
  created_at: Timestamp,
  status: z.enum(['active', 'expired']),
  expiry: Timestamp,
  description: z.string().nullable(),
  currency: Currency,
  /** Link with security checks (served only inside the merchant's own site). */
  secure_link: z.string().nullable(),
});

/**
 * Second-level labels under which anyone can register a name (co.uk, com.au, gov.br…): `*.co.uk` would let every
 * such site frame the page. A short list, not the Public Suffix List (docs/decisions.md, item 8 of issue 19).
 */
const REGISTRY_LABELS = new Set(['ac', 'co', 'com', 'edu', 'gen', 'go', 'gob', 'gov', 'ltd', 'me', 'mil', 'ne', 'net', 'nom', 'or', 'org', 'plc', 'sch']);
const LABEL = /^(?!-)[a-z0-9-]{1,63}(?<!-)$/;
const ORIGIN = /^(https?):\/\/(\*\.)?([^/:?#@\\\s;,'"*]+)(?::(\d{1,5}))?\/?$/i;
/** Plain http only for the developer's own machine (browsers treat these as secure contexts). */
const LOOPBACK = new Set(['localhost', '127.0.0.1']);

/** The hostname in its ASCII (A-label) form, as CSP and browsers compare it, or '' when it is none. */
function asciiHostname(host: string): string {
  try {
    return new URL(`https://${host}`).hostname;
  } catch {
    return '';
  }
}

/**
 * A frame-ancestors source for one allowed site, normalized (lowercase, A-label hostname, no trailing slash), or why
 * not. It goes into the CSP header as is: anything but scheme, host and port could widen or rewrite the policy.
 */
export function framingSource(value: string): { source: string } | { problem: string } {
  const m = ORIGIN.exec(value);
  if (!m && value.includes('*'))
    return { problem: 'a wildcard is allowed only as a leading "*." followed by at least two labels (e.g. https://*.shop.example)' };
  if (!m) return { problem: 'must be https://host or https://host:port (an origin: no path, query, fragment, userinfo, spaces or ";")' };
  const [, scheme, wildcard, rawHost, port] = m;
  // A numeric last label: only a dotted IPv4 address as written (domainToASCII would read 1.2.3 as 1.2.0.3).
  const raw = rawHost.split('.');
  if (/^\d+$/.test(raw.at(-1)!) && !(raw.length === 4 && raw.every((l) => /^(0|[1-9]\d{0,2})$/.test(l) && Number(l) <= 255))) {
    return { problem: `"${rawHost}" is not a valid hostname` };
  }
  const host = asciiHostname(rawHost);
  const labels = host.split('.');
  if (!host || host.length > 253 || !labels.every((l) => LABEL.test(l))) return { problem: `"${rawHost}" is not a valid hostname` };
  if (port !== undefined && (Number(port) < 1 || Number(port) > 65535)) return { problem: 'the port must be 1 to 65535' };
  if (scheme.toLowerCase() !== 'https' && !(LOOPBACK.has(host) && !wildcard)) return { problem: 'must use https (http only for localhost or 127.0.0.1)' };
  if (wildcard) {
    if (labels.length < 2 || /^\d+$/.test(labels.at(-1)!))
      return { problem: 'a wildcard must be followed by at least two labels (e.g. https://*.shop.example)' };
    if (labels.length === 2 && REGISTRY_LABELS.has(labels[0])) return { problem: `*.${host} would allow every site registered under ${host}` };
  }
  return { source: `${scheme.toLowerCase()}://${wildcard ?? ''}${host}${port ? `:${port}` : ''}` };
}

/** A site allowed to frame a secure link: scheme, host (a leading "*." at most) and port, as framingSource says. */
const FramingOrigin = str(255).transform((u, ctx) => {
  const r = framingSource(u);
  if ('source' in r) return r.source;
  ctx.addIssue({ code: 'custom', message: r.problem });
  return z.NEVER;
});

/**
 * payment_link_config on create and update. allowed_domains makes the payment's link secure: it is then paid only
 * inside a frame of one of these sites (the open link refuses it). Other keys (theme, logo…) are kept and unused.
 */
export const PaymentLinkConfig = storable(
  z.looseObject({
    allowed_domains: z.array(FramingOrigin).min(1).max(10).nullish(),
  }),
);

/** GET /payment_link/{id} may carry a JSON body with the payment's client_secret (spec 4.7). */
export const RetrievePaymentLinkRequest = z.strictObject({ client_secret: str(255).nullish() });

/** The checkout page's pay button: nothing to choose yet (BNPL, one payment method). */
export const CheckoutConfirmRequest = z.strictObject({});

export type PaymentLinkResource = z.infer<typeof PaymentLink>;
