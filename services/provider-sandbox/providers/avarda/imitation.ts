// Avarda Checkout 3's partner API as the sandbox imitates it (the worker's side: workers/connectors/avarda/). Mounted at
// /avarda, standing for checkout-api.avarda.com. It answers in Avarda's published shapes, read from the same example
// files the connector's tests parse (workers/connectors/avarda/fixtures/, sources in its SOURCES.md), and checks
// requests by Avarda's published rules (validate.ts), so it cannot simply agree with a mistake of the connector:
//   POST /api/partner/tokens                       {clientId, clientSecret} -> {token, tokenExpirationUtc} (short-lived JWT)
//   POST /api/partner/payments                     initialize a purchase -> {purchaseId, jwt, expiredUtc}
//   GET  /api/partner/payments/:id                 the payment status (fixtures/payment-status.json's shape)
//   POST /api/partner/payments/:id/order           activate (deliver) items, partial and several -> 200, no content
//   POST /api/partner/payments/:id/cancel          {reason} cancel what is not activated -> 200, no content
//   POST /api/partner/payments/:id/refund          {amount} release money not yet delivered (not activated) -> 204
//   POST /api/partner/payments/:id/return          {orderReference, tranId, items}: credit activated rows -> 204
//   POST /api/partner/payments/:id/authorizerecurringpayment  {recurringPaymentToken, items, orderReference}: a
//        recurring charge on a Completed purchase that offered recurring payments -> {purchaseId} of a new purchase,
//        Completed at once (no customer step), activated like any other (WooCommerce plugin's subscription support)
//   GET  /checkout?purchaseJwt=&redirectUrl=       the page the customer completes Avarda Checkout on (Avarda's is a
//   POST /checkout/complete | /checkout/leave      script embedded with the purchase JWT; this is its stand-in)
// Bearer partner token on /api/partner/payments; a missing, foreign or expired one answers 401. Errors are Avarda's
// {Errors: [{Property, ErrorCode, ErrorMessage}], StatusCode} (checkout-3/error-codes), with its published codes (100
// "Purchase must be in completed state", 126–132, 210, 300). Request fields are read case-insensitively, as Avarda does.
// A completed purchase is reported to checkoutSetup.completedNotificationUrl as {"purchaseId"} (unsigned), retried.
// Steps (published names, Magento module Helper/PurchaseState.php): Initialized -> Completed | WaitingForBankId
// (-> Completed) | TimedOut (the customer left or the session expired).
// Magic tags in the customer's userInputs.email: +decline (the form declines the credit; the customer can only leave),
// +review (the form waits for BankID, Completed SANDBOX_REVIEW_MS later), +slow, +flaky (500 twice per
// orderReference on initialize), +refund_fail (returns refused), +refund_flaky (500 twice per return).
// A purchase initialized with checkoutSetup.recurringPayments 'checked' gets a recurringPaymentToken when Completed,
// shown in the status as paymentMethods.selectedPayment.recurringPaymentToken; POST /sandbox/avarda/revoke/:token
// (a sandbox control, not Avarda's) ends a token, so the next charge on it is refused with Avarda's published 110
// ("Invalid recurring payment token …"; a mandate revoked at Avarda).
// +redirect is every purchase here (the customer step is Avarda's way); +refund_pending has no counterpart.
import express, { type Request, type Response, type Router } from 'express';
import { randomBytes, randomUUID } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { z } from 'zod';
import { config } from '../../../../lib/config.ts';
import { counter, keptState, records, savedKey, tagSet } from '../../kept.ts';
import { magicTags, type MagicTag } from '../../magic.ts';
import { keep, Retrier, retryFirstMs, type Attempts } from '../../notifier.ts';
import type { IdempotencyStore } from '../../recorder.ts';
import type { Imitation } from '../../provider.ts';
import { JwtIssuer } from './jwt.ts';
import { type AvardaError, camelKeys, itemsTotal, minor, validateCancel, validateInitialize, validateOrder, validateRefund } from './validate.ts';
import { setTimeout as sleep } from 'node:timers/promises';

/** The partner client this imitation issues to the sandbox's merchant (the connector's manifest names the same as its sandbox default). */
const AVARDA_SANDBOX = { client_id: 'avarda_sandbox_client', client_secret: 'avarda_sandbox_client_secret' } as const;

type Obj = Record<string, any>;
type Step = 'Initialized' | 'WaitingForBankId' | 'Completed' | 'TimedOut';

/** The sandbox's own client (the connector's manifest names the same as its sandbox account; no code is shared). */
const SANDBOX = { client_id: 'avarda_sandbox_client', client_secret: 'avarda_sandbox_client_secret' } as const;
/** Avarda's published payment-status example: the shape every read answers in. */
const STATUS_EXAMPLE: Obj = JSON.parse(readFileSync(new URL('../../../../workers/connectors/avarda/fixtures/payment-status.json', import.meta.url), 'utf8'));

interface Purchase {
  purchaseId: string;
  clientId: string;
  mode: 'B2C' | 'B2B';
  step: Step;
  tags: Set<MagicTag>;
  orderReference: string | null;
  setup: Obj;
  items: Obj[];
  customer: Obj;
  total: number;
  activated: number;
  cancelled: number;
  released: number;
  returned: number;
  declined?: boolean;
  /** Set when a purchase offering recurring payments is Completed; null once revoked (the sandbox's control). */
  recurringPaymentToken?: string | null;
  /** A purchase made by a recurring charge: the purchase whose token it charged. */
  recurringOf?: string;
  activations: { orderReference: string; tranId: string | null; items: Obj[]; amount: number; at: string }[];
  refunds: { kind: 'return' | 'refund'; orderReference: string | null; tranId: string | null; amount: number; items?: Obj[]; at: string }[];
  expiredUtc: string;
  complete_at?: number;
  created: string;
  updated: string;
}
export interface AvardaCallback extends Attempts {
  id: string;
  url: string;
  purchaseId: string;
  body: string;
  created_at: string;
}

/** Avarda's error body (docs.avarda.com/checkout-3/error-codes/). */
export const avardaError = (errors: AvardaError[], status = 400) => ({ status, body: { Errors: errors, StatusCode: status } });
const refusal = (ErrorMessage: string, ErrorCode = 0, Property = '') => avardaError([{ Property, ErrorCode, ErrorMessage }]);
const esc = (s: string) => s.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
const money = (m: number) => `${Math.floor(m / 100)}.${String(m % 100).padStart(2, '0')}`;
const CURRENCY: Record<string, string> = { SE: 'SEK', NO: 'NOK', DK: 'DKK', FI: 'EUR' };

export function avardaRouter(idem: IdempotencyStore, _publicUrl: () => string) {
  const router: Router = express.Router();
  const clientId = process.env.AVARDA_API_KEY || SANDBOX.client_id;
  const clients = new Map([[clientId, SANDBOX.client_secret]]);
  const tokenTtlS = Number(process.env.AVARDA_SANDBOX_TOKEN_TTL_S) || 3600;
  const sessionTtlS = Number(process.env.AVARDA_SANDBOX_SESSION_TTL_S) || 3600;
  const jwts = new JwtIssuer();
  const purchases = new Map<string, Purchase>();
  const callbacks: AvardaCallback[] = [];
  const retrier = new Retrier(retryFirstMs());
  const timers = new Set<NodeJS.Timeout>();
  const after = (ms: number, fn: () => void) => {
    const t = setTimeout(() => {
      timers.delete(t);
      fn();
    }, ms);
    t.unref();
    timers.add(t);
  };

  const touch = (p: Purchase) => {
    p.updated = new Date(Math.max(Date.now(), Date.parse(p.updated) + 1)).toISOString();
  };
  const callback = (p: Purchase) => {
    const url = p.setup.completedNotificationUrl;
    if (typeof url !== 'string' || !url) return;
    const body = JSON.stringify({ purchaseId: p.purchaseId });
    const d: AvardaCallback = {
      id: randomUUID(),
      url,
      purchaseId: p.purchaseId,
      body,
      created_at: new Date().toISOString(),
      attempts: 0,
      delivered: false,
      last_status: null,
      last_error: null,
      next_attempt_at: null,
    };
    keep(callbacks, d);
    retrier.post(d, url, body, {}, { provider: 'avarda', id: d.id, purchaseId: p.purchaseId });
  };
  const move = (p: Purchase, step: Step) => {
    p.step = step;
    if (step === 'Completed' && p.setup.recurringPayments === 'checked' && p.recurringPaymentToken === undefined) {
      p.recurringPaymentToken = randomBytes(16).toString('hex');
    }
    touch(p);
    if (step === 'Completed') callback(p);
  };
  /** Time passing: a BankID wait ends at complete_at, a session not completed by expiredUtc times out. */
  const advance = (p: Purchase, force = false) => {
    if (p.step === 'WaitingForBankId' && p.complete_at !== undefined && (force || Date.now() >= p.complete_at)) {
      delete p.complete_at;
      move(p, 'Completed');
    }
    if (p.step !== 'Completed' && p.step !== 'TimedOut' && Date.now() >= Date.parse(p.expiredUtc)) move(p, 'TimedOut');
  };
  /** The payment status in the published example's shape: its keys, our values (the example's "string"s dropped). */
  const view = (p: Purchase) => {
    advance(p);
    const key = p.mode === 'B2B' ? 'b2B' : 'b2C';
    const { b2C: exampleMode, extraIdentifiers: exampleIds, ...example } = STATUS_EXAMPLE;
    const country = String(p.setup.invoicingCountries?.[0] ?? p.customer.invoicingAddress?.country ?? 'SE');
    return {
      ...example,
      purchaseId: p.purchaseId,
      extraIdentifiers: { ...Object.fromEntries(Object.keys(exampleIds).map((k) => [k, null])), orderReference: p.orderReference },
      totalPrice: p.total / 100,
      createdUtc: p.created,
      expiredUtc: p.expiredUtc,
      checkoutSite: { siteCode: 'sandbox', countryCode: country, currencyCode: CURRENCY[country] ?? 'SEK' },
      mode: p.mode,
      [key]: { ...p.customer, step: { ...exampleMode.step, customerToken: null, current: p.step } },
      paymentMethods:
        p.step === 'Completed'
          ? { selectedPayment: { type: 'Invoice', ...(p.recurringPaymentToken ? { recurringPaymentToken: p.recurringPaymentToken } : {}) } }
          : {},
    };
  };

  const send = (res: Response, a: { status: number; body: unknown }) => res.status(a.status).json(a.body);
  const serverError = () => refusal('Non specific error', 0);
  /** +flaky / +refund_flaky: HTTP 500 for the first two calls counted under `key`. */
  const flaky = (key: string) => idem.count(`avarda:${key}`) <= 2;
  /** Avarda binds request fields case-insensitively. */
  const bodyOf = (req: Request): Obj => camelKeys(req.body ?? {});

  router.post('/api/partner/tokens', (req, res) => {
    const b = bodyOf(req);
    const errors: AvardaError[] = [];
    if (typeof b.clientId !== 'string' || !b.clientId) errors.push({ Property: 'ClientId', ErrorCode: 0, ErrorMessage: 'The ClientId field is required.' });
    if (typeof b.clientSecret !== 'string' || !b.clientSecret)
      errors.push({ Property: 'ClientSecret', ErrorCode: 0, ErrorMessage: 'The ClientSecret field is required.' });
    if (errors.length) return send(res, avardaError(errors));
    // The refusal's body is the one the Magento module reads (`error_description`); its status is UNVERIFIED.
    if (clients.get(b.clientId) !== b.clientSecret)
      return send(res, { status: 401, body: { error: 'invalid_client', error_description: 'Invalid client credentials' } });
    const t = jwts.sign(b.clientId, 'partner', tokenTtlS);
    res.json({ token: t.jwt, tokenExpirationUtc: new Date(t.exp * 1000).toISOString() });
  });

  router.use('/api/partner/payments', (req, res, next) => {
    const m = /^Bearer (.+)$/.exec(req.header('authorization') ?? '');
    const who = m ? jwts.verify(m[1]!, 'partner') : null;
    if (!who || who === 'expired' || !clients.has(who)) {
      return send(res, {
        status: 401,
        body: { error: 'invalid_token', error_description: who === 'expired' ? 'The token is expired' : 'The token is missing or invalid' },
      });
    }
    res.locals.client = who;
    next();
  });

  router.post('/api/partner/payments', async (req, res) => {
    const b = bodyOf(req);
    const mode: 'B2C' | 'B2B' = b.checkoutSetup?.mode === 'B2B' ? 'B2B' : 'B2C';
    const customer: Obj = (mode === 'B2B' ? b.b2B : b.b2C) ?? {};
    const tags = magicTags(typeof customer.userInputs?.email === 'string' ? customer.userInputs.email : null);
    const ref = typeof b.extraIdentifiers?.orderReference === 'string' ? b.extraIdentifiers.orderReference : null;
    if (tags.has('flaky') && flaky(`flaky:${ref ?? JSON.stringify(b.items)}`)) return send(res, { ...serverError(), status: 500 });
    const errors = validateInitialize(b);
    if (errors.length) return send(res, avardaError(errors));
    if (tags.has('slow')) await sleep(config.sandboxSlowMs);
    const now = new Date();
    const purchaseId = randomBytes(12).toString('hex');
    const p: Purchase = {
      purchaseId,
      clientId: res.locals.client,
      mode,
      step: 'Initialized',
      tags,
      orderReference: ref,
      setup: b.checkoutSetup ?? {},
      items: b.items,
      customer,
      total: itemsTotal(b.items),
      activated: 0,
      cancelled: 0,
      released: 0,
      returned: 0,
      activations: [],
      refunds: [],
      expiredUtc: new Date(now.getTime() + sessionTtlS * 1000).toISOString(),
      created: now.toISOString(),
      updated: now.toISOString(),
    };
    purchases.set(purchaseId, p);
    const purchaseJwt = jwts.sign(purchaseId, 'purchase', sessionTtlS).jwt;
    res.json({ purchaseId, jwt: purchaseJwt, expiredUtc: p.expiredUtc });
  });

  const owned = (req: Request, res: Response) => {
    const p = purchases.get(req.params.id as string);
    return p && p.clientId === res.locals.client ? p : undefined;
  };
  // The answer for an unknown purchase is not published: Avarda's error body with a 404.
  const notFound = () => avardaError([{ Property: 'PurchaseId', ErrorCode: 0, ErrorMessage: 'Purchase not found' }], 404);
  /** What is reserved and neither activated, cancelled nor released. */
  const open = (p: Purchase) => p.total - p.activated - p.cancelled - p.released;
  const notCompleted = () => refusal('Purchase must be in completed state', 100);
  /** The order-management calls answer with no content: 200 (order, cancel) or 204 (refund, return). */
  const done = (res: Response, status: 200 | 204) => res.status(status).end();

  router.get('/api/partner/payments/:id', (req, res) => {
    const p = owned(req, res);
    if (!p) return send(res, notFound());
    res.json(view(p));
  });

  router.post('/api/partner/payments/:id/order', (req, res) => {
    const p = owned(req, res);
    if (!p) return send(res, notFound());
    advance(p);
    if (p.step !== 'Completed') return send(res, notCompleted());
    const b = bodyOf(req);
    const errors = validateOrder(b);
    if (errors.length) return send(res, avardaError(errors));
    const amount = itemsTotal(b.items);
    if (amount > open(p)) return send(res, refusal(`The items (${money(amount)}) exceed the amount left to deliver (${money(open(p))})`, 0, 'Items'));
    p.activations.push({ orderReference: b.orderReference, tranId: b.tranId ?? null, items: b.items, amount, at: new Date().toISOString() });
    p.activated += amount;
    touch(p);
    done(res, 200);
  });

  router.post('/api/partner/payments/:id/cancel', (req, res) => {
    const p = owned(req, res);
    if (!p) return send(res, notFound());
    advance(p);
    if (p.step !== 'Completed') return send(res, notCompleted());
    const errors = validateCancel(bodyOf(req));
    if (errors.length) return send(res, avardaError(errors));
    if (open(p) === 0) return send(res, refusal('Nothing is left to cancel'));
    p.cancelled += open(p);
    touch(p);
    done(res, 200);
  });

  /** A refund or return of `amount` (minor units) within `left`: the tags first. */
  const refusedMoney = async (p: Purchase, amount: number, left: number, key: string) => {
    if (p.tags.has('refund_flaky') && flaky(`refund_flaky:${p.purchaseId}:${key}`)) return { ...serverError(), status: 500 };
    if (p.tags.has('slow')) await sleep(config.sandboxSlowMs);
    if (p.tags.has('refund_fail')) return refusal('The return was rejected: the invoice is with debt collection');
    if (amount < 1 || amount > left) return refusal(`The amount (${money(amount)}) exceeds what is left (${money(left)})`, 0, 'Amount');
    return null;
  };

  /** `…/refund`: money the customer no longer needs to be delivered, out of the reservation not activated. */
  router.post('/api/partner/payments/:id/refund', async (req, res) => {
    const p = owned(req, res);
    if (!p) return send(res, notFound());
    advance(p);
    if (p.step !== 'Completed') return send(res, notCompleted());
    const b = bodyOf(req);
    const errors = validateRefund(b);
    if (errors.length) return send(res, avardaError(errors));
    const amount = minor(b.amount);
    const refused = await refusedMoney(p, amount, open(p), `refund:${b.amount}`);
    if (refused) return send(res, refused);
    p.refunds.push({ kind: 'refund', orderReference: b.orderReference ?? null, tranId: b.tranId ?? null, amount, at: new Date().toISOString() });
    p.released += amount;
    touch(p);
    done(res, 204);
  });

  /** `…/return`: activated rows credited (negative rows on the invoice), up to what is activated and not returned. */
  router.post('/api/partner/payments/:id/return', async (req, res) => {
    const p = owned(req, res);
    if (!p) return send(res, notFound());
    const b = bodyOf(req);
    const errors = validateOrder(b);
    if (errors.length) return send(res, avardaError(errors));
    const amount = itemsTotal(b.items);
    const refused = await refusedMoney(p, amount, p.activated - p.returned, `return:${b.tranId ?? JSON.stringify(b.items)}`);
    if (refused) return send(res, refused);
    p.refunds.push({ kind: 'return', orderReference: b.orderReference, tranId: b.tranId ?? null, amount, items: b.items, at: new Date().toISOString() });
    p.returned += amount;
    touch(p);
    done(res, 204);
  });

  /**
   * A recurring charge on the token of a Completed purchase (the WooCommerce plugin's renewal): the token must be the
   * purchase's and not revoked; the rows and OrderReference are checked as an activation's. The answer names a new
   * purchase, Completed without the customer (the plugin marks the renewal paid on it), in the same mode.
   */
  router.post('/api/partner/payments/:id/authorizerecurringpayment', (req, res) => {
    const first = owned(req, res);
    if (!first) return send(res, notFound());
    advance(first);
    if (first.step !== 'Completed') return send(res, notCompleted());
    const b = bodyOf(req);
    const errors = validateOrder(b);
    if (typeof b.recurringPaymentToken !== 'string' || !b.recurringPaymentToken)
      errors.push({ Property: 'RecurringPaymentToken', ErrorCode: 0, ErrorMessage: 'The RecurringPaymentToken field is required.' });
    if (errors.length) return send(res, avardaError(errors));
    if (!first.recurringPaymentToken || first.recurringPaymentToken !== b.recurringPaymentToken)
      // Avarda's published code for it (checkout-3/error-codes 110); a revoked token is one no longer valid.
      return send(
        res,
        refusal(
          'Authorize recurring payment can not be processed. Invalid recurring payment token or origin purchase does not meet conditions for recurring payments',
          110,
          'RecurringPaymentToken',
        ),
      );
    const total = itemsTotal(b.items);
    if (total < 1) return send(res, refusal('The total of the items must be greater than 0', 0, 'Items'));
    const now = new Date();
    const p: Purchase = {
      ...first,
      purchaseId: randomBytes(12).toString('hex'),
      step: 'Completed',
      tags: new Set(first.tags),
      orderReference: b.orderReference,
      setup: { ...first.setup, recurringPayments: undefined, completedNotificationUrl: undefined },
      items: b.items,
      total,
      activated: 0,
      cancelled: 0,
      released: 0,
      returned: 0,
      declined: undefined,
      recurringPaymentToken: undefined,
      recurringOf: first.purchaseId,
      activations: [],
      refunds: [],
      created: now.toISOString(),
      updated: now.toISOString(),
    };
    purchases.set(p.purchaseId, p);
    res.json({ purchaseId: p.purchaseId });
  });

  // The customer's side: Avarda Checkout's form, initialized with the purchase JWT (as avardaCheckoutInit is).
  const byJwt = (jwt: unknown) => {
    const id = typeof jwt === 'string' ? jwts.verify(jwt, 'purchase') : null;
    return id && id !== 'expired' ? purchases.get(id) : undefined;
  };
  const form = (action: 'complete' | 'leave', label: string, jwt: string, back: string) =>
    `<form method="post" action="/avarda/checkout/${action}"><input type="hidden" name="purchaseJwt" value="${esc(jwt)}"><input type="hidden" name="redirectUrl" value="${esc(back)}"><button>${label}</button></form>`;
  const page = (p: Purchase, jwt: string, back: string, note = '') => `<!doctype html><title>Avarda Checkout</title>
<h1>Pay ${money(p.total)} ${esc(String(p.setup.invoicingCountries?.[0] ?? ''))} with Avarda (${p.mode === 'B2B' ? 'invoice to the company' : 'invoice or part payment'})</h1>${note}
${p.step === 'Initialized' && !p.declined ? form('complete', 'Complete purchase', jwt, back) : ''}
${form('leave', 'Back to the shop', jwt, back)}`;

  router.get('/checkout', (req, res) => {
    const p = byJwt(req.query.purchaseJwt);
    if (!p) return res.status(404).type('html').send('<!doctype html><p>The checkout session is not valid.</p>');
    advance(p);
    const back = typeof req.query.redirectUrl === 'string' ? req.query.redirectUrl : '';
    if (p.step === 'Completed' || p.step === 'TimedOut') return res.status(410).type('html').send(`<!doctype html><p>This checkout is ${p.step}.</p>`);
    res.type('html').send(page(p, String(req.query.purchaseJwt), back));
  });

  const backTo = (url: string, p: Purchase) => {
    try {
      const u = new URL(url);
      u.searchParams.set('purchaseId', p.purchaseId);
      return u.toString();
    } catch {
      return null;
    }
  };
  router.post('/checkout/:action', (req, res) => {
    const p = byJwt(req.body?.purchaseJwt);
    const action = req.params.action;
    if (!p || !['complete', 'leave'].includes(action)) return res.status(404).type('html').send('<!doctype html><p>Nothing to do.</p>');
    advance(p);
    const back = backTo(String(req.body?.redirectUrl ?? ''), p);
    if (action === 'leave') {
      if (p.step !== 'Completed' && p.step !== 'TimedOut') move(p, 'TimedOut');
      return back ? res.redirect(303, back) : res.type('html').send('<!doctype html><p>You left the checkout.</p>');
    }
    if (p.step !== 'Initialized' || p.declined) return res.status(409).type('html').send(`<!doctype html><p>This checkout is ${p.step}.</p>`);
    if (p.tags.has('decline')) {
      // The form shows the decline and stays on its step (no published state names a declined credit).
      p.declined = true;
      touch(p);
      return res
        .type('html')
        .send(
          page(
            p,
            String(req.body.purchaseJwt),
            String(req.body?.redirectUrl ?? ''),
            '<p class="declined">Unfortunately we cannot offer you this payment method. Please choose another way to pay.</p>',
          ),
        );
    }
    if (p.tags.has('review')) {
      p.complete_at = Date.now() + config.sandboxReviewMs;
      move(p, 'WaitingForBankId');
      after(config.sandboxReviewMs, () => advance(p, true));
    } else move(p, 'Completed');
    return back ? res.redirect(303, back) : res.type('html').send('<!doctype html><p>Thank you.</p>');
  });

  /** Operator call (Avarda's back office): the token ends, as a customer withdrawing consent; the next charge is refused. */
  const operator: Router = express.Router();
  operator.post('/avarda/revoke/:token', (req, res) => {
    const p = [...purchases.values()].find((x) => x.recurringPaymentToken && x.recurringPaymentToken === req.params.token);
    if (!p) return res.status(404).json({ error: 'no purchase holds this recurring payment token' });
    p.recurringPaymentToken = null;
    touch(p);
    res.json({ purchaseId: p.purchaseId, revoked: true });
  });

  const reset = () => {
    for (const t of timers) clearTimeout(t);
    timers.clear();
    retrier.reset();
    purchases.clear();
    callbacks.length = 0;
    jwts.issued = 0;
  };
  /** Purchases, callbacks sent and the JWT key (a token handed out before a restart still works); decisions due are
   * taken on the next read. */
  const saved = keptState({
    purchases: records<Omit<Purchase, 'tags'> & { tags: unknown }>('purchaseId'),
    callbacks: records<AvardaCallback>('id'),
    jwt: z.object({ key: savedKey, issued: counter }).catch({ key: undefined, issued: undefined }),
  });
  const state = {
    save: () => ({ purchases: [...purchases.values()].map((p) => ({ ...p, tags: [...p.tags] })), callbacks, jwt: jwts.save() }),
    load: (raw: unknown) => {
      reset();
      const s = saved.parse(raw);
      // A state kept before returns and releases were told apart has neither count: 0.
      for (const p of s.purchases) purchases.set(p.purchaseId, { ...p, released: p.released ?? 0, returned: p.returned ?? 0, tags: tagSet(p.tags) });
      callbacks.push(...s.callbacks);
      jwts.load(s.jwt);
    },
  };
  return { router, operator, purchases, callbacks, jwts, reset, state };
}

export const imitation: Imitation = (idem, publicUrl) => {
  const a = avardaRouter(idem, publicUrl);
  return {
    router: a.router,
    operator: a.operator,
    reset: a.reset,
    state: a.state,
    views: {
      purchases: (q) =>
        [...a.purchases.values()]
          .filter((p) => (!q.purchaseId || p.purchaseId === q.purchaseId) && (!q.orderReference || p.orderReference === q.orderReference))
          .map(({ tags, ...p }) => ({ ...p, tags: [...tags] })),
      callbacks: (q) => a.callbacks.filter((c) => !q.purchaseId || c.purchaseId === q.purchaseId),
      tokens: () => ({ issued: a.jwts.issued }),
    },
  };
};
