// The checkout page of a payment link (open or secure) and the security headers it is served with.
import { randomBytes } from 'node:crypto';
import { toDecimalString } from '../lib/money.ts';
import type { StoredPayment } from '../domain/payment.ts';
import { linkExpired } from './payment-links.ts';

export const PAYABLE = ['requires_confirmation', 'requires_payment_method'];

const escapeHtml = (s: string) => s.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

export const newNonce = () => randomBytes(18).toString('base64');

/**
 * CSP: only our own script and style (by nonce) run, and the page talks only to us; a javascript: URL is refused as
 * inline script. frameAncestors: the sites that may frame the page (a secure link), or none (the open link).
 */
export function pageHeaders(nonce: string, frameAncestors: string[] | null): Record<string, string> {
  const csp = [
    "default-src 'none'",
    `script-src 'nonce-${nonce}'`,
    `style-src 'nonce-${nonce}'`,
    "connect-src 'self'",
    "base-uri 'none'",
    "form-action 'none'",
    `frame-ancestors ${frameAncestors?.join(' ') ?? "'none'"}`,
  ].join('; ');
  return {
    'content-security-policy': csp,
    // X-Frame-Options cannot name allowed sites; browsers that know frame-ancestors ignore it anyway.
    ...(frameAncestors ? {} : { 'x-frame-options': 'DENY' }),
    // The page's address names the merchant and the payment: the provider, ACS or merchant page it opens need not.
    'referrer-policy': 'no-referrer',
    'x-content-type-options': 'nosniff',
    'cache-control': 'no-store',
  };
}

export function checkoutPage(p: StoredPayment, nonce: string): string {
  const amount = `${toDecimalString(p.amount, p.currency)} ${p.currency}`;
  const state = linkExpired(p) ? 'This payment link has expired.' : PAYABLE.includes(p.status) ? '' : `This payment is ${p.status.replaceAll('_', ' ')}.`;
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>Pay ${escapeHtml(amount)}</title>
<style nonce="${nonce}">body { font-family: system-ui, sans-serif; max-width: 28rem; margin: 3rem auto }</style></head>
<body>
<h1>${escapeHtml(amount)}</h1>
${p.description ? `<p>${escapeHtml(p.description)}</p>` : ''}
<p id="state">${escapeHtml(state)}</p>
${
  state
    ? ''
    : `<button id="pay">Pay later</button>
<script nonce="${nonce}">
const post = async (path, body) => (await fetch(location.pathname + path, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) })).json();
// The server answers only http(s) addresses; checked here too, so that no answer can make this page run a script.
const isHttp = (u) => { try { return ['http:', 'https:'].includes(new URL(u).protocol); } catch { return false; } };
document.getElementById('pay').addEventListener('click', async (ev) => {
  ev.target.disabled = true;
  let b = await post('/confirm', {});
  // A three_ds payment: the 3DS authentication runs from this browser, with its own data.
  if (b.three_ds_invoke) {
    b = await post('/3ds/authentication', { device_channel: 'BRW', threeds_method_comp_ind: 'U', browser_info: {
      user_agent: navigator.userAgent, language: navigator.language, color_depth: screen.colorDepth, screen_height: screen.height,
      screen_width: screen.width, time_zone: new Date().getTimezoneOffset(), java_enabled: false, java_script_enabled: true } });
  }
  if (isHttp(b.redirect_to_url)) { location.href = b.redirect_to_url; return; }
  document.getElementById('state').textContent = b.error ? b.error.message : 'Payment ' + b.status.replaceAll('_', ' ') + '.';
});
</script>`
}
</body></html>`;
}
