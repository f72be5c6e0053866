// The checkout page of a payment link (open or secure) and the security headers it is served with.
import { randomBytes } from 'node:crypto';
import { toDecimalString } from '../lib/money.ts';
import type { StoredPayment } from '../domain/payment.ts';
import type { PaymentStatusName } from '../lib/schemas/common.ts';
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

/**
 * What the customer is told about the payment, in plain words, by its status (issue 23). The page's script says the
 * same after the pay button (CUSTOMER_WORDS is handed to it). '' for a payment still to be paid.
 */
export const CUSTOMER_WORDS: Record<PaymentStatusName, string> = {
  requires_confirmation: '',
  requires_payment_method: '',
  succeeded: 'Payment received',
  partially_captured: 'Payment received',
  requires_capture: 'Payment authorized — the merchant will take it when your order ships',
  partially_captured_and_capturable: 'Payment authorized — the merchant will take it when your order ships',
  processing: 'Payment in progress — we are waiting for the answer of the payment provider',
  requires_customer_action: 'One more step is needed to finish the payment',
  requires_merchant_action: 'Payment in review by the merchant — you will hear from them',
  failed: 'Payment failed',
  cancelled: 'This payment was cancelled',
};
export const EXPIRED_WORDS = 'This payment link has expired';

/** The plain words for a payment as the page shows it: expiry first, then its status. */
export function customerState(p: Pick<StoredPayment, 'status' | 'expires_on'>, now = Date.now()): string {
  if (CUSTOMER_WORDS[p.status] === '' && linkExpired(p, now)) return EXPIRED_WORDS;
  return CUSTOMER_WORDS[p.status];
}

/** JSON inside a script element: no "</script>" or "<!--" can end or change it. */
const scriptJson = (v: unknown) => JSON.stringify(v).replace(/</g, '\\u003c');

/** The page names the merchant (its merchant_name, else its id) and the order (reference and description). */
export function checkoutPage(p: StoredPayment, nonce: string, merchant: { merchant_id: string; merchant_name: string | null }): string {
  const amount = `${toDecimalString(p.amount, p.currency)} ${p.currency}`;
  const merchantName = merchant.merchant_name?.trim() || merchant.merchant_id;
  const state = customerState(p);
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>Pay ${escapeHtml(merchantName)}: ${escapeHtml(amount)}</title>
<style nonce="${nonce}">body { font-family: system-ui, sans-serif; max-width: 28rem; margin: 3rem auto; padding: 0 1rem; color: #1d2330 }
#merchant { color: #555; margin-bottom: 0 } h1 { margin-top: .3rem } #state { font-weight: 600 } button { font: inherit; padding: .6rem 1.4rem }</style></head>
<body>
<p id="merchant">Pay <strong>${escapeHtml(merchantName)}</strong></p>
<h1 id="amount">${escapeHtml(amount)}</h1>
${p.merchant_order_reference_id ? `<p id="order">Order ${escapeHtml(p.merchant_order_reference_id)}</p>` : ''}
${p.description ? `<p id="description">${escapeHtml(p.description)}</p>` : ''}
<p id="state" role="status">${escapeHtml(state)}</p>
${
  state
    ? ''
    : `<button id="pay">Pay later</button>
<script nonce="${nonce}">
const WORDS = ${scriptJson(CUSTOMER_WORDS)};
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
  document.getElementById('state').textContent = b.error ? 'The payment could not be made: ' + b.error.message : (WORDS[b.status] || 'Payment in progress');
  if (b.error) ev.target.disabled = false;
  else ev.target.remove();
});
</script>`
}
</body></html>`;
}
