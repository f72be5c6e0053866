// Zaver's Payment Link API v2 and Refund API v1 as the sandbox imitates them (the worker's side:
// workers/connectors/zaver/, whose README names the sources), mounted at /zaver, which stands for
// https://api(.test).zaver.com. Its answers take their shape from Zaver's published examples
// (workers/connectors/zaver/fixtures/*.json: every field of the example, no other) and its checks from the published
// rules gathered in fixtures/rules.json (required fields, enums, statuses), read as files: no connector code.
//   POST /payments/link/v2                    create: the payment (CREATED) and its paymentLink
//   GET  /payments/link/v2/:paymentId         read
//   POST /payments/link/v2/:paymentId/capture capture (partial, several) before captureBefore
//   POST /payments/link/v2/:paymentId/cancel  cancel (nothing captured yet)
//   POST /refund/v1                           refund of a SETTLED payment: PENDING_MERCHANT_APPROVAL -> PENDING_EXECUTION
//                                             -> EXECUTED, or CANCELLED
//   GET  /refund/v1/:refundId, POST /refund/v1/:refundId/(approve|cancel)
//   GET  /checkout/:token, POST /checkout/:token/(approve|deny)   the payment link the payer opens
// Auth: `Authorization: Bearer <ZAVER_API_KEY>` (default zaver_sandbox_api_key). Amounts: JSON numbers in major units
// (at most the currency's decimals). Errors: {"errors": [{"errorCode", "errorMessage", "docs"}]}. Idempotency: the
// create's idempotencyKey and the capture's captureIdempotencyKey answer the first result; a refund's merchantReference
// ("must be unique") names one refund per payment (answering the first again is UNVERIFIED).
// A payment's captureMethod (merchantCustomizations) is `immediate` unless `deferred` is asked for: immediate settles
// the whole amount when the payer approves; deferred waits in PENDING_MERCHANT_CAPTURE for captures.
// Every refund is created PENDING_MERCHANT_APPROVAL; the merchant's representative (in Zaver for Business: imitated
// SANDBOX_REVIEW_MS later, or POST .../approve) approves it, and Zaver executes it.
// Callbacks (callbacks.ts): every status change of a payment or refund, to the callbackUrl given with it.
// Magic tags in payerData.email: +decline (the payer is declined on the link: CANCELLED), +review (approved ->
// PENDING_CONFIRMATION, PENDING_MERCHANT_CAPTURE SANDBOX_REVIEW_MS later), +slow, +flaky (500 twice per idempotencyKey),
// +refund_fail (REFUND_NOT_POSSIBLE), +refund_pending (no longer different: every refund waits for its approval),
// +refund_flaky (500 twice per merchantReference). +redirect changes nothing: every Zaver payment has the payer's step.
import express, { type Request, type Response, type Router } from 'express';
import { randomBytes, randomUUID } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { config } from '../../../../lib/config.ts';
import { fromDecimalString, toDecimalString } from '../../../../lib/money.ts';
import { keptState, records, tagSet } from '../../kept.ts';
import { magicTags, type MagicTag } from '../../magic.ts';
import { retryFirstMs } from '../../notifier.ts';
import type { Imitation } from '../../provider.ts';
import type { IdempotencyStore } from '../../recorder.ts';
import { ZaverCallbacks, type ZaverDelivery } from './callbacks.ts';
import { setTimeout as sleep } from 'node:timers/promises';

type PaymentStatus = 'CREATED' | 'PENDING_CONFIRMATION' | 'PENDING_MERCHANT_CAPTURE' | 'SETTLED' | 'CANCELLED' | 'ERROR';
type RefundStatus = 'PENDING_MERCHANT_APPROVAL' | 'PENDING_EXECUTION' | 'EXECUTED' | 'CANCELLED';
type Obj = Record<string, any>;

/** Zaver's published examples and rules, shared with the connector's tests as files (never code). */
const FIXTURES = new URL('../../../../workers/connectors/zaver/fixtures/', import.meta.url);
const fixture = (name: string): Obj => JSON.parse(readFileSync(new URL(name, FIXTURES), 'utf8'));
export const RULES = fixture('rules.json');
const PAYMENT_EXAMPLE = fixture('payment-status.created.json');
const REFUND_EXAMPLE = fixture('refund.pending-merchant-approval.json');
/** `values` in the example's shape: exactly the example's fields (a field the example has and we lack is a bug here). */
function shaped(example: Obj, values: Obj): Obj {
  const missing = Object.keys(example).filter((k) => !(k in values));
  if (missing.length) throw new Error(`zaver imitation: no value for the published field(s) ${missing.join(', ')}`);
  return Object.fromEntries(Object.keys(example).map((k) => [k, values[k]]));
}

/** id: the captureIdempotencyKey (v2 gives a capture no id of its own), else one of ours. */
interface Capture {
  id: string;
  amount: number;
  key: string | null;
  answer: unknown;
  created_at: string;
}
interface Payment {
  paymentId: string;
  token: string;
  status: PaymentStatus;
  currency: string;
  market: string | null;
  language: string | null;
  /** Cents. */
  amount: number;
  captured: number;
  merchantPaymentReference: string | null;
  title: string;
  description: string | null;
  lineItems: Obj[];
  payerData: Obj;
  merchantUrls: Obj;
  paymentMetadata: Obj;
  captureMethod: 'immediate' | 'deferred';
  idempotencyKey: string | null;
  tags: Set<MagicTag>;
  captures: Capture[];
  decide_at?: number;
  validUntil: string;
  captureBefore: string;
  created_at: string;
}
interface Refund {
  refundId: string;
  paymentId: string;
  status: RefundStatus;
  currency: string;
  /** Cents. */
  amount: number;
  tax: number;
  taxRatePercent: number;
  description: string | null;
  merchantReference: string | null;
  invoiceReference: string | null;
  merchantMetadata: Obj;
  callbackUrl: string | null;
  lastEvent: string;
  decide_at?: number;
  created_at: string;
}

const CURRENCIES = ['SEK', 'EUR'];
const MARKETS = ['SE', 'DE', 'AT', 'FI'];
const ITEM_TYPES: string[] = RULES.itemTypes;
const DOCS = 'https://api-docs.zaver.se/';
const s = (v: unknown) => (typeof v === 'string' && v.trim() !== '' ? v : null);

type Answer = { status: number; body: unknown };
const fail = (status: number, errorCode: string, errorMessage: string): Answer => ({ status, body: { errors: [{ errorCode, errorMessage, docs: DOCS }] } });
const invalid = (field: string, what = 'must not be blank') => fail(400, 'VALIDATION_ERROR', `${field}: ${what}`);
class Invalid extends Error {
  readonly answer: Answer;
  constructor(answer: Answer) {
    super('invalid');
    this.answer = answer;
  }
}

/** A major-unit number of the currency -> cents; not a number, or more decimals than the currency has: refused. */
function cents(v: unknown, currency: string, field: string, min = 0): number {
  if (typeof v !== 'number' || !Number.isFinite(v)) throw new Invalid(invalid(field, 'must be a number'));
  let c: number;
  try {
    c = fromDecimalString(String(v), currency as 'SEK');
  } catch {
    throw new Invalid(fail(400, 'AMOUNT_INVALID', `${field}: has more decimals than ${currency} allows`));
  }
  if (c < min) throw new Invalid(fail(400, 'AMOUNT_INVALID', `${field}: must be at least ${toDecimalString(min, currency as 'SEK')}`));
  return c;
}
const dec = (c: number, currency: string) => Number(toDecimalString(c, currency as 'SEK'));
const httpUrl = (v: unknown) => typeof v === 'string' && /^https?:\/\//.test(v);
/** The published required fields of a request: each missing one is a VALIDATION_ERROR naming it. */
function required(b: Obj, fields: string[], at = '') {
  for (const f of fields) if (b?.[f] === undefined || b[f] === null || b[f] === '') throw new Invalid(invalid(`${at}${f}`));
}

/** Line items: each unitPrice × quantity = totalAmount, taxAmount the totalAmount's VAT at taxRatePercent; their sum. */
function lineItemsTotal(items: unknown, currency: string): number {
  if (!Array.isArray(items) || items.length === 0) throw new Invalid(invalid('lineItems', 'must contain at least one line item'));
  const ids = new Set<string>();
  let total = 0;
  items.forEach((it: Obj, i) => {
    const at = `lineItems[${i}]`;
    required(it, RULES.paymentCreation.lineItem.required, `${at}.`);
    if (!s(it?.name)) throw new Invalid(invalid(`${at}.name`));
    if (!Number.isInteger(it.quantity) || it.quantity < 1) throw new Invalid(invalid(`${at}.quantity`, 'must be a positive integer'));
    if (it.itemType !== undefined && !ITEM_TYPES.includes(it.itemType)) throw new Invalid(invalid(`${at}.itemType`, `must be one of ${ITEM_TYPES.join(', ')}`));
    if (it.id !== undefined) {
      if (ids.has(String(it.id))) throw new Invalid(fail(400, 'DUPLICATE_LINE_ITEM_ID', `${at}.id: ${it.id} is used by another line item`));
      ids.add(String(it.id));
    }
    const unit = cents(it.unitPrice, currency, `${at}.unitPrice`);
    const line = cents(it.totalAmount, currency, `${at}.totalAmount`);
    const tax = cents(it.taxAmount, currency, `${at}.taxAmount`);
    if (typeof it.taxRatePercent !== 'number' || it.taxRatePercent < 0 || it.taxRatePercent > 100)
      throw new Invalid(invalid(`${at}.taxRatePercent`, 'must be a number from 0 to 100'));
    if (unit * it.quantity !== line) throw new Invalid(fail(400, 'AMOUNT_INVALID', `${at}.totalAmount: must be unitPrice × quantity`));
    if (Math.abs(Math.round((line * it.taxRatePercent) / (100 + it.taxRatePercent)) - tax) > it.quantity) {
      throw new Invalid(fail(400, 'AMOUNT_INVALID', `${at}.taxAmount: must be the VAT of totalAmount at taxRatePercent`));
    }
    total += it.itemType === 'DISCOUNT' ? -line : line;
  });
  return total;
}

export function zaverRouter(idem: IdempotencyStore, publicUrl: () => string) {
  const router: Router = express.Router();
  const payments = new Map<string, Payment>();
  const byToken = new Map<string, Payment>();
  const refunds = new Map<string, Refund>();
  const apiKey = process.env.ZAVER_API_KEY || 'zaver_sandbox_api_key';
  const callbacks = new ZaverCallbacks({ token: process.env.ZAVER_CALLBACK_TOKEN || 'zaver_sandbox_callback_token', firstRetryMs: retryFirstMs() });
  const timers = new Set<NodeJS.Timeout>();
  const after = (ms: number, fn: () => void) => {
    const t = setTimeout(() => {
      timers.delete(t);
      fn();
    }, ms);
    t.unref();
    timers.add(t);
  };

  const refundedOf = (p: Payment) =>
    [...refunds.values()].filter((r) => r.paymentId === p.paymentId && r.status !== 'CANCELLED').reduce((t, r) => t + r.amount, 0);
  const executedOf = (p: Payment) =>
    [...refunds.values()].filter((r) => r.paymentId === p.paymentId && r.status === 'EXECUTED').reduce((t, r) => t + r.amount, 0);
  const canCancel = (p: Payment) => (p.status === 'CREATED' || p.status === 'PENDING_MERCHANT_CAPTURE') && p.captured === 0;
  /** A PaymentStatusResponse in the published example's shape. */
  const paymentView = (p: Payment) =>
    shaped(PAYMENT_EXAMPLE, {
      paymentId: p.paymentId,
      token: p.token,
      paymentLink: `${publicUrl()}/zaver/checkout/${p.token}`,
      validUntil: p.validUntil,
      captureBefore: p.captureBefore,
      merchantPaymentReference: p.merchantPaymentReference,
      lineItems: p.lineItems,
      amount: dec(p.amount, p.currency),
      capturedAmount: dec(p.captured, p.currency),
      refundedAmount: dec(executedOf(p), p.currency),
      currency: p.currency,
      paymentStatus: p.status,
      paymentMetadata: p.paymentMetadata,
      merchantCustomizations: { captureMethod: p.captureMethod },
      authorizationStatus: { payerToken: p.status === 'CREATED' ? '' : `ptk_${p.token.slice(0, 12)}` },
      allowedPaymentOperations: {
        canCapture: p.status === 'PENDING_MERCHANT_CAPTURE',
        canRefund: p.status === 'SETTLED' && p.captured > refundedOf(p),
        canCancel: canCancel(p),
      },
      idempotencyKey: p.idempotencyKey,
    });
  const REPRESENTATIVE = { username: 'representative@merchant.example' };
  /** A RefundResponse in the published example's shape. */
  const refundView = (r: Refund) =>
    shaped(REFUND_EXAMPLE, {
      refundId: r.refundId,
      paymentId: r.paymentId,
      invoiceReference: r.invoiceReference,
      refundAmount: dec(r.amount, r.currency),
      currency: r.currency,
      refundTaxAmount: dec(r.tax, r.currency),
      refundTaxRatePercent: r.taxRatePercent,
      status: r.status,
      description: r.description,
      merchantReference: r.merchantReference,
      merchantMetadata: r.merchantMetadata,
      initializingRepresentative: null,
      approvingRepresentative: r.status === 'PENDING_EXECUTION' || r.status === 'EXECUTED' ? REPRESENTATIVE : null,
      cancellingRepresentative: r.status === 'CANCELLED' ? REPRESENTATIVE : null,
      lastEvent: r.lastEvent,
      merchantUrls: r.callbackUrl ? { callbackUrl: r.callbackUrl } : null,
      lineItems: [],
    });

  const movePayment = (p: Payment, status: PaymentStatus) => {
    p.status = status;
    callbacks.send(p.merchantUrls.callbackUrl, 'payment', p.paymentId, status, paymentView(p));
  };
  /** lastEvent moves forward at least 1 ms per change, so callbacks can be ordered. */
  const moveRefund = (r: Refund, status: RefundStatus) => {
    r.status = status;
    r.lastEvent = new Date(Math.max(Date.now(), Date.parse(r.lastEvent) + 1)).toISOString();
    callbacks.send(r.callbackUrl, 'refund', r.refundId, status, refundView(r));
  };

  /** A `+review` payment is confirmed at decide_at: by its timer, or by the first read after it. */
  const decidePayment = (p: Payment, force = false) => {
    if (p.status !== 'PENDING_CONFIRMATION' || p.decide_at === undefined || (!force && Date.now() < p.decide_at)) return;
    delete p.decide_at;
    movePayment(p, 'PENDING_MERCHANT_CAPTURE');
  };
  /** Approval (the merchant's representative), then execution. */
  const approve = (r: Refund) => {
    moveRefund(r, 'PENDING_EXECUTION');
    moveRefund(r, 'EXECUTED');
  };
  /** A refund is approved by the merchant's representative at decide_at: by its timer, or by the first read after it. */
  const decideRefund = (r: Refund, force = false) => {
    if (r.status !== 'PENDING_MERCHANT_APPROVAL' || r.decide_at === undefined || (!force && Date.now() < r.decide_at)) return;
    approve(r);
  };

  /** Runs a call, turning validation failures into Zaver's 400. */
  const handle = async (res: Response, fn: () => Promise<Answer>) => {
    try {
      const out = await fn();
      res.status(out.status).json(out.body);
    } catch (err) {
      if (!(err instanceof Invalid)) throw err;
      res.status(err.answer.status).json(err.answer.body);
    }
  };
  /** The first answer for a key (a 5xx is not kept); a key still running answers 409 (our worker retries it). */
  const once = async (key: string | null, fn: () => Promise<Answer>): Promise<Answer> => {
    if (!key) return fn();
    const seen = idem.get(key);
    // Zaver's answer to a concurrent retry is not published (PAYMENT_LOCKED means an unchangeable state): a 503.
    if (seen?.state === 'in_progress') return fail(503, 'INTERNAL_ERROR', 'A request with this idempotency key is being processed');
    if (seen?.state === 'done') return { status: seen.status, body: seen.body };
    idem.begin(key);
    try {
      const out = await fn();
      if (out.status >= 500) idem.abandon(key);
      else idem.finish(key, out.status, out.body);
      return out;
    } catch (err) {
      idem.abandon(key);
      throw err;
    }
  };
  const unavailable = fail(500, 'INTERNAL_ERROR', 'An unexpected error occurred, please try again');

  router.use(['/payments', '/refund'], (req, res, next) => {
    if (req.header('authorization') !== `Bearer ${apiKey}`) return res.status(401).json(fail(401, 'UNAUTHORIZED', 'Missing or invalid API key').body);
    next();
  });

  const paymentOf = (req: Request) => payments.get(String(req.params.paymentId));
  const notFound = (id: string) => fail(404, 'PAYMENT_NOT_FOUND', `No payment with id ${id}`);

  router.post('/payments/link/v2', (req, res) =>
    handle(res, async () => {
      const b: Obj = req.body ?? {};
      const key = s(b.idempotencyKey);
      const tags = magicTags(s(b.payerData?.email));
      if (tags.has('flaky') && key && idem.count(`zaver-flaky:${key}`) <= 2) return unavailable;
      return once(key ? `zaver:create:${key}` : null, async () => {
        required(b, RULES.paymentCreation.required);
        if (!CURRENCIES.includes(b.currency)) return invalid('currency', `must be one of ${CURRENCIES.join(', ')}`);
        const amount = cents(b.amount, b.currency, 'amount', 1);
        if (!s(b.title)) return invalid('title');
        if (!MARKETS.includes(b.market)) return invalid('market', `must be one of ${MARKETS.join(', ')}`);
        if (RULES.paymentCreation.payerDataRequiredForMarkets.includes(b.market) && !b.payerData)
          return invalid('payerData', `is mandatory for market ${b.market}`);
        const captureMethod = b.merchantCustomizations?.captureMethod ?? RULES.defaultCaptureMethod;
        if (!RULES.captureMethods.includes(captureMethod))
          return invalid('merchantCustomizations.captureMethod', `must be one of ${RULES.captureMethods.join(', ')}`);
        const urls: Obj = b.merchantUrls ?? {};
        for (const u of ['callbackUrl', 'successUrl', 'cancelUrl'])
          if (urls[u] != null && !httpUrl(urls[u])) return invalid(`merchantUrls.${u}`, 'must be an http(s) URL');
        // Each line must add up; their sum is not checked against amount (the sheet's own example does not add up: UNVERIFIED).
        if (b.lineItems !== undefined) lineItemsTotal(b.lineItems, b.currency);
        const payer: Obj = b.payerData ?? {};
        if (payer.dateOfBirth !== undefined && !/^\d{4}-\d{2}-\d{2}$/.test(String(payer.dateOfBirth)))
          return invalid('payerData.dateOfBirth', 'must be a date (YYYY-MM-DD)');
        if (tags.has('slow')) await sleep(config.sandboxSlowMs);
        const now = Date.now();
        const p: Payment = {
          paymentId: randomBytes(12).toString('hex'),
          token: randomBytes(24).toString('base64url'),
          status: 'CREATED',
          currency: b.currency,
          market: s(b.market),
          language: s(b.language),
          amount,
          captured: 0,
          merchantPaymentReference: s(b.merchantPaymentReference),
          title: b.title,
          description: s(b.description),
          // Zaver sets each line item's id (LineItem::setId: "This is set by Zaver when the payment request is created").
          lineItems: (b.lineItems ?? []).map((it: Obj) => ({ ...it, id: randomUUID() })),
          payerData: payer,
          merchantUrls: urls,
          paymentMetadata: b.paymentMetadata ?? {},
          captureMethod,
          idempotencyKey: key,
          tags,
          captures: [],
          validUntil: new Date(now + 24 * 3600_000).toISOString(),
          captureBefore: new Date(now + 30 * 24 * 3600_000).toISOString(),
          created_at: new Date(now).toISOString(),
        };
        payments.set(p.paymentId, p);
        byToken.set(p.token, p);
        return { status: 200, body: paymentView(p) };
      });
    }),
  );

  router.get('/payments/link/v2/:paymentId', (req, res) => {
    const p = paymentOf(req);
    if (!p) return res.status(404).json(notFound(req.params.paymentId).body);
    decidePayment(p);
    res.json(paymentView(p));
  });

  router.post('/payments/link/v2/:paymentId/capture', (req, res) =>
    handle(res, async () => {
      const p = paymentOf(req);
      if (!p) return notFound(String(req.params.paymentId));
      decidePayment(p);
      const b: Obj = req.body ?? {};
      const key = s(b.captureIdempotencyKey);
      const again = key ? p.captures.find((c) => c.key === key) : undefined;
      if (again) return { status: 200, body: again.answer };
      required(b, RULES.paymentCapture.required);
      if (p.status !== 'PENDING_MERCHANT_CAPTURE') return fail(400, 'PAYMENT_ILLEGAL_STATE', `The payment is ${p.status}: it cannot be captured`);
      if (b.currency !== p.currency) return invalid('currency', `must be ${p.currency}`);
      const amount = cents(b.amount, p.currency, 'amount', 1);
      const left = p.amount - p.captured;
      if (amount > left) return fail(400, 'AMOUNT_INVALID', `amount: exceeds the amount left to capture (${toDecimalString(left, p.currency as 'SEK')})`);
      p.captured += amount;
      const c: Capture = { id: key ?? randomUUID(), amount, key, answer: null, created_at: new Date().toISOString() };
      if (p.captured === p.amount) movePayment(p, 'SETTLED');
      // v2 answers the payment as it is now (Checkout::capturePayment returns a PaymentStatusResponse).
      c.answer = paymentView(p);
      p.captures.push(c);
      return { status: 200, body: c.answer };
    }),
  );

  router.post('/payments/link/v2/:paymentId/cancel', (req, res) =>
    handle(res, async () => {
      const p = paymentOf(req);
      if (!p) return notFound(String(req.params.paymentId));
      decidePayment(p);
      // Cancelled already: the payment as it is.
      if (p.status === 'CANCELLED') return { status: 200, body: paymentView(p) };
      if (!canCancel(p))
        return fail(400, 'PAYMENT_ILLEGAL_STATE', `The payment is ${p.status}${p.captured ? ' and partly captured' : ''}: it cannot be cancelled`);
      movePayment(p, 'CANCELLED');
      return { status: 200, body: paymentView(p) };
    }),
  );

  router.post('/refund/v1', (req, res) =>
    handle(res, async () => {
      const b: Obj = req.body ?? {};
      required(b, RULES.refundCreation.required);
      const p = payments.get(b.paymentId);
      if (!p) return notFound(b.paymentId);
      const reference = s(b.merchantReference);
      if (p.tags.has('refund_flaky') && idem.count(`zaver-refund_flaky:${p.paymentId}:${reference}`) <= 2) return unavailable;
      const again = reference ? [...refunds.values()].find((r) => r.paymentId === p.paymentId && r.merchantReference === reference) : undefined;
      if (again) return { status: 200, body: refundView(again) };
      if (p.tags.has('slow')) await sleep(config.sandboxSlowMs);
      const amount = cents(b.refundAmount, p.currency, 'refundAmount', 1);
      const tax = b.refundTaxAmount === undefined ? 0 : cents(b.refundTaxAmount, p.currency, 'refundTaxAmount');
      if (tax > amount) return fail(400, 'AMOUNT_INVALID', 'refundTaxAmount: must not exceed refundAmount');
      if (b.refundTaxRatePercent !== undefined && (typeof b.refundTaxRatePercent !== 'number' || b.refundTaxRatePercent < 0 || b.refundTaxRatePercent > 100)) {
        return invalid('refundTaxRatePercent', 'must be a number from 0 to 100');
      }
      if (b.merchantUrls?.callbackUrl != null && !httpUrl(b.merchantUrls.callbackUrl)) return invalid('merchantUrls.callbackUrl', 'must be an http(s) URL');
      // "The payment being refunded does not have the status SETTLED, and can therefore not be refunded."
      if (p.status !== RULES.refundCreation.refundablePaymentStatus)
        return fail(400, 'PAYMENT_ILLEGAL_STATE', `The payment is ${p.status}: only a SETTLED payment can be refunded`);
      if (p.tags.has('refund_fail')) return fail(400, 'REFUND_NOT_POSSIBLE', 'The payment cannot be refunded');
      const refundable = p.captured - refundedOf(p);
      if (amount > refundable)
        return fail(
          400,
          'AMOUNT_EXCEEDS_REFUNDABLE_AMOUNT',
          `refundAmount: exceeds the refundable amount (${toDecimalString(refundable, p.currency as 'SEK')})`,
        );
      const now = new Date().toISOString();
      const r: Refund = {
        refundId: randomUUID(),
        paymentId: p.paymentId,
        status: RULES.refundCreation.createdStatus,
        currency: p.currency,
        amount,
        tax,
        taxRatePercent: typeof b.refundTaxRatePercent === 'number' ? b.refundTaxRatePercent : 0,
        description: s(b.description),
        merchantReference: reference,
        invoiceReference: s(b.invoiceReference),
        merchantMetadata: b.merchantMetadata ?? {},
        callbackUrl: s(b.merchantUrls?.callbackUrl) ?? s(p.merchantUrls.callbackUrl),
        lastEvent: now,
        created_at: now,
      };
      refunds.set(r.refundId, r);
      // Created waiting for the approval of a representative of the merchant (SDK README: createRefund -> "Outputs:
      // PENDING_MERCHANT_APPROVAL"), given in Zaver for Business SANDBOX_REVIEW_MS later here.
      r.decide_at = Date.now() + config.sandboxReviewMs;
      after(config.sandboxReviewMs, () => decideRefund(r, true));
      return { status: 200, body: refundView(r) };
    }),
  );

  const refundOf = (req: Request) => refunds.get(String(req.params.refundId));
  const refundNotFound = (id: string) => fail(404, 'REFUND_NOT_FOUND', `No refund with id ${id}`);

  router.get('/refund/v1/:refundId', (req, res) => {
    const r = refundOf(req);
    if (!r) return res.status(404).json(refundNotFound(req.params.refundId).body);
    decideRefund(r);
    res.json(refundView(r));
  });

  router.post('/refund/v1/:refundId/approve', (req, res) =>
    handle(res, async () => {
      const r = refundOf(req);
      if (!r) return refundNotFound(String(req.params.refundId));
      if (r.status !== 'PENDING_MERCHANT_APPROVAL') return fail(400, 'REFUND_ILLEGAL_STATE', `The refund is ${r.status}: it cannot be approved`);
      approve(r);
      return { status: 200, body: refundView(r) };
    }),
  );

  router.post('/refund/v1/:refundId/cancel', (req, res) =>
    handle(res, async () => {
      const r = refundOf(req);
      if (!r) return refundNotFound(String(req.params.refundId));
      if (r.status !== 'PENDING_MERCHANT_APPROVAL' && r.status !== 'PENDING_EXECUTION')
        return fail(400, 'REFUND_ILLEGAL_STATE', `The refund is ${r.status}: it cannot be cancelled`);
      moveRefund(r, 'CANCELLED');
      return { status: 200, body: refundView(r) };
    }),
  );

  // The payment link: the payer approves (Zaver's credit check and the payer's identification happen here) or cancels.
  router.get('/checkout/:token', (req, res) => {
    const p = byToken.get(req.params.token);
    if (p?.status !== 'CREATED') return res.status(404).send('This payment link is no longer valid');
    res.type('html').send(`<!doctype html><title>Zaver – ${p.title}</title>
<h1>${p.title}: pay ${toDecimalString(p.amount, p.currency as 'SEK')} ${p.currency} with Zaver</h1>
<form method="post" action="/zaver/checkout/${p.token}/approve"><button>Pay later with Zaver</button></form>
<form method="post" action="/zaver/checkout/${p.token}/deny"><button>Cancel</button></form>`);
  });

  router.post('/checkout/:token/:decision', (req, res) => {
    const p = byToken.get(req.params.token);
    if (p?.status !== 'CREATED' || !['approve', 'deny'].includes(req.params.decision)) return res.status(404).send('This payment link is no longer valid');
    const back = (url: unknown) => (httpUrl(url) ? res.redirect(303, url as string) : res.send(`Payment ${p.status}`));
    // Declined by Zaver's credit check: CANCELLED, with no reason given to the merchant.
    if (req.params.decision === 'deny' || p.tags.has('decline')) {
      movePayment(p, 'CANCELLED');
      return back(p.merchantUrls.cancelUrl);
    }
    if (p.captureMethod === 'immediate') {
      // Captured as the payer pays: settled at once.
      p.captured = p.amount;
      movePayment(p, 'SETTLED');
    } else if (p.tags.has('review')) {
      p.decide_at = Date.now() + config.sandboxReviewMs;
      movePayment(p, 'PENDING_CONFIRMATION');
      after(config.sandboxReviewMs, () => decidePayment(p, true));
    } else movePayment(p, 'PENDING_MERCHANT_CAPTURE');
    return back(p.merchantUrls.successUrl);
  });

  const reset = () => {
    for (const t of timers) clearTimeout(t);
    timers.clear();
    payments.clear();
    byToken.clear();
    refunds.clear();
    callbacks.reset();
  };
  /** Payments with their captures, refunds and the callbacks sent; a decision pending at the save is taken at its
   * time (or on the first read after it). */
  const saved = keptState({
    payments: records<Omit<Payment, 'tags'> & { tags: unknown }>('paymentId'),
    refunds: records<Refund>('refundId'),
    callbacks: records<ZaverDelivery>('id'),
  });
  const state = {
    save: () => ({
      payments: [...payments.values()].map((p) => ({ ...p, tags: [...p.tags] })),
      refunds: [...refunds.values()],
      callbacks: callbacks.deliveries,
    }),
    load: (raw: unknown) => {
      reset();
      const s = saved.parse(raw);
      for (const kept of s.payments) {
        const p: Payment = { ...kept, tags: tagSet(kept.tags) };
        payments.set(p.paymentId, p);
        byToken.set(p.token, p);
        if (p.decide_at !== undefined) after(Math.max(0, p.decide_at - Date.now()), () => decidePayment(p, true));
      }
      for (const r of s.refunds) {
        refunds.set(r.refundId, r);
        if (r.decide_at !== undefined) after(Math.max(0, r.decide_at - Date.now()), () => decideRefund(r, true));
      }
      callbacks.deliveries.push(...s.callbacks);
    },
  };
  return { router, payments, refunds, callbacks, reset, state };
}

export const imitation: Imitation = (idem, publicUrl) => {
  const z = zaverRouter(idem, publicUrl);
  return {
    router: z.router,
    reset: z.reset,
    state: z.state,
    views: {
      payments: (q) =>
        [...z.payments.values()]
          .filter(
            (p) => (!q.paymentId || p.paymentId === q.paymentId) && (!q.merchantPaymentReference || p.merchantPaymentReference === q.merchantPaymentReference),
          )
          .map((p) => ({ ...p, tags: [...p.tags] })),
      refunds: (q) => [...z.refunds.values()].filter((r) => (!q.paymentId || r.paymentId === q.paymentId) && (!q.refundId || r.refundId === q.refundId)),
      notifications: (q) => z.callbacks.deliveries.filter((d) => (!q.object_id || d.object_id === q.object_id) && (!q.type || d.type === q.type)),
    },
  };
};
