// Mondu's API as the sandbox imitates it (the worker's side: workers/connectors/mondu/; reference:
// ../shared/reference/providers/mondu.md). Mounted at /mondu, so the API root is /mondu/api/v1:
//   POST /api/v1/orders                              create (201 {order}); hosted checkout at order.hosted_checkout_url
//   GET  /api/v1/orders/:uuid                        read
//   POST /api/v1/orders/:uuid/confirm                authorization flow: authorized -> confirmed | pending (review) | declined
//   POST /api/v1/orders/:uuid/cancel                 cancel the whole order (before any invoice)
//   POST /api/v1/orders/:uuid/invoices               capture = invoice (several allowed, up to the order's amount)
//   GET  /api/v1/orders/:uuid/invoices[/:inv]        read invoices
//   POST /api/v1/invoices/:inv/credit_notes          refund = credit note (several allowed, up to the invoice's amount)
//   POST|GET /api/v1/webhooks, GET /api/v1/webhooks/keys   register webhook addresses per topic; the signing secret
//   GET  /checkout/:uuid, POST /checkout/:uuid/(authorize|cancel)   the hosted checkout the buyer completes
// Auth: header `Api-Token`. Amounts in integer cents. Errors: {"status", "errors": [{"name", "details"}]}. An
// Idempotency-Key header, when sent, replays the first answer (Mondu documents none: the sandbox's addition).
// Magic tags in buyer.email: +decline (declined at the checkout), +review (confirm -> pending, confirmed
// SANDBOX_REVIEW_MS later), +slow, +flaky (500 twice on create), +refund_fail (credit notes refused), +refund_flaky.
import express, { type Request, type Response, type Router } from 'express';
import { randomUUID } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { firstBreach, RequestRules } from '../../../../lib/request-rules.ts';
import { config } from '../../../../lib/config.ts';
import { keptState, records, tagSet } from '../../kept.ts';
import { magicTags, type MagicTag } from '../../magic.ts';
import { retryFirstMs } from '../../notifier.ts';
import type { IdempotencyStore } from '../../recorder.ts';
import type { Imitation } from '../../provider.ts';
import { laterThan } from '../service_test/clock.ts';
import { validateCreditNote, validateInvoice, validateOrder, type FieldError } from './validate.ts';
import { MonduWebhooks, type MonduDelivery, type Registration } from './webhooks.ts';
import { setTimeout as sleep } from 'node:timers/promises';

type State = 'created' | 'authorized' | 'pending' | 'confirmed' | 'declined' | 'canceled' | 'partially_shipped' | 'shipped';
type Obj = Record<string, any>;

interface Order {
  uuid: string;
  api_token: string;
  idempotency_key: string | null;
  state: State;
  currency: string;
  payment_method: string;
  external_reference_id: string;
  gross_amount_cents: number;
  net_price_cents: number;
  tax_cents: number;
  net_term: number | null;
  invoiced_amount_cents: number;
  buyer: Obj;
  billing_address: Obj;
  shipping_address: Obj | null;
  lines: Obj[];
  success_url: string;
  cancel_url: string;
  declined_url: string;
  state_flow: string | null;
  language: string | null;
  hosted_checkout_url: string;
  decline_reason: string | null;
  tags: Set<MagicTag>;
  decide_at?: number;
  created_at: string;
  updated_at: string;
}
interface Invoice {
  uuid: string;
  order_uuid: string;
  api_token: string;
  state: 'created';
  external_reference_id: string;
  invoice_url: string;
  gross_amount_cents: number;
  tax_cents: number;
  credited_amount_cents: number;
  line_items: Obj[];
  created_at: string;
  updated_at: string;
}
interface CreditNote {
  uuid: string;
  invoice_uuid: string;
  external_reference_id: string;
  gross_amount_cents: number;
  tax_cents: number;
  notes: string | null;
  created_at: string;
}

/** A file of the connector's fixtures: Mondu's published examples (published/) and request rules (rules.json). */
const fixture = (name: string) => JSON.parse(readFileSync(new URL(`../../../../workers/connectors/mondu/fixtures/${name}`, import.meta.url), 'utf8'));
const RULES = fixture('rules.json');
const rules = (call: 'order' | 'confirm' | 'invoice') => RequestRules.parse(RULES[call]);
/** The first of Mondu's published rules a body breaks, as Mondu's 422 error naming the field (docs.mondu.ai/reference/errors:
 * a missing field `is missing`, as there; other wordings are the sandbox's). */
const breach = (call: Parameters<typeof rules>[0], body: unknown): FieldError[] => {
  const b = firstBreach(rules(call), body);
  if (!b) return [];
  const details = b.message === `${b.field} is required` ? 'is missing' : b.message.replace(`${b.field} `, '');
  // Mondu names a field by a dotted path with the indices as parts (`lines.0.lineItems.1.quantity`).
  return [{ name: b.field.replace(/\[(\d+)\]/g, '.$1'), details }];
};
/** The keys of Mondu's published order webhooks (magento2-checkout playwright/helpers/webhook.ts), by topic; a topic
 * without a published example takes order/pending's keys (topic, order_uuid, external_reference_id, order_state). */
const WEBHOOK_KEYS: Record<string, string[]> = {
  'order/pending': Object.keys(fixture('published/webhook-order-pending.json')),
  'order/confirmed': Object.keys(fixture('published/webhook-order-confirmed.json')),
  'order/declined': Object.keys(fixture('published/webhook-order-declined.json')),
};
/** The bank account Mondu's published order/confirmed example carries (the sandbox's buyers pay to it). */
const BANK_ACCOUNT = fixture('published/webhook-order-confirmed.json').bank_account;
/** The keys of Mondu's published confirm answer (docs.mondu.ai Confirm Order): {order: {uuid, state, external_reference_id}}. */
const CONFIRM_KEYS = Object.keys(fixture('published/confirm-answer.json').order);

const errorBody = (status: number, errors: FieldError[]) => ({ status, body: { status, errors } });
const notFound = (what: string) => errorBody(404, [{ name: what, details: 'not found' }]);
const stateError = (details: string) => errorBody(422, [{ name: 'state', details }]);

export function monduRouter(idem: IdempotencyStore, publicUrl: () => string) {
  const router: Router = express.Router();
  const orders = new Map<string, Order>();
  const invoices = new Map<string, Invoice>();
  const creditNotes = new Map<string, CreditNote>();
  const apiToken = process.env.MONDU_API_KEY || 'mondu_sandbox_api_token';
  const webhookSecret = process.env.MONDU_WEBHOOK_SECRET || 'mondu_sandbox_webhook_secret';
  const webhooks = new MonduWebhooks({ secret: webhookSecret, firstRetryMs: retryFirstMs() });
  const timers = new Set<NodeJS.Timeout>();
  const after = (ms: number, fn: () => void) => {
    const t = setTimeout(() => {
      timers.delete(t);
      fn();
    }, ms);
    t.unref();
    timers.add(t);
  };

  const orderView = (o: Order) => ({
    uuid: o.uuid,
    state: o.state,
    currency: o.currency,
    payment_method: o.payment_method,
    external_reference_id: o.external_reference_id,
    gross_amount_cents: o.gross_amount_cents,
    net_price_cents: o.net_price_cents,
    tax_cents: o.tax_cents,
    net_term: o.net_term,
    invoiced_amount_cents: o.invoiced_amount_cents,
    buyer: o.buyer,
    billing_address: o.billing_address,
    shipping_address: o.shipping_address,
    lines: o.lines,
    hosted_checkout_url: o.hosted_checkout_url,
    decline_reason: o.decline_reason,
    language: o.language,
    created_at: o.created_at,
    updated_at: o.updated_at,
  });
  /** An invoice as Mondu shows it: `invoice_number` (the merchant's number: woocommerce Presenters/PaymentInfo.php reads
   * it), uuid, state, gross_amount_cents; external_reference_id as we sent it (UNVERIFIED in an answer). */
  const invoiceView = ({ api_token: _t, ...i }: Invoice) => ({ ...i, invoice_number: i.external_reference_id });
  /** The order webhooks (order/confirmed, order/pending, …) in the keys of Mondu's published examples: the order's
   * uuid, reference and state; a decline's `reason`; a confirmed order's `bank_account`. No timestamp (none published). */
  const notifyOrder = (o: Order, topic: string) => {
    const all: Obj = {
      topic,
      order_uuid: o.uuid,
      external_reference_id: o.external_reference_id,
      order_state: o.state,
      reason: o.decline_reason,
      bank_account: BANK_ACCOUNT,
    };
    const keys = WEBHOOK_KEYS[topic] ?? WEBHOOK_KEYS['order/pending']!;
    webhooks.send(o.api_token, Object.fromEntries(keys.map((k) => [k, all[k]])) as { topic: string }, o.uuid);
  };
  const move = (o: Order, state: State, topic?: string) => {
    o.state = state;
    o.updated_at = laterThan(o.updated_at);
    if (topic) notifyOrder(o, topic);
  };
  /** A `+review` order is decided at decide_at: by its timer, or by the first read after it. */
  const decideReview = (o: Order, force = false) => {
    if (o.state !== 'pending' || o.decide_at === undefined || (!force && Date.now() < o.decide_at)) return;
    delete o.decide_at;
    move(o, 'confirmed', 'order/confirmed');
  };
  const view = (o: Order) => {
    decideReview(o);
    return orderView(o);
  };
  /** Mondu decides on the order (our confirm in the authorization flow, the checkout's end otherwise). */
  const decide = (o: Order) => {
    if (o.tags.has('review')) {
      o.decide_at = Date.now() + config.sandboxReviewMs;
      move(o, 'pending', 'order/pending');
      after(config.sandboxReviewMs, () => decideReview(o, true));
    } else move(o, 'confirmed', 'order/confirmed');
  };

  /** A POST with an Idempotency-Key replays its first answer (a 5xx is not kept); without one it simply runs. */
  const run = async (req: Request, res: Response, scope: string, handle: () => Promise<{ status: number; body: unknown }>) => {
    const key = req.header('idempotency-key');
    const scoped = key ? `mondu:${scope}:${key}` : null;
    if (scoped) {
      const seen = idem.get(scoped);
      if (seen?.state === 'in_progress')
        return res.status(409).json({ status: 409, errors: [{ name: 'idempotency_key', details: 'a request with this key is in progress' }] });
      if (seen?.state === 'done') return res.status(seen.status).json(seen.body);
      idem.begin(scoped);
    }
    try {
      const out = await handle();
      if (scoped) {
        if (out.status >= 500) idem.abandon(scoped);
        else idem.finish(scoped, out.status, out.body);
      }
      res.status(out.status).json(out.body);
    } catch (err) {
      if (scoped) idem.abandon(scoped);
      throw err;
    }
  };
  const unavailable = { status: 500, body: { status: 500, errors: [{ name: 'base', details: 'Internal server error, please retry' }] } };
  const flaky = (tag: MagicTag, key: string) => idem.count(`mondu:${tag}:${key}`) <= 2;

  router.use('/api/v1', (req, res, next) => {
    if (req.header('api-token') !== apiToken) return res.status(401).json({ status: 401, errors: [{ name: 'api_token', details: 'is invalid' }] });
    next();
  });

  router.post('/api/v1/orders', (req, res) =>
    run(req, res, 'orders', async () => {
      const b: Obj = req.body ?? {};
      const tags = magicTags(typeof b.buyer?.email === 'string' ? b.buyer.email : null);
      if (tags.has('flaky') && flaky('flaky', req.header('idempotency-key') ?? String(b.external_reference_id))) return unavailable;
      const errors = breach('order', b);
      if (!errors.length) errors.push(...validateOrder(b));
      if (errors.length) return errorBody(422, errors);
      if (tags.has('slow')) await sleep(config.sandboxSlowMs);
      const now = new Date().toISOString();
      const uuid = randomUUID();
      const o: Order = {
        uuid,
        api_token: apiToken,
        idempotency_key: req.header('idempotency-key') ?? null,
        state: 'created',
        currency: b.currency,
        payment_method: b.payment_method ?? 'invoice',
        external_reference_id: String(b.external_reference_id),
        gross_amount_cents: b.gross_amount_cents,
        net_price_cents: b.net_price_cents ?? b.gross_amount_cents - (b.tax_cents ?? 0),
        tax_cents: b.tax_cents ?? 0,
        net_term: b.net_term ?? null,
        invoiced_amount_cents: 0,
        buyer: b.buyer,
        billing_address: b.billing_address,
        shipping_address: b.shipping_address ?? null,
        lines: b.lines,
        success_url: b.success_url,
        cancel_url: b.cancel_url,
        declined_url: b.declined_url,
        state_flow: b.state_flow ?? null,
        language: b.language ?? null,
        hosted_checkout_url: `${publicUrl()}/mondu/checkout/${uuid}`,
        decline_reason: null,
        tags,
        created_at: now,
        updated_at: now,
      };
      orders.set(uuid, o);
      return { status: 201, body: { order: view(o) } };
    }),
  );

  const order = (req: Request) => {
    const o = orders.get(req.params.uuid as string);
    return o && o.api_token === req.header('api-token') ? o : undefined;
  };

  router.get('/api/v1/orders/:uuid', (req, res) => {
    const o = order(req);
    if (!o) return res.status(404).json(notFound('order').body);
    res.json({ order: view(o) });
  });

  // Confirm: "from authorized to confirmed" (docs.mondu.ai Confirm Order). A pending one (Mondu's review) is answered as
  // it is (magento2-checkout confirms `authorized` or `pending` orders); any other state is refused (422 on `state`:
  // UNVERIFIED wording), so a connector that confirms on every sync (issue 21) meets a refusal, not agreement.
  // The answer has the keys of Mondu's published example.
  router.post('/api/v1/orders/:uuid/confirm', (req, res) =>
    run(req, res, 'confirm', async () => {
      const o = order(req);
      if (!o) return notFound('order');
      view(o);
      const errors = breach('confirm', req.body ?? {});
      if (errors.length) return errorBody(422, errors);
      if (o.state === 'created') return stateError('cannot transition from created to confirmed: the buyer has not completed the checkout');
      if (o.state !== 'authorized' && o.state !== 'pending') return stateError(`cannot transition from ${o.state} to confirmed`);
      if (o.state === 'authorized') {
        if (typeof req.body?.external_reference_id === 'string' && req.body.external_reference_id) o.external_reference_id = req.body.external_reference_id;
        decide(o);
      }
      const v: Obj = view(o);
      return { status: 200, body: { order: Object.fromEntries(CONFIRM_KEYS.map((k) => [k, v[k]])) } };
    }),
  );

  router.post('/api/v1/orders/:uuid/cancel', (req, res) =>
    run(req, res, 'cancel', async () => {
      const o = order(req);
      if (!o) return notFound('order');
      view(o);
      if (o.invoiced_amount_cents > 0) return stateError(`cannot cancel a ${o.state} order: adjust it instead`);
      if (o.state === 'declined' || o.state === 'canceled') return stateError(`cannot transition from ${o.state} to canceled`);
      delete o.decide_at;
      move(o, 'canceled', 'order/canceled');
      return { status: 200, body: { order: view(o) } };
    }),
  );

  router.post('/api/v1/orders/:uuid/invoices', (req, res) =>
    run(req, res, 'invoices', async () => {
      const o = order(req);
      if (!o) return notFound('order');
      view(o);
      if (o.state !== 'confirmed' && o.state !== 'partially_shipped') return stateError(`cannot invoice a ${o.state} order`);
      const b: Obj = req.body ?? {};
      const errors = breach('invoice', b);
      if (!errors.length) errors.push(...validateInvoice(b, o.gross_amount_cents - o.invoiced_amount_cents));
      if ([...invoices.values()].some((i) => i.order_uuid === o.uuid && i.external_reference_id === b.external_reference_id)) {
        errors.push({ name: 'external_reference_id', details: 'has already been taken' });
      }
      if (errors.length) return errorBody(422, errors);
      const now = new Date().toISOString();
      const inv: Invoice = {
        uuid: randomUUID(),
        order_uuid: o.uuid,
        api_token: o.api_token,
        state: 'created',
        external_reference_id: String(b.external_reference_id),
        invoice_url: String(b.invoice_url),
        gross_amount_cents: b.gross_amount_cents,
        tax_cents: b.tax_cents ?? 0,
        credited_amount_cents: 0,
        line_items: Array.isArray(b.line_items) ? b.line_items : [],
        created_at: now,
        updated_at: now,
      };
      invoices.set(inv.uuid, inv);
      o.invoiced_amount_cents += inv.gross_amount_cents;
      move(o, o.invoiced_amount_cents === o.gross_amount_cents ? 'shipped' : 'partially_shipped');
      webhooks.send(
        o.api_token,
        { topic: 'invoice/created', invoice_uuid: inv.uuid, order_uuid: o.uuid, external_reference_id: inv.external_reference_id, invoice_state: inv.state },
        inv.uuid,
      );
      return { status: 201, body: { invoice: invoiceView(inv) } };
    }),
  );

  router.get('/api/v1/orders/:uuid/invoices', (req, res) => {
    const o = order(req);
    if (!o) return res.status(404).json(notFound('order').body);
    res.json({ invoices: [...invoices.values()].filter((i) => i.order_uuid === o.uuid).map(invoiceView) });
  });
  router.get('/api/v1/orders/:uuid/invoices/:inv', (req, res) => {
    const o = order(req);
    const inv = invoices.get(req.params.inv);
    if (!o || !inv || inv.order_uuid !== o.uuid) return res.status(404).json(notFound('invoice').body);
    res.json({ invoice: invoiceView(inv) });
  });

  router.post('/api/v1/invoices/:inv/credit_notes', (req, res) =>
    run(req, res, 'credit_notes', async () => {
      const inv = invoices.get(req.params.inv as string);
      if (!inv || inv.api_token !== req.header('api-token')) return notFound('invoice');
      const o = orders.get(inv.order_uuid)!;
      if (o.tags.has('refund_flaky') && flaky('refund_flaky', req.header('idempotency-key') ?? String(req.body?.external_reference_id))) return unavailable;
      if (o.tags.has('slow')) await sleep(config.sandboxSlowMs);
      if (o.tags.has('refund_fail')) return errorBody(422, [{ name: 'invoice', details: 'is in collection: credit notes are not accepted' }]);
      const b: Obj = req.body ?? {};
      const errors = validateCreditNote(b, inv.gross_amount_cents - inv.credited_amount_cents);
      if (errors.length) return errorBody(422, errors);
      const c: CreditNote = {
        uuid: randomUUID(),
        invoice_uuid: inv.uuid,
        external_reference_id: String(b.external_reference_id),
        gross_amount_cents: b.gross_amount_cents,
        tax_cents: b.tax_cents ?? 0,
        notes: typeof b.notes === 'string' ? b.notes : null,
        created_at: new Date().toISOString(),
      };
      creditNotes.set(c.uuid, c);
      inv.credited_amount_cents += c.gross_amount_cents;
      inv.updated_at = laterThan(inv.updated_at);
      return { status: 201, body: { credit_note: c } };
    }),
  );

  router.post('/api/v1/webhooks', (req, res) => {
    const { topic, address } = req.body ?? {};
    const errors: FieldError[] = [];
    if (typeof topic !== 'string' || !topic) errors.push({ name: 'topic', details: 'is missing' });
    if (typeof address !== 'string' || !/^https?:\/\//.test(address)) errors.push({ name: 'address', details: 'must be an http(s) URL' });
    if (errors.length) return res.status(422).json({ status: 422, errors });
    const r = webhooks.register(req.header('api-token')!, topic, address);
    res.status(201).json({ webhook: { uuid: r.uuid, topic: r.topic, address: r.address } });
  });
  router.get('/api/v1/webhooks', (req, res) => {
    res.json({
      webhooks: [...webhooks.registrations.values()]
        .filter((r) => r.api_token === req.header('api-token'))
        .map(({ uuid, topic, address }) => ({ uuid, topic, address })),
    });
  });
  router.get('/api/v1/webhooks/keys', (_req, res) => res.json({ webhook_secret: webhookSecret }));

  // The hosted checkout: the buyer reviews the order and authorizes it (or cancels), then goes back to the shop.
  router.get('/checkout/:uuid', (req, res) => {
    const o = orders.get(req.params.uuid);
    if (!o) return res.status(404).send('No such order');
    const euros = `${Math.floor(o.gross_amount_cents / 100)}.${String(o.gross_amount_cents % 100).padStart(2, '0')}`;
    res.type('html').send(`<!doctype html><title>Mondu checkout</title>
<h1>${o.buyer.company_name ?? ''}: pay ${euros} ${o.currency} by ${o.payment_method}${o.net_term ? ` in ${o.net_term} days` : ''}</h1>
<form method="post" action="/mondu/checkout/${o.uuid}/authorize"><button>Authorize</button></form>
<form method="post" action="/mondu/checkout/${o.uuid}/cancel"><button>Cancel</button></form>`);
  });

  const back = (url: string, o: Order) => {
    const u = new URL(url);
    u.searchParams.set('order_uuid', o.uuid);
    u.searchParams.set('external_reference_id', o.external_reference_id);
    return u.toString();
  };
  router.post('/checkout/:uuid/:action', (req, res) => {
    const o = orders.get(req.params.uuid);
    if (o?.state !== 'created' || !['authorize', 'cancel'].includes(req.params.action)) return res.status(404).send('Nothing to decide');
    if (req.params.action === 'cancel') {
      move(o, 'canceled', 'order/canceled');
      return res.redirect(303, back(o.cancel_url, o));
    }
    if (o.tags.has('decline')) {
      // The reason value of Mondu's published order/declined example.
      o.decline_reason = 'risk_policy';
      move(o, 'declined', 'order/declined');
      return res.redirect(303, back(o.declined_url, o));
    }
    if (o.state_flow === 'authorization_flow') move(o, 'authorized', 'order/authorized');
    else decide(o);
    res.redirect(303, back(o.success_url, o));
  });

  const reset = () => {
    for (const t of timers) clearTimeout(t);
    timers.clear();
    orders.clear();
    invoices.clear();
    creditNotes.clear();
    webhooks.reset();
  };
  /** Orders, invoices, credit notes, the webhook registrations and the webhooks sent; a decision pending at the save
   * is taken at its time (or on the first read after it). */
  const saved = keptState({
    orders: records<Omit<Order, 'tags'> & { tags: unknown }>('uuid'),
    invoices: records<Invoice>('uuid'),
    creditNotes: records<CreditNote>('uuid'),
    registrations: records<Registration>('uuid'),
    deliveries: records<MonduDelivery>('id'),
  });
  const state = {
    save: () => ({
      orders: [...orders.values()].map((o) => ({ ...o, tags: [...o.tags] })),
      invoices: [...invoices.values()],
      creditNotes: [...creditNotes.values()],
      registrations: [...webhooks.registrations.values()],
      deliveries: webhooks.deliveries,
    }),
    load: (raw: unknown) => {
      reset();
      const s = saved.parse(raw);
      for (const kept of s.orders) {
        const o: Order = { ...kept, tags: tagSet(kept.tags) };
        orders.set(o.uuid, o);
        if (o.decide_at !== undefined) after(Math.max(0, o.decide_at - Date.now()), () => decideReview(o, true));
      }
      for (const i of s.invoices) invoices.set(i.uuid, i);
      for (const c of s.creditNotes) creditNotes.set(c.uuid, c);
      for (const r of s.registrations) webhooks.registrations.set(r.uuid, r);
      webhooks.deliveries.push(...s.deliveries);
    },
  };
  return { router, orders, invoices, creditNotes, webhooks, reset, state };
}

export const imitation: Imitation = (idem, publicUrl) => {
  const m = monduRouter(idem, publicUrl);
  return {
    router: m.router,
    reset: m.reset,
    state: m.state,
    views: {
      orders: (q) =>
        [...m.orders.values()]
          .filter((o) => (!q.external_reference_id || o.external_reference_id === q.external_reference_id) && (!q.uuid || o.uuid === q.uuid))
          .map((o) => ({ ...o, tags: [...o.tags] })),
      invoices: (q) => [...m.invoices.values()].filter((i) => !q.order_uuid || i.order_uuid === q.order_uuid),
      credit_notes: (q) => [...m.creditNotes.values()].filter((c) => !q.invoice_uuid || c.invoice_uuid === q.invoice_uuid),
      notifications: (q) => m.webhooks.deliveries.filter((d) => (!q.object_id || d.object_id === q.object_id) && (!q.topic || d.topic === q.topic)),
    },
  };
};
