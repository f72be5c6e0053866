// Svea's Checkout API and Payment Admin API as the sandbox imitates them (the worker's side: workers/connectors/svea/), under /svea:
//   POST  /svea/api/orders                                   create the checkout order (201; 200 for a known clientOrderNumber)
//   GET   /svea/api/orders/:id                               the checkout order: Status Created | Final | Cancelled
//   GET   /svea/api/v1/orders/:id                            the admin order: OrderStatus, rows, deliveries, Actions
//   PATCH /svea/api/v1/orders/:id                            {isCancelled: true} cancels (204)
//   POST  /svea/api/v1/orders/:id/deliveries[/DeliverAndLowerAmount]   202 + Location of a task
//   GET   /svea/api/v1/orders/:id/deliveries/:did            a delivery
//   POST  /svea/api/v1/orders/:id/deliveries/:did/credits    202 + Location of a task (newCreditOrderRow or orderRowIds)
//   GET   /svea/api/v1/orders/:id/deliveries/:did/credits/:cid   a credit (UNVERIFIED path and shape)
//   GET   /svea/api/v1/queue/:taskId                         {Id, Status: InProgress} while running, then 303 to what it made
//   GET   /svea/checkout/:id, POST /svea/checkout/:id/(approve|deny)   the checkout page the customer completes
// Auth: `Timestamp` + `Authorization: Svea base64(merchantId:sha512hex(body + secret + timestamp))` (hex in either case),
// SVEA_MERCHANT_ID / SVEA_API_KEY (defaults 124842 / svea_sandbox_secret); otherwise 401 {Code, ErrorMessage}. The body
// signed is the JSON as parsed and serialized again (the sandbox parses JSON before the imitation sees it; a body
// serialized by JSON.stringify round-trips exactly). Errors: 4xx {Code, ErrorMessage} (codes UNVERIFIED, the
// connector's errors.ts lists them). Pushes: POST to the order's pushUri ({checkout.order.uri} filled in), unsigned,
// retried with the shared Retrier. Tasks finish after SANDBOX_SVEA_TASK_MS (default 200).
import express, { type Request, type Response, type Router } from 'express';
import { createHash, randomUUID } from 'node:crypto';
import { config } from '../../../../lib/config.ts';
import { counter, keptState, records, tagSet } from '../../kept.ts';
import { magicTags, type MagicTag } from '../../magic.ts';
import { keep, Retrier, retryFirstMs, type Attempts } from '../../notifier.ts';
import type { Imitation } from '../../provider.ts';
import type { IdempotencyStore } from '../../recorder.ts';

type Status = 'Created' | 'Final' | 'Cancelled';
interface Row { OrderRowId: number; ArticleNumber?: string; Name: string; Quantity: number; UnitPrice: number; VatPercent: number; IsCancelled: boolean; delivered: boolean }
interface Credit { Id: number; Amount: number; OrderRows: unknown[] }
interface Delivery { Id: number; InvoiceId: number; DeliveryAmount: number; CreditedAmount: number; Credits: Credit[]; OrderRows: Row[] }
/** What a queued task does when it finishes: described as data, so a task pending at a restart still finishes. */
type Job =
  | { kind: 'delivery'; orderId: number; deliveryId: number; rowIds: number[]; amount: number; lowerTo?: number }
  | { kind: 'credit'; orderId: number; deliveryId: number; creditId: number; amount: number; row: unknown };
interface Task { Id: number; done_at: number; resource: string; job: Job; ran: boolean; failed?: boolean }
interface Order {
  OrderId: number; ClientOrderNumber: string; Currency: string; CountryCode: string; Locale: string; Status: Status;
  request: Record<string, any>; rows: Row[]; email: string | null; tags: Set<MagicTag>; isCompany: boolean;
  /** Svea still checks the order (review): not deliverable until then. */
  pending: boolean; cancelled: boolean; lowered: number; deliveries: Delivery[]; PaymentType: string | null;
}
export interface SveaPush extends Attempts { id: string; url: string; object_id: string; event: string; created_at: string; body: unknown }

const COUNTRIES: Record<string, string[]> = { SE: ['SEK'], NO: ['NOK'], FI: ['EUR'], DK: ['DKK'], DE: ['EUR'] };
const LOCALES = ['sv-SE', 'nn-NO', 'nb-NO', 'fi-FI', 'da-DK', 'de-DE', 'en-US'];
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const s = (v: unknown) => (typeof v === 'string' && v.trim() !== '' ? v : null);

class Fail extends Error {
  readonly status: number;
  readonly code: number;
  constructor(status: number, code: number, message: string) {
    super(message);
    this.status = status;
    this.code = code;
  }
}
const invalid = (field: string, message = `${field} is required`) => new Fail(400, 40001, message);

/** Svea's signature, checked the way its server does (hex compared case-insensitively). */
export function verifySvea(authorization: string | undefined, timestamp: string | undefined, body: string, merchantId: string, secret: string): boolean {
  const m = /^Svea (.+)$/.exec(authorization ?? '');
  if (!m || !timestamp || !/^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}$/.test(timestamp)) return false;
  const [id, digest] = Buffer.from(m[1]!, 'base64').toString('utf8').split(':');
  const expected = createHash('sha512').update(body + secret + timestamp, 'utf8').digest('hex');
  return id === merchantId && digest?.toLowerCase() === expected;
}

function rowsOf(items: unknown): Row[] {
  if (!Array.isArray(items) || items.length === 0) throw invalid('cart.items', 'cart.items must hold at least one row');
  return items.map((it: any, i) => {
    const at = `cart.items[${i}]`;
    if (!s(it?.Name) || it.Name.length > 40) throw invalid(`${at}.Name`, `${at}.Name must be 1 to 40 characters`);
    if (!Number.isInteger(it.UnitPrice)) throw invalid(`${at}.UnitPrice`, `${at}.UnitPrice must be an integer in minor units`);
    if (!Number.isInteger(it.Quantity) || it.Quantity <= 0) throw invalid(`${at}.Quantity`, `${at}.Quantity must be a positive integer (×100)`);
    if (!Number.isInteger(it.VatPercent) || it.VatPercent < 0 || it.VatPercent > 10_000) throw invalid(`${at}.VatPercent`, `${at}.VatPercent must be an integer ×100`);
    return { OrderRowId: i + 1, ...(s(it.ArticleNumber) ? { ArticleNumber: it.ArticleNumber } : {}), Name: it.Name, Quantity: it.Quantity, UnitPrice: it.UnitPrice, VatPercent: it.VatPercent, IsCancelled: false, delivered: false };
  });
}
const rowAmount = (r: Pick<Row, 'UnitPrice' | 'Quantity'>) => Math.round((r.UnitPrice * r.Quantity) / 100);

export function sveaRouter(idem: IdempotencyStore, publicUrl: () => string) {
  const router: Router = express.Router();
  const orders = new Map<number, Order>();
  const tasks = new Map<number, Task>();
  const pushes: SveaPush[] = [];
  const merchantId = process.env.SVEA_MERCHANT_ID || '124842';
  const secret = process.env.SVEA_API_KEY || 'svea_sandbox_secret';
  const taskMs = Number(process.env.SANDBOX_SVEA_TASK_MS || 200);
  const retrier = new Retrier(retryFirstMs());
  const timers = new Set<NodeJS.Timeout>();
  let ids = 9_201_000;
  let taskIds = 0;
  const after = (ms: number, fn: () => void) => {
    const t = setTimeout(() => { timers.delete(t); fn(); }, ms);
    t.unref();
    timers.add(t);
  };
  const base = () => `${publicUrl()}/svea`;

  const push = (o: Order, event: string, extra: Record<string, unknown> = {}) => {
    const uri = s(o.request.merchantSettings?.pushUri);
    if (!uri) return;
    const url = uri.replace('{checkout.order.uri}', String(o.OrderId));
    const body = { EventName: event, CheckoutOrderId: o.OrderId, IsPending: o.pending, CorrelationId: randomUUID(), TimestampUtc: new Date().toISOString(), ...extra };
    const d: SveaPush = { id: body.CorrelationId, url, object_id: String(o.OrderId), event, created_at: body.TimestampUtc, body, attempts: 0, delivered: false, last_status: null, last_error: null, next_attempt_at: null };
    keep(pushes, d);
    retrier.post(d, url, JSON.stringify(body), {}, { provider: 'svea', id: d.id, type: event });
  };

  const runJob = (job: Job) => {
    const o = orders.get(job.orderId);
    if (!o) return;
    if (job.kind === 'delivery') {
      if (job.lowerTo !== undefined) o.lowered = orderAmount(o) - job.lowerTo;
      const rows = o.rows.filter((r) => job.rowIds.includes(r.OrderRowId));
      o.deliveries.push({ Id: job.deliveryId, InvoiceId: 1_000_000 + job.deliveryId, DeliveryAmount: job.amount, CreditedAmount: 0, Credits: [], OrderRows: rows });
      push(o, 'CheckoutOrder.Delivered', { DeliveryId: job.deliveryId });
    } else {
      o.deliveries.find((d) => d.Id === job.deliveryId)?.Credits.push({ Id: job.creditId, Amount: job.amount, OrderRows: [job.row] });
      push(o, 'CheckoutOrder.CreditSucceeded', { CreditId: job.creditId });
    }
  };
  const runTask = (t: Task) => {
    if (t.ran || Date.now() < t.done_at) return;
    t.ran = true;
    runJob(t.job);
  };
  const schedule = (t: Task) => after(Math.max(0, t.done_at - Date.now()), () => runTask(t));
  const newTask = (ms: number, resource: string, job: Job): Task => {
    const t: Task = { Id: ++taskIds, done_at: Date.now() + ms, resource, job, ran: false };
    tasks.set(t.Id, t);
    schedule(t);
    return t;
  };
  /** A `+review` order: deliverable SANDBOX_REVIEW_MS after its checkout. */
  const endReviewLater = (o: Order) => after(config.sandboxReviewMs, () => {
    o.pending = false;
    push(o, 'CheckoutOrder.Created');
  });

  const checkoutView = (o: Order) => ({
    OrderId: o.OrderId, Status: o.Status, ClientOrderNumber: o.ClientOrderNumber, Currency: o.Currency, CountryCode: o.CountryCode, Locale: o.Locale,
    Gui: { Layout: 'desktop', Snippet: `<iframe id="svea-checkout-iframe" src="${base()}/checkout/${o.OrderId}" style="width:100%;border:none"></iframe>` },
    Cart: { Items: o.rows.map(({ IsCancelled: _c, delivered: _d, OrderRowId: _i, ...r }) => r) },
    MerchantSettings: o.request.merchantSettings, Customer: o.Status === 'Final' ? { NationalId: '194605092222', IsCompany: o.isCompany, CountryCode: o.CountryCode } : null,
    EmailAddress: o.email, PaymentType: o.PaymentType, SveaWillBuyOrder: o.Status === 'Final' ? true : null, MerchantData: o.request.merchantData ?? null,
  });
  const remaining = (o: Order) => o.rows.filter((r) => !r.IsCancelled && !r.delivered);
  const orderAmount = (o: Order) => o.rows.reduce((t, r) => t + rowAmount(r), 0);
  const orderStatus = (o: Order) => (o.cancelled ? 'Cancelled' : remaining(o).length === 0 && o.deliveries.length ? 'Delivered' : 'Open');
  const orderActions = (o: Order) => {
    if (o.Status !== 'Final' || o.pending || o.cancelled || remaining(o).length === 0) return [];
    return ['CanDeliverOrder', 'CanDeliverOrderPartially', 'CanCancelOrder', 'CanCancelOrderRow', 'CanCancelOrderAmount'];
  };
  const rowView = (o: Order, r: Row) => ({
    OrderRowId: r.OrderRowId, ArticleNumber: r.ArticleNumber ?? null, Name: r.Name, Quantity: r.Quantity, UnitPrice: r.UnitPrice, VatPercent: r.VatPercent, IsCancelled: r.IsCancelled,
    Actions: !r.IsCancelled && !r.delivered && orderActions(o).length ? ['CanDeliverRow', 'CanCancelRow', 'CanUpdateRow'] : [],
  });
  const deliveryView = (o: Order, d: Delivery) => ({
    Id: d.Id, InvoiceId: d.InvoiceId, DeliveryAmount: d.DeliveryAmount, CreditedAmount: d.CreditedAmount,
    Credits: d.Credits.map((c) => ({ Amount: c.Amount, OrderRows: c.OrderRows, Actions: [] })),
    OrderRows: d.OrderRows.map((r) => ({ ...rowView(o, r), Actions: ['CanCreditRow'] })),
    Actions: d.CreditedAmount < d.DeliveryAmount ? ['CanCreditNewRow', 'CanCreditOrderRows', 'CanCreditAmount'] : [],
  });
  const adminView = (o: Order) => ({
    Id: o.OrderId, Currency: o.Currency, MerchantOrderId: o.ClientOrderNumber, OrderStatus: orderStatus(o), PaymentType: o.PaymentType,
    OrderAmount: orderAmount(o), CancelledAmount: o.rows.filter((r) => r.IsCancelled).reduce((t, r) => t + rowAmount(r), 0) + o.lowered,
    IsCompany: o.isCompany, NationalId: '194605092222', EmailAddress: o.email,
    OrderRows: o.rows.map((r) => rowView(o, r)), Deliveries: o.deliveries.map((d) => deliveryView(o, d)), Actions: orderActions(o),
  });

  const handle = (fn: (req: Request, res: Response) => Promise<void> | void) => async (req: Request, res: Response) => {
    try {
      await fn(req, res);
    } catch (err) {
      if (!(err instanceof Fail)) throw err;
      res.status(err.status).json({ Code: err.code, ErrorMessage: err.message });
    }
  };
  const orderOf = (id: unknown, admin = false): Order => {
    const o = orders.get(Number(id));
    if (!o) throw new Fail(404, 40401, `Order ${String(id)} not found`);
    if (admin && o.Status !== 'Final') throw new Fail(404, 40401, `Order ${o.OrderId} is not final (checkout status ${o.Status})`);
    return o;
  };

  router.use('/api', (req, res, next) => {
    const body = req.method === 'GET' || req.body === undefined ? '' : JSON.stringify(req.body);
    if (!verifySvea(req.header('authorization'), req.header('timestamp'), body, merchantId, secret)) {
      return res.status(401).json({ Code: 40101, ErrorMessage: 'Authorization failed: the Svea token or timestamp is not valid' });
    }
    next();
  });

  router.post('/api/orders', handle(async (req, res) => {
    const b = req.body ?? {};
    const number = s(b.clientOrderNumber);
    if (!number || number.length > 32) throw invalid('clientOrderNumber', 'clientOrderNumber is required: 1 to 32 characters');
    const email = s((b.presetValues ?? []).find((p: any) => p?.typeName === 'EmailAddress')?.value);
    const tags = magicTags(email);
    if (tags.has('flaky') && idem.count(`svea-flaky:${number}`) <= 2) throw new Fail(500, 50000, 'An error occurred, please retry');
    const known = [...orders.values()].find((o) => o.ClientOrderNumber === number);
    if (known) return void res.status(200).json(checkoutView(known));
    if (!COUNTRIES[b.countryCode]) throw invalid('countryCode', `countryCode must be one of ${Object.keys(COUNTRIES).join(', ')}`);
    if (!COUNTRIES[b.countryCode]!.includes(b.currency)) throw invalid('currency', `currency ${String(b.currency)} is not valid for ${b.countryCode}`);
    if (!LOCALES.includes(b.locale)) throw invalid('locale', `locale must be one of ${LOCALES.join(', ')}`);
    const ms = b.merchantSettings ?? {};
    for (const f of ['termsUri', 'checkoutUri', 'confirmationUri', 'pushUri']) {
      if (!s(ms[f]) || !/^https?:\/\//.test(ms[f])) throw invalid(`merchantSettings.${f}`, `merchantSettings.${f} is required: an http(s) URI`);
    }
    const rows = rowsOf(b.cart?.items);
    if (rows.reduce((t, r) => t + rowAmount(r), 0) <= 0) throw invalid('cart.items', 'The order amount must be above 0');
    if (tags.has('slow')) await sleep(config.sandboxSlowMs);
    const o: Order = {
      OrderId: ++ids, ClientOrderNumber: number, Currency: b.currency, CountryCode: b.countryCode, Locale: b.locale, Status: 'Created', request: b, rows,
      email, tags, isCompany: (b.presetValues ?? []).some((p: any) => p?.typeName === 'IsCompany' && String(p.value) === 'true'),
      pending: false, cancelled: false, lowered: 0, deliveries: [], PaymentType: null,
    };
    orders.set(o.OrderId, o);
    res.status(201).json(checkoutView(o));
  }));

  router.get('/api/orders/:id', handle((req, res) => void res.json(checkoutView(orderOf(req.params.id)))));
  router.get('/api/v1/orders/:id', handle((req, res) => void res.json(adminView(orderOf(req.params.id, true)))));

  router.patch('/api/v1/orders/:id', handle((req, res) => {
    const o = orderOf(req.params.id, true);
    if (req.body?.isCancelled !== true) throw invalid('isCancelled', 'isCancelled must be true (cancelledAmount is not imitated)');
    if (!orderActions(o).includes('CanCancelOrder')) throw new Fail(400, 40901, `Order ${o.OrderId} cannot be cancelled (status ${orderStatus(o)})`);
    for (const r of remaining(o)) r.IsCancelled = true;
    o.cancelled = o.deliveries.length === 0;
    res.status(204).end();
  }));

  const startDelivery = (o: Order, rows: Row[], amount: number, res: Response, lowerTo?: number) => {
    const id = ++ids;
    for (const r of rows) r.delivered = true;
    const t = newTask(taskMs, `${base()}/api/v1/orders/${o.OrderId}/deliveries/${id}`, {
      kind: 'delivery', orderId: o.OrderId, deliveryId: id, rowIds: rows.map((r) => r.OrderRowId), amount, ...(lowerTo !== undefined ? { lowerTo } : {}),
    });
    res.status(202).location(`${base()}/api/v1/queue/${t.Id}`).end();
  };

  router.post('/api/v1/orders/:id/deliveries', handle((req, res) => {
    const o = orderOf(req.params.id, true);
    if (!orderActions(o).includes('CanDeliverOrder')) throw new Fail(400, 40901, `Order ${o.OrderId} cannot be delivered (status ${orderStatus(o)}${o.pending ? ', pending' : ''})`);
    const ids_: unknown = req.body?.orderRowIds ?? [];
    if (!Array.isArray(ids_)) throw invalid('orderRowIds', 'orderRowIds must be a list');
    const left = remaining(o);
    const chosen = ids_.length === 0 ? left : ids_.map((id) => {
      const r = left.find((x) => x.OrderRowId === id);
      if (!r) throw invalid('orderRowIds', `Order row ${String(id)} cannot be delivered`);
      return r;
    });
    // A partial quantity splits the row: the delivered part keeps its id, the rest becomes a new row.
    for (const opt of req.body?.rowDeliveryOptions ?? []) {
      const r = chosen.find((x) => x.OrderRowId === opt?.orderRowId);
      if (!r || !Number.isInteger(opt.quantity) || opt.quantity <= 0 || opt.quantity > r.Quantity || opt.quantity % 100 !== 0) {
        throw invalid('rowDeliveryOptions', `rowDeliveryOptions for row ${String(opt?.orderRowId)} must name a chosen row and whole units`);
      }
      if (opt.quantity < r.Quantity) {
        o.rows.push({ ...r, OrderRowId: Math.max(...o.rows.map((x) => x.OrderRowId)) + 1, Quantity: r.Quantity - opt.quantity });
        r.Quantity = opt.quantity;
      }
    }
    startDelivery(o, chosen, chosen.reduce((t, r) => t + rowAmount(r), 0), res);
  }));

  router.post('/api/v1/orders/:id/deliveries/DeliverAndLowerAmount', handle((req, res) => {
    const o = orderOf(req.params.id, true);
    if (!orderActions(o).includes('CanDeliverOrder') || o.deliveries.length) throw new Fail(400, 40901, `Order ${o.OrderId} cannot be delivered at a lower amount`);
    const amount = req.body?.deliveredAmount;
    const total = orderAmount(o);
    if (!Number.isInteger(amount) || amount <= 0 || amount > total) throw invalid('deliveredAmount', `deliveredAmount must be from 1 to ${total}`);
    startDelivery(o, remaining(o), amount, res, amount);
  }));

  const deliveryOf = (o: Order, id: unknown) => {
    const d = o.deliveries.find((x) => x.Id === Number(id));
    if (!d) throw new Fail(404, 40401, `Delivery ${String(id)} not found on order ${o.OrderId}`);
    return d;
  };
  router.get('/api/v1/orders/:id/deliveries/:did', handle((req, res) => {
    const o = orderOf(req.params.id, true);
    res.json(deliveryView(o, deliveryOf(o, req.params.did)));
  }));

  // Magic tags from the order's email: +refund_fail (credit refused), +refund_pending (the task runs SANDBOX_REVIEW_MS,
  // then a CreditSucceeded push), +refund_flaky (500 twice per delivery and amount).
  router.post('/api/v1/orders/:id/deliveries/:did/credits', handle((req, res) => {
    const o = orderOf(req.params.id, true);
    const d = deliveryOf(o, req.params.did);
    const row = req.body?.newCreditOrderRow;
    const amount = row ? rowAmount(row) : null;
    if (o.tags.has('refund_flaky') && idem.count(`svea-refund_flaky:${d.Id}:${amount}`) <= 2) throw new Fail(500, 50000, 'An error occurred, please retry');
    if (!row) throw invalid('newCreditOrderRow', 'newCreditOrderRow is required (crediting orderRowIds is not imitated)');
    if (!s(row.Name) || !Number.isInteger(row.UnitPrice) || !Number.isInteger(row.Quantity) || !Number.isInteger(row.VatPercent)) {
      throw invalid('newCreditOrderRow', 'newCreditOrderRow needs Name, UnitPrice, Quantity (×100) and VatPercent (×100)');
    }
    if (o.tags.has('refund_fail')) throw new Fail(400, 40010, 'The credit was refused: the invoice is with debt collection');
    if (amount! <= 0 || amount! > d.DeliveryAmount - d.CreditedAmount) throw new Fail(400, 40001, `The credit exceeds what is left of delivery ${d.Id} (${d.DeliveryAmount - d.CreditedAmount})`);
    d.CreditedAmount += amount!;
    const id = ++ids;
    const t = newTask(o.tags.has('refund_pending') ? config.sandboxReviewMs : taskMs, `${base()}/api/v1/orders/${o.OrderId}/deliveries/${d.Id}/credits/${id}`, {
      kind: 'credit', orderId: o.OrderId, deliveryId: d.Id, creditId: id, amount: amount!, row,
    });
    res.status(202).location(`${base()}/api/v1/queue/${t.Id}`).end();
  }));

  router.get('/api/v1/orders/:id/deliveries/:did/credits/:cid', handle((req, res) => {
    const o = orderOf(req.params.id, true);
    const c = deliveryOf(o, req.params.did).Credits.find((x) => x.Id === Number(req.params.cid));
    if (!c) throw new Fail(404, 40401, `Credit ${req.params.cid} not found`);
    res.json({ Id: c.Id, Amount: c.Amount, OrderRows: c.OrderRows, Actions: [] });
  }));

  router.get('/api/v1/queue/:taskId', handle((req, res) => {
    const t = tasks.get(Number(req.params.taskId));
    if (!t) throw new Fail(404, 40401, `Task ${req.params.taskId} not found`);
    runTask(t);
    if (!t.ran) return void res.json({ Id: t.Id, Status: 'InProgress' });
    res.status(303).location(t.resource).end();
  }));

  // The checkout the customer completes (Svea's iframe): identify, confirm; Svea's credit check decides.
  router.get('/checkout/:id', (req, res) => {
    const o = orders.get(Number(req.params.id));
    if (!o || o.Status !== 'Created') return res.status(404).send('No checkout to complete');
    const total = orderAmount(o);
    res.type('html').send(`<!doctype html><title>Svea Checkout</title>
<h1>Pay ${(total / 100).toFixed(2)} ${o.Currency} with Svea</h1>
<form method="post" action="/svea/checkout/${o.OrderId}/approve"><button>Confirm purchase</button></form>
<form method="post" action="/svea/checkout/${o.OrderId}/deny"><button>Cancel</button></form>`);
  });

  router.post('/checkout/:id/:decision', (req, res) => {
    const o = orders.get(Number(req.params.id));
    if (!o || o.Status !== 'Created' || !['approve', 'deny'].includes(req.params.decision)) return res.status(404).send('No checkout to complete');
    const ms = o.request.merchantSettings;
    // A declined credit check: the customer cannot finish; the sandbox cancels the order at once (Svea after 48 h).
    if (req.params.decision === 'deny' || o.tags.has('decline')) {
      o.Status = 'Cancelled';
      push(o, 'CheckoutOrder.Cancelled');
      return res.redirect(303, ms.checkoutUri);
    }
    o.Status = 'Final';
    o.PaymentType = o.isCompany ? 'ACCOUNTCREDIT' : 'INVOICE';
    if (o.tags.has('review')) {
      o.pending = true;
      endReviewLater(o);
    }
    push(o, 'CheckoutOrder.Created');
    res.redirect(303, ms.confirmationUri);
  });

  const reset = () => {
    for (const t of timers) clearTimeout(t);
    timers.clear();
    orders.clear();
    tasks.clear();
    retrier.reset();
    pushes.length = 0;
  };
  /** Orders with their deliveries and credits, the tasks (a task running at the save finishes at its time, or when
   * polled after it), the id sequences and the pushes sent; a review pending at the save ends SANDBOX_REVIEW_MS
   * after the load. */
  const saved = keptState({
    orders: records<Omit<Order, 'tags'> & { tags: unknown }>('OrderId'), tasks: records<Task>('Id'), pushes: records<SveaPush>('id'),
    ids: counter, taskIds: counter,
  });
  const state = {
    save: () => ({ orders: [...orders.values()].map((o) => ({ ...o, tags: [...o.tags] })), tasks: [...tasks.values()], pushes, ids, taskIds }),
    load: (raw: unknown) => {
      reset();
      const s = saved.parse(raw);
      for (const kept of s.orders) {
        const o: Order = { ...kept, tags: tagSet(kept.tags) };
        orders.set(o.OrderId, o);
        if (o.pending) endReviewLater(o);
      }
      for (const t of s.tasks) {
        tasks.set(t.Id, t);
        if (!t.ran) schedule(t);
      }
      pushes.push(...s.pushes);
      ids = s.ids ?? ids;
      taskIds = s.taskIds ?? taskIds;
    },
  };
  return { router, orders, pushes, reset, state, adminView, checkoutView };
}

export const imitation: Imitation = (idem, publicUrl) => {
  const r = sveaRouter(idem, publicUrl);
  return {
    router: r.router,
    reset: r.reset,
    state: r.state,
    views: {
      orders: (q) => [...r.orders.values()].filter((o) => (!q.id || String(o.OrderId) === q.id) && (!q.clientOrderNumber || o.ClientOrderNumber === q.clientOrderNumber))
        .map((o) => ({ ...r.checkoutView(o), request: o.request, pending: o.pending, admin: o.Status === 'Final' ? r.adminView(o) : null })),
      notifications: (q) => r.pushes.filter((d) => (!q.object_id || d.object_id === q.object_id) && (!q.event || d.event === q.event)),
    },
  };
};
