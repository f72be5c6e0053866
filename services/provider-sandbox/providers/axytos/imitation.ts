// axytos's invoice API v1, as the sandbox imitates it (the worker's side: workers/connectors/axytos/; the facts: its
// README's Sources table and fixtures/, read here through published.ts). Mounted at /axytos; the API lives under /axytos/api/v1 as under
// https://api-sandbox.axytos.com/api/v1:
//   POST /api/v1/Payments/invoice/order/precheck             the risk decision {processId, decision U|S|R, transactionMetadata (signed)}
//   POST /api/v1/Payments/invoice/order/confirm              the order, echoing a precheck decided U (signature checked, not expired)
//   POST /api/v1/Payments/invoice/order/reportshipping       a shipment (required before its invoice)
//   POST /api/v1/Payments/invoice/order/createInvoice        an invoice -> {invoiceNumber}
//   GET  /api/v1/Payments/invoice/order/paymentstate/:id     {paymentState: Unpaid|PartiallyPaid|Paid|Overpaid}
//   POST /api/v1/Payments/invoice/order/cancel/:id           cancel what is not invoiced
//   POST /api/v1/Payments/invoice/order/refund               credit an invoice: originalInvoiceNumber is the shop's
//                                                            externalInvoiceNumber of that invoice (axytos's SDK)
//   GET  /api/v1/Credentials/validate
// Every request body is checked by axytos's published model of its operation (published.ts: the OpenAPI models the
// connector's fixtures transcribe): a refused field is ASP.NET's 400 {type, title, status, traceId, errors}. Other
// refusals are ProblemDetails {type, title, status, detail}; answers copy the published examples' shapes.
// Auth: header X-API-KEY (AXYTOS_API_KEY, default AXYTOS_SANDBOX_KEY below); a wrong key is 401 ProblemDetails.
// Amounts: decimals in major units (JSON numbers), EUR. Orders by the shop's externalOrderId. No Idempotency-Key: a
// confirm of an order confirmed already, a shipment of a sub-order reported already and an invoice of an
// externalInvoiceNumber created already answer as the first time (UNVERIFIED how the real API answers repeats).
// Magic tags (the buyer's email, personalData.email): +decline (decision R), +slow (the precheck answers after
// SANDBOX_SLOW_MS), +flaky (the first two prechecks of a customReference answer 500), +refund_fail (refunds refused
// 400), +refund_flaky (the first two refunds of an invoice answer 500). axytos decides at once and has no customer
// step and no pending refund: +redirect, +review and +refund_pending do not apply. It sends no notifications.
import express, { type Response, type Router } from 'express';
import { createHmac, randomBytes, randomUUID } from 'node:crypto';
import { z } from 'zod';
import { config } from '../../../../lib/config.ts';
import { magicTags } from '../../magic.ts';
import { counter, keptState, records, savedKey } from '../../kept.ts';
import type { IdempotencyStore } from '../../recorder.ts';
import type { Imitation } from '../../provider.ts';
import { checkRequest, problem, published, refused, type Answer } from './published.ts';
import { basket, cents } from './validate.ts';
import { setTimeout as sleep } from 'node:timers/promises';

/** The API key this imitation issues to the sandbox's merchant (the connector's manifest names the same as its sandbox default). */
const AXYTOS_SANDBOX_KEY = 'axytos_sandbox_key_0123456789abcdef';

interface Precheck {
  transactionId: string;
  decision: string;
  grossTotal: number;
  expires: number;
  email: string;
}
interface Invoice {
  invoiceNumber: string;
  externalInvoiceNumber: string;
  subOrder: string;
  gross: number;
  refunded: number;
  created_at: string;
}
interface Order {
  externalOrderId: string;
  email: string;
  grossTotal: number;
  status: 'confirmed' | 'cancelled';
  shipments: Map<string, { productId: string; quantity: number }[]>;
  invoices: Invoice[];
  refunds: { originalInvoiceNumber: string; gross: number; at: string }[];
  confirm: Record<string, unknown>;
}

const PRECHECK_TTL_MS = 30 * 60_000;

export function axytosRouter(idem: IdempotencyStore) {
  const router: Router = express.Router();
  const apiKey = process.env.AXYTOS_API_KEY || AXYTOS_SANDBOX_KEY;
  let signingKey = randomBytes(32);
  const prechecks = new Map<string, Precheck>();
  const orders = new Map<string, Order>();
  let invoiceSeq = 0;
  const send = (res: Response, a: Answer) => (a.body === null ? res.status(a.status).end() : res.status(a.status).json(a.body));
  const sign = (transactionId: string, timestamp: string, expires: string) =>
    createHmac('sha256', signingKey).update(`${transactionId}|${timestamp}|${expires}`).digest('base64');

  router.use('/api/v1', (req, res, next) => {
    if (req.header('x-api-key') !== apiKey) return send(res, refused(401, 'The X-API-KEY is missing or invalid.'));
    // The body by axytos's published model of the operation (required fields, types, enums, minimums).
    const invalid = req.method === 'POST' ? checkRequest(req.method, req.path, req.body ?? {}) : null;
    if (invalid) return send(res, invalid);
    next();
  });

  router.get('/api/v1/Credentials/validate', (_req, res) => res.json(true));

  router.post('/api/v1/Payments/invoice/order/precheck', async (req, res) => {
    const b = req.body ?? {};
    const invalid = basket(b.basket);
    if (invalid) return send(res, invalid);
    const email = String(b.personalData.email ?? '');
    const tags = magicTags(email);
    if (tags.has('flaky') && typeof b.customReference === 'string' && idem.count(`axytos-flaky:${b.customReference}`) <= 2) {
      return send(res, refused(500, 'An unexpected error occurred.'));
    }
    if (tags.has('slow')) await sleep(config.sandboxSlowMs);
    const decision = tags.has('decline') ? 'R' : 'U';
    const now = Date.now();
    const transactionId = randomUUID();
    const [timestamp, expires] = [new Date(now).toISOString(), new Date(now + PRECHECK_TTL_MS).toISOString()];
    prechecks.set(transactionId, { transactionId, decision, grossTotal: cents(b.basket.grossTotal), expires: now + PRECHECK_TTL_MS, email });
    // The published answer's shape (answers.json precheck_u / precheck_r), this precheck's values.
    const shape = published(decision === 'U' ? 'precheck_u' : 'precheck_r');
    res.json({
      ...z.record(z.string(), z.unknown()).parse(shape.body),
      processId: randomUUID(),
      decision,
      transactionMetadata: {
        transactionId,
        transactionInfoSignature: sign(transactionId, timestamp, expires),
        transactionTimestamp: timestamp,
        transactionExpirationTimestamp: expires,
      },
    });
  });

  router.post('/api/v1/Payments/invoice/order/confirm', (req, res) => {
    const b = req.body ?? {};
    const earlier = orders.get(b.externalOrderId);
    if (earlier && earlier.status === 'confirmed') return res.status(200).end();
    const invalid = basket(b.basket);
    if (invalid) return send(res, invalid);
    const meta = b.orderPrecheckResponse?.transactionMetadata ?? {};
    const pre = prechecks.get(meta.transactionId);
    if (!pre || meta.transactionInfoSignature !== sign(meta.transactionId, meta.transactionTimestamp, meta.transactionExpirationTimestamp)) {
      return send(res, problem('OrderPrecheckResponse.TransactionMetadata', 'The precheck response is unknown or was altered.'));
    }
    if (Date.now() > pre.expires) return send(res, refused(400, 'The precheck has expired; run it again.'));
    if (pre.decision !== 'U') return send(res, refused(400, `The precheck decided ${pre.decision}: the order cannot be confirmed for invoice.`));
    if (cents(b.basket.grossTotal) !== pre.grossTotal) return send(res, problem('Basket.GrossTotal', 'The basket differs from the prechecked one.'));
    orders.set(b.externalOrderId, {
      externalOrderId: b.externalOrderId,
      email: pre.email,
      grossTotal: pre.grossTotal,
      status: 'confirmed',
      shipments: new Map(),
      invoices: [],
      refunds: [],
      confirm: b,
    });
    res.status(200).end();
  });

  const orderOf = (res: Response, id: unknown): Order | null => {
    const o = typeof id === 'string' ? orders.get(id) : undefined;
    if (!o) {
      send(res, refused(404, `Order ${String(id)} was not found.`));
      return null;
    }
    return o;
  };
  const invoiced = (o: Order) => o.invoices.reduce((t, i) => t + i.gross, 0);

  router.get('/api/v1/Payments/invoice/order/paymentstate/:id', (req, res) => {
    const o = orderOf(res, req.params.id);
    if (o) res.json({ paymentState: 'Unpaid' });
  });

  router.post('/api/v1/Payments/invoice/order/reportshipping', (req, res) => {
    const b = req.body ?? {};
    const o = orderOf(res, b.externalOrderId);
    if (!o) return;
    const sub = typeof b.externalSubOrderId === 'string' ? b.externalSubOrderId : '';
    if (o.shipments.has(sub)) return res.status(200).end();
    if (o.status !== 'confirmed') return send(res, refused(400, `Order ${o.externalOrderId} is cancelled.`));
    if (b.basketPositions.length === 0) return send(res, problem('BasketPositions', 'The BasketPositions field must not be empty.'));
    o.shipments.set(sub, b.basketPositions);
    res.status(200).end();
  });

  router.post('/api/v1/Payments/invoice/order/createInvoice', (req, res) => {
    const b = req.body ?? {};
    const o = orderOf(res, b.externalOrderId);
    if (!o) return;
    // Optional in the model, but the shop's number is what a refund names later (originalInvoiceNumber).
    if (typeof b.externalInvoiceNumber !== 'string' || b.externalInvoiceNumber === '')
      return send(res, problem('ExternalInvoiceNumber', 'The ExternalInvoiceNumber field is required.'));
    const again = o.invoices.find((i) => i.externalInvoiceNumber === b.externalInvoiceNumber);
    if (again) return res.json({ invoiceNumber: again.invoiceNumber });
    if (o.status !== 'confirmed') return send(res, refused(400, `Order ${o.externalOrderId} is cancelled.`));
    const sub = typeof b.externalSubOrderId === 'string' ? b.externalSubOrderId : '';
    if (!o.shipments.has(sub))
      return send(res, refused(400, `No shipping was reported for order ${o.externalOrderId}${sub ? ` / ${sub}` : ''}: report it before the invoice.`));
    // An invoice's positions carry no names or currency; their totals are checked as the precheck's are.
    const bad = basket(b.basket, false);
    if (bad) return send(res, bad);
    const gross = cents(b.basket.grossTotal);
    if (gross <= 0 || invoiced(o) + gross > o.grossTotal) {
      return send(
        res,
        refused(400, `The invoice (${gross / 100}) exceeds what is left of order ${o.externalOrderId} (${(o.grossTotal - invoiced(o)) / 100}).`),
      );
    }
    const inv: Invoice = {
      invoiceNumber: `AXI-${String(++invoiceSeq).padStart(8, '0')}`,
      externalInvoiceNumber: b.externalInvoiceNumber,
      subOrder: sub,
      gross,
      refunded: 0,
      created_at: new Date().toISOString(),
    };
    o.invoices.push(inv);
    res.json({ invoiceNumber: inv.invoiceNumber });
  });

  router.post('/api/v1/Payments/invoice/order/cancel/:id', (req, res) => {
    const o = orderOf(res, req.params.id);
    if (!o) return;
    if (o.status === 'cancelled') return res.status(200).end();
    if (invoiced(o) >= o.grossTotal) return send(res, refused(400, `Order ${o.externalOrderId} is invoiced in full and can no longer be cancelled.`));
    o.status = 'cancelled';
    res.status(200).end();
  });

  router.post('/api/v1/Payments/invoice/order/refund', async (req, res) => {
    const b = req.body ?? {};
    const o = orderOf(res, b.externalOrderId);
    if (!o) return;
    // originalInvoiceNumber is the shop's invoice number given at createInvoice (axytos's SDK: InvoiceClient::refund),
    // not the invoiceNumber axytos answered.
    const inv = o.invoices.find((i) => i.externalInvoiceNumber === b.originalInvoiceNumber);
    if (!inv)
      return send(
        res,
        problem('OriginalInvoiceNumber', `No invoice of order ${o.externalOrderId} has the external invoice number ${String(b.originalInvoiceNumber)}.`),
      );
    const tags = magicTags(o.email);
    if (tags.has('refund_flaky') && idem.count(`axytos-refund-flaky:${inv.invoiceNumber}`) <= 2)
      return send(res, refused(500, 'An unexpected error occurred.'));
    if (tags.has('slow')) await sleep(config.sandboxSlowMs);
    if (b.basket.positions.length === 0) return send(res, problem('Basket.Positions', 'The Positions field must not be empty.'));
    const gross = cents(b.basket.grossTotal);
    const sum = (b.basket.positions as { grossRefundTotal: number }[]).reduce((t, p) => t + cents(p.grossRefundTotal), 0);
    if (sum !== gross) return send(res, problem('Basket.GrossTotal', "GrossTotal does not match the positions' GrossRefundTotal sum."));
    if (tags.has('refund_fail'))
      return send(res, refused(400, `The refund of invoice ${inv.externalInvoiceNumber} was refused: the claim is already with the collection agency.`));
    if (gross <= 0 || inv.refunded + gross > inv.gross)
      return send(
        res,
        refused(400, `The refund (${gross / 100}) exceeds what is left of invoice ${inv.externalInvoiceNumber} (${(inv.gross - inv.refunded) / 100}).`),
      );
    inv.refunded += gross;
    o.refunds.push({ originalInvoiceNumber: inv.externalInvoiceNumber, gross, at: new Date().toISOString() });
    res.status(200).end();
  });

  const reset = () => {
    prechecks.clear();
    orders.clear();
    invoiceSeq = 0;
  };
  /** Prechecks (a confirm after a restart), orders with their shipments, invoices and refunds, the invoice number and
   * the key the prechecks are signed with. */
  const saved = keptState({
    prechecks: records<Precheck>('transactionId'),
    orders: records<Omit<Order, 'shipments'> & { shipments: unknown }>('externalOrderId'),
    invoiceSeq: counter,
    signingKey: savedKey,
  });
  const shipmentsOf = z.array(z.tuple([z.string(), z.array(z.object({ productId: z.string(), quantity: z.number() }))])).catch([]);
  const state = {
    save: () => ({
      prechecks: [...prechecks.values()],
      orders: [...orders.values()].map((o) => ({ ...o, shipments: [...o.shipments] })),
      invoiceSeq,
      signingKey: signingKey.toString('base64'),
    }),
    load: (raw: unknown) => {
      reset();
      const s = saved.parse(raw);
      for (const p of s.prechecks) prechecks.set(p.transactionId, p);
      for (const o of s.orders) orders.set(o.externalOrderId, { ...o, shipments: new Map(shipmentsOf.parse(o.shipments)) });
      invoiceSeq = s.invoiceSeq ?? 0;
      if (s.signingKey) signingKey = Buffer.from(s.signingKey, 'base64');
    },
  };
  return { router, reset, orders, state };
}

export const imitation: Imitation = (idem) => {
  const a = axytosRouter(idem);
  const view = ({ confirm, ...o }: Order) => ({
    ...o,
    shipments: Object.fromEntries(o.shipments),
    personalData: confirm.personalData,
    invoiceAddress: confirm.invoiceAddress,
    basket: confirm.basket,
  });
  return {
    router: a.router,
    reset: a.reset,
    state: a.state,
    views: { orders: (q) => [...a.orders.values()].filter((o) => !q.externalOrderId || o.externalOrderId === q.externalOrderId).map(view) },
  };
};
