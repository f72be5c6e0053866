// Payment links: GET /payment_link/{id} for the merchant (spec 4.7), and the checkout pages the links point at,
// where the customer pays without any key: the link itself is the permission (as the leading switch's open link).
import type { Request, Response, Router } from 'express';
import { config } from '../../lib/config.ts';
import { errors } from '../../lib/errors.ts';
import { isHttpUrl } from '../../lib/schemas/common.ts';
import { CheckoutConfirmRequest, RetrievePaymentLinkRequest } from '../../lib/schemas/payment-link.ts';
import { CheckoutAuthenticationRequest } from '../../lib/schemas/payment.ts';
import type { StoredPayment } from '../../domain/payment.ts';
import type { MerchantDoc } from '../../lib/merchant-store.ts';
import { keyAuth } from '../auth.ts';
import { rateLimit } from '../rate-limit.ts';
import { checkClientSecret } from '../client-secret.ts';
import { runOperation, type Deps } from '../operations.ts';
import { checkoutPage, newNonce, pageHeaders } from '../checkout-page.ts';
import { framingOrigins } from '../../domain/intent.ts';
import { linkExpired, paymentLinkView, type PaymentLinks } from '../payment-links.ts';
import { validate } from '../validate.ts';
import { publishableKey, scopedRouter } from '../scope.ts';

type Kind = 'open' | 'secure';

export function paymentLinksRouter(deps: Deps, links: PaymentLinks): Router {
  const r = scopedRouter();
  const auth = keyAuth(deps.setup.keys, { publishable: true });

  r.get('/payment_link/:payment_link_id', publishableKey, auth, rateLimit(deps.redis), async (req, res) => {
    // The spec sends client_secret in a GET body; browsers cannot, so the query string is read too.
    const body = { ...validate(RetrievePaymentLinkRequest, req.query), ...validate(RetrievePaymentLinkRequest, req.body ?? {}) };
    const link = await links.find(req.merchantId!, req.params.payment_link_id as string);
    const payment = link && (await deps.store.find(link.merchant_id, link.payment_id));
    if (!link || !payment) throw errors.notFound('Payment link');
    checkClientSecret(req, payment, body.client_secret);
    res.json(paymentLinkView(link, payment));
  });

  /**
   * The payment behind a checkout path. A deleted merchant's links end with it (404). A payment is paid either at its
   * open link or, when it has allowed_domains, only at its secure link: never both.
   */
  async function linkedPayment(req: Request, kind: Kind): Promise<{ p: StoredPayment; origins: string[] | null; merchant: MerchantDoc }> {
    const merchantId = req.params.merchant_id as string;
    const [merchant, p] = await Promise.all([deps.setup.store.merchant(merchantId), deps.store.find(merchantId, req.params.payment_id as string)]);
    if (!merchant || !p?.payment_link) throw errors.notFound('Payment link');
    const origins = framingOrigins(p);
    if (kind === 'open' && origins) throw errors.forbidden("This payment is paid only through its secure link, inside the merchant's site");
    if (kind === 'secure' && !origins) throw errors.forbidden('This payment has no secure link: it was created without payment_link_config.allowed_domains');
    return { p, origins, merchant };
  }

  /** What the checkout page does next: go to a page (the provider's, the 3DS challenge, the merchant's), or run the 3DS authentication. */
  const nextStep = (p: StoredPayment) => {
    const to = p.next_action?.redirect_to_url ?? (p.status === 'failed' || p.next_action ? null : p.return_url);
    return {
      payment_id: p.payment_id,
      status: p.status,
      three_ds_invoke: p.next_action?.type === 'three_ds_invoke',
      redirect_to_url: isHttpUrl(to) ? to : null,
    };
  };

  // The keyless calls are counted per payment: nobody's key to count them by.
  const checkoutLimit = rateLimit(deps.redis, config.checkoutRateLimitPerSecond, (req) => `checkout:${req.params.merchant_id}:${req.params.payment_id}`);

  /** The payment of a checkout call (pay button, 3DS), still payable; a secure link's only from its own page. */
  async function payable(req: Request, res: Response, kind: Kind): Promise<StoredPayment> {
    const { p } = await linkedPayment(req, kind);
    // Set by the browser, not by the page: a call from anywhere but the secure page itself is not one of its own.
    if (kind === 'secure' && req.header('sec-fetch-site') !== 'same-origin') throw errors.forbidden('The secure payment link is paid only from its own page');
    if (linkExpired(p)) throw errors.notAllowed('This payment link has expired');
    res.set('x-content-type-options', 'nosniff').set('cache-control', 'no-store');
    return p;
  }

  // Secure first: its paths would otherwise read as an open link of a merchant named "s".
  for (const kind of ['secure', 'open'] as const) {
    const path = `/payment_link${kind === 'secure' ? '/s' : ''}/:merchant_id/:payment_id`;

    r.get(path, async (req, res) => {
      const { p, origins, merchant } = await linkedPayment(req, kind);
      // frame-ancestors is what keeps the secure page inside the allowed sites; opened on its own it would be an open link.
      if (kind === 'secure' && req.header('sec-fetch-dest') !== 'iframe') {
        throw errors.forbidden("The secure payment link opens only inside the merchant's site");
      }
      const nonce = newNonce();
      res
        .status(linkExpired(p) ? 410 : 200)
        .set(pageHeaders(nonce, origins))
        .type('html')
        .send(checkoutPage(p, nonce, merchant));
    });

    r.post(`${path}/confirm`, checkoutLimit, async (req, res) => {
      validate(CheckoutConfirmRequest, req.body);
      const p = await payable(req, res, kind);
      res.json(nextStep(await runOperation(deps, p.merchant_id, p.payment_id, 'CONFIRM', { payment_method: 'pay_later' })));
    });

    // The 3DS authentication of a three_ds payment, from the checkout page's browser.
    r.post(`${path}/3ds/authentication`, checkoutLimit, async (req, res) => {
      const body = validate(CheckoutAuthenticationRequest, req.body);
      const p = await payable(req, res, kind);
      const done = await runOperation(deps, p.merchant_id, p.payment_id, 'AUTHENTICATE', body);
      res.json({ ...nextStep(done), trans_status: done.three_ds?.result?.trans_status ?? null });
    });
  }
  return r;
}
