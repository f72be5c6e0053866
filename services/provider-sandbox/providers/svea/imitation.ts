// Svea's Checkout API and Payment Admin API as the sandbox imitates them (the worker's side: workers/connectors/svea/), under /svea.
// Its answers are shaped on Svea's own published examples, read from the connector's fixture files (never its code:
// workers/connectors/svea/fixtures/SOURCES.md names each), and it checks requests by Svea's published field rules
// (php-checkout README §11, §13): so it cannot simply agree with a mistaken belief of the connector.
//   POST  /svea/api/orders                                   create the checkout order (201; 200 for a known clientOrderNumber)
//   GET   /svea/api/orders/:id                               the checkout order: Status Created | Final | Cancelled
//   GET   /svea/api/v1/orders/:id                            the admin order: OrderStatus, rows, deliveries, Actions
//   PATCH /svea/api/v1/orders/:id                            {isCancelled: true} cancels (204)
//   POST  /svea/api/v1/orders/:id/deliveries[/DeliverAndLowerAmount]   202 + Location of a task
//   GET   /svea/api/v1/orders/:id/deliveries/:did            a delivery
//   POST  /svea/api/v1/orders/:id/deliveries/:did/credits    202 + Location of a task (newCreditOrderRow or orderRowIds)
//   GET   /svea/api/v1/orders/:id/deliveries/:did/credits/:cid   {CreditId} (the path is UNVERIFIED; the body is the .NET SDK's)
//   GET   /svea/api/v1/queue/:taskId                         {Id, Status: InProgress} while running, then 303 to what it
//         made: the order for a delivery (the .NET SDK reads it as an order), the credit for a credit
//   GET   /svea/checkout/:id, POST /svea/checkout/:id/(approve|deny)   the checkout page the customer completes
// Recurring orders (php-checkout README §6-§9, docs checkout/recurring-orders): an order created with `Recurring: true`
// gets a RecurringToken (a Guid) when the customer completes it (Final), shown on the checkout order; then
//   POST  /svea/api/tokens/:token/orders                     a new order on the token, Final at once (no customer step),
//         201 with the checkout order (Gui null); a used ClientOrderNumber, a cart of 0 or less, a missing PushUri are
//         refused; errors in the X-SVEACHECKOUT-ERRORCODE / -ERRORMESSAGE headers (404 for an unknown token, 118 for
//         a cancelled one); no daily cap (the stage environment's rule)
//   GET   /svea/api/tokens/:token/orders/:id                 that order
//   PATCH /svea/api/tokens/:token {Status: "Cancelled"}      cancels the token (200): a mandate revoked at Svea
// Auth: `Timestamp` + `Authorization: Svea base64(merchantId:sha512hex(body + secret + timestamp))` (hex in either case),
// SVEA_MERCHANT_ID / SVEA_API_KEY (defaults 124842 / svea_sandbox_secret); the Timestamp as .NET and Magento send it
// (yyyy-MM-dd HH:mm:ss) or php-checkout does (yyyy-MM-dd HH:mm); otherwise 401. The body signed is the JSON as parsed
// and serialized again (the sandbox parses JSON before the imitation sees it; a body serialized by JSON.stringify
// round-trips exactly). Errors: 4xx {Code, Message, Errors[{Code, Field, ErrorMessage}]} (.NET ErrorResponse; codes
// UNVERIFIED, the connector's errors.ts lists them). Field names are matched without regard to case, as Svea's own
// clients send both camelCase (php-checkout) and PascalCase. Notices, unsigned, retried with the shared Retrier: the
// push, a POST with no body to the order's pushUri with {checkout.order.uri} filled in, on each checkout status
// change; and Svea's callback events (JSON), which Svea sends to a URL the merchant registers with it: the imitation
// sends them to the same pushUri. Tasks finish after SANDBOX_SVEA_TASK_MS (default 200).
import express, { type Request, type Response, type Router } from 'express';
import { createHash, randomUUID } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { config } from '../../../../lib/config.ts';
import { counter, keptState, records, tagSet } from '../../kept.ts';
import { magicTags, type MagicTag } from '../../magic.ts';
import { keep, Retrier, retryFirstMs, type Attempts } from '../../notifier.ts';
import type { Imitation } from '../../provider.ts';
import type { IdempotencyStore } from '../../recorder.ts';
import { setTimeout as sleep } from 'node:timers/promises';

type Status = 'Created' | 'Final' | 'Cancelled';
interface Row {
  OrderRowId: number;
  ArticleNumber?: string;
  Name: string;
  Quantity: number;
  UnitPrice: number;
  VatPercent: number;
  IsCancelled: boolean;
  delivered: boolean;
}
interface Credit {
  Id: number;
  Amount: number;
  OrderRows: unknown[];
}
interface Delivery {
  Id: number;
  InvoiceId: number;
  DeliveryAmount: number;
  CreditedAmount: number;
  Credits: Credit[];
  OrderRows: Row[];
  created_at?: string;
}
/** What a queued task does when it finishes: described as data, so a task pending at a restart still finishes. */
type Job =
  | { kind: 'delivery'; orderId: number; deliveryId: number; rowIds: number[]; amount: number; lowerTo?: number }
  | { kind: 'credit'; orderId: number; deliveryId: number; creditId: number; amount: number; row: unknown };
interface Task {
  Id: number;
  done_at: number;
  resource: string;
  job: Job;
  ran: boolean;
  failed?: boolean;
}
interface Order {
  OrderId: number;
  ClientOrderNumber: string;
  Currency: string;
  CountryCode: string;
  Locale: string;
  Status: Status;
  request: Record<string, any>;
  rows: Row[];
  email: string | null;
  tags: Set<MagicTag>;
  isCompany: boolean;
  /** Svea still checks the order (review): not deliverable until then. */
  pending: boolean;
  cancelled: boolean;
  lowered: number;
  deliveries: Delivery[];
  PaymentType: string | null;
  created_at?: string;
  /** Created with Recurring true: its RecurringToken is set when it becomes Final. */
  Recurring?: boolean;
  RecurringToken?: string | null;
  /** An order made on a token: that token. */
  token?: string;
}
interface RecurringToken {
  token: string;
  OrderId: number;
  Status: 'Active' | 'Cancelled';
}
export interface SveaPush extends Attempts {
  id: string;
  url: string;
  object_id: string;
  event: string;
  created_at: string;
  body: unknown;
}

const COUNTRIES: Record<string, string[]> = { SE: ['SEK'], NO: ['NOK'], FI: ['EUR'], DK: ['DKK'], DE: ['EUR'] };
/** php-checkout README §11.9. */
const LOCALES = ['sv-SE', 'nn-NO', 'fi-FI', 'da-DK', 'de-DE', 'en-US'];
/** §11.4's preset type names. */
const PRESETS = ['NationalId', 'EmailAddress', 'PhoneNumber', 'PostalCode', 'IsCompany'];

/** Svea's published examples (the connector's fixtures): the snippet the checkout answers with is Svea's own. */
const fixture = (name: string): unknown => JSON.parse(readFileSync(new URL(`../../../../workers/connectors/svea/fixtures/${name}`, import.meta.url), 'utf8'));
const SNIPPET: string = (() => {
  const f = fixture('checkout_order_created.json');
  const gui = f && typeof f === 'object' && 'Gui' in f ? f.Gui : null;
  const snippet = gui && typeof gui === 'object' && 'Snippet' in gui ? gui.Snippet : null;
  if (typeof snippet !== 'string') throw new Error('svea imitation: fixtures/checkout_order_created.json has no Gui.Snippet');
  return snippet;
})();
/** Svea's snippet with the imitation's checkout page as the iframe's address (data-sco-sveacheckout-iframeSrc). */
const snippetFor = (url: string, locale: string) =>
  SNIPPET.replace(/(data-sco-sveacheckout-iframeSrc=")[^"]*(")/, `$1${url}$2`).replace(/(data-sco-sveacheckout-locale=")[^"]*(")/, `$1${locale}$2`);

/** A field of a request body, its name matched without regard to case (Svea's clients send camelCase and PascalCase). */
function field(o: unknown, name: string): any {
  if (!o || typeof o !== 'object') return undefined;
  const key = Object.keys(o).find((k) => k.toLowerCase() === name.toLowerCase());
  return key === undefined ? undefined : (o as Record<string, unknown>)[key];
}
const digits = (n: unknown, max: number) => Number.isInteger(n) && String(Math.abs(n as number)).length <= max;
const s = (v: unknown) => (typeof v === 'string' && v.trim() !== '' ? v : null);

class Fail extends Error {
  readonly status: number;
  readonly code: number;
  readonly field: string | null;
  constructor(status: number, code: number, message: string, field: string | null = null) {
    super(message);
    this.status = status;
    this.code = code;
    this.field = field;
  }
}
const invalid = (name: string, message = `${name} is required`) => new Fail(400, 40001, message, name);
/** Svea's error body (.NET ErrorResponse): Code, Message and the errors by field. */
const errorBody = (e: Fail) => ({ Code: e.code, Message: e.message, Errors: [{ Code: e.code, Field: e.field, ErrorMessage: e.message }] });

/** Svea's signature, checked the way its server does (hex compared case-insensitively). */
export function verifySvea(authorization: string | undefined, timestamp: string | undefined, body: string, merchantId: string, secret: string): boolean {
  const m = /^Svea (.+)$/.exec(authorization ?? '');
  if (!m || !timestamp || !/^\d{4}-\d{2}-\d{2} \d{2}:\d{2}(:\d{2})?$/.test(timestamp)) return false;
  const [id, digest] = Buffer.from(m[1]!, 'base64').toString('utf8').split(':');
  const expected = createHash('sha512')
    .update(body + secret + timestamp, 'utf8')
    .digest('hex');
  return id === merchantId && digest?.toLowerCase() === expected;
}

/** An order row by §11.3 (checkout) / §13.15.5 (admin): Name 1-40, Quantity 1-9 digits (×100), UnitPrice 1-13 digits
 * (may be negative), VatPercent 0-10000 (×100), ArticleNumber ≤ `articleMax`, Unit 0-4. */
function rowOf(it: unknown, at: string, id: number, articleMax: number): Row {
  const name = field(it, 'Name');
  if (!s(name) || name.length > 40) throw invalid(`${at}.Name`, `${at}.Name must be 1 to 40 characters`);
  const unitPrice = field(it, 'UnitPrice');
  if (!digits(unitPrice, 13)) throw invalid(`${at}.UnitPrice`, `${at}.UnitPrice must be an integer of 1 to 13 digits in minor units`);
  const quantity = field(it, 'Quantity');
  if (!digits(quantity, 9) || quantity <= 0) throw invalid(`${at}.Quantity`, `${at}.Quantity must be a positive integer of 1 to 9 digits (×100)`);
  const vat = field(it, 'VatPercent');
  if (!Number.isInteger(vat) || vat < 0 || vat > 10_000) throw invalid(`${at}.VatPercent`, `${at}.VatPercent must be an integer from 0 to 10000 (×100)`);
  const article = field(it, 'ArticleNumber');
  if (article != null && (typeof article !== 'string' || article.length > articleMax))
    throw invalid(`${at}.ArticleNumber`, `${at}.ArticleNumber must be at most ${articleMax} characters`);
  const unit = field(it, 'Unit');
  if (unit != null && (typeof unit !== 'string' || unit.length > 4)) throw invalid(`${at}.Unit`, `${at}.Unit must be 0 to 4 characters`);
  return {
    OrderRowId: id,
    ...(s(article) ? { ArticleNumber: article } : {}),
    Name: name,
    Quantity: quantity,
    UnitPrice: unitPrice,
    VatPercent: vat,
    IsCancelled: false,
    delivered: false,
  };
}
function rowsOf(items: unknown): Row[] {
  if (!Array.isArray(items) || items.length === 0) throw invalid('Cart.Items', 'Cart.Items must hold at least one row');
  return items.map((it, i) => rowOf(it, `Cart.Items[${i}]`, i + 1, 1000));
}
/** §11.4: known type names; EmailAddress ≤ 50 and an address; PhoneNumber 1-18 digits with "+", "-" and spaces. */
function checkPresets(presets: unknown) {
  if (presets == null) return;
  if (!Array.isArray(presets)) throw invalid('PresetValues', 'PresetValues must be a list');
  presets.forEach((p, i) => {
    const at = `PresetValues[${i}]`;
    const type = PRESETS.find((t) => t.toLowerCase() === String(field(p, 'TypeName')).toLowerCase());
    if (!type) throw invalid(`${at}.TypeName`, `${at}.TypeName must be one of ${PRESETS.join(', ')}`);
    const value = field(p, 'Value');
    if (typeof value !== 'string') throw invalid(`${at}.Value`, `${at}.Value is required`);
    if (type === 'EmailAddress' && (value.length > 50 || !/^[^@\s]+@[^@\s]+$/.test(value)))
      throw invalid(`${at}.Value`, `${at}.Value must be an email address of at most 50 characters`);
    if (type === 'PhoneNumber' && (!/^[+\- 0-9]+$/.test(value) || !/\d/.test(value) || value.replace(/\D/g, '').length > 18)) {
      throw invalid(`${at}.Value`, `${at}.Value must be 1 to 18 digits with "+", "-" and spaces`);
    }
    if (typeof field(p, 'IsReadOnly') !== 'boolean') throw invalid(`${at}.IsReadOnly`, `${at}.IsReadOnly is required (a boolean)`);
  });
}
function presetValue(b: unknown, type: string): string | null {
  const presets: unknown = field(b, 'PresetValues');
  const p = Array.isArray(presets) ? presets.find((x) => String(field(x, 'TypeName')).toLowerCase() === type.toLowerCase()) : undefined;
  return s(field(p, 'Value'));
}
const rowAmount = (r: Pick<Row, 'UnitPrice' | 'Quantity'>) => Math.round((r.UnitPrice * r.Quantity) / 100);

export function sveaRouter(idem: IdempotencyStore, publicUrl: () => string) {
  const router: Router = express.Router();
  const orders = new Map<number, Order>();
  const tokens = new Map<string, RecurringToken>();
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
    const t = setTimeout(() => {
      timers.delete(t);
      fn();
    }, ms);
    t.unref();
    timers.add(t);
  };
  const base = () => `${publicUrl()}/svea`;

  const pushUriOf = (o: Order) => s(field(field(o.request, 'MerchantSettings'), 'PushUri'))?.replace('{checkout.order.uri}', String(o.OrderId));
  const send = (o: Order, url: string, event: string, body: unknown) => {
    const id = randomUUID();
    const d: SveaPush = {
      id,
      url,
      object_id: String(o.OrderId),
      event,
      created_at: new Date().toISOString(),
      body,
      attempts: 0,
      delivered: false,
      last_status: null,
      last_error: null,
      next_attempt_at: null,
    };
    keep(pushes, d);
    retrier.post(d, url, body === null ? '' : JSON.stringify(body), {}, { provider: 'svea', id, type: event });
  };
  /** The push on a checkout status change: the order is named only by the URI, the request has no body. */
  const push = (o: Order) => {
    const url = pushUriOf(o);
    if (url) send(o, url, 'push', null);
  };
  /** A callback event in Svea's documented shape (callback_events; the fixtures' callback_*.json). */
  const callback = (o: Order, event: string, extra: Record<string, unknown> = {}) => {
    const url = pushUriOf(o);
    if (url)
      send(o, url, event, { EventName: event, CheckoutOrderId: o.OrderId, ...extra, CorrelationId: randomUUID(), TimestampUtc: new Date().toISOString() });
  };

  const runJob = (job: Job) => {
    const o = orders.get(job.orderId);
    if (!o) return;
    if (job.kind === 'delivery') {
      if (job.lowerTo !== undefined) o.lowered = orderAmount(o) - job.lowerTo;
      const rows = o.rows.filter((r) => job.rowIds.includes(r.OrderRowId));
      o.deliveries.push({
        Id: job.deliveryId,
        InvoiceId: 1_000_000 + job.deliveryId,
        DeliveryAmount: job.amount,
        CreditedAmount: 0,
        Credits: [],
        OrderRows: rows,
        created_at: new Date().toISOString(),
      });
      callback(o, 'CheckoutOrder.Delivered', { DeliveryId: job.deliveryId });
    } else {
      o.deliveries.find((d) => d.Id === job.deliveryId)?.Credits.push({ Id: job.creditId, Amount: job.amount, OrderRows: [job.row] });
      callback(o, 'CheckoutOrder.CreditSucceeded', { CreditId: job.creditId });
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
  // Which event Svea raises when a pending order is released is UNVERIFIED: the imitation repeats Created, IsPending false.
  const endReviewLater = (o: Order) =>
    after(config.sandboxReviewMs, () => {
      o.pending = false;
      callback(o, 'CheckoutOrder.Created', { IsPending: false });
    });

  // The views carry the fields of Svea's examples (DataSample Checkout*Response, Admin*; the fixtures).
  const checkoutView = (o: Order) => ({
    MerchantSettings: field(o.request, 'MerchantSettings') ?? null,
    Cart: {
      Items: o.rows.map((r, i) => ({
        ArticleNumber: r.ArticleNumber ?? null,
        Name: r.Name,
        Quantity: r.Quantity,
        UnitPrice: r.UnitPrice,
        DiscountPercent: 0,
        DiscountAmount: 0,
        VatPercent: r.VatPercent,
        Unit: null,
        TemporaryReference: null,
        RowNumber: i + 1,
        MerchantData: null,
      })),
    },
    Customer: o.Status === 'Final' ? { Id: 626, NationalId: '194605092222', CountryCode: o.CountryCode, IsCompany: o.isCompany } : null,
    ShippingAddress: null,
    BillingAddress: null,
    // "not applicable for an order created with token, ie recurring" (§9).
    Gui: o.token ? null : { Layout: 'desktop', Snippet: snippetFor(`${base()}/checkout/${o.OrderId}`, o.Locale) },
    Locale: o.Locale,
    Currency: o.Currency,
    CountryCode: o.CountryCode,
    ClientOrderNumber: o.ClientOrderNumber,
    OrderId: o.OrderId,
    EmailAddress: o.email,
    PhoneNumber: presetValue(o.request, 'PhoneNumber'),
    PaymentType: o.PaymentType,
    Payment: null,
    Status: o.Status,
    CustomerReference: null,
    SveaWillBuyOrder: o.Status === 'Final' ? true : null,
    IdentityFlags: null,
    MerchantData: s(field(o.request, 'MerchantData')),
    PeppolId: null,
    Recurring: o.Recurring ?? null,
    // "Only available when the order is FINAL" (§9).
    RecurringToken: o.Status === 'Final' ? (o.RecurringToken ?? null) : null,
  });
  const remaining = (o: Order) => o.rows.filter((r) => !r.IsCancelled && !r.delivered);
  const orderAmount = (o: Order) => o.rows.reduce((t, r) => t + rowAmount(r), 0);
  const orderStatus = (o: Order) => (o.cancelled ? 'Cancelled' : remaining(o).length === 0 && o.deliveries.length ? 'Delivered' : 'Open');
  /** Svea's action names as its answers spell them (DataSample AdminGetOrder; .NET OrderActionType). */
  const orderActions = (o: Order) => {
    if (o.Status !== 'Final' || o.pending || o.cancelled || remaining(o).length === 0) return [];
    return ['CanDeliverOrder', 'CanDeliverPartially', 'CanCancelOrder', 'CanCancelOrderRow', 'CanCancelAmount'];
  };
  const rowView = (r: Row, actions: string[]) => ({
    OrderRowId: r.OrderRowId,
    ArticleNumber: r.ArticleNumber ?? null,
    Name: r.Name,
    Quantity: r.Quantity,
    UnitPrice: r.UnitPrice,
    DiscountAmount: 0,
    VatPercent: r.VatPercent,
    Unit: null,
    IsCancelled: r.IsCancelled,
    Actions: actions,
  });
  const deliveryView = (d: Delivery) => ({
    Id: d.Id,
    CreationDate: (d.created_at ?? new Date().toISOString()).slice(0, 19),
    InvoiceId: d.InvoiceId,
    DeliveryAmount: d.DeliveryAmount,
    CreditedAmount: d.CreditedAmount,
    // A credit's Amount is negative in Svea's example (DataSample AdminOrderRowsCredited).
    Credits: d.Credits.map((c) => ({ Amount: -c.Amount, OrderRows: c.OrderRows, Actions: [] })),
    OrderRows: d.OrderRows.map((r) => rowView(r, ['CanCreditRow'])),
    Actions: d.CreditedAmount < d.DeliveryAmount ? ['CanCreditNewRow', 'CanCreditOrderRows', 'CanCreditAmount'] : [],
    Status: 'Sent',
    DueDate: null,
  });
  const adminView = (o: Order) => ({
    Id: o.OrderId,
    Currency: o.Currency,
    MerchantOrderId: o.ClientOrderNumber,
    OrderStatus: orderStatus(o),
    SystemStatus: o.cancelled ? 'Cancelled' : 'Active',
    SystemStatusMessage: null,
    PaymentCreditStatus: null,
    EmailAddress: o.email,
    PhoneNumber: presetValue(o.request, 'PhoneNumber'),
    CustomerReference: '',
    PeppolId: null,
    // Payment Admin spells the payment type "Invoice" (DataSample), the checkout order INVOICE.
    PaymentType: o.isCompany ? 'AccountCredit' : 'Invoice',
    CreationDate: (o.created_at ?? new Date().toISOString()).slice(0, 19),
    NationalId: '194605092222',
    IsCompany: o.isCompany,
    CancelledAmount: o.rows.filter((r) => r.IsCancelled).reduce((t, r) => t + rowAmount(r), 0) + o.lowered,
    OrderAmount: orderAmount(o),
    BillingAddress: null,
    ShippingAddress: null,
    Deliveries: o.deliveries.map(deliveryView),
    OrderRows: o.rows
      .filter((r) => !r.delivered)
      .map((r) => rowView(r, !r.IsCancelled && orderActions(o).length ? ['CanDeliverRow', 'CanCancelRow', 'CanUpdateRow'] : [])),
    Actions: orderActions(o),
    SveaWillBuy: true,
  });

  const handle = (fn: (req: Request, res: Response) => Promise<void> | void) => async (req: Request, res: Response) => {
    try {
      await fn(req, res);
    } catch (err) {
      if (!(err instanceof Fail)) throw err;
      res.status(err.status).json(errorBody(err));
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
      return res.status(401).json(errorBody(new Fail(401, 40101, 'Authorization failed: the Svea token or timestamp is not valid')));
    }
    next();
  });

  router.post(
    '/api/orders',
    handle(async (req, res) => {
      const b: unknown = req.body ?? {};
      const raw = field(b, 'ClientOrderNumber');
      const number = typeof raw === 'number' ? String(raw) : s(raw);
      if (!number || number.length > 32) throw invalid('ClientOrderNumber', 'ClientOrderNumber is required: 1 to 32 characters');
      const email = presetValue(b, 'EmailAddress');
      const tags = magicTags(email);
      if (tags.has('flaky') && idem.count(`svea-flaky:${number}`) <= 2) throw new Fail(500, 50000, 'An error occurred, please retry');
      const known = [...orders.values()].find((o) => o.ClientOrderNumber === number);
      if (known) return void res.status(200).json(checkoutView(known));
      const country = field(b, 'CountryCode');
      const currency = field(b, 'Currency');
      const locale = field(b, 'Locale');
      if (!COUNTRIES[country]) throw invalid('CountryCode', `CountryCode must be one of ${Object.keys(COUNTRIES).join(', ')}`);
      if (!COUNTRIES[country]!.includes(currency)) throw invalid('Currency', `Currency ${String(currency)} is not valid for ${country}`);
      if (!LOCALES.includes(locale)) throw invalid('Locale', `Locale must be one of ${LOCALES.join(', ')}`);
      // §11.1: each URI 1-500 characters and a valid URL.
      const ms = field(b, 'MerchantSettings');
      for (const f of ['TermsUri', 'CheckoutUri', 'ConfirmationUri', 'PushUri']) {
        const v = field(ms, f);
        if (!s(v) || v.length > 500 || !/^https?:\/\/\S+$/.test(v))
          throw invalid(`MerchantSettings.${f}`, `MerchantSettings.${f} is required: an http(s) URI of at most 500 characters`);
      }
      const rows = rowsOf(field(field(b, 'Cart'), 'Items'));
      if (rows.reduce((t, r) => t + rowAmount(r), 0) <= 0) throw invalid('Cart.Items', 'The order amount must be above 0');
      checkPresets(field(b, 'PresetValues'));
      if (tags.has('slow')) await sleep(config.sandboxSlowMs);
      const o: Order = {
        OrderId: ++ids,
        ClientOrderNumber: number,
        Currency: currency,
        CountryCode: country,
        Locale: locale,
        Status: 'Created',
        request: b as Record<string, any>,
        rows,
        email,
        tags,
        isCompany: presetValue(b, 'IsCompany') === 'true',
        pending: false,
        cancelled: false,
        lowered: 0,
        deliveries: [],
        PaymentType: null,
        created_at: new Date().toISOString(),
        ...(field(b, 'Recurring') === true ? { Recurring: true } : {}),
      };
      orders.set(o.OrderId, o);
      res.status(201).json(checkoutView(o));
    }),
  );

  router.get(
    '/api/orders/:id',
    handle((req, res) => void res.json(checkoutView(orderOf(req.params.id)))),
  );
  router.get(
    '/api/v1/orders/:id',
    handle((req, res) => void res.json(adminView(orderOf(req.params.id, true)))),
  );

  router.patch(
    '/api/v1/orders/:id',
    handle((req, res) => {
      const o = orderOf(req.params.id, true);
      if (field(req.body, 'IsCancelled') !== true) throw invalid('IsCancelled', 'IsCancelled must be true (CancelledAmount is not imitated)');
      if (!orderActions(o).includes('CanCancelOrder')) throw new Fail(400, 40901, `Order ${o.OrderId} cannot be cancelled (status ${orderStatus(o)})`);
      for (const r of remaining(o)) r.IsCancelled = true;
      o.cancelled = o.deliveries.length === 0;
      res.status(204).end();
    }),
  );

  const startDelivery = (o: Order, rows: Row[], amount: number, res: Response, lowerTo?: number) => {
    const id = ++ids;
    for (const r of rows) r.delivered = true;
    // A finished delivery task leads to the order (the .NET SDK reads the resource as an order).
    const t = newTask(taskMs, `${base()}/api/v1/orders/${o.OrderId}`, {
      kind: 'delivery',
      orderId: o.OrderId,
      deliveryId: id,
      rowIds: rows.map((r) => r.OrderRowId),
      amount,
      ...(lowerTo !== undefined ? { lowerTo } : {}),
    });
    res.status(202).location(`${base()}/api/v1/queue/${t.Id}`).end();
  };

  router.post(
    '/api/v1/orders/:id/deliveries',
    handle((req, res) => {
      const o = orderOf(req.params.id, true);
      if (!orderActions(o).includes('CanDeliverOrder'))
        throw new Fail(400, 40901, `Order ${o.OrderId} cannot be delivered (status ${orderStatus(o)}${o.pending ? ', pending' : ''})`);
      const ids_: unknown = field(req.body, 'OrderRowIds');
      if (!Array.isArray(ids_)) throw invalid('OrderRowIds', 'OrderRowIds is required: a list (empty to deliver everything)');
      const left = remaining(o);
      const chosen =
        ids_.length === 0
          ? left
          : ids_.map((id) => {
              const r = left.find((x) => x.OrderRowId === id);
              if (!r) throw invalid('OrderRowIds', `Order row ${String(id)} cannot be delivered`);
              return r;
            });
      // A partial quantity splits the row: the delivered part keeps its id, the rest becomes a new row.
      const options: unknown = field(req.body, 'RowDeliveryOptions') ?? [];
      for (const opt of Array.isArray(options) ? options : []) {
        const rowId = field(opt, 'OrderRowId');
        const quantity = field(opt, 'Quantity');
        const r = chosen.find((x) => x.OrderRowId === rowId);
        if (!r || !Number.isInteger(quantity) || quantity <= 0 || quantity > r.Quantity || quantity % 100 !== 0) {
          throw invalid('RowDeliveryOptions', `RowDeliveryOptions for row ${String(rowId)} must name a chosen row and whole units`);
        }
        if (quantity < r.Quantity) {
          o.rows.push({ ...r, OrderRowId: Math.max(...o.rows.map((x) => x.OrderRowId)) + 1, Quantity: r.Quantity - quantity });
          r.Quantity = quantity;
        }
      }
      startDelivery(
        o,
        chosen,
        chosen.reduce((t, r) => t + rowAmount(r), 0),
        res,
      );
    }),
  );

  router.post(
    '/api/v1/orders/:id/deliveries/DeliverAndLowerAmount',
    handle((req, res) => {
      const o = orderOf(req.params.id, true);
      if (!orderActions(o).includes('CanDeliverOrder') || o.deliveries.length)
        throw new Fail(400, 40901, `Order ${o.OrderId} cannot be delivered at a lower amount`);
      const amount = field(req.body, 'DeliveredAmount');
      const total = orderAmount(o);
      if (!Number.isInteger(amount) || amount <= 0 || amount > total) throw invalid('DeliveredAmount', `DeliveredAmount must be from 1 to ${total}`);
      startDelivery(o, remaining(o), amount, res, amount);
    }),
  );

  const deliveryOf = (o: Order, id: unknown) => {
    const d = o.deliveries.find((x) => x.Id === Number(id));
    if (!d) throw new Fail(404, 40401, `Delivery ${String(id)} not found on order ${o.OrderId}`);
    return d;
  };
  router.get(
    '/api/v1/orders/:id/deliveries/:did',
    handle((req, res) => {
      const o = orderOf(req.params.id, true);
      res.json(deliveryView(deliveryOf(o, req.params.did)));
    }),
  );

  // Magic tags from the order's email: +refund_fail (credit refused), +refund_pending (the task runs SANDBOX_REVIEW_MS,
  // then a CreditSucceeded push), +refund_flaky (500 twice per delivery and amount).
  router.post(
    '/api/v1/orders/:id/deliveries/:did/credits',
    handle((req, res) => {
      const o = orderOf(req.params.id, true);
      const d = deliveryOf(o, req.params.did);
      const given = field(req.body, 'NewCreditOrderRow');
      const flakyKey = `svea-refund_flaky:${d.Id}:${String(field(given, 'UnitPrice'))}`;
      if (o.tags.has('refund_flaky') && idem.count(flakyKey) <= 2) throw new Fail(500, 50000, 'An error occurred, please retry');
      if (!given) throw invalid('NewCreditOrderRow', 'NewCreditOrderRow is required (crediting OrderRowIds is not imitated)');
      // §13.9: the new credit row is an Order Row (§13.15.5: ArticleNumber at most 256).
      const row = rowOf(given, 'NewCreditOrderRow', 0, 256);
      const amount = rowAmount(row);
      if (o.tags.has('refund_fail')) throw new Fail(400, 40010, 'The credit was refused: the invoice is with debt collection');
      if (amount <= 0 || amount > d.DeliveryAmount - d.CreditedAmount)
        throw new Fail(
          400,
          40001,
          `The credit exceeds what is left of delivery ${d.Id} (${d.DeliveryAmount - d.CreditedAmount})`,
          'NewCreditOrderRow.UnitPrice',
        );
      d.CreditedAmount += amount;
      const id = ++ids;
      const t = newTask(
        o.tags.has('refund_pending') ? config.sandboxReviewMs : taskMs,
        `${base()}/api/v1/orders/${o.OrderId}/deliveries/${d.Id}/credits/${id}`,
        {
          kind: 'credit',
          orderId: o.OrderId,
          deliveryId: d.Id,
          creditId: id,
          amount,
          row: given,
        },
      );
      res.status(202).location(`${base()}/api/v1/queue/${t.Id}`).end();
    }),
  );

  router.get(
    '/api/v1/orders/:id/deliveries/:did/credits/:cid',
    handle((req, res) => {
      const o = orderOf(req.params.id, true);
      const c = deliveryOf(o, req.params.did).Credits.find((x) => x.Id === Number(req.params.cid));
      if (!c) throw new Fail(404, 40401, `Credit ${req.params.cid} not found`);
      // What a finished credit task leads to, in the .NET SDK's shape (CreditResponseObject; DataSample CreditResponse).
      res.json({ CreditId: String(c.Id) });
    }),
  );

  router.get(
    '/api/v1/queue/:taskId',
    handle((req, res) => {
      const t = tasks.get(Number(req.params.taskId));
      if (!t) throw new Fail(404, 40401, `Task ${req.params.taskId} not found`);
      runTask(t);
      if (!t.ran) return void res.json({ Id: t.Id, Status: 'InProgress' });
      // Done: 303 to what it made (php-checkout README §12), the task naming it too (.NET Task.ResourceUri).
      res.status(303).location(t.resource).json({ Id: t.Id, Status: 'Completed', ResourceUri: t.resource });
    }),
  );

  // The checkout the customer completes (Svea's iframe): identify, confirm; Svea's credit check decides.
  /** The token endpoints answer errors in headers (docs recurring-orders/introduction), with no body of their own. */
  const tokenError = (res: Response, status: number, code: string, message: string) =>
    void res.status(status).set({ 'X-SVEACHECKOUT-ERRORCODE': code, 'X-SVEACHECKOUT-ERRORMESSAGE': message }).end();
  const tokenOf = (req: Request, res: Response): RecurringToken | null => {
    const t = tokens.get(String(req.params.token).toLowerCase());
    if (!t) tokenError(res, 404, '404', 'No token with the requested ID was found');
    return t ?? null;
  };

  router.post('/api/tokens/:token/orders', (req, res) => {
    const t = tokenOf(req, res);
    if (!t) return;
    if (t.Status !== 'Active') return tokenError(res, 400, '118', 'Invalid token status.');
    const first = orders.get(t.OrderId)!;
    const b: unknown = req.body ?? {};
    const ms = field(b, 'MerchantSettings');
    if (!ms) return tokenError(res, 400, '101', 'Missing merchant settings.');
    const pushAt = field(ms, 'PushUri');
    if (!s(pushAt) || pushAt.length > 500 || !/^https?:\/\/\S+$/.test(pushAt)) return tokenError(res, 400, '110', 'Invalid push uri.');
    const checkout = field(ms, 'CheckoutUri');
    if (checkout != null && (!s(checkout) || !/^https?:\/\/\S+$/.test(checkout))) return tokenError(res, 400, '108', 'Invalid checkout uri.');
    if (field(b, 'Currency') !== first.Currency) return tokenError(res, 400, '105', 'Invalid currency.');
    const raw = field(b, 'ClientOrderNumber');
    const number = typeof raw === 'number' ? String(raw) : s(raw);
    // "Attempting to create a new order with a previously used ClientOrderNumber will result in an Error."
    if (!number || number.length > 32 || [...orders.values()].some((o) => o.ClientOrderNumber === number))
      return tokenError(res, 400, '126', 'Invalid client order number.');
    const cart = field(b, 'Cart');
    if (!cart) return tokenError(res, 400, '102', 'Missing cart.');
    let rows: Row[];
    try {
      rows = rowsOf(field(cart, 'Items'));
    } catch (err) {
      if (!(err instanceof Fail)) throw err;
      return tokenError(res, 400, '117', err.message);
    }
    if (rows.reduce((sum, r) => sum + rowAmount(r), 0) <= 0) return tokenError(res, 400, '135', 'Invalid amount, cannot be less than or equal to 0.');
    const o: Order = {
      ...first,
      OrderId: ++ids,
      ClientOrderNumber: number,
      Status: 'Final',
      request: b as Record<string, any>,
      rows,
      tags: new Set(first.tags),
      pending: false,
      cancelled: false,
      lowered: 0,
      deliveries: [],
      created_at: new Date().toISOString(),
      Recurring: true,
      RecurringToken: null,
      token: t.token,
    };
    orders.set(o.OrderId, o);
    push(o);
    callback(o, 'CheckoutOrder.Created', { IsPending: false });
    res.status(201).json(checkoutView(o));
  });

  router.get('/api/tokens/:token/orders/:id', (req, res) => {
    const t = tokenOf(req, res);
    if (!t) return;
    const o = orders.get(Number(req.params.id));
    if (!o || o.token !== t.token) return tokenError(res, 404, '404', `Order ${String(req.params.id)} was not created with this token`);
    res.json(checkoutView(o));
  });

  router.patch('/api/tokens/:token', (req, res) => {
    const t = tokenOf(req, res);
    if (!t) return;
    if (field(req.body, 'Status') !== 'Cancelled') return tokenError(res, 400, '118', 'Invalid token status.');
    t.Status = 'Cancelled';
    res.status(200).end();
  });

  router.get('/checkout/:id', (req, res) => {
    const o = orders.get(Number(req.params.id));
    if (o?.Status !== 'Created') return res.status(404).send('No checkout to complete');
    const total = orderAmount(o);
    res.type('html').send(`<!doctype html><title>Svea Checkout</title>
<h1>Pay ${(total / 100).toFixed(2)} ${o.Currency} with Svea</h1>
<form method="post" action="/svea/checkout/${o.OrderId}/approve"><button>Confirm purchase</button></form>
<form method="post" action="/svea/checkout/${o.OrderId}/deny"><button>Cancel</button></form>`);
  });

  router.post('/checkout/:id/:decision', (req, res) => {
    const o = orders.get(Number(req.params.id));
    if (o?.Status !== 'Created' || !['approve', 'deny'].includes(req.params.decision)) return res.status(404).send('No checkout to complete');
    const ms = field(o.request, 'MerchantSettings');
    // A declined credit check: the customer cannot finish; the sandbox cancels the order at once (Svea after 48 h).
    if (req.params.decision === 'deny' || o.tags.has('decline')) {
      o.Status = 'Cancelled';
      push(o);
      callback(o, 'CheckoutOrder.Closed');
      return res.redirect(303, field(ms, 'CheckoutUri'));
    }
    o.Status = 'Final';
    o.PaymentType = o.isCompany ? 'ACCOUNTCREDIT' : 'INVOICE';
    if (o.Recurring && !o.RecurringToken) {
      o.RecurringToken = randomUUID();
      tokens.set(o.RecurringToken, { token: o.RecurringToken, OrderId: o.OrderId, Status: 'Active' });
    }
    if (o.tags.has('review')) {
      o.pending = true;
      endReviewLater(o);
    }
    push(o);
    callback(o, 'CheckoutOrder.Created', { IsPending: o.pending });
    res.redirect(303, field(ms, 'ConfirmationUri'));
  });

  const reset = () => {
    for (const t of timers) clearTimeout(t);
    timers.clear();
    orders.clear();
    tokens.clear();
    tasks.clear();
    retrier.reset();
    pushes.length = 0;
  };
  /** Orders with their deliveries and credits, the tasks (a task running at the save finishes at its time, or when
   * polled after it), the id sequences and the pushes sent; a review pending at the save ends SANDBOX_REVIEW_MS
   * after the load. */
  const saved = keptState({
    orders: records<Omit<Order, 'tags'> & { tags: unknown }>('OrderId'),
    tasks: records<Task>('Id'),
    pushes: records<SveaPush>('id'),
    tokens: records<RecurringToken>('token'),
    ids: counter,
    taskIds: counter,
  });
  const state = {
    save: () => ({
      orders: [...orders.values()].map((o) => ({ ...o, tags: [...o.tags] })),
      tasks: [...tasks.values()],
      pushes,
      tokens: [...tokens.values()],
      ids,
      taskIds,
    }),
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
      for (const t of s.tokens) tokens.set(t.token, t);
      ids = s.ids ?? ids;
      taskIds = s.taskIds ?? taskIds;
    },
  };
  return { router, orders, tokens, pushes, reset, state, adminView, checkoutView };
}

export const imitation: Imitation = (idem, publicUrl) => {
  const r = sveaRouter(idem, publicUrl);
  return {
    router: r.router,
    reset: r.reset,
    state: r.state,
    views: {
      orders: (q) =>
        [...r.orders.values()]
          .filter((o) => (!q.id || String(o.OrderId) === q.id) && (!q.clientOrderNumber || o.ClientOrderNumber === q.clientOrderNumber))
          .map((o) => ({ ...r.checkoutView(o), request: o.request, pending: o.pending, admin: o.Status === 'Final' ? r.adminView(o) : null })),
      notifications: (q) => r.pushes.filter((d) => (!q.object_id || d.object_id === q.object_id) && (!q.event || d.event === q.event)),
    },
  };
};
