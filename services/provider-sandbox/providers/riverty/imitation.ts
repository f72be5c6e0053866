// Riverty's eCommerce API v3 as the sandbox imitates it (the worker's side: workers/connectors/riverty/), under /riverty:
//   POST /riverty/api/v3/checkout/authorize                    risk decision: outcome Accepted | Pending | Rejected
//   GET  /riverty/api/v3/orders/:orderNumber                   the order: orderDetails.status, captures, refunds
//   POST /riverty/api/v3/orders/:orderNumber/captures          capture (partial, several): the invoice
//   POST /riverty/api/v3/orders/:orderNumber/voids             release what is left of the reservation
//   POST /riverty/api/v3/orders/:orderNumber/refunds           refund within a capture (captureNumber)
//   GET  /riverty/sca/:orderNumber                             the strong customer authentication page
//   POST /riverty/sca/:orderNumber/(approve|deny)
// Auth: header X-Auth-Key (RIVERTY_API_KEY, default riverty_sandbox_api_key). Amounts: decimals in major units.
// Errors: HTTP 4xx with an array of {type, code, message, customerFacingMessage, actionCode, fieldReference}; a risk
// decline is HTTP 200 with outcome Rejected and riskCheckMessages. No Idempotency-Key: the order number identifies an
// authorization (a repeat answers the first decision), transactionReference a capture or a refund.
// Requests are checked by Riverty's published rules (lengths, enums, required fields, at most 200 items), read from the
// connector's fixtures/rules.json; answers take the keys of Riverty's published examples (fixtures/published/), so
// neither can simply agree with the connector. The customer's authentication ends in a CustomerAuthenticationCompleted
// webhook (Status Accepted or Cancelled), unsigned, to the order's webhookUrl (notifier.ts).
import express, { type Request, type Response, type Router } from 'express';
import { randomUUID } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { config } from '../../../../lib/config.ts';
import { fromDecimalString, toDecimalString } from '../../../../lib/money.ts';
import { firstBreach, RequestRules } from '../../../../lib/request-rules.ts';
import { counter, keptState, records } from '../../kept.ts';
import { magicTags } from '../../magic.ts';
import { retryFirstMs } from '../../notifier.ts';
import type { Imitation } from '../../provider.ts';
import type { IdempotencyStore } from '../../recorder.ts';
import { RivertyNotifier, type RivertyDelivery } from './notifier.ts';
import { setTimeout as sleep } from 'node:timers/promises';

const fixture = (name: string) => JSON.parse(readFileSync(new URL(`../../../../workers/connectors/riverty/fixtures/${name}`, import.meta.url), 'utf8'));
/** Riverty's published request rules, per call. */
const RULES = fixture('rules.json');
const rules = (call: 'authorize' | 'capture' | 'refund' | 'void') => RequestRules.parse(RULES[call]);
/** The keys of Riverty's published order read, in its order (the imitation's answer keeps them). */
const ORDER_READ = fixture('published/order-read.json');

/** orderDetails.status (docs.riverty.com get_order); the authorization's answer says Accepted, Pending or Rejected. */
type Outcome = 'Accepted' | 'Pending' | 'Rejected' | 'Cancelled' | 'Expired';
interface Message {
  type: string;
  code: string;
  message: string;
  customerFacingMessage?: string;
  actionCode?: string;
  fieldReference?: string;
}
interface Capture {
  captureNumber: string;
  amount: number;
  refunded: number;
  invoiceNumber: string;
  transactionReference: string | null;
  answer: unknown;
}
interface Refund {
  refundNumber: string;
  captureNumber: string;
  amount: number;
  transactionReference: string | null;
  refundType: string;
  answer: unknown;
}
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
  created_at: string;
  updated_at: string;
}

const CURRENCIES: string[] = RULES.authorize.enum['order.currency'];

const msg = (code: string, message: string, extra: Partial<Message> = {}): Message => ({
  type: 'BusinessError',
  code,
  message,
  customerFacingMessage: message,
  ...extra,
});
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
  const notifier = new RivertyNotifier({ firstRetryMs: retryFirstMs() });
  let sequence = 800090000;
  const nextNumber = () => String(++sequence);
  /** updated_at moves forward at least 1 ms per change, so a late notification can be told apart. */
  const touch = (o: Order) => {
    const now = Date.now();
    o.updated_at = new Date(Math.max(now, Date.parse(o.updated_at) + 1)).toISOString();
  };
  const notify = (o: Order) =>
    notifier.send(o.webhookUrl, 'CustomerAuthenticationCompleted', o.number, { Status: o.outcome }, String(o.request.customer?.address?.countryCode ?? 'DE'));
  const remaining = (o: Order) => o.authorized - o.captured - o.voided;
  const totals = (o: Order) => ({
    totalAuthorizedAmount: dec(o.authorized, o.currency),
    totalCapturedAmount: dec(o.captured, o.currency),
    remainingAuthorizedAmount: dec(o.outcome === 'Accepted' || o.outcome === 'Pending' ? remaining(o) : 0, o.currency),
    totalRefundedAmount: dec(o.refunded, o.currency),
  });
  const authorizeAnswer = (o: Order) => ({
    outcome: o.outcome === 'Accepted' || o.outcome === 'Pending' ? o.outcome : 'Rejected',
    reservationId: o.reservationId,
    checkoutId: o.checkoutId,
    customer: { customerNumber: String(100000 + (Number.parseInt(o.reservationId.slice(0, 6), 16) % 900000)) },
    ...(o.outcome === 'Pending' && o.secureLoginUrl ? { secureLoginUrl: o.secureLoginUrl } : {}),
    ...(o.riskCheckMessages ? { riskCheckMessages: o.riskCheckMessages } : {}),
  });
  /** GET /orders/{n} in the keys of Riverty's published example: orderDetails (with status), captures, refunds, payment. */
  const orderView = (o: Order) => {
    const r = o.request;
    const details = {
      orderId: o.checkoutId,
      orderNumber: o.number,
      totalNetAmount: r.order.totalNetAmount,
      totalGrossAmount: r.order.totalGrossAmount,
      currency: o.currency,
      hasSeparateDeliveryAddress: !!r.deliveryCustomer,
      customer: r.customer,
      insertedAt: o.created_at,
      updatedAt: o.updated_at,
      orderItems: (r.order.items ?? []).map((it: Record<string, unknown>, i: number) => ({
        orderId: o.checkoutId,
        insertedAt: o.created_at,
        updatedAt: o.created_at,
        ...it,
        lineNumber: i,
      })),
      status: o.outcome,
    };
    const view: Record<string, unknown> = {
      orderDetails: details,
      captures: o.captures.map((c) => ({
        reservationId: o.reservationId,
        captureNumber: c.captureNumber,
        orderNumber: o.number,
        amount: dec(c.amount, o.currency),
        balance: dec(c.amount - c.refunded, o.currency),
        totalRefundedAmount: dec(c.refunded, o.currency),
        currency: o.currency,
        insertedAt: o.created_at,
        transactionReference: c.transactionReference ?? undefined,
      })),
      refunds: o.refunds.map((x) => ({
        amount: -dec(x.amount, o.currency),
        currency: o.currency,
        orderNumber: o.number,
        captureNumber: x.captureNumber,
        refundNumber: x.refundNumber,
        transactionReference: x.transactionReference ?? undefined,
      })),
      payment: { type: r.payment?.type },
    };
    // The published example's keys, in its order.
    return Object.fromEntries(Object.keys(ORDER_READ).map((k) => [k, view[k]]));
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
      return res.status(401).json([
        {
          type: 'TechnicalError',
          code: '100.001',
          message: 'Authorization has been denied for this request.',
          customerFacingMessage: 'Payment with Riverty is not available right now.',
        },
      ]);
    }
    next();
  });

  /** The first of Riverty's published rules the body breaks, as Riverty's 400 naming the field. */
  const breach = (call: Parameters<typeof rules>[0], body: unknown) => {
    const b = firstBreach(rules(call), body);
    return b ? invalid(b.field, b.message) : null;
  };

  router.post('/api/v3/checkout/authorize', (req, res) =>
    handle(res, async () => {
      const b = req.body ?? {};
      const o = b.order ?? {};
      const broken = breach('authorize', b);
      if (broken) return broken;
      if (typeof o.number !== 'string' || !/^[A-Za-z0-9_-]{1,50}$/.test(o.number))
        return invalid('order.number', 'order.number is required: 1 to 50 of A-Z a-z 0-9 _ -');
      const known = orders.get(o.number);
      const tags = magicTags(s(b.customer?.email));
      // No Idempotency-Key at Riverty: a repeated order number (a retry of the same authorization) answers its decision.
      if (tags.has('flaky') && idem.count(`riverty-flaky:${o.number}`) <= 2) {
        return { status: 500, body: [{ type: 'TechnicalError', code: '500.001', message: 'An error occurred, please retry' }] };
      }
      if (known) {
        if (!CURRENCIES.includes(o.currency) || known.authorized !== cents(o.totalGrossAmount, known.currency, 'order.totalGrossAmount')) {
          return fail(400, '200.103', `Order number ${o.number} is already used by another order`, { fieldReference: 'order.number' });
        }
        return { status: 200, body: authorizeAnswer(known) };
      }
      const c = b.customer ?? {};
      if (c.customerCategory === 'Person' && !s(c.firstName)) return invalid('customer.firstName');
      if (!s(c.lastName) && !(c.customerCategory === 'Company' && s(c.companyName))) return invalid('customer.lastName');
      if (c.customerCategory === 'Company' && !s(c.companyName)) return invalid('customer.companyName');
      if (!s(c.email) || !String(c.email).includes('@')) return invalid('customer.email');
      const a = c.address ?? {};
      for (const f of ['street', 'postalCode', 'postalPlace', 'countryCode']) if (!s(a[f])) return invalid(`customer.address.${f}`);
      if (!/^[A-Z]{2}$/.test(a.countryCode)) return invalid('customer.address.countryCode', 'customer.address.countryCode must be ISO 3166-1 alpha-2');
      // Germany and Austria: a consumer's birth date is mandatory.
      if (c.customerCategory === 'Person' && ['DE', 'AT'].includes(a.countryCode) && !s(c.birthDate)) return invalid('customer.birthDate');
      if (c.birthDate !== undefined && !/^\d{4}-\d{2}-\d{2}$/.test(String(c.birthDate)))
        return invalid('customer.birthDate', 'customer.birthDate must be YYYY-MM-DD');
      if (!CURRENCIES.includes(o.currency)) return invalid('order.currency', `order.currency must be one of ${CURRENCIES.join(', ')}`);
      const gross = cents(o.totalGrossAmount, o.currency, 'order.totalGrossAmount');
      const net = cents(o.totalNetAmount, o.currency, 'order.totalNetAmount');
      if (gross <= 0) return invalid('order.totalGrossAmount', 'order.totalGrossAmount must be above 0');
      if (net < 0 || net > gross) return invalid('order.totalNetAmount', 'order.totalNetAmount must be from 0 to totalGrossAmount');
      const items = itemsTotal(o.items, o.currency, 'order.items', true)!;
      if (Math.abs(items - gross) > o.items.length)
        return invalid('order.totalGrossAmount', "order.totalGrossAmount must be the sum of the items' grossUnitPrice × quantity");
      for (const u of ['merchantUrl', 'webhookUrl']) {
        if (b[u] != null && !/^https?:\/\//.test(String(b[u]))) return invalid(u, `${u} must be an http(s) URL`);
      }
      if (tags.has('slow')) await sleep(config.sandboxSlowMs);
      const now = new Date().toISOString();
      const order: Order = {
        number: o.number,
        outcome: 'Accepted',
        reservationId: randomUUID(),
        checkoutId: randomUUID(),
        currency: o.currency,
        authorized: gross,
        captured: 0,
        voided: 0,
        refunded: 0,
        request: b,
        email: s(c.email),
        merchantUrl: s(b.merchantUrl),
        webhookUrl: s(b.webhookUrl),
        captures: [],
        refunds: [],
        created_at: now,
        updated_at: now,
      };
      if (tags.has('decline')) {
        order.outcome = 'Rejected';
        order.riskCheckMessages = [
          msg('300.101', 'The customer did not pass the risk check', {
            customerFacingMessage: 'Unfortunately we cannot offer you this payment method. Please choose another one.',
            actionCode: 'OfferSecurePaymentMethods',
          }),
        ];
      } else if (tags.has('redirect')) {
        order.outcome = 'Pending';
        order.secureLoginUrl = `${publicUrl()}/riverty/sca/${order.number}`;
      }
      orders.set(order.number, order);
      return { status: 200, body: authorizeAnswer(order) };
    }),
  );

  const notFound = () => fail(404, '400.101', 'Order not found');

  router.get('/api/v3/orders/:number', (req, res) => {
    const o = orders.get(req.params.number);
    if (!o) return res.status(404).json(notFound().body);
    res.json(orderView(o));
  });

  router.post('/api/v3/orders/:number/captures', (req, res) =>
    handle(res, async () => {
      const o = orders.get(req.params.number as string);
      if (!o) return notFound();
      const b = req.body ?? {};
      const broken = breach('capture', b);
      if (broken) return broken;
      const ref = s(b.transactionReference);
      const again = ref ? o.captures.find((x) => x.transactionReference === ref) : undefined;
      if (again) return { status: 200, body: again.answer };
      if (o.outcome !== 'Accepted') return fail(400, '400.203', `Order is not authorized (outcome ${o.outcome})`);
      if (b.invoiceNumber && o.captures.some((x) => x.invoiceNumber === b.invoiceNumber))
        return invalid('invoiceNumber', `invoiceNumber ${b.invoiceNumber} is already used`);
      const d = b.orderDetails ?? {};
      if (d.currency !== undefined && d.currency !== o.currency) return invalid('orderDetails.currency', `orderDetails.currency must be ${o.currency}`);
      const amount = d.totalGrossAmount === undefined ? remaining(o) : cents(d.totalGrossAmount, o.currency, 'orderDetails.totalGrossAmount');
      // Items are mandatory for a partial capture.
      const items = itemsTotal(d.items, o.currency, 'orderDetails.items', amount !== remaining(o));
      if (items !== null && Math.abs(items - amount) > d.items.length)
        return invalid('orderDetails.totalGrossAmount', 'orderDetails.totalGrossAmount must be the sum of the items');
      if (o.voided > 0 && remaining(o) === 0) return fail(400, '400.203', 'Order is cancelled');
      if (amount <= 0 || amount > remaining(o)) {
        return fail(400, '400.202', `Capture amount exceeds the remaining authorized amount (${toDecimalString(remaining(o), o.currency as 'EUR')})`, {
          fieldReference: 'orderDetails.totalGrossAmount',
        });
      }
      o.captured += amount;
      touch(o);
      const captureNumber = nextNumber();
      const answer = {
        capturedAmount: dec(amount, o.currency),
        authorizedAmount: dec(o.authorized, o.currency),
        remainingAuthorizedAmount: dec(remaining(o), o.currency),
        captureNumber,
        totalCapturedAmount: dec(o.captured, o.currency),
        totalRefundedAmount: dec(o.refunded, o.currency),
      };
      o.captures.push({ captureNumber, amount, refunded: 0, invoiceNumber: b.invoiceNumber ?? `RIV${captureNumber}`, transactionReference: ref, answer });
      return { status: 200, body: answer };
    }),
  );

  router.post('/api/v3/orders/:number/voids', (req, res) =>
    handle(res, async () => {
      const o = orders.get(req.params.number as string);
      if (!o) return notFound();
      const broken = breach('void', req.body ?? {});
      if (broken) return broken;
      if (o.outcome !== 'Accepted' && o.outcome !== 'Pending') return fail(400, '400.203', 'Order is rejected');
      if (o.captured === o.authorized) return fail(400, '400.201', 'Order Already Captured');
      const details = req.body?.cancellationDetails;
      const amount = details ? cents(details.totalGrossAmount, o.currency, 'cancellationDetails.totalGrossAmount') : remaining(o);
      if (amount > remaining(o)) return fail(400, '400.202', 'Void amount exceeds the remaining authorized amount');
      o.voided += amount;
      touch(o);
      return { status: 200, body: { ...totals(o), voidedAmount: dec(amount, o.currency) } };
    }),
  );

  // Magic tags from the order's customer email: +refund_fail (declined), +refund_flaky (500 twice per
  // transactionReference), +slow. Riverty refunds at once: +refund_pending is not imitated.
  router.post('/api/v3/orders/:number/refunds', (req, res) =>
    handle(res, async () => {
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
      const broken = breach('refund', b);
      if (broken) return broken;
      const capture = o.captures.find((c) => c.captureNumber === b.captureNumber);
      if (!capture) return fail(400, '400.101', `Capture ${b.captureNumber} not found on order ${o.number}`, { fieldReference: 'captureNumber' });
      const amount = itemsTotal(b.items, o.currency, 'items', false) ?? capture.amount - capture.refunded;
      if (tags.has('refund_fail')) return fail(400, '400.302', 'The refund was declined');
      if (amount <= 0 || amount > capture.amount - capture.refunded) {
        return fail(
          400,
          '400.301',
          `Refund amount exceeds what is left of capture ${capture.captureNumber} (${toDecimalString(capture.amount - capture.refunded, o.currency as 'EUR')})`,
        );
      }
      capture.refunded += amount;
      o.refunded += amount;
      touch(o);
      const refundNumber = nextNumber();
      const answer = { ...totals(o), refundNumbers: [refundNumber] };
      o.refunds.push({ refundNumber, captureNumber: capture.captureNumber, amount, transactionReference: ref, refundType: b.refundType ?? 'Refund', answer });
      return { status: 200, body: answer };
    }),
  );

  router.get('/sca/:number', (req, res) => {
    const o = orders.get(req.params.number);
    if (o?.outcome !== 'Pending' || !o.secureLoginUrl) return res.status(404).send('Nothing to authenticate');
    res.type('html').send(`<!doctype html><title>Riverty – confirm your purchase</title>
<h1>Confirm your purchase of ${toDecimalString(o.authorized, o.currency as 'EUR')} ${o.currency} with Riverty</h1>
<form method="post" action="/riverty/sca/${o.number}/approve"><button>Confirm</button></form>
<form method="post" action="/riverty/sca/${o.number}/deny"><button>Cancel</button></form>`);
  });

  router.post('/sca/:number/:decision', (req: Request, res: Response) => {
    const o = orders.get(req.params.number as string);
    if (o?.outcome !== 'Pending' || !o.secureLoginUrl) return res.status(404).send('Nothing to authenticate');
    // The customer confirms (Accepted) or turns back (Cancelled): the CustomerAuthenticationCompleted statuses.
    o.outcome = req.params.decision === 'approve' ? 'Accepted' : 'Cancelled';
    touch(o);
    notify(o);
    if (o.merchantUrl) return res.redirect(303, o.merchantUrl);
    res.send(`Order ${o.outcome}`);
  });

  const reset = () => {
    orders.clear();
    notifier.reset();
  };
  /** Orders with their captures and refunds, the capture/refund number sequence and the webhooks sent. */
  const saved = keptState({ orders: records<Order>('number'), sequence: counter, notifications: records<RivertyDelivery>('id') });
  const state = {
    save: () => ({ orders: [...orders.values()], sequence, notifications: notifier.deliveries }),
    load: (raw: unknown) => {
      reset();
      const s = saved.parse(raw);
      for (const o of s.orders) orders.set(o.number, o);
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
      orders: (q) =>
        [...r.orders.values()].filter(
          (o) =>
            (!q.number || o.number === q.number) &&
            (!q.yourReference || o.request.yourReference === q.yourReference) &&
            (!q.ourReference || o.request.ourReference === q.ourReference),
        ),
      notifications: (q) => r.notifier.deliveries.filter((d) => (!q.object_id || d.object_id === q.object_id) && (!q.type || d.type === q.type)),
    },
  };
};
