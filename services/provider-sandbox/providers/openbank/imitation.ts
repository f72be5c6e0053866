// Openbank / Santander Consumer "Zinia" as the sandbox imitates it (the worker's side: workers/connectors/openbank/;
// reference: ../shared/reference/providers/openbank.md). Only POST /checkout/orders, the credentials and the redirect
// Link-Up are sourced; every other name here is designed plausibly (UNVERIFIED). Mounted at /openbank:
//   POST /auth/login                                  {client_id, client_secret} -> {access_token, token_type, expires_in}
//   POST /checkout/orders                             create: 201 the order, status CREATED, redirect_url = the Link-Up
//   GET  /checkout/orders/:id                         the order
//   POST /orders/:id/confirm-shipment                 capture: {shipment_id, amount, invoice_number?, items?} (partial, several)
//   POST /orders/:id/cancel                           cancel what is not shipped
//   POST /orders/:id/refunds, GET .../refunds/:rid    refund within what was shipped: COMPLETED | PENDING | REJECTED
//   GET  /link-up/:id, POST /link-up/:id/(approve|deny)   the customer's application at Zinia, back to return_url / cancel_url
// Auth: Ocp-Apim-Subscription-Key (the Merchant API Key: OPENBANK_API_KEY, default openbank_sandbox_merchant_api_key) on
// every call, else the API gateway's 401 {statusCode, message}; Bearer token from /auth/login on the others (client
// OPENBANK_CLIENT_ID / OPENBANK_CLIENT_SECRET). Errors: {code, message, field?}. Amounts: decimal euros.
// No Idempotency-Key: merchant_order_id, shipment_id and merchant_refund_id name what a retry repeats.
// Notifications: unsigned, to urls.notification_url (notifier.ts). Magic tags (customer.email): +decline (Zinia's credit
// check rejects at the Link-Up), +review (approve -> PENDING, APPROVED SANDBOX_REVIEW_MS later), +slow, +flaky (500
// twice per merchant_order_id), +refund_fail (REJECTED), +refund_pending (PENDING, COMPLETED SANDBOX_REVIEW_MS later),
// +refund_flaky (500 twice per merchant_refund_id). Every order has the Link-Up: +redirect changes nothing.
import express, { type Request, type Response, type Router } from 'express';
import { randomBytes, randomUUID } from 'node:crypto';
import { z } from 'zod';
import { config } from '../../../../lib/config.ts';
import { toDecimalString } from '../../../../lib/money.ts';
import { keptState, records, tagSet } from '../../kept.ts';
import { magicTags, type MagicTag } from '../../magic.ts';
import { retryFirstMs } from '../../notifier.ts';
import type { Imitation } from '../../provider.ts';
import type { IdempotencyStore } from '../../recorder.ts';
import { ZiniaNotifier, type ZiniaDelivery } from './notifier.ts';
import { age, cents, Invalid, itemsTotal, s, validateOrder } from './validate.ts';
import { setTimeout as sleep } from 'node:timers/promises';

type Status = 'CREATED' | 'PENDING' | 'APPROVED' | 'PARTIALLY_SHIPPED' | 'SHIPPED' | 'REFUNDED' | 'REJECTED' | 'CANCELLED' | 'EXPIRED';
interface Reason {
  code: string;
  message: string;
}
interface Shipment {
  shipment_id: string;
  amount: number;
  invoice_number: string | null;
  items: unknown;
  answer: Record<string, unknown>;
  created_at: string;
}
interface Refund {
  refund_id: string;
  merchant_refund_id: string;
  order_id: string;
  amount: number;
  reason: string | null;
  status: 'PENDING' | 'COMPLETED' | 'REJECTED';
  rejection_reason: Reason | null;
  created_at: string;
  updated_at: string;
}
export interface ZiniaOrder {
  order_id: string;
  merchant_order_id: string;
  merchant_reference: string | null;
  product: string;
  status: Status;
  /** Cents. */
  amount: number;
  shipped: number;
  cancelled: number;
  refunded: number;
  request: Record<string, any>;
  tags: Set<MagicTag>;
  rejection_reason: Reason | null;
  redirect_url: string;
  shipments: Shipment[];
  refunds: Refund[];
  created_at: string;
  updated_at: string;
}

const eur = (c: number) => Number(toDecimalString(c, 'EUR'));
const fail = (status: number, code: string, message: string) => ({ status, body: { code, message } });
const APIM_401 = { statusCode: 401, message: 'Access denied due to invalid subscription key. Make sure to provide a valid key for an active subscription.' };
const TOKEN_TTL_S = 3600;

export function openbankRouter(idem: IdempotencyStore, publicUrl: () => string) {
  const router: Router = express.Router();
  const orders = new Map<string, ZiniaOrder>();
  const byMerchantId = new Map<string, ZiniaOrder>();
  const tokens = new Map<string, number>();
  const apiKey = process.env.OPENBANK_API_KEY || 'openbank_sandbox_merchant_api_key';
  const clientId = process.env.OPENBANK_CLIENT_ID || 'openbank_sandbox_client_id';
  const clientSecret = process.env.OPENBANK_CLIENT_SECRET || 'openbank_sandbox_client_secret';
  const notifier = new ZiniaNotifier(retryFirstMs());
  const timers = new Set<NodeJS.Timeout>();
  const after = (ms: number, fn: () => void) => {
    const t = setTimeout(() => {
      timers.delete(t);
      fn();
    }, ms);
    t.unref();
    timers.add(t);
  };
  /** updated_at moves forward at least 1 ms per change. */
  const touch = (x: { updated_at: string }) => {
    x.updated_at = new Date(Math.max(Date.now(), Date.parse(x.updated_at) + 1)).toISOString();
  };
  const notifyOrder = (o: ZiniaOrder) =>
    notifier.send(
      s(o.request.urls?.notification_url),
      'ORDER_STATUS_CHANGED',
      { order_id: o.order_id, merchant_order_id: o.merchant_order_id, status: o.status },
      o.updated_at,
    );
  const notifyRefund = (o: ZiniaOrder, r: Refund) =>
    notifier.send(
      s(o.request.urls?.notification_url),
      'REFUND_STATUS_CHANGED',
      { order_id: o.order_id, merchant_order_id: o.merchant_order_id, status: r.status, refund_id: r.refund_id },
      r.updated_at,
    );

  const open = (o: ZiniaOrder) => o.amount - o.shipped - o.cancelled;
  const orderView = (o: ZiniaOrder) => ({
    order_id: o.order_id,
    merchant_order_id: o.merchant_order_id,
    merchant_reference: o.merchant_reference,
    product: o.product,
    status: o.status,
    amount: eur(o.amount),
    currency: 'EUR',
    shipped_amount: eur(o.shipped),
    cancelled_amount: eur(o.cancelled),
    refunded_amount: eur(o.refunded),
    ...(o.status === 'CREATED' ? { redirect_url: o.redirect_url } : {}),
    ...(o.rejection_reason ? { rejection_reason: o.rejection_reason } : {}),
    shipments: o.shipments.map((x) => x.answer),
    refunds: o.refunds.map(refundView),
    created_at: o.created_at,
    updated_at: o.updated_at,
  });
  const refundView = (r: Refund) => ({
    refund_id: r.refund_id,
    merchant_refund_id: r.merchant_refund_id,
    order_id: r.order_id,
    amount: eur(r.amount),
    currency: 'EUR',
    status: r.status,
    ...(r.rejection_reason ? { rejection_reason: r.rejection_reason } : {}),
    ...(r.reason ? { reason: r.reason } : {}),
    created_at: r.created_at,
    updated_at: r.updated_at,
  });
  const handle = async (res: Response, fn: () => Promise<{ status: number; body: unknown }>) => {
    try {
      const out = await fn();
      res.status(out.status).json(out.body);
    } catch (err) {
      if (!(err instanceof Invalid)) throw err;
      res.status(err.status).json(err.body);
    }
  };

  // The API gateway (Azure API Management style, UNVERIFIED) checks the subscription key before Zinia sees the call.
  const subscription = (req: Request, res: Response, next: () => void) =>
    req.header('ocp-apim-subscription-key') === apiKey ? next() : res.status(401).json(APIM_401);
  const bearer = (req: Request, res: Response, next: () => void) => {
    const token = /^Bearer (.+)$/.exec(req.header('authorization') ?? '')?.[1];
    const expires = token ? tokens.get(token) : undefined;
    if (!expires || expires < Date.now()) return res.status(401).json({ code: 'INVALID_TOKEN', message: 'The access token is missing, invalid or expired' });
    next();
  };
  router.use(['/auth', '/checkout/orders', '/orders'], subscription);
  router.use(['/checkout/orders', '/orders'], bearer);

  router.post('/auth/login', (req, res) => {
    const b = req.body ?? {};
    if (b.client_id !== clientId || b.client_secret !== clientSecret) {
      return res.status(401).json({ code: 'INVALID_CLIENT_CREDENTIALS', message: 'The client ID or client secret is invalid' });
    }
    const token = `zin_${randomBytes(24).toString('base64url')}`;
    tokens.set(token, Date.now() + TOKEN_TTL_S * 1000);
    res.json({ access_token: token, token_type: 'Bearer', expires_in: TOKEN_TTL_S });
  });

  router.post('/checkout/orders', (req, res) =>
    handle(res, async () => {
      const b = req.body ?? {};
      const ref = s(b.merchant_order_id);
      const tags = magicTags(s(b.customer?.email));
      if (ref && tags.has('flaky') && idem.count(`openbank-flaky:${ref}`) <= 2)
        return fail(500, 'INTERNAL_ERROR', 'An unexpected error occurred, please retry');
      // A repeated merchant_order_id (a retry of the same authorization) answers the order it created.
      const known = ref ? byMerchantId.get(ref) : undefined;
      if (known) {
        if (typeof b.amount !== 'number' || cents(b.amount, 'amount') !== known.amount) {
          return fail(422, 'MERCHANT_ORDER_ID_CONFLICT', `merchant_order_id ${ref} is already used by another order`);
        }
        return { status: 200, body: orderView(known) };
      }
      const amount = validateOrder(b);
      if (tags.has('slow')) await sleep(config.sandboxSlowMs);
      const now = new Date().toISOString();
      const id = `ZIN-${randomUUID()}`;
      const o: ZiniaOrder = {
        order_id: id,
        merchant_order_id: ref!,
        merchant_reference: s(b.merchant_reference),
        product: b.product,
        status: 'CREATED',
        amount,
        shipped: 0,
        cancelled: 0,
        refunded: 0,
        request: b,
        tags,
        rejection_reason: null,
        redirect_url: `${publicUrl()}/openbank/link-up/${id}`,
        shipments: [],
        refunds: [],
        created_at: now,
        updated_at: now,
      };
      orders.set(id, o);
      byMerchantId.set(o.merchant_order_id, o);
      return { status: 201, body: orderView(o) };
    }),
  );

  const orderOf = (id: unknown) => {
    const o = orders.get(String(id));
    if (!o) throw new Invalid(`Order ${String(id)} not found`, undefined, 'ORDER_NOT_FOUND', 404);
    return o;
  };

  router.get('/checkout/orders/:id', (req, res) => handle(res, async () => ({ status: 200, body: orderView(orderOf(req.params.id)) })));

  router.post('/orders/:id/confirm-shipment', (req, res) =>
    handle(res, async () => {
      const o = orderOf(req.params.id);
      const b = req.body ?? {};
      const shipmentId = s(b.shipment_id);
      if (!shipmentId) throw new Invalid('shipment_id is required', 'shipment_id');
      const again = o.shipments.find((x) => x.shipment_id === shipmentId);
      if (again) return { status: 200, body: again.answer };
      if (!['APPROVED', 'PARTIALLY_SHIPPED'].includes(o.status))
        return fail(422, 'INVALID_ORDER_STATUS', `A shipment cannot be confirmed for an order in status ${o.status}`);
      const amount = b.amount === undefined ? open(o) : cents(b.amount, 'amount');
      if (b.items !== undefined && itemsTotal(b.items, 'items') !== amount) throw new Invalid("amount must be the sum of the items' total_amount", 'amount');
      if (b.invoice_number != null && (typeof b.invoice_number !== 'string' || b.invoice_number.length > 32))
        throw new Invalid('invoice_number must be at most 32 characters', 'invoice_number');
      if (amount <= 0 || amount > open(o))
        return fail(422, 'AMOUNT_EXCEEDS_REMAINING', `The shipment amount exceeds the remaining amount of the order (${toDecimalString(open(o), 'EUR')} EUR)`);
      o.shipped += amount;
      o.status = open(o) === 0 ? 'SHIPPED' : 'PARTIALLY_SHIPPED';
      touch(o);
      const answer = {
        shipment_id: shipmentId,
        order_id: o.order_id,
        amount: eur(amount),
        status: 'CONFIRMED',
        order_status: o.status,
        shipped_amount: eur(o.shipped),
        remaining_amount: eur(open(o)),
        ...(b.invoice_number ? { invoice_number: b.invoice_number } : {}),
        created_at: o.updated_at,
      };
      o.shipments.push({ shipment_id: shipmentId, amount, invoice_number: s(b.invoice_number), items: b.items ?? null, answer, created_at: o.updated_at });
      return { status: 201, body: answer };
    }),
  );

  router.post('/orders/:id/cancel', (req, res) =>
    handle(res, async () => {
      const o = orderOf(req.params.id);
      // A cancelled order asked again (a retry) answers as it is.
      if (o.status === 'CANCELLED' || (o.cancelled > 0 && open(o) === 0)) return { status: 200, body: orderView(o) };
      if (!['CREATED', 'PENDING', 'APPROVED', 'PARTIALLY_SHIPPED'].includes(o.status))
        return fail(422, 'INVALID_ORDER_STATUS', `An order in status ${o.status} cannot be cancelled`);
      o.cancelled += open(o);
      o.status = o.shipped > 0 ? 'SHIPPED' : 'CANCELLED';
      if (o.status === 'CANCELLED') o.rejection_reason = { code: 'MERCHANT_CANCELLED', message: s(req.body?.reason) ?? 'The merchant cancelled the order' };
      touch(o);
      return { status: 200, body: orderView(o) };
    }),
  );

  router.post('/orders/:id/refunds', (req, res) =>
    handle(res, async () => {
      const o = orderOf(req.params.id);
      const b = req.body ?? {};
      const ref = s(b.merchant_refund_id);
      if (!ref) throw new Invalid('merchant_refund_id is required', 'merchant_refund_id');
      if (o.tags.has('refund_flaky') && idem.count(`openbank-refund_flaky:${o.order_id}:${ref}`) <= 2)
        return fail(500, 'INTERNAL_ERROR', 'An unexpected error occurred, please retry');
      const again = o.refunds.find((r) => r.merchant_refund_id === ref);
      if (again) return { status: 200, body: refundView(again) };
      const amount = cents(b.amount, 'amount');
      if (o.tags.has('slow')) await sleep(config.sandboxSlowMs);
      const refundable = o.shipped - o.refunded;
      if (o.shipped === 0) return fail(422, 'INVALID_ORDER_STATUS', `Nothing of the order was shipped (status ${o.status})`);
      if (amount <= 0 || amount > refundable)
        return fail(422, 'AMOUNT_EXCEEDS_REFUNDABLE', `The refund amount exceeds what can be refunded (${toDecimalString(refundable, 'EUR')} EUR)`);
      const now = new Date().toISOString();
      const r: Refund = {
        refund_id: `ZRF-${randomUUID()}`,
        merchant_refund_id: ref,
        order_id: o.order_id,
        amount,
        reason: s(b.reason),
        status: 'COMPLETED',
        rejection_reason: null,
        created_at: now,
        updated_at: now,
      };
      if (o.tags.has('refund_fail')) {
        r.status = 'REJECTED';
        r.rejection_reason = { code: 'REFUND_REJECTED', message: 'The refund was rejected: the financing is in collection' };
      } else {
        o.refunded += amount;
        if (o.tags.has('refund_pending')) {
          r.status = 'PENDING';
          completeLater(o, r);
        } else if (o.refunded === o.shipped && open(o) === 0) {
          o.status = 'REFUNDED';
        }
      }
      touch(o);
      o.refunds.push(r);
      return { status: 201, body: refundView(r) };
    }),
  );

  router.get('/orders/:id/refunds/:rid', (req, res) =>
    handle(res, async () => {
      const r = orderOf(req.params.id).refunds.find((x) => x.refund_id === req.params.rid);
      if (!r) return fail(404, 'REFUND_NOT_FOUND', `Refund ${req.params.rid} not found`);
      return { status: 200, body: refundView(r) };
    }),
  );

  // The Link-Up: the customer gives (or confirms what the shop sent) mobile number and date of birth, and Zinia decides.
  // Sourced: the customer's step at Zinia and what it asks (Computop's and payever's Zinia pages); the page is ours.
  const linkUp = (id: string) => {
    const o = orders.get(id);
    return o && o.status === 'CREATED' ? o : undefined;
  };
  /** A birth date the customer gave at the Link-Up (or the shop sent) that is under 18 years ago. */
  const underage = (birth: string | null) => birth !== null && /^\d{4}-\d{2}-\d{2}$/.test(birth) && age(birth) < 18;
  router.get('/link-up/:id', (req, res) => {
    const o = linkUp(req.params.id);
    if (!o) return res.status(404).type('html').send('<!doctype html><title>Zinia</title><p>This application is no longer available.</p>');
    const c = o.request.customer ?? {};
    const esc = (v: unknown) => String(v ?? '').replace(/[&<>"']/g, (ch) => `&#${ch.charCodeAt(0)};`);
    res.type('html').send(`<!doctype html><title>Zinia – pay later</title>
<h1>Pay ${toDecimalString(o.amount, 'EUR')} EUR ${o.product === 'INSTALMENTS' ? 'in instalments' : 'in 30 days'} with Zinia</h1>
<p>Order ${esc(o.merchant_reference ?? o.merchant_order_id)}.</p>
<form method="post" action="/openbank/link-up/${o.order_id}/approve">
<label>Mobile number <input name="mobile_phone" value="${esc(c.mobile_phone)}"></label>
<label>Date of birth <input name="birth_date" type="date" value="${esc(c.birth_date)}"></label>
<button>Confirm and pay later</button></form>
<form method="post" action="/openbank/link-up/${o.order_id}/deny"><button>Cancel and return to the shop</button></form>`);
  });
  router.post('/link-up/:id/:decision', (req, res) => {
    const o = linkUp(req.params.id as string);
    if (!o || !['approve', 'deny'].includes(req.params.decision as string))
      return res.status(404).type('html').send('<!doctype html><p>This application is no longer available.</p>');
    const urls = o.request.urls ?? {};
    let back: string = urls.return_url;
    if (req.params.decision === 'deny') {
      o.status = 'CANCELLED';
      o.rejection_reason = { code: 'CUSTOMER_CANCELLED', message: 'The customer cancelled the application' };
      back = urls.cancel_url ?? urls.return_url;
    } else if (underage(s(req.body?.birth_date) ?? s(o.request.customer?.birth_date))) {
      o.status = 'REJECTED';
      o.rejection_reason = { code: 'CUSTOMER_UNDERAGE', message: 'The customer must be of legal age' };
    } else if (o.tags.has('decline')) {
      o.status = 'REJECTED';
      o.rejection_reason = { code: 'CREDIT_CHECK_REJECTED', message: 'Zinia could not approve the financing' };
    } else if (o.tags.has('review')) {
      o.status = 'PENDING';
      approveLater(o);
    } else {
      o.status = 'APPROVED';
    }
    touch(o);
    notifyOrder(o);
    const to = new URL(back);
    to.searchParams.set('zinia_order_id', o.order_id);
    to.searchParams.set('merchant_order_id', o.merchant_order_id);
    res.redirect(303, to.toString());
  });

  /** A `+review` order approved, a `+refund_pending` refund completed, SANDBOX_REVIEW_MS later. */
  const approveLater = (o: ZiniaOrder) =>
    after(config.sandboxReviewMs, () => {
      if (o.status !== 'PENDING') return;
      o.status = 'APPROVED';
      touch(o);
      notifyOrder(o);
    });
  const completeLater = (o: ZiniaOrder, r: Refund) =>
    after(config.sandboxReviewMs, () => {
      r.status = 'COMPLETED';
      touch(r);
      notifyRefund(o, r);
    });

  const reset = () => {
    for (const t of timers) clearTimeout(t);
    timers.clear();
    orders.clear();
    byMerchantId.clear();
    tokens.clear();
    notifier.reset();
  };
  /** Orders with their shipments and refunds, the access tokens handed out and the notifications sent; a decision
   * pending at the save is taken SANDBOX_REVIEW_MS after the load. */
  const saved = keptState({
    orders: records<Omit<ZiniaOrder, 'tags'> & { tags: unknown }>('order_id'),
    tokens: z.array(z.tuple([z.string(), z.number()])).catch([]),
    notifications: records<ZiniaDelivery>('id'),
  });
  const state = {
    save: () => ({ orders: [...orders.values()].map((o) => ({ ...o, tags: [...o.tags] })), tokens: [...tokens], notifications: notifier.deliveries }),
    load: (raw: unknown) => {
      reset();
      const s = saved.parse(raw);
      for (const kept of s.orders) {
        const o: ZiniaOrder = { ...kept, tags: tagSet(kept.tags) };
        orders.set(o.order_id, o);
        byMerchantId.set(o.merchant_order_id, o);
        if (o.status === 'PENDING') approveLater(o);
        for (const r of o.refunds) if (r.status === 'PENDING') completeLater(o, r);
      }
      for (const [t, expires] of s.tokens) tokens.set(t, expires);
      notifier.deliveries.push(...s.notifications);
    },
  };
  return { router, orders, notifier, tokens, reset, state };
}

export const imitation: Imitation = (idem, publicUrl) => {
  const r = openbankRouter(idem, publicUrl);
  const view = (o: ZiniaOrder) => ({ ...o, tags: [...o.tags] });
  return {
    router: r.router,
    reset: r.reset,
    state: r.state,
    views: {
      orders: (q) =>
        [...r.orders.values()]
          .filter(
            (o) =>
              (!q.order_id || o.order_id === q.order_id) &&
              (!q.merchant_order_id || o.merchant_order_id === q.merchant_order_id) &&
              (!q.merchant_reference || o.merchant_reference === q.merchant_reference),
          )
          .map(view),
      notifications: (q) =>
        r.notifier.deliveries.filter(
          (d) => (!q.object_id || d.object_id === q.object_id) && (!q.order_id || d.body.order_id === q.order_id) && (!q.type || d.type === q.type),
        ),
      tokens: () => [{ issued: r.tokens.size }],
    },
  };
};
