// Payment links: GET /payment_link/{id} for the merchant (spec 4.7), and the checkout pages the links point at,
// where the customer pays without any key: the link itself is the permission (as the leading switch's open link).
import { Router, type Request, type Response } from 'express';
import type { Db } from 'mongodb';
import { config } from '../../lib/config.ts';
import { errors } from '../../lib/errors.ts';
import { toDecimalString } from '../../lib/money.ts';
import { CheckoutConfirmRequest, RetrievePaymentLinkRequest } from '../../lib/schemas/payment-link.ts';
import { CheckoutAuthenticationRequest } from '../../lib/schemas/payment.ts';
import type { StoredPayment } from '../../services/payment-state/state-machine.ts';
import { keyAuth } from '../auth.ts';
import { rateLimit } from '../rate-limit.ts';
import { checkClientSecret } from '../client-secret.ts';
import { runOperation, type Deps } from '../operations.ts';
import { linkExpired, paymentLinkView, type PaymentLinks } from '../payment-links.ts';
import { validate } from '../validate.ts';

const PAYABLE = ['requires_confirmation', 'requires_payment_method'];

const escapeHtml = (s: string) => s.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

function checkoutPage(p: StoredPayment): string {
  const amount = `${toDecimalString(p.amount, p.currency)} ${p.currency}`;
  const state = linkExpired(p) ? 'This payment link has expired.'
    : PAYABLE.includes(p.status) ? '' : `This payment is ${p.status.replaceAll('_', ' ')}.`;
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>Pay ${escapeHtml(amount)}</title></head>
<body style="font-family: system-ui, sans-serif; max-width: 28rem; margin: 3rem auto">
<h1>${escapeHtml(amount)}</h1>
${p.description ? `<p>${escapeHtml(p.description)}</p>` : ''}
<p id="state">${escapeHtml(state)}</p>
${state ? '' : `<button id="pay">Pay later</button>
<script>
const post = async (path, body) => (await fetch(location.pathname + path, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) })).json();
document.getElementById('pay').addEventListener('click', async (ev) => {
  ev.target.disabled = true;
  let b = await post('/confirm', {});
  // A three_ds payment: the 3DS authentication runs from this browser, with its own data.
  if (b.three_ds_invoke) {
    b = await post('/3ds/authentication', { device_channel: 'BRW', threeds_method_comp_ind: 'U', browser_info: {
      user_agent: navigator.userAgent, language: navigator.language, color_depth: screen.colorDepth, screen_height: screen.height,
      screen_width: screen.width, time_zone: new Date().getTimezoneOffset(), java_enabled: false, java_script_enabled: true } });
  }
  if (b.redirect_to_url) { location.href = b.redirect_to_url; return; }
  document.getElementById('state').textContent = b.error ? b.error.message : 'Payment ' + b.status.replaceAll('_', ' ') + '.';
});
</script>`}
</body></html>`;
}

export function paymentLinksRouter(db: Db, deps: Deps, links: PaymentLinks): Router {
  const r = Router();
  const auth = keyAuth(db, { publishable: true });

  /** The payment behind a checkout page's path, if it was created with a link. */
  async function linkedPayment(req: Request): Promise<StoredPayment> {
    const p = await deps.store.find(req.params.merchant_id as string, req.params.payment_id as string);
    if (!p?.payment_link) throw errors.notFound('Payment link');
    return p;
  }

  function sendPage(res: Response, p: StoredPayment) {
    res.status(linkExpired(p) ? 410 : 200).set('cache-control', 'no-store').type('html').send(checkoutPage(p));
  }

  r.get('/payment_link/:payment_link_id', auth, rateLimit(deps.redis), async (req, res) => {
    // The spec sends client_secret in a GET body; browsers cannot, so the query string is read too.
    const body = { ...validate(RetrievePaymentLinkRequest, req.query), ...validate(RetrievePaymentLinkRequest, req.body ?? {}) };
    const link = await links.find(req.merchantId!, req.params.payment_link_id as string);
    const payment = link && await deps.store.find(link.merchant_id, link.payment_id);
    if (!link || !payment) throw errors.notFound('Payment link');
    checkClientSecret(req, payment, body.client_secret);
    res.json(paymentLinkView(link, payment));
  });

  // The open link: anyone with it may pay.
  r.get('/payment_link/:merchant_id/:payment_id', async (req, res) => sendPage(res, await linkedPayment(req)));

  // The secure link: only inside a page of the merchant's own site (the origin of its return_url), never opened on
  // its own or framed elsewhere.
  r.get('/payment_link/s/:merchant_id/:payment_id', async (req, res) => {
    const p = await linkedPayment(req);
    const origin = p.return_url ? new URL(p.return_url).origin : null;
    if (!origin || req.header('sec-fetch-dest') !== 'iframe') {
      throw errors.forbidden('The secure payment link opens only inside the merchant\'s site');
    }
    res.set('content-security-policy', `frame-ancestors ${origin}`);
    sendPage(res, p);
  });

  /** What the checkout page does next: go to a page (the provider's, the 3DS challenge, the merchant's), or run the 3DS authentication. */
  const nextStep = (p: StoredPayment) => ({
    payment_id: p.payment_id, status: p.status, three_ds_invoke: p.next_action?.type === 'three_ds_invoke',
    redirect_to_url: p.next_action?.redirect_to_url ?? (p.status === 'failed' || p.next_action ? null : p.return_url),
  });

  // The keyless calls are counted per payment: nobody's key to count them by.
  const checkoutLimit = rateLimit(deps.redis, config.checkoutRateLimitPerSecond, (req) => `checkout:${req.params.merchant_id}:${req.params.payment_id}`);

  r.post('/payment_link/:merchant_id/:payment_id/confirm', checkoutLimit, async (req, res) => {
    validate(CheckoutConfirmRequest, req.body);
    const p = await linkedPayment(req);
    if (linkExpired(p)) throw errors.notAllowed('This payment link has expired');
    res.json(nextStep(await runOperation(deps, p.merchant_id, p.payment_id, 'CONFIRM', { payment_method: 'pay_later' })));
  });

  // The 3DS authentication of a three_ds payment, from the checkout page's browser.
  r.post('/payment_link/:merchant_id/:payment_id/3ds/authentication', checkoutLimit, async (req, res) => {
    const body = validate(CheckoutAuthenticationRequest, req.body);
    const p = await linkedPayment(req);
    if (linkExpired(p)) throw errors.notAllowed('This payment link has expired');
    const done = await runOperation(deps, p.merchant_id, p.payment_id, 'AUTHENTICATE', body);
    res.json({ ...nextStep(done), trans_status: done.three_ds?.result?.trans_status ?? null });
  });
  return r;
}
