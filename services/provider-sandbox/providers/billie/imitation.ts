// Billie's API v2 as the sandbox imitates it (the worker's side: workers/connectors/billie/; Billie's own material:
// its README's Sources and fixtures/). Mounted at /billie, so the API root is /billie/api/v2:
//   POST /api/v2/oauth/token                   client credentials (JSON or form) -> {token_type, expires_in, access_token}
//   POST /api/v2/orders                        direct order -> 200 Order: created | declined (+decline_reason) | waiting (review)
//   GET  /api/v2/orders/:uuid                  read
//   POST /api/v2/orders/:uuid/cancel           cancel an order without invoices -> 204
//   POST /api/v2/invoices                      capture = invoice {orders: [uuid], external_code, invoice_url, amount} -> 201
//   GET  /api/v2/invoices/:uuid                read
//   POST /api/v2/invoices/:uuid/credit-notes   refund = credit note {external_code, amount, comment?} -> 201 {uuid, ...}
// Auth: `Authorization: Bearer <access_token>` (tokens live expires_in = BILLIE_TOKEN_TTL_S, default 8 h). Amounts are
// decimal euros {net, gross, tax} (at most 2 decimals, gross = net + tax). Errors: {"errors": [{title, code, source?}]};
// the token endpoint's: {"error", "error_description"}. A decline is HTTP 200 with state "declined". An
// Idempotency-Key, when sent, replays the first answer (Billie documents none: the sandbox's addition).
// Magic tags in debtor_person.email: +decline (risk_policy), +review (waiting, created SANDBOX_REVIEW_MS later), +slow,
// +flaky (500 twice on create), +refund_fail (credit notes refused, 403), +refund_flaky (500 twice on credit notes).
// Webhooks: Billie configures a merchant's webhook address and the static secret it sends in X-Api-Key; here the
// operator call POST /sandbox/billie/webhooks {client_id, url, secret} does. A review decided sends order_approved;
// a cancellation order_canceled ({event, created_at, order_id, order_uuid}), retried on a non-2xx answer.
// Requests are checked by Billie's published rules (required fields, enums), read from the connector's
// fixtures/rules.json, and refused as Billie's 400 naming the field; answers and webhooks take the keys of Billie's
// published shapes (fixtures/published/), so neither can simply agree with the connector (issue 21).
import express, { type Request, type Response, type Router } from 'express';
import { randomBytes, randomUUID } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { z } from 'zod';
import { config } from '../../../../lib/config.ts';
import { firstBreach, RequestRules } from '../../../../lib/request-rules.ts';
import { counter, keptState, records, tagSet } from '../../kept.ts';
import { magicTags, type MagicTag } from '../../magic.ts';
import type { IdempotencyStore } from '../../recorder.ts';
import { keep, Retrier, retryFirstMs, type Attempts } from '../../notifier.ts';
import type { Imitation } from '../../provider.ts';
import { setTimeout as sleep } from 'node:timers/promises';

type Obj = Record<string, any>;

const fixture = (name: string) => readFileSync(new URL(`../../../../workers/connectors/billie/fixtures/${name}`, import.meta.url), 'utf8');
/** Billie's published request rules, per call (fixtures/rules.json, sources in fixtures/SOURCES.md). */
const RULES = JSON.parse(fixture('rules.json'));
const rules = (call: 'create_order' | 'create_invoice' | 'create_credit_note' | 'token') => RequestRules.parse(RULES[call]);
/** Billie's published webhook (docs.billie.io/reference/webhooks): its keys, in its order, filled per event. */
const WEBHOOK: Obj = JSON.parse(fixture('published/webhook-order-approved.json'));
/** The keys of Billie's Order (its SDK's Model/Order), in the published example's order. */
const ORDER_KEYS = Object.keys(JSON.parse(fixture('published/order.json')));
type State = 'created' | 'declined' | 'waiting' | 'partially_shipped' | 'shipped' | 'canceled';
interface Amount {
  net: number;
  gross: number;
  tax: number;
}
interface Order {
  uuid: string;
  idempotency_key: string | null;
  external_code: string | null;
  state: State;
  decline_reason: string | null;
  amount_cents: { gross: number; tax: number };
  unshipped_cents: { gross: number; tax: number };
  duration: number;
  debtor: Obj;
  debtor_person: Obj;
  delivery_address: Obj | null;
  line_items: Obj[];
  tags: Set<MagicTag>;
  decide_at?: number;
  invoices: string[];
  created_at: string;
  client_id: string;
}
interface WebhookDelivery extends Attempts {
  event: string;
  order_uuid: string;
  url: string;
}
interface Invoice {
  uuid: string;
  order_uuid: string;
  external_code: string;
  invoice_url: string;
  amount_cents: { gross: number; tax: number };
  credited_cents: number;
  created_at: string;
}
interface CreditNote {
  uuid: string;
  invoice_uuid: string;
  external_code: string;
  amount: Amount;
  comment: string | null;
  created_at: string;
}
interface FieldError {
  title: string;
  code: string;
  source?: string;
}

/** "Y-m-d H:i:s", as Billie writes dates. */
const billieDate = (d = new Date()) => d.toISOString().slice(0, 19).replace('T', ' ');
const toCents = (v: unknown): number | null => {
  if (typeof v !== 'number' || !Number.isFinite(v) || v < 0) return null;
  const c = Math.round(v * 100);
  return Math.abs(v * 100 - c) < 1e-6 ? c : null;
};
const fromCents = (c: number) => Number((c / 100).toFixed(2));
const amountView = (a: { gross: number; tax: number }): Amount => ({ net: fromCents(a.gross - a.tax), gross: fromCents(a.gross), tax: fromCents(a.tax) });
const errors = (status: number, list: FieldError[]) => ({ status, body: { errors: list } });
const blank = (source: string): FieldError => ({ title: 'This value should not be blank.', code: 'request_validation_error', source });

/** An {net, gross, tax} amount in cents, or the problem with it at `source`. */
function amountIn(v: unknown, source: string): { gross: number; tax: number } | FieldError {
  const a = v && typeof v === 'object' ? (v as Obj) : null;
  if (!a) return blank(source);
  const [net, gross, tax] = [toCents(a.net), toCents(a.gross), toCents(a.tax)];
  if (net === null || gross === null || tax === null)
    return { title: 'net, gross and tax must be amounts with at most 2 decimals', code: 'request_validation_error', source };
  if (net + tax !== gross) return { title: 'gross must equal net + tax', code: 'request_validation_error', source };
  return { gross, tax };
}
const isError = (x: unknown): x is FieldError => !!x && typeof x === 'object' && 'code' in x;
/** The first of Billie's published rules the body breaks, as Billie's 400 naming the field; null when none. */
function breach(call: Parameters<typeof rules>[0], body: unknown) {
  const b = firstBreach(rules(call), body);
  if (!b) return null;
  return errors(400, [b.message.endsWith('is required') ? blank(b.field) : { title: b.message, code: 'request_validation_error', source: b.field }]);
}

export function billieRouter(idem: IdempotencyStore) {
  const router: Router = express.Router();
  const orders = new Map<string, Order>();
  const invoices = new Map<string, Invoice>();
  const creditNotes = new Map<string, CreditNote>();
  const tokens = new Map<string, { client_id: string; expires_at: number }>();
  let tokensIssued = 0;
  const clientId = process.env.BILLIE_API_KEY || 'billie_sandbox_client_id';
  const clientSecret = process.env.BILLIE_CLIENT_SECRET || 'billie_sandbox_client_secret';
  const ttlS = Number(process.env.BILLIE_TOKEN_TTL_S || 28_800);
  const timers = new Set<NodeJS.Timeout>();
  const after = (ms: number, fn: () => void) => {
    const t = setTimeout(() => {
      timers.delete(t);
      fn();
    }, ms);
    t.unref();
    timers.add(t);
  };

  const orderView = (o: Order): Obj => {
    const all: Obj = {
      uuid: o.uuid,
      external_code: o.external_code,
      state: o.state,
      decline_reason: o.decline_reason,
      amount: amountView(o.amount_cents),
      unshipped_amount: amountView(o.unshipped_cents),
      duration: o.duration,
      debtor: o.debtor,
      delivery_address: o.delivery_address,
      created_at: o.created_at,
      invoices: o.invoices.map((id) => invoiceView(invoices.get(id)!)),
      selected_payment_method: 'bank_transfer',
      payment_methods: [],
    };
    return Object.fromEntries(ORDER_KEYS.map((k) => [k, all[k] ?? null]));
  };
  const invoiceView = (i: Invoice) => ({
    uuid: i.uuid,
    invoice_number: i.external_code,
    state: i.credited_cents >= i.amount_cents.gross ? 'canceled' : 'new',
    amount: amountView(i.amount_cents),
    outstanding_amount: fromCents(i.amount_cents.gross - i.credited_cents),
    invoice_url: i.invoice_url,
    created_at: i.created_at,
  });
  const decideReview = (o: Order, force = false) => {
    if (o.state !== 'waiting' || o.decide_at === undefined || (!force && Date.now() < o.decide_at)) return;
    delete o.decide_at;
    o.state = 'created';
    notify(o, 'order_approved');
  };
  const view = (o: Order) => {
    decideReview(o);
    return orderView(o);
  };

  const webhooks = new Map<string, { url: string; secret: string }>();
  const deliveries: WebhookDelivery[] = [];
  const retrier = new Retrier(retryFirstMs());
  const notify = (o: Order, event: 'order_approved' | 'order_canceled') => {
    const hook = webhooks.get(o.client_id);
    if (!hook) return;
    const filled: Obj = { event, order_id: o.external_code, created_at: billieDate(), order_uuid: o.uuid };
    const body = JSON.stringify(Object.fromEntries(Object.keys(WEBHOOK).map((k) => [k, filled[k] ?? null])));
    const d: WebhookDelivery = {
      event,
      order_uuid: o.uuid,
      url: hook.url,
      attempts: 0,
      delivered: false,
      last_status: null,
      last_error: null,
      next_attempt_at: null,
    };
    keep(deliveries, d);
    retrier.post(d, hook.url, body, { 'x-api-key': hook.secret }, { provider: 'billie', event, order_uuid: o.uuid });
  };

  const run = async (req: Request, res: Response, scope: string, handle: () => Promise<{ status: number; body: unknown }>) => {
    const key = req.header('idempotency-key');
    const scoped = key ? `billie:${scope}:${key}` : null;
    if (scoped) {
      const seen = idem.get(scoped);
      if (seen?.state === 'in_progress')
        return res.status(409).json({ errors: [{ title: 'A request with this Idempotency-Key is in progress', code: 'conflict' }] });
      if (seen?.state === 'done') return seen.status === 204 ? res.status(204).end() : res.status(seen.status).json(seen.body);
      idem.begin(scoped);
    }
    try {
      const out = await handle();
      if (scoped) {
        if (out.status >= 500) idem.abandon(scoped);
        else idem.finish(scoped, out.status, out.body);
      }
      if (out.status === 204) res.status(204).end();
      else res.status(out.status).json(out.body);
    } catch (err) {
      if (scoped) idem.abandon(scoped);
      throw err;
    }
  };
  const unavailable = { status: 500, body: { errors: [{ title: 'Internal server error, please retry', code: 'internal_error' }] } };
  const flaky = (tag: MagicTag, key: string) => idem.count(`billie:${tag}:${key}`) <= 2;

  router.post('/api/v2/oauth/token', (req, res) => {
    const b: Obj = req.body ?? {};
    if (b.grant_type !== 'client_credentials')
      return res
        .status(400)
        .json({ error: 'unsupported_grant_type', error_description: 'The authorization grant type is not supported by the authorization server.' });
    if (b.client_id !== clientId || b.client_secret !== clientSecret)
      return res.status(401).json({ error: 'invalid_client', error_description: 'Client authentication failed' });
    const broken = firstBreach(rules('token'), b);
    if (broken) return res.status(400).json({ error: 'invalid_request', error_description: broken.message });
    const token = `bil_${randomBytes(24).toString('hex')}`;
    tokens.set(token, { client_id: b.client_id, expires_at: Date.now() + ttlS * 1000 });
    tokensIssued += 1;
    res.json({ token_type: 'Bearer', expires_in: ttlS, access_token: token });
  });

  router.use('/api/v2', (req, res, next) => {
    const token = /^Bearer (.+)$/.exec(req.header('authorization') ?? '')?.[1];
    const t = token ? tokens.get(token) : undefined;
    if (!t || t.expires_at < Date.now())
      return res.status(401).json({ errors: [{ title: 'The access token is missing, invalid or expired', code: 'unauthorized' }] });
    res.locals.client_id = t.client_id;
    next();
  });

  router.post('/api/v2/orders', (req, res) =>
    run(req, res, 'orders', async () => {
      const b: Obj = req.body ?? {};
      const tags = magicTags(typeof b.debtor_person?.email === 'string' ? b.debtor_person.email : null);
      if (tags.has('flaky') && flaky('flaky', req.header('idempotency-key') ?? String(b.external_code))) return unavailable;
      const broken = breach('create_order', b);
      if (broken) return broken;
      const problems: FieldError[] = [];
      const amount = amountIn(b.amount, 'amount');
      if (isError(amount)) problems.push(amount);
      else if (amount.gross <= 0) problems.push({ title: 'This value should be greater than 0.', code: 'request_validation_error', source: 'amount.gross' });
      if (b.duration !== undefined && (!Number.isInteger(b.duration) || b.duration < 1 || b.duration > 120))
        problems.push({ title: 'This value should be between 1 and 120.', code: 'request_validation_error', source: 'duration' });
      const debtor: Obj = b.debtor ?? {};
      for (const k of ['name', 'legal_form']) if (!debtor[k]) problems.push(blank(`debtor.${k}`));
      const addr: Obj = debtor.company_address ?? {};
      for (const k of ['street', 'city', 'postal_code', 'country']) if (!addr[k]) problems.push(blank(`debtor.company_address.${k}`));
      if (addr.country === 'DE' && addr.postal_code && !/^\d{5}$/.test(addr.postal_code))
        problems.push({
          title: 'This value should have exactly 5 characters.',
          code: 'request_validation_error',
          source: 'debtor.company_address.postal_code',
        });
      if (addr.country && !/^[A-Z]{2}$/.test(addr.country))
        problems.push({ title: 'This value is not a valid country.', code: 'request_validation_error', source: 'debtor.company_address.country' });
      if (!b.debtor_person?.email) problems.push(blank('debtor_person.email'));
      const lines: Obj[] = Array.isArray(b.line_items) ? b.line_items : [];
      let linesGross = 0;
      lines.forEach((l, i) => {
        const a = amountIn(l.amount, `line_items.${i}.amount`);
        if (isError(a)) problems.push(a);
        else linesGross += a.gross;
        if (!Number.isInteger(l.quantity) || l.quantity < 1)
          problems.push({ title: 'This value should be a positive integer.', code: 'request_validation_error', source: `line_items.${i}.quantity` });
      });
      if (!problems.length && lines.length && !isError(amount) && linesGross !== amount.gross) {
        problems.push({
          title: `The line items add up to ${fromCents(linesGross)}, not the order's gross amount`,
          code: 'request_validation_error',
          source: 'line_items',
        });
      }
      if (problems.length || isError(amount)) return errors(400, problems);
      if (tags.has('slow')) await sleep(config.sandboxSlowMs);
      const o: Order = {
        uuid: randomUUID(),
        idempotency_key: req.header('idempotency-key') ?? null,
        external_code: b.external_code ?? null,
        state: 'created',
        decline_reason: null,
        amount_cents: amount,
        unshipped_cents: { ...amount },
        duration: b.duration ?? 30,
        debtor,
        debtor_person: b.debtor_person,
        delivery_address: b.delivery_address ?? null,
        line_items: lines,
        tags,
        invoices: [],
        created_at: billieDate(),
        client_id: res.locals.client_id as string,
      };
      if (tags.has('decline')) {
        o.state = 'declined';
        o.decline_reason = 'risk_policy';
      } else if (tags.has('review')) {
        o.state = 'waiting';
        o.decide_at = Date.now() + config.sandboxReviewMs;
        after(config.sandboxReviewMs, () => decideReview(o, true));
      }
      orders.set(o.uuid, o);
      return { status: 200, body: view(o) };
    }),
  );

  router.get('/api/v2/orders/:uuid', (req, res) => {
    const o = orders.get(req.params.uuid);
    if (!o) return res.status(404).json({ errors: [{ title: 'Order not found', code: 'not_found' }] });
    res.json(view(o));
  });

  router.post('/api/v2/orders/:uuid/cancel', (req, res) =>
    run(req, res, 'cancel', async () => {
      const o = orders.get(req.params.uuid as string);
      if (!o) return errors(404, [{ title: 'Order not found', code: 'not_found' }]);
      view(o);
      if (o.invoices.length || !['created', 'waiting'].includes(o.state)) {
        return errors(403, [{ title: `The order cannot be cancelled in state ${o.state}`, code: 'order_cancel_not_allowed' }]);
      }
      o.state = 'canceled';
      delete o.decide_at;
      notify(o, 'order_canceled');
      return { status: 204, body: null };
    }),
  );

  router.post('/api/v2/invoices', (req, res) =>
    run(req, res, 'invoices', async () => {
      const b: Obj = req.body ?? {};
      const uuid = Array.isArray(b.orders) && b.orders.length === 1 ? b.orders[0] : null;
      const o = uuid ? orders.get(uuid) : undefined;
      if (!o) return errors(404, [{ title: 'Order not found', code: 'not_found', source: 'orders' }]);
      view(o);
      if (o.state !== 'created' && o.state !== 'partially_shipped')
        return errors(403, [{ title: `An order in state ${o.state} cannot be invoiced`, code: 'order_not_shippable' }]);
      const broken = breach('create_invoice', b);
      if (broken) return broken;
      const problems: FieldError[] = [];
      if (!b.external_code) problems.push(blank('external_code'));
      if (!b.invoice_url) problems.push(blank('invoice_url'));
      const amount = amountIn(b.amount, 'amount');
      if (isError(amount)) problems.push(amount);
      else if (amount.gross <= 0 || amount.gross > o.unshipped_cents.gross)
        problems.push({
          title: `The amount must be from 0.01 to the unshipped amount (${fromCents(o.unshipped_cents.gross)})`,
          code: 'request_validation_error',
          source: 'amount.gross',
        });
      if ([...invoices.values()].some((i) => i.order_uuid === o.uuid && i.external_code === b.external_code))
        problems.push({ title: 'This invoice number is already used.', code: 'request_validation_error', source: 'external_code' });
      if (problems.length || isError(amount)) return errors(400, problems);
      const inv: Invoice = {
        uuid: randomUUID(),
        order_uuid: o.uuid,
        external_code: b.external_code,
        invoice_url: b.invoice_url,
        amount_cents: amount,
        credited_cents: 0,
        created_at: billieDate(),
      };
      invoices.set(inv.uuid, inv);
      o.invoices.push(inv.uuid);
      o.unshipped_cents = { gross: o.unshipped_cents.gross - amount.gross, tax: Math.max(0, o.unshipped_cents.tax - amount.tax) };
      o.state = o.unshipped_cents.gross === 0 ? 'shipped' : 'partially_shipped';
      return { status: 201, body: invoiceView(inv) };
    }),
  );

  router.get('/api/v2/invoices/:uuid', (req, res) => {
    const i = invoices.get(req.params.uuid);
    if (!i) return res.status(404).json({ errors: [{ title: 'Invoice not found', code: 'not_found' }] });
    res.json(invoiceView(i));
  });

  router.post('/api/v2/invoices/:uuid/credit-notes', (req, res) =>
    run(req, res, 'credit_notes', async () => {
      const inv = invoices.get(req.params.uuid as string);
      if (!inv) return errors(404, [{ title: 'Invoice not found', code: 'not_found' }]);
      const o = orders.get(inv.order_uuid)!;
      const b: Obj = req.body ?? {};
      if (o.tags.has('refund_flaky') && flaky('refund_flaky', req.header('idempotency-key') ?? String(b.external_code))) return unavailable;
      if (o.tags.has('slow')) await sleep(config.sandboxSlowMs);
      if (o.tags.has('refund_fail')) return errors(403, [{ title: 'The invoice cannot be credited', code: 'invoice_not_creditable' }]);
      const broken = breach('create_credit_note', b);
      if (broken) return broken;
      const problems: FieldError[] = [];
      if (!b.external_code) problems.push(blank('external_code'));
      const amount = amountIn(b.amount, 'amount');
      const left = inv.amount_cents.gross - inv.credited_cents;
      if (isError(amount)) problems.push(amount);
      else if (amount.gross <= 0 || amount.gross > left)
        problems.push({
          title: `The amount must be from 0.01 to what is left of the invoice (${fromCents(left)})`,
          code: 'request_validation_error',
          source: 'amount.gross',
        });
      if (problems.length || isError(amount)) return errors(400, problems);
      const c: CreditNote = {
        uuid: randomUUID(),
        invoice_uuid: inv.uuid,
        external_code: b.external_code,
        amount: amountView(amount),
        comment: b.comment ?? null,
        created_at: billieDate(),
      };
      creditNotes.set(c.uuid, c);
      inv.credited_cents += amount.gross;
      return { status: 201, body: c };
    }),
  );

  const reset = () => {
    for (const t of timers) clearTimeout(t);
    timers.clear();
    orders.clear();
    invoices.clear();
    creditNotes.clear();
    tokens.clear();
    tokensIssued = 0;
    webhooks.clear();
    deliveries.length = 0;
    retrier.reset();
  };

  /** Billie's side of the webhook set-up (done by Billie's team for a merchant): the address and the shared secret. */
  const operator: Router = express.Router();
  operator.post('/billie/webhooks', express.json(), (req, res) => {
    const b: Obj = req.body ?? {};
    const missing = ['client_id', 'url', 'secret'].filter((k) => typeof b[k] !== 'string' || !b[k]);
    if (missing.length) return res.status(400).json({ errors: missing.map((k) => blank(k)) });
    if (!URL.canParse(b.url))
      return res.status(400).json({ errors: [{ title: 'This value is not a valid URL.', code: 'request_validation_error', source: 'url' }] });
    webhooks.set(b.client_id, { url: b.url, secret: b.secret });
    res.status(201).json({ client_id: b.client_id, url: b.url });
  });

  /** Orders, invoices, credit notes, the access tokens handed out, the webhook set-ups and the webhooks sent; a
   * decision pending at the save is taken at its time (or on the first read after it). */
  const saved = keptState({
    orders: records<Omit<Order, 'tags'> & { tags: unknown }>('uuid'),
    invoices: records<Invoice>('uuid'),
    creditNotes: records<CreditNote>('uuid'),
    tokens: z.array(z.tuple([z.string(), z.object({ client_id: z.string(), expires_at: z.number() })])).catch([]),
    tokensIssued: counter,
    webhooks: z.array(z.tuple([z.string(), z.object({ url: z.string(), secret: z.string() })])).catch([]),
    deliveries: records<WebhookDelivery>('order_uuid'),
  });
  const state = {
    save: () => ({
      orders: [...orders.values()].map((o) => ({ ...o, tags: [...o.tags] })),
      invoices: [...invoices.values()],
      creditNotes: [...creditNotes.values()],
      tokens: [...tokens],
      tokensIssued,
      webhooks: [...webhooks],
      deliveries,
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
      for (const [t, v] of s.tokens) tokens.set(t, v);
      tokensIssued = s.tokensIssued ?? 0;
      for (const [client, hook] of s.webhooks) webhooks.set(client, hook);
      deliveries.push(...s.deliveries);
    },
  };
  return { router, operator, orders, invoices, creditNotes, deliveries, tokensIssued: () => tokensIssued, reset, state, orderView, invoiceView };
}

export const imitation: Imitation = (idem) => {
  const b = billieRouter(idem);
  return {
    router: b.router,
    operator: b.operator,
    reset: b.reset,
    state: b.state,
    views: {
      orders: (q) =>
        [...b.orders.values()]
          .filter((o) => (!q.uuid || o.uuid === q.uuid) && (!q.external_code || o.external_code === q.external_code))
          .map((o) => ({ ...b.orderView(o), idempotency_key: o.idempotency_key, debtor_person: o.debtor_person, line_items: o.line_items })),
      invoices: (q) =>
        [...b.invoices.values()].filter((i) => !q.order_uuid || i.order_uuid === q.order_uuid).map((i) => ({ ...b.invoiceView(i), order_uuid: i.order_uuid })),
      credit_notes: (q) => [...b.creditNotes.values()].filter((c) => !q.invoice_uuid || c.invoice_uuid === q.invoice_uuid),
      tokens: () => ({ issued: b.tokensIssued() }),
      notifications: (q) => b.deliveries.filter((d) => (!q.order_uuid || d.order_uuid === q.order_uuid) && (!q.event || d.event === q.event)),
    },
  };
};
