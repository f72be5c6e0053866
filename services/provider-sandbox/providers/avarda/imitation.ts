// Avarda Checkout 3's partner API as the sandbox imitates it (the worker's side: workers/connectors/avarda/;
// reference: ../shared/reference/providers/avarda.md). Mounted at /avarda, standing for checkout-api.avarda.com:
//   POST /api/partner/tokens                       {clientId, clientSecret} -> {token, tokenExpirationUtc} (short-lived JWT)
//   POST /api/partner/payments                     initialize a purchase -> {purchaseId, jwt, expiredUtc}
//   GET  /api/partner/payments/:id                 the purchase: {purchaseId, mode, b2C|b2B: {step: {current}, ...}, ...}
//   POST /api/partner/payments/:id/order           activate (capture) items; partial and several
//   POST /api/partner/payments/:id/cancel          cancel what is not activated
//   POST /api/partner/payments/:id/refund          {orderReference, amount: "x.xx", note}, up to what is activated
//   POST /api/partner/payments/:id/return          {orderReference, items}: a refund by items
//   GET  /checkout?purchaseJwt=&redirectUrl=       the page the customer completes Avarda Checkout on (Avarda's is a
//   POST /checkout/complete | /checkout/leave      script embedded with the purchase JWT; this is its stand-in)
// Bearer partner token on /api/partner/payments; a missing, foreign or expired one answers 401. Errors are ASP.NET
// problems {type, title, status, traceId, errors?: {field: [msg]}}. Amounts are decimals in the major unit.
// A completed purchase is reported to checkoutSetup.completedNotificationUrl as {"purchaseId"} (unsigned), retried.
// Steps: Initialized -> Completed | WaitingForBankId (-> Completed) | SelectPaymentMethod (declined in the form) ->
// TimedOut (the customer left or the session expired). Only Completed and TimedOut are confirmed Avarda values.
// Magic tags in the customer's userInputs.email: +decline (the form declines the credit; the customer can only leave),
// +review (the form waits for BankID, Completed SANDBOX_REVIEW_MS later), +slow, +flaky (500 twice per
// orderReference on initialize), +refund_fail (refunds refused 422), +refund_flaky (500 twice per refund).
// +redirect is every purchase here (the customer step is Avarda's way); +refund_pending has no counterpart.
import express, { type Request, type Response, type Router } from 'express';
import { randomBytes, randomUUID } from 'node:crypto';
import { z } from 'zod';
import { config } from '../../../../lib/config.ts';
import { counter, keptState, records, savedKey, tagSet } from '../../kept.ts';
import { magicTags, type MagicTag } from '../../magic.ts';
import { keep, Retrier, retryFirstMs, type Attempts } from '../../notifier.ts';
import type { IdempotencyStore } from '../../recorder.ts';
import type { Imitation } from '../../provider.ts';
import { JwtIssuer } from './jwt.ts';
import { itemsTotal, minor, validateInitialize, validateItems, type FieldErrors } from './validate.ts';

/** The partner client this imitation issues to the sandbox's merchant (the connector's manifest names the same as its sandbox default). */
const AVARDA_SANDBOX = { client_id: 'avarda_sandbox_client', client_secret: 'avarda_sandbox_client_secret' } as const;

type Obj = Record<string, any>;
type Step = 'Initialized' | 'SelectPaymentMethod' | 'WaitingForBankId' | 'Completed' | 'TimedOut';

interface Purchase {
  purchaseId: string; clientId: string; mode: 'B2C' | 'B2B'; step: Step; tags: Set<MagicTag>; orderReference: string | null;
  setup: Obj; items: Obj[]; customer: Obj; total: number; activated: number; cancelled: number; refunded: number;
  activations: { orderReference: string | null; items: Obj[]; amount: number; at: string }[];
  refunds: { orderReference: string | null; amount: number; note: string | null; items?: Obj[]; at: string }[];
  expiredUtc: string; complete_at?: number; created: string; updated: string;
}
export interface AvardaCallback extends Attempts { id: string; url: string; purchaseId: string; body: string; created_at: string }

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const traceId = () => `00-${randomBytes(16).toString('hex')}-${randomBytes(8).toString('hex')}-00`;
/** Avarda's error body (ASP.NET problem details). */
export const problem = (status: number, title: string, extra: { detail?: string; errors?: FieldErrors } = {}) => ({
  status, body: { type: `https://tools.ietf.org/html/rfc9110#section-${status === 401 ? '15.5.2' : status === 404 ? '15.5.5' : status === 422 ? '15.5.21' : status >= 500 ? '15.6.1' : '15.5.1'}`, title, status, ...extra, traceId: traceId() },
});
const invalid = (errors: FieldErrors) => problem(400, 'One or more validation errors occurred.', { errors });
const unprocessable = (field: string, msg: string) => problem(422, 'The request could not be processed.', { errors: { [field]: [msg] } });
const esc = (s: string) => s.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
const money = (m: number) => `${Math.floor(m / 100)}.${String(m % 100).padStart(2, '0')}`;

export function avardaRouter(idem: IdempotencyStore, _publicUrl: () => string) {
  const router: Router = express.Router();
  const clientId = process.env.AVARDA_API_KEY || AVARDA_SANDBOX.client_id;
  const clients = new Map([[clientId, AVARDA_SANDBOX.client_secret]]);
  const tokenTtlS = Number(process.env.AVARDA_SANDBOX_TOKEN_TTL_S) || 3600;
  const sessionTtlS = Number(process.env.AVARDA_SANDBOX_SESSION_TTL_S) || 3600;
  const jwts = new JwtIssuer();
  const purchases = new Map<string, Purchase>();
  const callbacks: AvardaCallback[] = [];
  const retrier = new Retrier(retryFirstMs());
  const timers = new Set<NodeJS.Timeout>();
  const after = (ms: number, fn: () => void) => {
    const t = setTimeout(() => { timers.delete(t); fn(); }, ms);
    t.unref();
    timers.add(t);
  };

  const touch = (p: Purchase) => { p.updated = new Date(Math.max(Date.now(), Date.parse(p.updated) + 1)).toISOString(); };
  const callback = (p: Purchase) => {
    const url = p.setup.completedNotificationUrl;
    if (typeof url !== 'string' || !url) return;
    const body = JSON.stringify({ purchaseId: p.purchaseId });
    const d: AvardaCallback = { id: randomUUID(), url, purchaseId: p.purchaseId, body, created_at: new Date().toISOString(), attempts: 0, delivered: false, last_status: null, last_error: null, next_attempt_at: null };
    keep(callbacks, d);
    retrier.post(d, url, body, {}, { provider: 'avarda', id: d.id, purchaseId: p.purchaseId });
  };
  const move = (p: Purchase, step: Step) => {
    p.step = step;
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
  const view = (p: Purchase) => {
    advance(p);
    const key = p.mode === 'B2B' ? 'b2B' : 'b2C';
    return {
      purchaseId: p.purchaseId, mode: p.mode,
      [key]: { step: { current: p.step }, ...p.customer },
      paymentMethods: p.step === 'Completed' ? { selectedPayment: { type: 'Invoice' } } : {},
      items: p.items, extraIdentifiers: { orderReference: p.orderReference },
      totalPrice: p.total / 100, expiredUtc: p.expiredUtc,
    };
  };

  const send = (res: Response, a: { status: number; body: unknown }) => res.status(a.status).json(a.body);
  const serverError = () => problem(500, 'An error occurred while processing your request.');
  /** +flaky / +refund_flaky: HTTP 500 for the first two calls counted under `key`. */
  const flaky = (key: string) => idem.count(`avarda:${key}`) <= 2;

  router.post('/api/partner/tokens', (req, res) => {
    const b: Obj = req.body ?? {};
    const errors: FieldErrors = {};
    if (typeof b.clientId !== 'string' || !b.clientId) errors.ClientId = ['The ClientId field is required.'];
    if (typeof b.clientSecret !== 'string' || !b.clientSecret) errors.ClientSecret = ['The ClientSecret field is required.'];
    if (Object.keys(errors).length) return send(res, invalid(errors));
    if (clients.get(b.clientId) !== b.clientSecret) return send(res, problem(401, 'Unauthorized', { detail: 'Invalid client credentials' }));
    const t = jwts.sign(b.clientId, 'partner', tokenTtlS);
    res.json({ token: t.jwt, tokenExpirationUtc: new Date(t.exp * 1000).toISOString() });
  });

  router.use('/api/partner/payments', (req, res, next) => {
    const m = /^Bearer (.+)$/.exec(req.header('authorization') ?? '');
    const who = m ? jwts.verify(m[1]!, 'partner') : null;
    if (!who || who === 'expired' || !clients.has(who)) {
      return send(res, problem(401, 'Unauthorized', { detail: who === 'expired' ? 'The token is expired' : 'The token is missing or invalid' }));
    }
    res.locals.client = who;
    next();
  });

  router.post('/api/partner/payments', async (req, res) => {
    const b: Obj = req.body ?? {};
    const mode: 'B2C' | 'B2B' = b.checkoutSetup?.mode === 'B2B' ? 'B2B' : 'B2C';
    const customer: Obj = (mode === 'B2B' ? b.b2B : b.b2C) ?? {};
    const tags = magicTags(typeof customer.userInputs?.email === 'string' ? customer.userInputs.email : null);
    const ref = typeof b.extraIdentifiers?.orderReference === 'string' ? b.extraIdentifiers.orderReference : null;
    if (tags.has('flaky') && flaky(`flaky:${ref ?? JSON.stringify(b.items)}`)) return send(res, serverError());
    const errors = validateInitialize(b);
    if (Object.keys(errors).length) return send(res, invalid(errors));
    if (tags.has('slow')) await sleep(config.sandboxSlowMs);
    const now = new Date();
    const purchaseId = randomBytes(12).toString('hex');
    const p: Purchase = {
      purchaseId, clientId: res.locals.client, mode, step: 'Initialized', tags, orderReference: ref, setup: b.checkoutSetup ?? {},
      items: b.items, customer, total: itemsTotal(b.items), activated: 0, cancelled: 0, refunded: 0, activations: [], refunds: [],
      expiredUtc: new Date(now.getTime() + sessionTtlS * 1000).toISOString(), created: now.toISOString(), updated: now.toISOString(),
    };
    purchases.set(purchaseId, p);
    const purchaseJwt = jwts.sign(purchaseId, 'purchase', sessionTtlS).jwt;
    res.json({ purchaseId, jwt: purchaseJwt, expiredUtc: p.expiredUtc });
  });

  const owned = (req: Request, res: Response) => {
    const p = purchases.get(req.params.id as string);
    return p && p.clientId === res.locals.client ? p : undefined;
  };
  const notFound = () => problem(404, 'Not Found', { detail: 'Purchase not found' });
  const open = (p: Purchase) => p.total - p.activated - p.cancelled;

  router.get('/api/partner/payments/:id', (req, res) => {
    const p = owned(req, res);
    if (!p) return send(res, notFound());
    res.json(view(p));
  });

  router.post('/api/partner/payments/:id/order', (req, res) => {
    const p = owned(req, res);
    if (!p) return send(res, notFound());
    advance(p);
    if (p.step !== 'Completed') return send(res, unprocessable('PurchaseId', `The purchase is not completed (step ${p.step})`));
    const b: Obj = req.body ?? {};
    const errors: FieldErrors = {};
    validateItems(b.items, errors);
    if (Object.keys(errors).length) return send(res, invalid(errors));
    const amount = itemsTotal(b.items);
    if (amount > open(p)) return send(res, unprocessable('Items', `The items (${money(amount)}) exceed the amount left to activate (${money(open(p))})`));
    p.activations.push({ orderReference: b.orderReference ?? null, items: b.items, amount, at: new Date().toISOString() });
    p.activated += amount;
    touch(p);
    res.json(view(p));
  });

  router.post('/api/partner/payments/:id/cancel', (req, res) => {
    const p = owned(req, res);
    if (!p) return send(res, notFound());
    advance(p);
    if (p.step !== 'Completed') return send(res, unprocessable('PurchaseId', `The purchase is not completed (step ${p.step})`));
    if (open(p) === 0) return send(res, unprocessable('PurchaseId', 'Nothing is left to cancel'));
    p.cancelled += open(p);
    touch(p);
    res.json(view(p));
  });

  /** A refund of `amount` (minor units): the tags, then what is left of the activated amount. */
  const refund = async (p: Purchase, amount: number, key: string) => {
    if (p.tags.has('refund_flaky') && flaky(`refund_flaky:${p.purchaseId}:${key}`)) return serverError();
    if (p.tags.has('slow')) await sleep(config.sandboxSlowMs);
    if (p.tags.has('refund_fail')) return unprocessable('Amount', 'The refund was rejected: the invoice is with debt collection');
    const left = p.activated - p.refunded;
    if (amount < 1 || amount > left) return unprocessable('Amount', `The amount (${money(amount)}) exceeds what is left to refund (${money(left)})`);
    return null;
  };

  router.post('/api/partner/payments/:id/refund', async (req, res) => {
    const p = owned(req, res);
    if (!p) return send(res, notFound());
    const b: Obj = req.body ?? {};
    if (typeof b.amount !== 'string' || !/^\d+\.\d{2}$/.test(b.amount)) return send(res, invalid({ Amount: ['The field Amount must be a decimal string with 2 decimals.'] }));
    const amount = minor(Number(b.amount));
    const refused = await refund(p, amount, `${b.amount}:${b.note ?? ''}`);
    if (refused) return send(res, refused);
    p.refunds.push({ orderReference: b.orderReference ?? null, amount, note: typeof b.note === 'string' ? b.note : null, at: new Date().toISOString() });
    p.refunded += amount;
    touch(p);
    res.json(view(p));
  });

  router.post('/api/partner/payments/:id/return', async (req, res) => {
    const p = owned(req, res);
    if (!p) return send(res, notFound());
    const b: Obj = req.body ?? {};
    const errors: FieldErrors = {};
    validateItems(b.items, errors);
    if (Object.keys(errors).length) return send(res, invalid(errors));
    const amount = itemsTotal(b.items);
    const refused = await refund(p, amount, JSON.stringify(b.items));
    if (refused) return send(res, refused);
    p.refunds.push({ orderReference: b.orderReference ?? null, amount, note: null, items: b.items, at: new Date().toISOString() });
    p.refunded += amount;
    touch(p);
    res.json(view(p));
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
${p.step === 'Initialized' ? form('complete', 'Complete purchase', jwt, back) : ''}
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
    if (p.step !== 'Initialized') return res.status(409).type('html').send(`<!doctype html><p>This checkout is ${p.step}.</p>`);
    if (p.tags.has('decline')) {
      move(p, 'SelectPaymentMethod');
      return res.type('html').send(page(p, String(req.body.purchaseJwt), String(req.body?.redirectUrl ?? ''),
        '<p class="declined">Unfortunately we cannot offer you this payment method. Please choose another way to pay.</p>'));
    }
    if (p.tags.has('review')) {
      p.complete_at = Date.now() + config.sandboxReviewMs;
      move(p, 'WaitingForBankId');
      after(config.sandboxReviewMs, () => advance(p, true));
    } else move(p, 'Completed');
    return back ? res.redirect(303, back) : res.type('html').send('<!doctype html><p>Thank you.</p>');
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
    purchases: records<Omit<Purchase, 'tags'> & { tags: unknown }>('purchaseId'), callbacks: records<AvardaCallback>('id'),
    jwt: z.object({ key: savedKey, issued: counter }).catch({ key: undefined, issued: undefined }),
  });
  const state = {
    save: () => ({ purchases: [...purchases.values()].map((p) => ({ ...p, tags: [...p.tags] })), callbacks, jwt: jwts.save() }),
    load: (raw: unknown) => {
      reset();
      const s = saved.parse(raw);
      for (const p of s.purchases) purchases.set(p.purchaseId, { ...p, tags: tagSet(p.tags) });
      callbacks.push(...s.callbacks);
      jwts.load(s.jwt);
    },
  };
  return { router, purchases, callbacks, jwts, reset, state };
}

export const imitation: Imitation = (idem, publicUrl) => {
  const a = avardaRouter(idem, publicUrl);
  return {
    router: a.router,
    reset: a.reset,
    state: a.state,
    views: {
      purchases: (q) => [...a.purchases.values()]
        .filter((p) => (!q.purchaseId || p.purchaseId === q.purchaseId) && (!q.orderReference || p.orderReference === q.orderReference))
        .map(({ tags, ...p }) => ({ ...p, tags: [...tags] })),
      callbacks: (q) => a.callbacks.filter((c) => !q.purchaseId || c.purchaseId === q.purchaseId),
      tokens: () => ({ issued: a.jwts.issued }),
    },
  };
};
