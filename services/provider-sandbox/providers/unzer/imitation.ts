// Unzer's Payment API v1 for Unzer Invoice (paylater-invoice), as the sandbox imitates it (the worker's side:
// workers/connectors/unzer/; the facts: ../shared/reference/providers/unzer.md). Mounted at /unzer, so the
// connector's base URL is <sandbox>/unzer and its paths are Unzer's own:
//   POST /v1/types/paylater-invoice            the payment type {} -> {id: s-piv-…, method, recurring, geoLocation}
//   POST /v1/customers                         the customer -> {id: s-cst-…}
//   POST /v2/baskets                           the basket (gross amounts) -> {id: s-bsk-…}
//   POST /v1/payments/authorize                the risk decision: a transaction {id: s-aut-…, isSuccess|isPending|isError, …}
//   GET  /v1/payments/:id                      the payment {state, amount{total,charged,canceled,remaining}, transactions[]}
//   POST /v1/payments/:id/charges              charge (ship; partial and several) -> s-chg-…
//   POST /v1/payments/:id/authorize/cancels    cancel the authorization (void) -> s-cnl-…
//   POST /v1/payments/:id/charges/cancels      cancel charged money (refund; paylater cancels at payment level) -> s-cnl-…
//   GET  /v1/payments/:id/charges/cancels/:cnl read such a cancel
//   GET  /redirect/:id, POST /redirect/:id/(approve|deny)   the customer step of a +redirect payment
// Auth: "Authorization: Basic base64(<private key>:)" (UNZER_API_KEY, default the manifest's sandbox key); a wrong key
// is 401 (docs.unzer.com error-codes) with API.710.000.002 (php-sdk ApiResponseCodes API_ERROR_INVALID_KEY). Amounts:
// decimals in major units, answered with 4 decimals. Answers carry the keys of Unzer's published examples and requests
// are refused by Unzer's published rules (workers/connectors/unzer/fixtures/published/, rules.json; validate.ts).
// No Idempotency-Key (Unzer has none): a repeated authorize with the orderId of a payment not declined is refused with
// API.320.200.138 (ORDER_ID_ALREADY_IN_USE), and GET /v1/payments/{orderId} reads that payment (php-sdk
// fetchPaymentByOrderId); a charge repeating an invoiceId, or a cancel of charges repeating a paymentReference, answers
// the first (UNVERIFIED how the real API answers those repeats).
// Magic tags come from the customer's email (POST /v1/customers), in Unzer's words: +decline (an error transaction,
// COR.400.100.101), +redirect (pending with a redirectUrl to /redirect/:id), +review (pending, decided after
// SANDBOX_REVIEW_MS), +slow, +flaky (HTTP 500 for the first two authorizations of an orderId; the second made the
// payment, whose answer was lost: a third meets API.320.200.138), +refund_fail,
// +refund_pending, +refund_flaky. A payment whose authorization is pending is in state 0 (pending), as Unzer's
// payment-states page has it (4, payment review, is an overpayment to check: never used here).
// Webhooks: registered per private key (POST /v1/webhooks {url, event} or {url, eventList: [...]}, GET, DELETE
// /v1/webhooks/:id). When a pending transaction is decided (a review, the customer step, a pending cancel of charges)
// each registration whose event matches (`all`, the group such as `authorize`, or the exact event) gets Unzer's
// unsigned `{event, publicKey, retrieveUrl, paymentId}` as text/plain, retried on a non-2xx answer (Unzer resends
// unless it has 200 OK within 20 seconds: docs.unzer.com notifications).
import express, { type Request, type Response, type Router } from 'express';
import { randomBytes } from 'node:crypto';
import { config } from '../../../../lib/config.ts';
import { keptState, records } from '../../kept.ts';
import { magicTags } from '../../magic.ts';
import type { IdempotencyStore } from '../../recorder.ts';
import { keep, Retrier, retryFirstMs, type Attempts } from '../../notifier.ts';
import type { Imitation } from '../../provider.ts';
import { show, units } from './amounts.ts';
import { breach, CODE, customerProblem, fail, published, type Answer } from './validate.ts';
import { setTimeout as sleep } from 'node:timers/promises';

/** Unzer's published transaction (fixtures/published/authorize-success.json), without what only a card's has: the
 * template of every transaction the imitation answers, its values replaced. */
const { card3ds: _card3ds, additionalTransactionData: _card, ...PUBLISHED_TRANSACTION } = published('authorize-success');
/** Unzer's published answer to a payment type's creation. */
const PUBLISHED_TYPE: { method: string; recurring: boolean; geoLocation: { clientIp: string; countryIsoA2: string } } = published('type-created');

/** The private key this imitation issues to the sandbox's merchant (the connector's manifest names the same as its sandbox default). */
const UNZER_SANDBOX_KEY = 's-priv-2a10sandboxunzer0000000000';

type TxStatus = 'pending' | 'success' | 'error';
type TxType = 'authorize' | 'charge' | 'cancel-authorize' | 'cancel-charge';
interface Tx {
  id: string;
  type: TxType;
  status: TxStatus;
  amount: number;
  date: string;
  redirectUrl?: string;
  message: { code: string; merchant: string; customer: string };
  invoiceId?: string;
  paymentReference?: string;
  reasonCode?: string;
  decide_at?: number;
}
// Unzer's payment states by id (docs.unzer.com payment-states; php-sdk PaymentState): 4 "payment review" is an
// overpayment to check, never a pending risk decision (that is a pending authorize in a pending payment).
type StateName = 'pending' | 'completed' | 'canceled' | 'partly' | 'payment review' | 'chargeback' | 'create';
const STATE_ID: Record<StateName, number> = { pending: 0, completed: 1, canceled: 2, partly: 3, 'payment review': 4, chargeback: 5, create: 6 };
interface Payment {
  id: string;
  state: StateName;
  total: number;
  currency: string;
  orderId: string | null;
  returnUrl: string | null;
  typeId: string;
  customerId: string;
  basketId: string;
  email: string;
  transactions: Tx[];
}
interface Customer {
  id: string;
  email: string;
  body: Record<string, unknown>;
}
interface Webhook {
  id: string;
  url: string;
  event: string;
}
interface WebhookDelivery extends Attempts {
  event: string;
  paymentId: string;
  url: string;
}
interface Basket {
  id: string;
  total: number;
  currency: string;
  body: Record<string, unknown>;
}

const id = (prefix: string) => `s-${prefix}-${randomBytes(6).toString('hex')}`;
const shortId = () => [4, 4, 4].map((n) => String(randomBytes(4).readUInt32BE() % 10 ** n).padStart(n, '0')).join('.');
const date = () => new Date().toISOString().replace('T', ' ').slice(0, 19);
const OK = { code: 'COR.000.000.000', merchant: 'Transaction succeeded', customer: 'Your payments have been successfully processed.' };
const PENDING = { code: 'COR.000.200.000', merchant: 'Transaction pending', customer: 'Your payment is pending.' };
const DECLINED = {
  code: 'COR.400.100.101',
  merchant: 'The customer was declined by the risk check of Unzer Invoice',
  customer: 'Unfortunately, we cannot offer you payment by invoice. Please choose another payment method.',
};

export function unzerRouter(idem: IdempotencyStore, publicUrl: () => string) {
  const router: Router = express.Router();
  const apiKey = process.env.UNZER_API_KEY || UNZER_SANDBOX_KEY;
  const types = new Map<string, { id: string }>();
  const customers = new Map<string, Customer>();
  const baskets = new Map<string, Basket>();
  const payments = new Map<string, Payment>();
  const timers = new Set<NodeJS.Timeout>();
  const after = (ms: number, fn: () => void) => {
    const t = setTimeout(() => {
      timers.delete(t);
      fn();
    }, ms);
    t.unref();
    timers.add(t);
  };
  const url = (req: Request) => `${publicUrl()}/unzer${req.path}`;

  const webhooks = new Map<string, Webhook>();
  const deliveries: WebhookDelivery[] = [];
  const retrier = new Retrier(retryFirstMs());
  const publicKey = `s-pub-${apiKey.replace(/^s-priv-/, '')}`;
  const EVENT_OF: Partial<Record<TxType, string>> = { authorize: 'authorize', 'cancel-charge': 'charge' };
  /** Unzer's notification that a payment changed: it says which, never what (the receiver fetches retrieveUrl). */
  const notify = (p: Payment, t: Tx) => {
    const group = EVENT_OF[t.type];
    if (!group) return;
    const event = `${group}.${t.type === 'cancel-charge' ? 'canceled' : t.status === 'success' ? 'succeeded' : 'failed'}`;
    const body = JSON.stringify({ event, publicKey, retrieveUrl: `${publicUrl()}/unzer/v1/payments/${p.id}`, paymentId: p.id });
    for (const w of webhooks.values()) {
      if (w.event !== 'all' && w.event !== group && w.event !== event) continue;
      const d: WebhookDelivery = {
        event,
        paymentId: p.id,
        url: w.url,
        attempts: 0,
        delivered: false,
        last_status: null,
        last_error: null,
        next_attempt_at: null,
      };
      keep(deliveries, d);
      retrier.post(d, w.url, body, { 'content-type': 'text/plain' }, { provider: 'unzer', event, paymentId: p.id });
    }
  };
  const send = (res: Response, a: Answer) => res.status(a.status).json(a.body);

  const sum = (p: Payment, type: TxType, ok: (t: Tx) => boolean = (t) => t.status === 'success') =>
    p.transactions.filter((t) => t.type === type && ok(t)).reduce((n, t) => n + t.amount, 0);
  const auth = (p: Payment) => p.transactions.find((t) => t.type === 'authorize')!;
  const charged = (p: Payment) => sum(p, 'charge');
  const authCanceled = (p: Payment) => sum(p, 'cancel-authorize');
  /** Charged money not given back: cancels of charges pending or succeeded count. */
  const refundable = (p: Payment) => charged(p) - sum(p, 'cancel-charge', (t) => t.status !== 'error');
  const remaining = (p: Payment) => p.total - charged(p) - authCanceled(p);

  /** The payment's state from its transactions. */
  const settle = (p: Payment) => {
    const a = auth(p);
    if (a.status === 'error') p.state = 'canceled';
    else if (a.status === 'pending') p.state = p.state === 'canceled' ? 'canceled' : 'pending';
    else if (charged(p) === 0) p.state = remaining(p) === 0 ? 'canceled' : 'pending';
    else if (refundable(p) === 0 && remaining(p) === 0) p.state = 'canceled';
    else p.state = remaining(p) === 0 ? 'completed' : 'partly';
  };
  const decide = (p: Payment, t: Tx, force = false) => {
    if (t.status !== 'pending' || t.decide_at === undefined || (!force && Date.now() < t.decide_at)) return;
    t.status = 'success';
    t.message = OK;
    delete t.decide_at;
    settle(p);
    notify(p, t);
  };
  const read = (p: Payment) => {
    for (const t of p.transactions) decide(p, t);
    return p;
  };

  /** A transaction in the keys of Unzer's published transactions (fixtures/published/authorize-success.json). */
  const transaction = (p: Payment, t: Tx) => {
    const traceId = randomBytes(16).toString('hex');
    return {
      ...PUBLISHED_TRANSACTION,
      id: t.id,
      isSuccess: t.status === 'success',
      isPending: t.status === 'pending',
      isResumed: false,
      isError: t.status === 'error',
      redirectUrl: t.redirectUrl && t.status === 'pending' ? t.redirectUrl : '',
      message: t.message,
      amount: show(t.amount),
      currency: p.currency,
      returnUrl: p.returnUrl ?? undefined,
      date: t.date,
      orderId: p.orderId,
      ...(t.invoiceId ? { invoiceId: t.invoiceId } : {}),
      resources: { customerId: p.customerId, paymentId: p.id, basketId: p.basketId, metadataId: '', payPageId: '', traceId, typeId: p.typeId },
      paymentReference: t.paymentReference ?? '',
      processing: { uniqueId: randomBytes(16).toString('hex').toUpperCase(), shortId: shortId(), traceId },
    };
  };
  const PATH: Record<TxType, string> = {
    authorize: 'authorize',
    charge: 'charges',
    'cancel-authorize': 'authorize/cancels',
    'cancel-charge': 'charges/cancels',
  };
  /** A payment in the keys of Unzer's published payment reads (fixtures/published/payment-pending.json). */
  const paymentObject = (p: Payment) => ({
    id: p.id,
    state: { id: STATE_ID[p.state], name: p.state },
    amount: { total: show(p.total), charged: show(charged(p)), canceled: show(authCanceled(p) + sum(p, 'cancel-charge')), remaining: show(remaining(p)) },
    currency: p.currency,
    orderId: p.orderId ?? '',
    invoiceId: '',
    resources: { customerId: p.customerId, paymentId: p.id, basketId: p.basketId, metadataId: '', payPageId: '', traceId: '', typeId: p.typeId },
    transactions: p.transactions.map((t) => ({
      date: t.date,
      type: t.type,
      status: t.status,
      url: `${publicUrl()}/unzer/v1/payments/${p.id}/${PATH[t.type]}/${t.id}`,
      amount: show(t.amount),
    })),
  });

  // Basic base64(<private key>:), the key as the user and no password.
  const authorized = (req: Request) => {
    const m = /^Basic (.+)$/i.exec(req.header('authorization') ?? '');
    if (!m) return false;
    return Buffer.from(m[1]!, 'base64').toString('utf8') === `${apiKey}:`;
  };
  const guard = (req: Request, res: Response, next: () => void) => {
    if (!authorized(req)) return send(res, fail(url(req), 401, CODE.invalidKey, 'Invalid key: the private key is invalid or missing'));
    next();
  };
  router.use('/v1', guard);
  router.use('/v2', guard);

  router.post('/v1/types/paylater-invoice', (req, res) => {
    // Unzer's published answer (fixtures/published/type-created.json) with this type's id and the shopper's IP.
    const t = {
      ...PUBLISHED_TYPE,
      id: id('piv'),
      geoLocation: { ...PUBLISHED_TYPE.geoLocation, clientIp: req.header('clientip') ?? req.ip ?? '' },
    };
    types.set(t.id, t);
    res.json(t);
  });

  router.post('/v1/customers', (req, res) => {
    const b = (req.body ?? {}) as Record<string, unknown>;
    const refused = breach(url(req), 'customer', b);
    if (refused) return send(res, refused);
    const problem = customerProblem(b);
    if (problem)
      return send(
        res,
        fail(
          url(req),
          400,
          problem.endsWith('missing') || problem.includes('missing (') ? CODE.fieldMissing : CODE.requestInvalid,
          problem,
          'Please check your personal data.',
        ),
      );
    const c: Customer = { id: id('cst'), email: String(b.email), body: b };
    customers.set(c.id, c);
    res.json({ id: c.id });
  });

  router.post('/v2/baskets', (req, res) => {
    const b = (req.body ?? {}) as Record<string, unknown>;
    const u = url(req);
    const refused = breach(u, 'basket', b);
    if (refused) return send(res, refused);
    const bad = (message: string) => send(res, fail(u, 400, CODE.requestInvalid, message));
    const total = units(b.totalValueGross);
    if (total === null || total <= 0) return bad('basket.totalValueGross must be a positive decimal');
    if (typeof b.currencyCode !== 'string' || !/^[A-Z]{3}$/.test(b.currencyCode)) return bad('basket.currencyCode is invalid');
    const items = Array.isArray(b.basketItems) ? (b.basketItems as Record<string, unknown>[]) : [];
    if (items.length === 0) return bad('basket.basketItems must not be empty');
    let sumItems = 0;
    for (const [i, it] of items.entries()) {
      const gross = units(it.amountPerUnitGross);
      const discount = it.amountDiscountPerUnitGross === undefined ? 0 : units(it.amountDiscountPerUnitGross);
      if (gross === null || discount === null) return bad(`basketItems[${i}] amounts must be non-negative decimals`);
      if (!Number.isInteger(it.quantity) || (it.quantity as number) < 1) return bad(`basketItems[${i}].quantity must be a positive integer`);
      if (typeof it.title !== 'string' || it.title === '') return bad(`basketItems[${i}].title is missing`);
      sumItems += (gross - discount) * (it.quantity as number);
    }
    if (sumItems !== total) return bad(`basket.totalValueGross ${show(total)} does not match the items' sum ${show(sumItems)}`);
    const k: Basket = { id: id('bsk'), total, currency: b.currencyCode, body: b };
    baskets.set(k.id, k);
    res.json({ id: k.id });
  });

  router.post('/v1/payments/authorize', async (req, res) => {
    const b = (req.body ?? {}) as Record<string, any>;
    const u = url(req);
    const r = b.resources ?? {};
    // paylater-invoice needs a customer and a basket (docs.unzer.com, Unzer Invoice server-side integration): Unzer's
    // codes for a missing one (php-sdk ApiResponseCodes FACTORING_REQUIRES_CUSTOMER / _BASKET).
    if (!r.customerId) return send(res, fail(u, 400, CODE.requiresCustomer, 'paylater-invoice requires a customer (resources.customerId)'));
    if (!r.basketId) return send(res, fail(u, 400, CODE.requiresBasket, 'paylater-invoice requires a basket (resources.basketId)'));
    const refused = breach(u, 'authorize', b);
    if (refused) return send(res, refused);
    const bad = (message: string) => send(res, fail(u, 400, CODE.requestInvalid, message));
    const amount = units(b.amount);
    if (amount === null || amount <= 0) return bad('amount must be a positive decimal');
    if (typeof b.currency !== 'string' || !/^[A-Z]{3}$/.test(b.currency)) return bad('currency is invalid');
    if (!types.has(r.typeId)) return bad(`payment type ${r.typeId} does not exist`);
    const customer = customers.get(r.customerId);
    if (!customer) return send(res, fail(u, 400, CODE.customerNotFound, `customer ${r.customerId} does not exist`));
    const basket = baskets.get(r.basketId);
    if (!basket) return send(res, fail(u, 400, CODE.basketNotFound, `basket ${r.basketId} does not exist`));
    if (basket.total !== amount || basket.currency !== b.currency)
      return bad(`the basket (${show(basket.total)} ${basket.currency}) does not match the amount ${show(amount)} ${b.currency}`);
    // UNVERIFIED that Unzer refuses an authorization without one; its ThreatMetrix page says to send it.
    if (typeof b.additionalTransactionData?.riskData?.threatMetrixId !== 'string' || b.additionalTransactionData.riskData.threatMetrixId === '') {
      return send(res, fail(u, 400, CODE.fieldMissing, 'additionalTransactionData.riskData.threatMetrixId is missing (required for paylater-invoice)'));
    }
    if (b.returnUrl !== undefined && (typeof b.returnUrl !== 'string' || !/^https?:\/\//.test(b.returnUrl))) return bad('returnUrl must be an http(s) URL');
    const orderId = typeof b.orderId === 'string' && b.orderId !== '' ? b.orderId : null;
    // The same orderId again: refused with Unzer's API.320.200.138 (php-sdk ApiResponseCodes ORDER_ID_ALREADY_IN_USE),
    // unless its payment was declined (UNVERIFIED). The payment is read by its orderId (GET /v1/payments/{orderId}).
    const earlier = orderId ? [...payments.values()].find((p) => p.orderId === orderId && auth(p).status !== 'error') : undefined;
    if (earlier) return send(res, fail(u, 400, CODE.orderIdInUse, `the orderId ${orderId} is already in use`));
    const tags = magicTags(customer.email);
    // +flaky: the first authorization of an orderId fails before anything is made; the second is made but its answer
    // is lost (500), so the worker's next attempt meets API.320.200.138 and reads the payment back by its orderId.
    const flaky = tags.has('flaky') && orderId ? idem.count(`unzer-flaky:${orderId}`) : 0;
    const lost = () => send(res, fail(u, 500, 'COR.900.100.100', 'Temporary failure, please retry'));
    if (flaky === 1) return lost();
    if (tags.has('slow')) await sleep(config.sandboxSlowMs);
    const p: Payment = {
      id: id('pay'),
      state: 'pending',
      total: amount,
      currency: b.currency,
      orderId,
      returnUrl: b.returnUrl ?? null,
      typeId: r.typeId,
      customerId: customer.id,
      basketId: basket.id,
      email: customer.email,
      transactions: [],
    };
    const t: Tx = { id: id('aut'), type: 'authorize', status: 'success', amount, date: date(), message: OK };
    if (tags.has('decline')) {
      t.status = 'error';
      t.message = DECLINED;
    } else if (tags.has('redirect')) {
      t.status = 'pending';
      t.message = PENDING;
      t.redirectUrl = `${publicUrl()}/unzer/redirect/${p.id}`;
    } else if (tags.has('review')) {
      t.status = 'pending';
      t.message = PENDING;
      t.decide_at = Date.now() + config.sandboxReviewMs;
      after(config.sandboxReviewMs, () => decide(p, t, true));
    }
    p.transactions.push(t);
    settle(p);
    payments.set(p.id, p);
    if (flaky === 2) return lost();
    res.json(transaction(p, t));
  });

  /** A payment by its id, else by its orderId (the PHP SDK's fetchPaymentByOrderId: GET /v1/payments/{orderId}). */
  const byOrderId = (orderId: string) => [...payments.values()].reverse().find((p) => p.orderId === orderId);
  const payment = (req: Request, res: Response): Payment | null => {
    const key = req.params.id as string;
    const p = payments.get(key) ?? byOrderId(key);
    if (!p) {
      send(res, fail(url(req), 404, CODE.paymentNotFound, `payment ${req.params.id} does not exist`));
      return null;
    }
    return read(p);
  };

  router.get('/v1/payments/:id', (req, res) => {
    const p = payment(req, res);
    if (p) res.json(paymentObject(p));
  });

  router.post('/v1/payments/:id/charges', (req, res) => {
    const p = payment(req, res);
    if (!p) return;
    const b = (req.body ?? {}) as Record<string, unknown>;
    const u = url(req);
    // invoiceId optional: Unzer's own integration test charges paylater-invoice without one (php-sdk
    // test/integration/PaymentTypes/PaylaterInvoiceTest.php). A repeated invoiceId answers the first charge (UNVERIFIED).
    const invoiceId = typeof b.invoiceId === 'string' && b.invoiceId !== '' ? b.invoiceId : null;
    const again = invoiceId ? p.transactions.find((t) => t.type === 'charge' && t.invoiceId === invoiceId) : undefined;
    if (again) return res.json(transaction(p, again));
    if (auth(p).status === 'success' && p.state === 'completed') return send(res, fail(u, 400, CODE.alreadyCharged, 'the payment is charged in full'));
    if (auth(p).status !== 'success' || !['pending', 'partly'].includes(p.state)) {
      return send(res, fail(u, 400, CODE.chargeNotAllowed, `the payment is ${p.state}: nothing to charge`));
    }
    const amount = b.amount === undefined ? remaining(p) : units(b.amount);
    if (amount === null || amount <= 0 || amount > remaining(p)) {
      return send(res, fail(u, 400, CODE.amountTooHigh, `the charge amount must be from 0.01 to what is left of the authorization (${show(remaining(p))})`));
    }
    const t: Tx = { id: id('chg'), type: 'charge', status: 'success', amount, date: date(), message: OK, ...(invoiceId ? { invoiceId } : {}) };
    p.transactions.push(t);
    settle(p);
    res.json(transaction(p, t));
  });

  router.post('/v1/payments/:id/authorize/cancels', (req, res) => {
    const p = payment(req, res);
    if (!p) return;
    const u = url(req);
    const a = auth(p);
    const left = remaining(p);
    if (a.status === 'error') return send(res, fail(u, 400, CODE.cancelNotAllowed, 'the authorization was declined: nothing to cancel'));
    // Cancelled already, nothing left: the last cancel again.
    const last = [...p.transactions].reverse().find((t) => t.type === 'cancel-authorize');
    if (left === 0 && last) return res.json(transaction(p, last));
    if (left === 0) return send(res, fail(u, 400, CODE.alreadyCharged, 'the authorization is charged in full: nothing to cancel'));
    const amount = req.body?.amount === undefined ? left : units(req.body.amount);
    if (amount === null || amount <= 0 || amount > left)
      return send(res, fail(u, 400, CODE.requestInvalid, `the cancel amount must be from 0.01 to ${show(left)}`));
    // A pending authorization (review, customer step) cancelled in full is withdrawn.
    if (a.status === 'pending' && amount === left) {
      a.status = 'error';
      a.message = { code: 'COR.400.100.103', merchant: 'The authorization was cancelled by the merchant', customer: 'The payment was cancelled.' };
      delete a.decide_at;
    }
    const t: Tx = { id: id('cnl'), type: 'cancel-authorize', status: 'success', amount, date: date(), message: OK };
    p.transactions.push(t);
    settle(p);
    res.json(transaction(p, t));
  });

  router.post('/v1/payments/:id/charges/cancels', async (req, res) => {
    const p = payment(req, res);
    if (!p) return;
    const b = (req.body ?? {}) as Record<string, unknown>;
    const u = url(req);
    const refused = breach(u, 'refund', b);
    if (refused) return send(res, refused);
    const reference = typeof b.paymentReference === 'string' && b.paymentReference !== '' ? b.paymentReference : null;
    const again = reference ? p.transactions.find((t) => t.type === 'cancel-charge' && t.paymentReference === reference) : undefined;
    if (again) return res.json(transaction(p, again));
    const tags = magicTags(p.email);
    if (tags.has('refund_flaky') && reference && idem.count(`unzer-refund-flaky:${reference}`) <= 2) {
      return send(res, fail(u, 500, 'COR.900.100.100', 'Temporary failure, please retry'));
    }
    if (tags.has('slow')) await sleep(config.sandboxSlowMs);
    const left = refundable(p);
    const amount = b.amount === undefined ? left : units(b.amount);
    if (left === 0 && charged(p) > 0) return send(res, fail(u, 400, CODE.alreadyCancelled, 'the charges are cancelled in full'));
    if (amount === null || amount <= 0 || amount > left)
      return send(res, fail(u, 400, CODE.requestInvalid, `the cancel amount must be from 0.01 to what is charged and not cancelled (${show(left)})`));
    const t: Tx = {
      id: id('cnl'),
      type: 'cancel-charge',
      status: 'success',
      amount,
      date: date(),
      message: OK,
      reasonCode: String(b.reasonCode),
      ...(reference ? { paymentReference: reference } : {}),
    };
    if (tags.has('refund_fail')) {
      t.status = 'error';
      t.message = {
        code: 'COR.400.200.101',
        merchant: 'The cancel of the charges was refused by Unzer Invoice',
        customer: 'The refund could not be processed.',
      };
    } else if (tags.has('refund_pending')) {
      t.status = 'pending';
      t.message = PENDING;
      t.decide_at = Date.now() + config.sandboxReviewMs;
      after(config.sandboxReviewMs, () => decide(p, t, true));
    }
    p.transactions.push(t);
    settle(p);
    res.json(transaction(p, t));
  });

  router.get('/v1/payments/:id/charges/cancels/:cancelId', (req, res) => {
    const p = payment(req, res);
    if (!p) return;
    const t = p.transactions.find((x) => x.type === 'cancel-charge' && x.id === req.params.cancelId);
    if (!t) return send(res, fail(url(req), 404, CODE.paymentNotFound, `cancel ${req.params.cancelId} does not exist`));
    res.json(transaction(p, t));
  });

  // The customer step of a +redirect payment: Unzer's page, where the customer confirms the invoice purchase.
  router.get('/redirect/:id', (req, res) => {
    const p = payments.get(req.params.id);
    if (!p) return res.status(404).send('No such payment');
    res.type('html').send(`<!doctype html><title>Unzer Invoice</title>
<h1>Pay ${show(p.total)} ${p.currency} by invoice</h1>
<form method="post" action="/unzer/redirect/${p.id}/approve"><button>Confirm purchase</button></form>
<form method="post" action="/unzer/redirect/${p.id}/deny"><button>Cancel</button></form>`);
  });

  router.post('/redirect/:id/:decision', (req, res) => {
    const p = payments.get(req.params.id);
    const a = p && auth(p);
    if (!p || !a || a.status !== 'pending' || !a.redirectUrl) return res.status(404).send('Nothing to decide');
    if (req.params.decision === 'approve') {
      a.status = 'success';
      a.message = OK;
    } else {
      a.status = 'error';
      a.message = { code: 'COR.400.100.102', merchant: 'The customer cancelled the invoice purchase', customer: 'You cancelled the payment.' };
    }
    settle(p);
    notify(p, a);
    if (p.returnUrl) return res.redirect(303, p.returnUrl);
    res.send(`Payment ${p.state}`);
  });

  // Registration: {url, event} or {url, eventList: [...]} (Unzer's SDKs: php-sdk Resources/Webhooks.php, java-sdk
  // webhook/Webhook.java), the events those SDKs allow (rules.json, from php-sdk WebhookEvents::ALLOWED_WEBHOOKS); the
  // answer to a list is {events: [...]}.
  router.post('/v1/webhooks', (req, res) => {
    const b = (req.body ?? {}) as Record<string, unknown>;
    const list = Array.isArray(b.eventList);
    const events = list ? (b.eventList as unknown[]) : [b.event];
    if (typeof b.url !== 'string' || !URL.canParse(b.url)) return send(res, fail(url(req), 400, CODE.fieldMissing, 'url is missing or not a valid URL'));
    const refused = events.map((event) => breach(url(req), 'webhook', { url: b.url, event })).find(Boolean);
    if (refused) return send(res, refused);
    if (!events.length || events.some((e) => typeof e !== 'string')) return send(res, fail(url(req), 400, CODE.fieldMissing, 'event is missing'));
    const made = (events as string[]).map((event) => {
      const existing = [...webhooks.values()].find((w) => w.url === b.url && w.event === event);
      const w = existing ?? { id: id('whk'), url: b.url as string, event };
      webhooks.set(w.id, w);
      return w;
    });
    res.status(201).json(list ? { events: made } : made[0]);
  });
  router.get('/v1/webhooks', (_req, res) => res.json({ events: [...webhooks.values()] }));
  router.delete('/v1/webhooks/:id', (req, res) => {
    if (!webhooks.delete(req.params.id)) return send(res, fail(url(req), 404, CODE.webhookNotFound, `webhook ${req.params.id} does not exist`));
    res.json({ id: req.params.id, deleted: true });
  });

  const reset = () => {
    for (const t of timers) clearTimeout(t);
    timers.clear();
    for (const m of [types, customers, baskets, payments, webhooks]) m.clear();
    deliveries.length = 0;
    retrier.reset();
  };
  /** Payment types, customers, baskets, payments with their transactions, the webhook registrations and the webhooks
   * sent; a decision pending at the save is taken at its time (or on the first read after it). */
  const saved = keptState({
    types: records<{ id: string }>('id'),
    customers: records<Customer>('id'),
    baskets: records<Basket>('id'),
    payments: records<Payment>('id'),
    webhooks: records<Webhook>('id'),
    deliveries: records<WebhookDelivery>('paymentId'),
  });
  const state = {
    save: () => ({
      types: [...types.values()],
      customers: [...customers.values()],
      baskets: [...baskets.values()],
      payments: [...payments.values()],
      webhooks: [...webhooks.values()],
      deliveries,
    }),
    load: (raw: unknown) => {
      reset();
      const s = saved.parse(raw);
      for (const t of s.types) types.set(t.id, t);
      for (const c of s.customers) customers.set(c.id, c);
      for (const b of s.baskets) baskets.set(b.id, b);
      for (const p of s.payments) {
        payments.set(p.id, p);
        for (const t of p.transactions) if (t.decide_at !== undefined) after(Math.max(0, t.decide_at - Date.now()), () => decide(p, t, true));
      }
      for (const w of s.webhooks) webhooks.set(w.id, w);
      deliveries.push(...s.deliveries);
    },
  };
  return { router, reset, state, payments, customers, baskets, paymentObject, deliveries };
}

export const imitation: Imitation = (idem, publicUrl) => {
  const u = unzerRouter(idem, publicUrl);
  return {
    router: u.router,
    reset: u.reset,
    state: u.state,
    views: {
      payments: (q) => [...u.payments.values()].filter((p) => (!q.orderId || p.orderId === q.orderId) && (!q.id || p.id === q.id)).map(u.paymentObject),
      customers: (q) => [...u.customers.values()].filter((c) => !q.id || c.id === q.id),
      baskets: (q) => [...u.baskets.values()].filter((b) => !q.id || b.id === q.id),
      notifications: (q) => u.deliveries.filter((d) => (!q.paymentId || d.paymentId === q.paymentId) && (!q.event || d.event === q.event)),
    },
  };
};
