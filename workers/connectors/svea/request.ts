// Our operations in Svea's dialect: the Checkout API creates the order the customer completes in Svea's checkout; the
// Payment Admin API delivers (captures), cancels and credits (refunds) it. Amounts in minor units; an order row's
// Quantity and VatPercent are ×100 (2 pcs -> 200, 25 % -> 2500). Every request is signed (sign.ts).
import type { z } from 'zod';
import type { ConnectorJob } from '../../../domain/job.ts';
import type { ProviderRequest } from '../kit/http.ts';
import { environment, notificationUrl, type Session } from '../kit/session.ts';
import type { sveaCredentials } from './manifest.ts';
import { sveaHeaders } from './sign.ts';
import { int, obj, perUnit, str, type Obj } from '../kit/order.ts';
import { PUSH_PARAM } from './notification.ts';
import { CreateOrderRequest, PHONE, type AdminRow, type OrderRowRequest, type TokenOrderRequest } from './schemas.ts';

type Credentials = z.infer<typeof sveaCredentials>;

/**
 * Svea's two hosts: checkoutapi(stage).svea.com and paymentadminapi(stage).svea.com. SVEA_BASE_URL names the checkout
 * API; the admin API is its paymentadminapi twin (the sandbox serves both under one base).
 */
export const adminBase = (checkoutBase: string): string | undefined =>
  checkoutBase.includes('checkoutapi') ? checkoutBase.replace('checkoutapi', 'paymentadminapi') : undefined;

/** A signed request: the signature covers the exact body, so it is made here, beside the body. */
function signed(c: Credentials, method: ProviderRequest['method'], path: string, body?: unknown, baseUrl?: string): ProviderRequest {
  return { method, path, ...(body === undefined ? {} : { body }), headers: sveaHeaders(c.key1, c.api_key, body), ...(baseUrl ? { baseUrl } : {}) };
}
/** A Payment Admin request: on the admin host of the call's environment (the runtime's session). */
const admin = (c: Credentials, session: Session | undefined, method: ProviderRequest['method'], path: string, body?: unknown) =>
  signed(c, method, path, body, adminBase(environment(session).base_url));

/** A task's Location (absolute, on the admin host): polled as it is. */
export function taskRequest(c: Credentials, location: string): ProviderRequest {
  const u = new URL(location);
  return signed(c, 'GET', u.pathname + u.search, undefined, u.origin);
}

/** VAT percent ×100 (an integer): the line's own, else its tax of its net. */
function vatOf(gross: number, tax: number, given: unknown): number {
  if (typeof given === 'number' && Number.isFinite(given)) return Math.round(given * 100);
  const net = gross - tax;
  return net > 0 ? Math.round((tax / net) * 10_000) : 0;
}

/** One of our lines (amount = the line's gross total) as a Svea row priced per unit; a total that does not divide by its quantity is one row "3 × Name". */
export function rowOf(l: Obj, i: number): OrderRowRequest {
  const { name, quantity, gross, tax, unitGross } = perUnit(l, i);
  const article = str(l.product_id);
  return {
    ...(article ? { articleNumber: article.slice(0, 256) } : {}),
    name: name.slice(0, 40),
    quantity: quantity * 100,
    unitPrice: unitGross,
    vatPercent: vatOf(gross, tax, l.tax_percentage),
  };
}

/** The cart: our lines when they add up to the amount, else one row of the whole amount with the order's tax. */
export function cartOf(job: ConnectorJob): OrderRowRequest[] {
  const lines = job.order?.order_details ?? [];
  if (lines.length && lines.reduce((s, l) => s + (int(l.amount) ?? 0), 0) === job.amount) return lines.map(rowOf);
  const tax = job.order?.order_tax_amount ?? 0;
  return [{ name: (job.order?.description || 'Order').slice(0, 40), quantity: 100, unitPrice: job.amount, vatPercent: vatOf(job.amount, tax, undefined) }];
}

type Locale = CreateOrderRequest['locale'];
/** §11.9's locales by country (Norwegian is nn-NO there). */
const LOCALES: Record<string, Locale> = { SE: 'sv-SE', NO: 'nn-NO', FI: 'fi-FI', DK: 'da-DK', DE: 'de-DE' };
const countryOf = (job: ConnectorJob) => str(obj(obj(job.order?.billing).address).country)?.toUpperCase() ?? '';
function localeOf(job: ConnectorJob): Locale {
  const given = str(job.order?.metadata?.customer_locale) ?? str(job.order?.locale);
  const known = CreateOrderRequest.shape.locale.safeParse(given);
  if (known.success) return known.data;
  return LOCALES[countryOf(job)] ?? 'en-US';
}
const isBusiness = (job: ConnectorJob) => ['business', 'b2b', 'company'].includes(String(job.order?.metadata?.buyer_type ?? '').toLowerCase());

/** Our gateway's notification endpoint for the job's connector account; Svea fills in {checkout.order.uri} with the
 * order id, which is how the push names its order (notification.ts PUSH_PARAM). */
export const pushUri = (session: Session | undefined) => `${notificationUrl(session)}?${PUSH_PARAM}={checkout.order.uri}`;

/** Svea's clientOrderNumber (≤ 32): the authorization's operation id, so a retry finds the same order. */
export const clientOrderNumber = (job: ConnectorJob) => job.operation_id.slice(0, 32);

/** A phone Svea takes as a preset (§11.4: 1-18 digits, "+", "-" and spaces); another is left for the customer to type. */
const presetPhone = (p: string | null | undefined) => (p && PHONE.test(p) && /\d/.test(p) && p.replace(/\D/g, '').length <= 18 ? p : undefined);

export function authorizeRequest(job: ConnectorJob, c: Credentials, session?: Session): ProviderRequest {
  const o = job.order;
  const billing = obj(o?.billing);
  const zip = str(obj(billing.address).zip);
  const phone = presetPhone(o?.customer?.phone ?? str(obj(billing.phone).number));
  // An email over Svea's 50 characters is not preset (the customer types it at the checkout).
  const email = job.customer_email && job.customer_email.length <= 50 ? job.customer_email : undefined;
  const back = job.return_url ?? '';
  const presets: NonNullable<CreateOrderRequest['presetValues']> = [
    ...(email ? [{ typeName: 'EmailAddress' as const, value: email, isReadOnly: false }] : []),
    ...(phone ? [{ typeName: 'PhoneNumber' as const, value: phone, isReadOnly: false }] : []),
    ...(zip ? [{ typeName: 'PostalCode' as const, value: zip, isReadOnly: false }] : []),
    { typeName: 'IsCompany', value: String(isBusiness(job)), isReadOnly: true },
  ];
  const body: CreateOrderRequest = {
    countryCode: countryOf(job),
    currency: job.currency,
    locale: localeOf(job),
    clientOrderNumber: clientOrderNumber(job),
    cart: { items: cartOf(job) },
    merchantSettings: {
      termsUri: str(o?.metadata?.terms_url) ?? back,
      checkoutUri: back,
      confirmationUri: back,
      pushUri: pushUri(session),
    },
    presetValues: presets,
    merchantData: job.payment_id,
    // A payment setting up a mandate: a recurring order, whose RecurringToken (once Final) is the mandate's reference.
    ...(setsUpMandate(job) ? { recurring: true } : {}),
  };
  return signed(c, 'POST', '/api/orders', body);
}

/** A payment that sets up a mandate (job.mandate kind new or setup). */
export const setsUpMandate = (job: Pick<ConnectorJob, 'mandate'>) => job.mandate?.kind === 'new' || job.mandate?.kind === 'setup';

/**
 * A recurring charge (job.mandate kind 'recurring'): a new order on the first order's RecurringToken (our
 * connector_mandate_id), `POST /api/tokens/{token}/orders`, no customer step. clientOrderNumber is the operation id as
 * for any authorization, so a retry never makes a second order (Svea refuses a used one).
 */
export function recurringRequest(job: ConnectorJob, c: Credentials, session?: Session): ProviderRequest {
  const token = job.mandate?.connector_mandate_id;
  if (!token) throw new Error(`svea: the mandate ${job.mandate?.mandate_id ?? '(none)'} holds no RecurringToken`);
  const body: TokenOrderRequest = {
    currency: job.currency,
    clientOrderNumber: clientOrderNumber(job),
    merchantSettings: { pushUri: pushUri(session), ...(job.return_url ? { checkoutUri: job.return_url } : {}) },
    cart: { items: cartOf(job) },
  };
  return signed(c, 'POST', `/api/tokens/${encodeURIComponent(token)}/orders`, body);
}

/** The order id at Svea: the payment's connector_transaction_id. */
const orderId = (job: ConnectorJob) => encodeURIComponent(job.connector_transaction_id ?? '');

/** The checkout order (its Status); for a Final one, next the admin order (whether it can be delivered yet). */
export const checkoutOrderRequest = (job: ConnectorJob, c: Credentials) => signed(c, 'GET', `/api/orders/${orderId(job)}`);
export const adminOrderRequest = (job: ConnectorJob, c: Credentials, session?: Session) => admin(c, session, 'GET', `/api/v1/orders/${orderId(job)}`);

/** A capture: the admin order first (its rows), then the delivery (deliveryRequest), then its task. */
export const deliverRequests = {
  /** The rows to deliver for the job's amount: all that is left, rows (and units of rows) adding up to it, or (one
   * partial capture) DeliverAndLowerAmount; null: no rows add up to it. */
  delivery(
    job: ConnectorJob,
    c: Credentials,
    session: Session | undefined,
    rows: readonly Pick<AdminRow, 'OrderRowId' | 'UnitPrice' | 'Quantity'>[],
  ): ProviderRequest | null {
    const total = rows.reduce((s, r) => s + (r.UnitPrice * r.Quantity) / 100, 0);
    const path = `/api/v1/orders/${orderId(job)}/deliveries`;
    if (job.amount === total) return admin(c, session, 'POST', path, { orderRowIds: rows.map((r) => r.OrderRowId) });
    const pick = unitsFor(rows, job.amount);
    if (pick) {
      return admin(c, session, 'POST', path, {
        orderRowIds: pick.map((p) => p.OrderRowId),
        rowDeliveryOptions: pick
          .filter((p) => p.units * 100 !== rows.find((r) => r.OrderRowId === p.OrderRowId)!.Quantity)
          .map((p) => ({ orderRowId: p.OrderRowId, quantity: p.units * 100 })),
      });
    }
    // One capture of part of the order: deliver it all at a lower amount (Svea cancels the rest).
    if (job.capture_method !== 'manual_multiple' && job.amount < total)
      return admin(c, session, 'POST', `${path}/DeliverAndLowerAmount`, { deliveredAmount: job.amount });
    return null;
  },
};

/** Whole units of the rows that add up to `amount` exactly (the first found, fewest rows first by order), or null. */
export function unitsFor(
  rows: readonly Pick<AdminRow, 'OrderRowId' | 'UnitPrice' | 'Quantity'>[],
  amount: number,
): { OrderRowId: number; units: number }[] | null {
  const go = (i: number, left: number): { OrderRowId: number; units: number }[] | null => {
    if (left === 0) return [];
    if (i >= rows.length || left < 0) return null;
    const r = rows[i]!;
    const max = Math.floor(r.Quantity / 100);
    for (let u = max; u >= 0; u--) {
      if (r.UnitPrice <= 0 && u > 0) continue;
      const rest = go(i + 1, left - u * r.UnitPrice);
      if (rest) return u > 0 ? [{ OrderRowId: r.OrderRowId, units: u }, ...rest] : rest;
    }
    return null;
  };
  return rows.length <= 50 ? go(0, amount) : null;
}

/** Cancels the order (what is not delivered). */
export const voidRequest = (job: ConnectorJob, c: Credentials, session?: Session) =>
  admin(c, session, 'PATCH', `/api/v1/orders/${orderId(job)}`, { isCancelled: true });

/** The order's VAT percent ×100, for a credit row. */
function orderVat(job: ConnectorJob): number {
  const lines = job.order?.order_details ?? [];
  const gross = lines.reduce((s, l) => s + (int(l.amount) ?? 0), 0) || job.amount;
  return vatOf(gross, job.order?.order_tax_amount ?? 0, undefined);
}

/**
 * A refund: a credit of the delivery (our capture's connector_capture_id) with a new row of the refunded amount (any
 * amount, not tied to the rows delivered). Svea has no idempotency key here.
 */
export function refundRequest(job: ConnectorJob, c: Credentials, session?: Session): ProviderRequest {
  if (!job.connector_capture_id) throw new Error(`svea: refund ${job.refund_id} names no delivery (no charged capture)`);
  return admin(c, session, 'POST', `/api/v1/orders/${orderId(job)}/deliveries/${encodeURIComponent(job.connector_capture_id)}/credits`, {
    newCreditOrderRow: {
      name: (job.reason || 'Refund').slice(0, 40),
      quantity: 100,
      unitPrice: job.amount,
      vatPercent: orderVat(job),
      ...(job.refund_id ? { articleNumber: job.refund_id } : {}),
    },
  });
}

/** A refund's status: its task while pending (connector_refund_id is the task's Location), else the credit itself. */
export function refundSyncRequest(job: ConnectorJob, c: Credentials, session?: Session): ProviderRequest {
  const id = job.connector_refund_id ?? '';
  if (/^https?:\/\//.test(id)) return taskRequest(c, id);
  return admin(
    c,
    session,
    'GET',
    `/api/v1/orders/${orderId(job)}/deliveries/${encodeURIComponent(job.connector_capture_id ?? '')}/credits/${encodeURIComponent(id)}`,
  );
}
