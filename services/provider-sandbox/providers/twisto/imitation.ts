// Twisto's PSP API v4 as the sandbox imitates it (the worker's side: workers/connectors/twisto/; reference:
// ../shared/reference/providers/twisto.md). Mounted at /twisto, so the API root is /twisto/psp/v4:
//   POST /psp/v4/checkouts                  create (201, state created); the shopper goes to its `uri`
//   GET  /psp/v4/checkouts/:id              read (created | approved | completed | cancelled | error)
//   POST /psp/v4/checkouts/:id/cancel       cancel before the charge is captured
//   POST /psp/v4/charges                    charge an approved checkout, the full amount only (capture true/false)
//   GET  /psp/v4/charges/:id, POST /psp/v4/charges/:id/(capture|cancel)   an authorised charge, captured in full or cancelled
//   POST /psp/v4/refunds, GET /psp/v4/refunds/:id, GET /psp/v4/refunds?checkoutId=&limit=&skip=   refunds of a completed checkout
//   GET  /checkout/:id, POST /checkout/:id/(approve|deny)   the checkout page the shopper completes, then back to
//        config.redirect_uri with checkout_id and state (parameter names UNVERIFIED)
// Operator (the merchant's onboarding at Twisto; the sandbox's operator key): POST /sandbox/twisto/webhooks {secret_key, url} registers the
// merchant's webhook URL. Webhooks (approved, completed, cancelled, refunded) are unsigned JSON, retried with the
// sandbox's backoff. Auth: `Authorization: Bearer <secret key>`. Amounts: decimal strings in major units. Requests
// are checked by Twisto's published rules (workers/connectors/twisto/fixtures/rules.json, validate.ts `breach`);
// answers take the keys of Twisto's published examples (fixtures/published/checkout.json, charge.json, refund.json),
// in their order. Errors: Django REST framework's {"detail", "code"} and field errors (UNVERIFIED). Idempotency-Key:
// the transactional calls (POST /charges, /refunds, /checkouts/:id/cancel, and the charge's capture and cancel) answer
// a repeated key with the first answer (Twisto's edge-cases page: "use the same 'Idempotency-key' in the header as
// the original request"); a 5xx is not kept. POST /checkouts is non-transactional: a repeat makes a new checkout.
// Magic tags in shopper.email: +decline (the scoring rejects: checkout cancelled), +review (the scoring takes
// SANDBOX_REVIEW_MS: the checkout stays created, then approved with its webhook), +slow, +flaky (500 twice on the
// create), +refund_fail (refunds refused), +refund_flaky (500 twice on a refund). +refund_pending has no Twisto
// equivalent (a refund has no state), +redirect none (every checkout is a redirect).
import express, { type Request, type Response, type Router } from 'express';
import { randomBytes } from 'node:crypto';
import { z } from 'zod';
import { config } from '../../../../lib/config.ts';
import { keptState, records, tagSet } from '../../kept.ts';
import { magicTags, type MagicTag } from '../../magic.ts';
import { keep, Retrier, retryFirstMs, type Attempts } from '../../notifier.ts';
import { runKeyed, type IdempotencyStore } from '../../recorder.ts';
import type { Imitation } from '../../provider.ts';
import { laterThan } from '../service_test/clock.ts';
import { readFileSync } from 'node:fs';
import { breach, decimal, minor, validateCharge, validateCheckout, validateRefund, type FieldErrors } from './validate.ts';
import { setTimeout as sleep } from 'node:timers/promises';

/** Twisto's published answer example `name` (workers/connectors/twisto/fixtures/published/): its keys, in order. */
const published = (name: string): string[] =>
  Object.keys(JSON.parse(readFileSync(new URL(`../../../../workers/connectors/twisto/fixtures/published/${name}.json`, import.meta.url), 'utf8')));
const CHECKOUT_KEYS = published('checkout');
const CHARGE_KEYS = published('charge');
const REFUND_KEYS = published('refund');
/** `view` in the keys of a published example, in its order (a key the example lacks is not answered). */
const asPublished = (keys: string[], view: Record<string, unknown>) => Object.fromEntries(keys.filter((k) => k in view).map((k) => [k, view[k]]));

type Obj = Record<string, any>;
type CheckoutState = 'created' | 'approved' | 'completed' | 'cancelled' | 'error';
type ChargeState = 'rejected' | 'authorised' | 'captured' | 'cancelled' | 'refunded' | 'error';

interface Checkout {
  id: string;
  secret_key: string;
  idempotency_key: string | null;
  type: string;
  state: CheckoutState;
  config: Obj;
  shopper: Obj;
  order: { reference: string | null; amount: number; currency: string; items: Obj[] };
  merchant_reference: string;
  refunded: number;
  tags: Set<MagicTag>;
  decide_at?: number;
  created: string;
  updated: string;
  settled: string | null;
}
interface Charge {
  id: string;
  checkout_id: string;
  secret_key: string;
  reference: string;
  amount: number;
  currency: string;
  captured: number;
  state: ChargeState;
  receipt_number: string;
  product: string;
  order: Obj | null;
  created_date: string;
}
interface Refund {
  id: string;
  checkout_id: string;
  secret_key: string;
  reason: string | null;
  amount: number;
  reference: string | null;
  created_date: string;
}
export interface TwistoDelivery extends Attempts {
  id: string;
  event: string;
  url: string;
  object_id: string;
  created_at: string;
  body: string;
}

const id = (prefix: string) => `${prefix}_${randomBytes(12).toString('hex')}`;
type Answer = { status: number; body: unknown };
const detail = (status: number, text: string, code: string): Answer => ({ status, body: { detail: text, code } });
const invalid = (errors: FieldErrors): Answer => ({ status: 400, body: errors });
const notFound = () => detail(404, 'Not found.', 'not_found');
const unavailable: Answer = { status: 500, body: { detail: 'A server error occurred.', code: 'error' } };

export function twistoRouter(idem: IdempotencyStore, publicUrl: () => string) {
  const router: Router = express.Router();
  const operator: Router = express.Router();
  const checkouts = new Map<string, Checkout>();
  const charges = new Map<string, Charge>();
  const refunds = new Map<string, Refund>();
  const hooks = new Map<string, string>();
  const deliveries: TwistoDelivery[] = [];
  const retrier = new Retrier(retryFirstMs());
  const secretKey = process.env.TWISTO_API_KEY || 'twisto_sandbox_secret_key';
  const timers = new Set<NodeJS.Timeout>();
  const after = (ms: number, fn: () => void) => {
    const t = setTimeout(() => {
      timers.delete(t);
      fn();
    }, ms);
    t.unref();
    timers.add(t);
  };

  const checkoutView = (c: Checkout) =>
    asPublished(CHECKOUT_KEYS, {
      id: c.id,
      uri: `${publicUrl()}/twisto/checkout/${c.id}`,
      type: c.type,
      config: c.config,
      created: c.created,
      settled: c.settled,
      state: c.state,
      shopper: c.shopper,
      merchant_reference: c.merchant_reference,
      order: { reference: c.order.reference, amount: decimal(c.order.amount), currency: c.order.currency, items: c.order.items },
    });
  const chargeView = (ch: Charge) =>
    asPublished(CHARGE_KEYS, {
      id: ch.id,
      reference: ch.reference,
      amount: decimal(ch.amount),
      currency: ch.currency,
      captured_amount: decimal(ch.captured),
      refunded_amount: decimal(ch.state === 'captured' || ch.state === 'refunded' ? checkouts.get(ch.checkout_id)!.refunded : 0),
      created_date: ch.created_date,
      receipt_number: ch.receipt_number,
      product: ch.product,
      state: ch.state,
    });
  const refundView = (r: Refund) =>
    asPublished(REFUND_KEYS, {
      id: r.id,
      reason: r.reason,
      amount: decimal(r.amount),
      created_date: r.created_date,
      reference: r.reference,
      checkout_id: r.checkout_id,
    });

  /**
   * The webhook of a checkout's change, to the URL its merchant registered (none registered: nothing sent), in the
   * keys of the psp-api webhooks page's example (published/webhook-psp-api.txt: no external_id, which only the
   * merchant-api page shows).
   */
  const notify = (c: Checkout, event: string) => {
    const url = hooks.get(c.secret_key);
    if (!url) return;
    const body = JSON.stringify({
      checkout_id: c.id,
      total_amount: decimal(c.order.amount),
      refunded_amount: decimal(c.refunded),
      created_date: c.created,
      settled_date: c.settled,
      type: c.type,
      state: c.state,
    });
    const d: TwistoDelivery = {
      id: id('whk'),
      event,
      url,
      object_id: c.id,
      created_at: new Date().toISOString(),
      body,
      attempts: 0,
      delivered: false,
      last_status: null,
      last_error: null,
      next_attempt_at: null,
    };
    keep(deliveries, d);
    retrier.post(d, url, body, {}, { provider: 'twisto', id: d.id, event });
  };
  const move = (c: Checkout, state: CheckoutState, event: string | null = state) => {
    c.state = state;
    c.updated = laterThan(c.updated);
    if (event) notify(c, event);
  };
  /** A `+review` checkout is decided at decide_at: by its timer, or by the first read after it. */
  const decideReview = (c: Checkout, force = false) => {
    if (c.state !== 'created' || c.decide_at === undefined || (!force && Date.now() < c.decide_at)) return;
    delete c.decide_at;
    move(c, 'approved');
  };

  const flaky = (tag: MagicTag, key: string) => idem.count(`twisto:${tag}:${key}`) <= 2;
  const send = async (res: Response, handle: () => Promise<Answer> | Answer) => {
    const out = await handle();
    res.status(out.status).json(out.body);
  };
  /**
   * A transactional call: a repeated Idempotency-Key (per secret key and path) gets the first answer; one still being
   * handled a 409 (UNVERIFIED: Twisto documents the key, not this answer); a 5xx is not kept. Without a key: handled.
   */
  const keyed = async (req: Request, res: Response, handle: () => Promise<Answer> | Answer) => {
    const key = req.header('idempotency-key');
    if (!key) return send(res, handle);
    return runKeyed(idem, `twisto:${keyOf(req)}:${req.path}:${key}`, res, handle, () =>
      send(res, () => detail(409, 'A request with this Idempotency-Key is still being processed.', 'conflict')),
    );
  };

  router.use('/psp/v4', (req, res, next) => {
    const auth = req.header('authorization');
    if (!auth) return res.status(401).json({ detail: 'Authentication credentials were not provided.', code: 'not_authenticated' });
    if (auth !== `Bearer ${secretKey}`) return res.status(401).json({ detail: 'Invalid token.', code: 'authentication_failed' });
    next();
  });
  const keyOf = (req: Request) => req.header('authorization')!.slice('Bearer '.length);
  const checkoutOf = (req: Request, cid: unknown) => {
    const c = typeof cid === 'string' ? checkouts.get(cid) : undefined;
    if (c) decideReview(c);
    return c && c.secret_key === keyOf(req) ? c : undefined;
  };

  router.post('/psp/v4/checkouts', (req, res) =>
    send(res, async () => {
      const b: Obj = req.body ?? {};
      const tags = magicTags(typeof b.shopper?.email === 'string' ? b.shopper.email : null);
      if (tags.has('flaky') && flaky('flaky', String(b.order?.reference))) return unavailable;
      // Every field error our checks find, else the first of Twisto's published rules broken (rules.json).
      const errors = validateCheckout(b);
      if (Object.keys(errors).length) return invalid(errors);
      const broken = breach('checkout', b);
      if (broken) return invalid(broken);
      if (tags.has('slow')) await sleep(config.sandboxSlowMs);
      const now = new Date().toISOString();
      const c: Checkout = {
        id: id('chk'),
        secret_key: keyOf(req),
        idempotency_key: req.header('idempotency-key') ?? null,
        type: b.type ?? 'standard',
        state: 'created',
        config: b.config,
        shopper: b.shopper,
        merchant_reference: b.merchant_reference,
        order: { reference: b.order.reference ?? null, amount: minor(b.order.amount), currency: b.order.currency, items: b.order.items },
        refunded: 0,
        tags,
        created: now,
        updated: now,
        settled: null,
      };
      checkouts.set(c.id, c);
      return { status: 201, body: checkoutView(c) };
    }),
  );

  router.get('/psp/v4/checkouts/:id', (req, res) =>
    send(res, () => {
      const c = checkoutOf(req, req.params.id);
      return c ? { status: 200, body: checkoutView(c) } : notFound();
    }),
  );

  router.post('/psp/v4/checkouts/:id/cancel', (req, res) =>
    keyed(req, res, () => {
      const c = checkoutOf(req, req.params.id);
      if (!c) return notFound();
      if (c.state === 'cancelled') return { status: 200, body: checkoutView(c) };
      if (c.state !== 'created' && c.state !== 'approved') return detail(400, `Checkout in state ${c.state} cannot be cancelled.`, 'invalid_state');
      for (const ch of charges.values()) if (ch.checkout_id === c.id && ch.state === 'authorised') ch.state = 'cancelled';
      delete c.decide_at;
      move(c, 'cancelled');
      return { status: 200, body: checkoutView(c) };
    }),
  );

  router.post('/psp/v4/charges', (req, res) =>
    keyed(req, res, () => {
      const b: Obj = req.body ?? {};
      // Every field error our checks find, else the first of Twisto's published rules broken (rules.json).
      const errors = validateCharge(b);
      if (Object.keys(errors).length) return invalid(errors);
      const broken = breach('charge', b);
      if (broken) return invalid(broken);
      const c = checkoutOf(req, b.authority.value);
      if (!c) return invalid({ authority: { value: ['Checkout not found.'] } });
      if (c.state !== 'approved' || [...charges.values()].some((x) => x.checkout_id === c.id && x.state === 'authorised')) {
        return detail(400, `Checkout ${c.id} is not chargeable (state ${c.state}).`, 'invalid_state');
      }
      if (minor(b.amount) !== c.order.amount) return invalid({ amount: [`Partial charges are not supported: the amount must be ${decimal(c.order.amount)}.`] });
      if (b.currency !== c.order.currency) return invalid({ currency: [`The checkout's currency is ${c.order.currency}.`] });
      const capture = b.capture === true;
      const ch: Charge = {
        id: id('ch'),
        checkout_id: c.id,
        secret_key: c.secret_key,
        reference: b.reference ?? randomBytes(8).toString('hex'),
        amount: c.order.amount,
        currency: c.order.currency,
        captured: capture ? c.order.amount : 0,
        state: capture ? 'captured' : 'authorised',
        receipt_number: String(100000 + charges.size + 1),
        product: c.type === 'pay-in-three' ? 'Pay in three' : 'Twisto',
        order: b.order ?? null,
        created_date: new Date().toISOString(),
      };
      charges.set(ch.id, ch);
      if (capture) move(c, 'completed');
      return { status: 201, body: chargeView(ch) };
    }),
  );

  const chargeOf = (req: Request) => {
    const ch = charges.get(req.params.id as string);
    return ch && ch.secret_key === keyOf(req) ? ch : undefined;
  };
  router.get('/psp/v4/charges/:id', (req, res) =>
    send(res, () => {
      const ch = chargeOf(req);
      return ch ? { status: 200, body: chargeView(ch) } : notFound();
    }),
  );
  router.post('/psp/v4/charges/:id/capture', (req, res) =>
    keyed(req, res, () => {
      const ch = chargeOf(req);
      if (!ch) return notFound();
      if (ch.state !== 'authorised') return detail(400, `Charge in state ${ch.state} cannot be captured.`, 'invalid_state');
      const amount = req.body?.amount;
      if (typeof amount !== 'string' || minor(amount) !== ch.amount)
        return invalid({ amount: [`Partial capture is not supported: the amount must be ${decimal(ch.amount)}.`] });
      ch.state = 'captured';
      ch.captured = ch.amount;
      move(checkouts.get(ch.checkout_id)!, 'completed');
      return { status: 200, body: chargeView(ch) };
    }),
  );
  router.post('/psp/v4/charges/:id/cancel', (req, res) =>
    keyed(req, res, () => {
      const ch = chargeOf(req);
      if (!ch) return notFound();
      if (ch.state !== 'authorised') return detail(400, `Charge in state ${ch.state} cannot be cancelled.`, 'invalid_state');
      ch.state = 'cancelled';
      move(checkouts.get(ch.checkout_id)!, 'cancelled');
      return { status: 200, body: chargeView(ch) };
    }),
  );

  router.post('/psp/v4/refunds', (req, res) =>
    keyed(req, res, async () => {
      const b: Obj = req.body ?? {};
      const c = checkoutOf(req, b.checkout_id);
      if (c?.tags.has('refund_flaky') && flaky('refund_flaky', String(b.reference ?? b.checkout_id))) return unavailable;
      const errors = validateRefund(b);
      if (!errors.checkout_id && !c) errors.checkout_id = ['Checkout not found.'];
      if (Object.keys(errors).length) return invalid(errors);
      const broken = breach('refund', b);
      if (broken) return invalid(broken);
      if (c!.tags.has('slow')) await sleep(config.sandboxSlowMs);
      if (c!.state !== 'completed') return detail(400, `Checkout in state ${c!.state} cannot be refunded: it is not charged.`, 'invalid_state');
      if (c!.tags.has('refund_fail')) return detail(400, 'The refund was rejected by Twisto.', 'refund_rejected');
      const left = c!.order.amount - c!.refunded;
      if (minor(b.amount) > left) return invalid({ amount: [`Ensure the amount is at most the refundable ${decimal(left)}.`] });
      const r: Refund = {
        id: id('rf'),
        checkout_id: c!.id,
        secret_key: c!.secret_key,
        reason: b.reason ?? null,
        amount: minor(b.amount),
        reference: b.reference ?? null,
        created_date: new Date().toISOString(),
      };
      refunds.set(r.id, r);
      c!.refunded += r.amount;
      if (c!.refunded === c!.order.amount) for (const ch of charges.values()) if (ch.checkout_id === c!.id && ch.state === 'captured') ch.state = 'refunded';
      c!.updated = laterThan(c!.updated);
      notify(c!, 'refunded');
      return { status: 201, body: refundView(r) };
    }),
  );
  router.get('/psp/v4/refunds', (req, res) =>
    send(res, () => {
      const limit = Math.min(Number(req.query.limit ?? 200) || 200, 200);
      const skip = Number(req.query.skip ?? 0) || 0;
      const all = [...refunds.values()].filter((r) => r.secret_key === keyOf(req) && (!req.query.checkoutId || r.checkout_id === req.query.checkoutId));
      const page = all.slice(skip, skip + limit);
      const link = (s: number) =>
        `${publicUrl()}/twisto/psp/v4/refunds?${new URLSearchParams({ ...(req.query.checkoutId ? { checkoutId: String(req.query.checkoutId) } : {}), limit: String(limit), skip: String(s) })}`;
      return {
        status: 200,
        body: {
          count: all.length,
          next: skip + limit < all.length ? link(skip + limit) : null,
          previous: skip > 0 ? link(Math.max(0, skip - limit)) : null,
          items: page.map(refundView),
        },
      };
    }),
  );
  router.get('/psp/v4/refunds/:id', (req, res) =>
    send(res, () => {
      const r = refunds.get(req.params.id);
      return r && r.secret_key === keyOf(req) ? { status: 200, body: refundView(r) } : notFound();
    }),
  );

  // The checkout page: the shopper approves (Twisto scores) or cancels, and goes back to the shop.
  router.get('/checkout/:id', (req, res) => {
    const c = checkouts.get(req.params.id);
    if (!c) return res.status(404).send('No such checkout');
    res.type('html').send(`<!doctype html><title>Twisto</title>
<h1>Pay ${decimal(c.order.amount)} ${c.order.currency} later with Twisto${c.type === 'pay-in-three' ? ' in three parts' : ''}</h1>
<p>${String(c.shopper.email).replace(/[<>&"]/g, '')}</p>
<form method="post" action="/twisto/checkout/${c.id}/approve"><button>Pay with Twisto</button></form>
<form method="post" action="/twisto/checkout/${c.id}/deny"><button>Cancel</button></form>`);
  });
  const back = (c: Checkout) => {
    const u = new URL(String(c.config.redirect_uri));
    u.searchParams.set('checkout_id', c.id);
    u.searchParams.set('state', c.state);
    return u.toString();
  };
  router.post('/checkout/:id/:action', (req, res) => {
    const c = checkouts.get(req.params.id);
    if (c?.state !== 'created' || c.decide_at !== undefined || !['approve', 'deny'].includes(req.params.action))
      return res.status(404).send('Nothing to decide');
    if (req.params.action === 'deny') move(c, 'cancelled');
    else if (c.tags.has('decline')) move(c, 'cancelled');
    else if (c.tags.has('review')) {
      c.decide_at = Date.now() + config.sandboxReviewMs;
      after(config.sandboxReviewMs, () => decideReview(c, true));
    } else move(c, 'approved');
    res.redirect(303, back(c));
  });

  operator.post('/twisto/webhooks', (req, res) => {
    const { secret_key: key, url } = req.body ?? {};
    const errors: FieldErrors = {};
    if (typeof key !== 'string' || !key) errors.secret_key = ['This field is required.'];
    if (typeof url !== 'string' || !/^https?:\/\//.test(url)) errors.url = ['Enter a valid URL.'];
    if (Object.keys(errors).length) return res.status(400).json(errors);
    hooks.set(key, url);
    res.status(201).json({ secret_key: key, url });
  });

  const reset = () => {
    for (const t of timers) clearTimeout(t);
    timers.clear();
    retrier.reset();
    checkouts.clear();
    charges.clear();
    refunds.clear();
    hooks.clear();
    deliveries.length = 0;
  };
  /** Checkouts, charges, refunds, the webhook URLs registered and the webhooks sent; a decision pending at the save
   * is taken at its time (or on the first read after it). */
  const saved = keptState({
    checkouts: records<Omit<Checkout, 'tags'> & { tags: unknown }>('id'),
    charges: records<Charge>('id'),
    refunds: records<Refund>('id'),
    hooks: z.array(z.tuple([z.string(), z.string()])).catch([]),
    deliveries: records<TwistoDelivery>('id'),
  });
  const state = {
    save: () => ({
      checkouts: [...checkouts.values()].map((c) => ({ ...c, tags: [...c.tags] })),
      charges: [...charges.values()],
      refunds: [...refunds.values()],
      hooks: [...hooks],
      deliveries,
    }),
    load: (raw: unknown) => {
      reset();
      const s = saved.parse(raw);
      for (const kept of s.checkouts) {
        const c: Checkout = { ...kept, tags: tagSet(kept.tags) };
        checkouts.set(c.id, c);
        if (c.decide_at !== undefined) after(Math.max(0, c.decide_at - Date.now()), () => decideReview(c, true));
      }
      for (const ch of s.charges) charges.set(ch.id, ch);
      for (const r of s.refunds) refunds.set(r.id, r);
      for (const [key, url] of s.hooks) hooks.set(key, url);
      deliveries.push(...s.deliveries);
    },
  };
  return { router, operator, checkouts, charges, refunds, deliveries, reset, state };
}

export const imitation: Imitation = (idem, publicUrl) => {
  const t = twistoRouter(idem, publicUrl);
  return {
    router: t.router,
    operator: t.operator,
    reset: t.reset,
    state: t.state,
    views: {
      checkouts: (q) =>
        [...t.checkouts.values()]
          .filter(
            (c) =>
              (!q.id || c.id === q.id) &&
              (!q.merchant_reference || c.merchant_reference === q.merchant_reference) &&
              (!q.reference || c.order.reference === q.reference),
          )
          .map(({ secret_key: _k, tags, ...c }) => ({ ...c, tags: [...tags] })),
      charges: (q) => [...t.charges.values()].filter((c) => !q.checkout_id || c.checkout_id === q.checkout_id).map(({ secret_key: _k, ...c }) => c),
      refunds: (q) => [...t.refunds.values()].filter((r) => !q.checkout_id || r.checkout_id === q.checkout_id).map(({ secret_key: _k, ...r }) => r),
      notifications: (q) => t.deliveries.filter((d) => (!q.object_id || d.object_id === q.object_id) && (!q.event || d.event === q.event)),
    },
  };
};
