// Riverty's eCommerce API v3 as the sandbox imitates it (the worker's side: workers/connectors/riverty/), under /riverty:
//   POST /riverty/api/v3/checkout/authorize                    risk decision: outcome Accepted | Pending | Rejected
//   GET  /riverty/api/v3/orders/:orderNumber                   the order (UNVERIFIED path and shape)
//   POST /riverty/api/v3/orders/:orderNumber/captures          capture (partial, several): the invoice
//   POST /riverty/api/v3/orders/:orderNumber/voids             release what is left of the reservation
//   POST /riverty/api/v3/orders/:orderNumber/refunds           refund within a capture (captureNumber)
//   GET  /riverty/sca/:orderNumber                             the strong customer authentication page
//   POST /riverty/sca/:orderNumber/(approve|deny)
// Auth: header X-Auth-Key (RIVERTY_API_KEY, default riverty_sandbox_api_key). Amounts: decimals in major units.
// Errors: HTTP 4xx with an array of {type, code, message, customerFacingMessage, actionCode, fieldReference}; a risk
// decline is HTTP 200 with outcome Rejected and riskCheckMessages. No Idempotency-Key: the order number identifies an
// authorization (a repeat answers the first decision), transactionReference a capture or a refund.
// Later decisions (the customer's authentication, a review) are notified, signed, to the order's webhookUrl (notifier.ts).
import express, { type Request, type Response, type Router } from 'express';
import { randomUUID } from 'node:crypto';
import { config } from '../../../../lib/config.ts';
import { fromDecimalString, toDecimalString } from '../../../../lib/money.ts';
import { counter, keptState, records } from '../../kept.ts';
import { magicTags } from '../../magic.ts';
import { retryFirstMs } from '../../notifier.ts';
import type { Imitation } from '../../provider.ts';
import type { IdempotencyStore } from '../../recorder.ts';
import { RivertyNotifier, type RivertyDelivery, type RivertyMessageType } from './notifier.ts';

type Outcome = 'Accepted' | 'Pending' | 'Rejected';
interface Message { type: string; code: string; message: string; customerFacingMessage?: string; actionCode?: string; fieldReference?: string }
interface Capture { captureNumber: string; amount: number; refunded: number; invoiceNumber: string; transactionReference: string | null; answer: unknown }
interface Refund { refundNumber: string; captureNumber: string; amount: number; transactionReference: string | null; refundType: string; answer: unknown }
interface Order {
  number: string;
  outcome: Outcome;
  reservationId: string;
  checkoutId: string;
  currency: string;
  /** Cents. */
  authorized: number;
  captured: number;
  voided: number;
  refunded: number;
  request: Record<string, any>;
  email: string | null;
  merchantUrl: string | null;
  webhookUrl: string | null;
  secureLoginUrl?: string;
  riskCheckMessages?: Message[];
  captures: Capture[];
  refunds: Refund[];
  decide_at?: number;
  created_at: string;
  updated_at: string;
}

const CURRENCIES = ['EUR', 'NOK', 'SEK', 'DKK', 'CHF'];
const PAYMENT_TYPES = ['Invoice', 'Installment', 'Account', 'Consolidatedinvoice', 'PayinX'];
const ITEM_TYPES = ['PhysicalArticle', 'DigitalArticle', 'GiftCard', 'Discount', 'ShippingFee', 'Surcharge', 'Info', 'Subscription'];
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

const msg = (code: string, message: string, extra: Partial<Message> = {}): Message =>
  ({ type: 'BusinessError', code, message, customerFacingMessage: message, ...extra });
/** Riverty's 4xx answer: an array of message objects. */
const fail = (status: number, code: string, message: string, extra: Partial<Message> = {}) => ({ status, body: [msg(code, message, extra)] });
const invalid = (field: string, message = `${field} is required`) =>
  fail(400, '200.101', message, { type: 'BusinessError', actionCode: 'AskConsumerToReEnterData', fieldReference: field });
class Invalid extends Error {
  readonly answer: ReturnType<typeof invalid>;
  constructor(answer: ReturnType<typeof invalid>) {
    super(answer.body[0]!.message);
    this.answer = answer;
  }
}

/** A decimal of the currency -> cents, refusing what is not a number or has more decimals than the currency. */
function cents(v: unknown, currency: string, field: string): number {
  if (typeof v !== 'number' || !Number.isFinite(v)) throw new Invalid(invalid(field, `${field} must be a number`));
  try {
    return fromDecimalString(String(v), currency as 'EUR');
  } catch {
    throw new Invalid(invalid(field, `${field} has more decimals than ${currency} allows`));
  }
}
const dec = (c: number, currency: string) => Number(toDecimalString(c, currency as 'EUR'));
const s = (v: unknown) => (typeof v === 'string' && v.trim() !== '' ? v : null);

/** Items: each priced per unit with net + VAT = gross; returns Σ gross × quantity in cents. */
function itemsTotal(items: unknown, currency: string, field: string, required: boolean): number | null {
  if (items === undefined || items === null) {
    if (required) throw new Invalid(invalid(field));
    return null;
  }
  if (!Array.isArray(items) || items.length === 0 || items.length > 200) throw new Invalid(invalid(field, `${field} must hold 1 to 200 items`));
  let total = 0;
  items.forEach((it: any, i) => {
    const at = `${field}[${i}]`;
    if (!s(it?.description)) throw new Invalid(invalid(`${at}.description`));
    if (!Number.isInteger(it.quantity) || it.quantity <= 0) throw new Invalid(invalid(`${at}.quantity`, `${at}.quantity must be a positive integer`));
    if (it.type !== undefined && !ITEM_TYPES.includes(it.type)) throw new Invalid(invalid(`${at}.type`, `${at}.type must be one of ${ITEM_TYPES.join(', ')}`));
    const gross = cents(it.grossUnitPrice, currency, `${at}.grossUnitPrice`);
    const net = cents(it.netUnitPrice, currency, `${at}.netUnitPrice`);
    const vat = cents(it.vatAmount ?? 0, currency, `${at}.vatAmount`);
    if (typeof it.vatPercent !== 'number') throw new Invalid(invalid(`${at}.vatPercent`));
    if (Math.abs(net + vat - gross) > 1) throw new Invalid(invalid(`${at}.netUnitPrice`, `${at}: netUnitPrice + vatAmount must equal grossUnitPrice`));
    total += gross * it.quantity;
  });
  return total;
}

export function rivertyRouter(idem: IdempotencyStore, publicUrl: () => string) {
  const router: Router = express.Router();
  const orders = new Map<string, Order>();
  const apiKey = process.env.RIVERTY_API_KEY || 'riverty_sandbox_api_key';
  const notifier = new RivertyNotifier({ secret: process.env.RIVERTY_WEBHOOK_SECRET || 'riverty_sandbox_webhook_secret', firstRetryMs: retryFirstMs() });
  const timers = new Set<NodeJS.Timeout>();
  let sequence = 800090000;
  const nextNumber = () => String(++sequence);
  const after = (ms: number, fn: () => void) => {
    const t = setTimeout(() => { timers.delete(t); fn(); }, ms);
    t.unref();
    timers.add(t);
  };
  /** updated_at moves forward at least 1 ms per change, so a late notification can be told apart. */
  const touch = (o: Order) => {
    const now = Date.now();
    o.updated_at = new Date(Math.max(now, Date.parse(o.updated_at) + 1)).toISOString();
  };
  const notify = (o: Order, type: RivertyMessageType) => notifier.send(o.webhookUrl, type, o.number, {
    OrderNumber: o.number, Status: o.outcome, ReservationId: o.reservationId, ...(o.riskCheckMessages ? { RiskCheckMessages: o.riskCheckMessages } : {}),
  }, o.updated_at);

  const decideReview = (o: Order, force = false) => {
    if (o.outcome !== 'Pending' || o.decide_at === undefined || (!force && Date.now() < o.decide_at)) return;
    o.outcome = 'Accepted';
    delete o.decide_at;
    touch(o);
    notify(o, 'RiskCheckCompleted');
  };
  const remaining = (o: Order) => o.authorized - o.captured - o.voided;
  const totals = (o: Order) => ({
    totalAuthorizedAmount: dec(o.authorized, o.currency), totalCapturedAmount: dec(o.captured, o.currency),
    remainingAuthorizedAmount: dec(o.outcome === 'Accepted' || o.outcome === 'Pending' ? remaining(o) : 0, o.currency),
    totalRefundedAmount: dec(o.refunded, o.currency),
  });
  const authorizeAnswer = (o: Order) => ({
    outcome: o.outcome, reservationId: o.reservationId, checkoutId: o.checkoutId,
    customer: { customerNumber: String(100000 + (Number.parseInt(o.reservationId.slice(0, 6), 16) % 900000)) },
    ...(o.outcome === 'Pending' && o.secureLoginUrl ? { secureLoginUrl: o.secureLoginUrl } : {}),
    ...(o.riskCheckMessages ? { riskCheckMessages: o.riskCheckMessages } : {}),
  });
  const orderView = (o: Order) => {
    decideReview(o);
    return {
      orderDetails: { number: o.number, ...o.request.order },
      ...authorizeAnswer(o), ...totals(o), totalVoidedAmount: dec(o.voided, o.currency),
      captures: o.captures.map((c) => ({ captureNumber: c.captureNumber, invoiceNumber: c.invoiceNumber, amount: dec(c.amount, o.currency) })),
      refunds: o.refunds.map((r) => ({ refundNumber: r.refundNumber, captureNumber: r.captureNumber, amount: dec(r.amount, o.currency) })),
    };
  };
  const handle = async (res: Response, fn: () => Promise<{ status: number; body: unknown }>) => {
    try {
      const out = await fn();
      res.status(out.status).json(out.body);
    } catch (err) {
      if (!(err instanceof Invalid)) throw err;
      res.status(err.answer.status).json(err.answer.body);
    }
  };

  router.use('/api/v3', (req, res, next) => {
    if (req.header('x-auth-key') !== apiKey) {
      return res.status(401).json([{ type: 'TechnicalError', code: '100.001', message: 'Authorization has been denied for this request.', customerFacingMessage: 'Payment with Riverty is not available right now.' }]);
    }
    next();
  });

  router.post('/api/v3/checkout/authorize', (req, res) => handle(res, async () => {
    const b = req.body ?? {};
    const o = b.order ?? {};
    if (typeof o.number !== 'string' || !/^[A-Za-z0-9_-]{1,50}$/.test(o.number)) return invalid('order.number', 'order.number is required: 1 to 50 of A-Z a-z 0-9 _ -');
    const known = orders.get(o.number);
    const tags = magicTags(s(b.customer?.email));
    // No Idempotency-Key at Riverty: a repeated order number (a retry of the same authorization) answers its decision.
    if (tags.has('flaky') && idem.count(`riverty-flaky:${o.number}`) <= 2) {
      return { status: 500, body: [{ type: 'TechnicalError', code: '500.001', message: 'An error occurred, please retry' }] };
    }
    if (known) {
      decideReview(known);
      if (!CURRENCIES.includes(o.currency) || known.authorized !== cents(o.totalGrossAmount, known.currency, 'order.totalGrossAmount')) {
        return fail(400, '200.103', `Order number ${o.number} is already used by another order`, { fieldReference: 'order.number' });
      }
      return { status: 200, body: authorizeAnswer(known) };
    }
    if (!PAYMENT_TYPES.includes(b.payment?.type)) return invalid('payment.type', `payment.type must be one of ${PAYMENT_TYPES.join(', ')}`);
    const c = b.customer ?? {};
    if (!['Person', 'Company'].includes(c.customerCategory)) return invalid('customer.customerCategory', 'customer.customerCategory must be Person or Company');
    if (c.customerCategory === 'Person' && !s(c.firstName)) return invalid('customer.firstName');
    if (!s(c.lastName) && !(c.customerCategory === 'Company' && s(c.companyName))) return invalid('customer.lastName');
    if (c.customerCategory === 'Company' && !s(c.companyName)) return invalid('customer.companyName');
    if (!s(c.email) || !String(c.email).includes('@')) return invalid('customer.email');
    const a = c.address ?? {};
    for (const f of ['street', 'postalCode', 'postalPlace', 'countryCode']) if (!s(a[f])) return invalid(`customer.address.${f}`);
    if (!/^[A-Z]{2}$/.test(a.countryCode)) return invalid('customer.address.countryCode', 'customer.address.countryCode must be ISO 3166-1 alpha-2');
    // Germany and Austria: a consumer's birth date is mandatory.
    if (c.customerCategory === 'Person' && ['DE', 'AT'].includes(a.countryCode) && !s(c.birthDate)) return invalid('customer.birthDate');
    if (c.birthDate !== undefined && !/^\d{4}-\d{2}-\d{2}$/.test(String(c.birthDate))) return invalid('customer.birthDate', 'customer.birthDate must be YYYY-MM-DD');
    if (!CURRENCIES.includes(o.currency)) return invalid('order.currency', `order.currency must be one of ${CURRENCIES.join(', ')}`);
    const gross = cents(o.totalGrossAmount, o.currency, 'order.totalGrossAmount');
    const net = cents(o.totalNetAmount, o.currency, 'order.totalNetAmount');
    if (gross <= 0) return invalid('order.totalGrossAmount', 'order.totalGrossAmount must be above 0');
    if (net < 0 || net > gross) return invalid('order.totalNetAmount', 'order.totalNetAmount must be from 0 to totalGrossAmount');
    const items = itemsTotal(o.items, o.currency, 'order.items', true)!;
    if (Math.abs(items - gross) > o.items.length) return invalid('order.totalGrossAmount', 'order.totalGrossAmount must be the sum of the items\' grossUnitPrice × quantity');
    for (const u of ['merchantUrl', 'webhookUrl']) {
      if (b[u] != null && !/^https?:\/\//.test(String(b[u]))) return invalid(u, `${u} must be an http(s) URL`);
    }
    if (tags.has('slow')) await sleep(config.sandboxSlowMs);
    const now = new Date().toISOString();
    const order: Order = {
      number: o.number, outcome: 'Accepted', reservationId: randomUUID(), checkoutId: randomUUID(), currency: o.currency,
      authorized: gross, captured: 0, voided: 0, refunded: 0, request: b, email: s(c.email), merchantUrl: s(b.merchantUrl), webhookUrl: s(b.webhookUrl),
      captures: [], refunds: [], created_at: now, updated_at: now,
    };
    if (tags.has('decline')) {
      order.outcome = 'Rejected';
      order.riskCheckMessages = [msg('300.101', 'The customer did not pass the risk check', {
        customerFacingMessage: 'Unfortunately we cannot offer you this payment method. Please choose another one.', actionCode: 'OfferSecurePaymentMethods',
      })];
    } else if (tags.has('redirect')) {
      order.outcome = 'Pending';
      order.secureLoginUrl = `${publicUrl()}/riverty/sca/${order.number}`;
    } else if (tags.has('review')) {
      order.outcome = 'Pending';
      order.decide_at = Date.now() + config.sandboxReviewMs;
      after(config.sandboxReviewMs, () => decideReview(order, true));
    }
    orders.set(order.number, order);
    return { status: 200, body: authorizeAnswer(order) };
  }));

  const notFound = () => fail(404, '400.101', 'Order not found');

  router.get('/api/v3/orders/:number', (req, res) => {
    const o = orders.get(req.params.number);
    if (!o) return res.status(404).json(notFound().body);
    res.json(orderView(o));
  });

  router.post('/api/v3/orders/:number/captures', (req, res) => handle(res, async () => {
    const o = orders.get(req.params.number as string);
    if (!o) return notFound();
    decideReview(o);
    const b = req.body ?? {};
    const ref = s(b.transactionReference);
    const again = ref ? o.captures.find((x) => x.transactionReference === ref) : undefined;
    if (again) return { status: 200, body: again.answer };
    if (o.outcome !== 'Accepted') return fail(400, '400.203', `Order is not authorized (outcome ${o.outcome})`);
    if (b.invoiceNumber != null && (typeof b.invoiceNumber !== 'string' || b.invoiceNumber.length > 20)) return invalid('invoiceNumber', 'invoiceNumber must be at most 20 characters');
    if (b.invoiceNumber && o.captures.some((x) => x.invoiceNumber === b.invoiceNumber)) return invalid('invoiceNumber', `invoiceNumber ${b.invoiceNumber} is already used`);
    const d = b.orderDetails ?? {};
    if (d.currency !== undefined && d.currency !== o.currency) return invalid('orderDetails.currency', `orderDetails.currency must be ${o.currency}`);
    const amount = d.totalGrossAmount === undefined ? remaining(o) : cents(d.totalGrossAmount, o.currency, 'orderDetails.totalGrossAmount');
    // Items are mandatory for a partial capture.
    const items = itemsTotal(d.items, o.currency, 'orderDetails.items', amount !== remaining(o));
    if (items !== null && Math.abs(items - amount) > d.items.length) return invalid('orderDetails.totalGrossAmount', 'orderDetails.totalGrossAmount must be the sum of the items');
    if (o.voided > 0 && remaining(o) === 0) return fail(400, '400.203', 'Order is cancelled');
    if (amount <= 0 || amount > remaining(o)) {
      return fail(400, '400.202', `Capture amount exceeds the remaining authorized amount (${toDecimalString(remaining(o), o.currency as 'EUR')})`, { fieldReference: 'orderDetails.totalGrossAmount' });
    }
    o.captured += amount;
    touch(o);
    const captureNumber = nextNumber();
    const answer = {
      capturedAmount: dec(amount, o.currency), authorizedAmount: dec(o.authorized, o.currency), remainingAuthorizedAmount: dec(remaining(o), o.currency),
      captureNumber, totalCapturedAmount: dec(o.captured, o.currency), totalRefundedAmount: dec(o.refunded, o.currency),
    };
    o.captures.push({ captureNumber, amount, refunded: 0, invoiceNumber: b.invoiceNumber ?? `RIV${captureNumber}`, transactionReference: ref, answer });
    return { status: 200, body: answer };
  }));

  router.post('/api/v3/orders/:number/voids', (req, res) => handle(res, async () => {
    const o = orders.get(req.params.number as string);
    if (!o) return notFound();
    decideReview(o);
    if (o.outcome === 'Rejected') return fail(400, '400.203', 'Order is rejected');
    if (o.captured === o.authorized) return fail(400, '400.201', 'Order Already Captured');
    const details = req.body?.cancellationDetails;
    const amount = details ? cents(details.totalGrossAmount, o.currency, 'cancellationDetails.totalGrossAmount') : remaining(o);
    if (amount > remaining(o)) return fail(400, '400.202', 'Void amount exceeds the remaining authorized amount');
    o.voided += amount;
    touch(o);
    return { status: 200, body: { ...totals(o), voidedAmount: dec(amount, o.currency) } };
  }));

  // Magic tags from the order's customer email: +refund_fail (declined), +refund_flaky (500 twice per
  // transactionReference), +slow. Riverty refunds at once: +refund_pending is not imitated.
  router.post('/api/v3/orders/:number/refunds', (req, res) => handle(res, async () => {
    const o = orders.get(req.params.number as string);
    if (!o) return notFound();
    const b = req.body ?? {};
    const ref = s(b.transactionReference);
    const tags = magicTags(o.email);
    if (tags.has('refund_flaky') && idem.count(`riverty-refund_flaky:${o.number}:${ref}`) <= 2) {
      return { status: 500, body: [{ type: 'TechnicalError', code: '500.001', message: 'An error occurred, please retry' }] };
    }
    const again = ref ? o.refunds.find((r) => r.transactionReference === ref) : undefined;
    if (again) return { status: 200, body: again.answer };
    if (tags.has('slow')) await sleep(config.sandboxSlowMs);
    if (!s(b.captureNumber)) return invalid('captureNumber');
    const capture = o.captures.find((c) => c.captureNumber === b.captureNumber);
    if (!capture) return fail(400, '400.101', `Capture ${b.captureNumber} not found on order ${o.number}`, { fieldReference: 'captureNumber' });
    if (b.refundType !== undefined && !['Return', 'Refund'].includes(b.refundType)) return invalid('refundType', 'refundType must be Return or Refund');
    if (b.creditNoteNumber != null && String(b.creditNoteNumber).length > 19) return invalid('creditNoteNumber', 'creditNoteNumber must be at most 19 characters');
    const amount = itemsTotal(b.items, o.currency, 'items', false) ?? capture.amount - capture.refunded;
    if (tags.has('refund_fail')) return fail(400, '400.302', 'The refund was declined');
    if (amount <= 0 || amount > capture.amount - capture.refunded) {
      return fail(400, '400.301', `Refund amount exceeds what is left of capture ${capture.captureNumber} (${toDecimalString(capture.amount - capture.refunded, o.currency as 'EUR')})`);
    }
    capture.refunded += amount;
    o.refunded += amount;
    touch(o);
    const refundNumber = nextNumber();
    const answer = { ...totals(o), refundNumbers: [refundNumber] };
    o.refunds.push({ refundNumber, captureNumber: capture.captureNumber, amount, transactionReference: ref, refundType: b.refundType ?? 'Refund', answer });
    return { status: 200, body: answer };
  }));

  router.get('/sca/:number', (req, res) => {
    const o = orders.get(req.params.number);
    if (!o || o.outcome !== 'Pending' || !o.secureLoginUrl) return res.status(404).send('Nothing to authenticate');
    res.type('html').send(`<!doctype html><title>Riverty – confirm your purchase</title>
<h1>Confirm your purchase of ${toDecimalString(o.authorized, o.currency as 'EUR')} ${o.currency} with Riverty</h1>
<form method="post" action="/riverty/sca/${o.number}/approve"><button>Confirm</button></form>
<form method="post" action="/riverty/sca/${o.number}/deny"><button>Cancel</button></form>`);
  });

  router.post('/sca/:number/:decision', (req: Request, res: Response) => {
    const o = orders.get(req.params.number as string);
    if (!o || o.outcome !== 'Pending' || !o.secureLoginUrl) return res.status(404).send('Nothing to authenticate');
    if (req.params.decision === 'approve') {
      o.outcome = 'Accepted';
    } else {
      o.outcome = 'Rejected';
      o.riskCheckMessages = [msg('300.102', 'The customer did not complete the authentication', { customerFacingMessage: 'The purchase was not confirmed.' })];
    }
    touch(o);
    notify(o, 'CustomerAuthenticationCompleted');
    if (o.merchantUrl) return res.redirect(303, o.merchantUrl);
    res.send(`Order ${o.outcome}`);
  });

  const reset = () => {
    for (const t of timers) clearTimeout(t);
    timers.clear();
    orders.clear();
    notifier.reset();
  };
  /** Orders with their captures and refunds, the capture/refund number sequence and the notifications sent; a
   * decision pending at the save is taken at its time (or on the first read after it). */
  const saved = keptState({ orders: records<Order>('number'), sequence: counter, notifications: records<RivertyDelivery>('id') });
  const state = {
    save: () => ({ orders: [...orders.values()], sequence, notifications: notifier.deliveries }),
    load: (raw: unknown) => {
      reset();
      const s = saved.parse(raw);
      for (const o of s.orders) {
        orders.set(o.number, o);
        if (o.decide_at !== undefined) after(Math.max(0, o.decide_at - Date.now()), () => decideReview(o, true));
      }
      if (s.sequence !== undefined) sequence = s.sequence;
      notifier.deliveries.push(...s.notifications);
    },
  };
  return { router, orders, notifier, reset, state };
}

export const imitation: Imitation = (idem, publicUrl) => {
  const r = rivertyRouter(idem, publicUrl);
  return {
    router: r.router,
    reset: r.reset,
    state: r.state,
    views: {
      orders: (q) => [...r.orders.values()].filter((o) =>
        (!q.number || o.number === q.number) && (!q.yourReference || o.request.yourReference === q.yourReference) && (!q.ourReference || o.request.ourReference === q.ourReference)),
      notifications: (q) => r.notifier.deliveries.filter((d) => (!q.object_id || d.object_id === q.object_id) && (!q.type || d.type === q.type)),
    },
  };
};
