// Our operations in Avarda Checkout 3's partner dialect (every point traced in README.md's Sources table; shapes in
// schemas.ts): JSON bodies under /api/partner, a partner token as Bearer, amounts as decimal numbers in the major unit,
// gross per unit with the unit's VAT beside it (taxAmount) and the rate as a string (taxCode).
import type { z } from 'zod';
import type { ConnectorJob, ProviderOrder } from '../../../domain/job.ts';
import type { ProviderRequest } from '../kit/http.ts';
import { environment, notificationUrl, type Session } from '../kit/session.ts';
import { major, taxRatePercent } from '../kit/money.ts';
import { defined, linesOf, obj, type OrderLine, str, taxShare } from '../kit/order.ts';
import type { avardaCredentials } from './manifest.ts';
import {
  ADDRESS_MAX,
  type CancelRequest,
  type InitializeRequest,
  type Item,
  ITEM_TEXT_MAX,
  ORDER_REFERENCE_MAX,
  type OrderRequest,
  type RecurringRequest,
  TRAN_ID_MAX,
} from './schemas.ts';

type Credentials = z.infer<typeof avardaCredentials>;

export const tokenRequest = (c: Credentials): ProviderRequest => ({
  method: 'POST',
  path: '/api/partner/tokens',
  body: { clientId: c.api_key, clientSecret: c.key1 },
});

const auth = (token: string | undefined) => ({ authorization: `Bearer ${token ?? ''}` });
const purchase = (job: ConnectorJob) => `/api/partner/payments/${encodeURIComponent(job.connector_transaction_id ?? '')}`;

// ---- items ------------------------------------------------------------------------------------------------------

export type AvardaItem = Item & { taxCode: string; taxAmount: number; quantity: number };
type Line = OrderLine;

/** Description and Notes: at most 35 characters (Avarda's item lists; the Magento module cuts at 35 too). */
const cut = (s: string) => (s.length > ITEM_TEXT_MAX ? s.slice(0, ITEM_TEXT_MAX) : s);
/** A rate as Avarda's taxCode: "25", "19", "25.5" ("If tax code are 25% send in 25"). */
const rateCode = (rate: number) => String(Math.round(rate * 10) / 10);
/** Minor units -> Avarda's decimal number in the major unit, exactly (29900 SEK -> 299). */
const dec = major;

/** A line in minor units: gross, tax and rate. Tax: total_tax_amount, else tax_amount per unit, else from the rate. */
function lineMinor(l: Line) {
  const q = l.quantity ?? 1;
  const gross = l.amount ?? 0;
  const rate = l.tax_percentage ?? null;
  const tax = l.total_tax_amount ?? (l.tax_amount != null ? l.tax_amount * q : rate != null ? gross - Math.round((gross * 100) / (100 + rate)) : 0);
  const net = gross - tax;
  return { q, gross, tax, rate: rate ?? (net > 0 ? (tax / net) * 100 : 0) };
}

/**
 * Our order lines as Avarda items: gross and VAT per unit. A line whose total or tax does not divide by its quantity
 * is one item named "3 x Shoe", so amount x quantity is exactly the line.
 */
export function itemsOf(lines: Line[], currency: string): AvardaItem[] {
  return lines.map((l, i) => {
    const m = lineMinor(l);
    const even = m.gross % m.q === 0 && m.tax % m.q === 0;
    const q = even ? m.q : 1;
    const name = l.product_name ?? `Item ${i + 1}`;
    const item: AvardaItem = {
      description: cut(even || m.q === 1 ? name : `${m.q} x ${name}`),
      amount: dec(m.gross / q, currency),
      taxCode: rateCode(m.rate),
      taxAmount: dec(m.tax / q, currency),
      quantity: q,
    };
    return l.product_id ? { ...item, notes: cut(l.product_id) } : item;
  });
}

const sum = (lines: Line[]) => lines.reduce((t, l) => t + (l.amount ?? 0), 0);

/**
 * The VAT of `amount` without lines of its own: the order's in proportion to its lines (kit taxShare); an order
 * without lines is priced whole at its initialization, so its tax is order_tax_amount there (a later part of such an
 * order has no known total to take a share of: no VAT is claimed).
 */
function taxOf(amount: number, job: ConnectorJob): number {
  if (linesOf(job.order?.order_details).length) return taxShare(amount, job.order);
  return job.kind === 'authorize' ? (job.order?.order_tax_amount ?? 0) : 0;
}

/** One item for an amount without lines of its own. */
function amountItem(description: string, amount: number, job: ConnectorJob): AvardaItem {
  const tax = taxOf(amount, job);
  return {
    description: cut(description),
    amount: dec(amount, job.currency),
    taxCode: String(taxRatePercent(amount, tax, 1)),
    taxAmount: dec(tax, job.currency),
    quantity: 1,
  };
}

/**
 * The items of `amount`: the lines given when they add up to it, else the order's lines when it is the whole order,
 * else one item for the amount.
 */
export function itemsFor(job: ConnectorJob, amount: number, given: Line[] | null, fallback: string): AvardaItem[] {
  const order = linesOf(job.order?.order_details);
  const chosen = given?.length && sum(given) === amount ? given : order.length && sum(order) === amount ? order : null;
  return chosen ? itemsOf(chosen, job.currency) : [amountItem(fallback, amount, job)];
}

// ---- the purchase -----------------------------------------------------------------------------------------------

/**
 * The page the customer completes Avarda Checkout on. Avarda has none of its own (its form is a script embedded with
 * the purchase JWT): AVARDA_CHECKOUT_PAGE_URL names the page that embeds it; unset, the sandbox's imitation of it.
 */
export const checkoutPageUrl = (session: Session | undefined) => {
  const env = environment(session);
  return env.settings.checkout_page_url || `${env.base_url}/checkout`;
};

export function redirectUrl(jwt: string, job: ConnectorJob, session: Session | undefined): string {
  const u = new URL(checkoutPageUrl(session));
  u.searchParams.set('purchaseJwt', jwt);
  if (job.return_url) u.searchParams.set('redirectUrl', job.return_url);
  return u.toString();
}

/**
 * The order's reference at Avarda (extraIdentifiers.orderReference, and OrderReference of every activation and return),
 * at most 20 characters: the merchant's own when it fits, else the last 20 of our payment id (26 random alphanumerics
 * after `pay_`: unique, and found by searching the payment id). The same for every call of the payment, as the shop
 * plugins send their order number each time, so a retried call sends exactly what it sent before.
 */
export function orderReference(job: Pick<ConnectorJob, 'merchant_order_reference_id' | 'payment_id'>): string {
  const own = job.merchant_order_reference_id?.trim();
  return own && own.length <= ORDER_REFERENCE_MAX ? own : job.payment_id.slice(-ORDER_REFERENCE_MAX);
}

/**
 * TranId (at most 36): "a random unique ID generated by the calling party [that] identifies the HTTP request". Our
 * operation id (`op_` + 26): unique per activation or return, and the same when the worker retries that operation.
 */
export const tranId = (job: Pick<ConnectorJob, 'operation_id'>) => job.operation_id.slice(-TRAN_ID_MAX);

const LANGUAGE: Record<string, NonNullable<InitializeRequest['checkoutSetup']['language']>> = {
  sv: 'Swedish',
  nb: 'Norwegian',
  no: 'Norwegian',
  nn: 'Norwegian',
  da: 'Danish',
  fi: 'Finnish',
};
export const isBusiness = (o: ProviderOrder | undefined) => o?.metadata?.buyer_type === 'business';

/** A prefilled value within Avarda's limit (error codes 126–131), else none: the form asks the customer for it. */
const within = (v: string | undefined, max: number) => (v && v.length <= max ? v : undefined);

function addressOf(a: unknown, names: { firstName?: string; lastName?: string; name?: string }) {
  const x = obj(obj(a).address);
  if (!str(x.line1) && !str(x.zip)) return undefined;
  return defined({
    name: within(names.name, ADDRESS_MAX.name),
    firstName: within(names.firstName, ADDRESS_MAX.firstName),
    lastName: within(names.lastName, ADDRESS_MAX.lastName),
    address1: within(str(x.line1), ADDRESS_MAX.address1),
    address2: str(x.line2),
    zip: str(x.zip),
    city: within(str(x.city), ADDRESS_MAX.city),
    country: str(x.country),
  });
}

export function initializeRequest(job: ConnectorJob, _c: Credentials, token?: string, session?: Session): ProviderRequest {
  const o = job.order;
  const md = obj(o?.metadata);
  const billing = obj(o?.billing);
  const bAddr = obj(billing.address);
  const [first, ...rest] = (o?.customer?.name ?? '').trim().split(/\s+/);
  const business = isBusiness(o);
  const country = str(bAddr.country);
  const shipCountry = str(obj(obj(o?.shipping).address).country) ?? country;
  const locale = (str(md.customer_locale) ?? o?.locale ?? '').slice(0, 2).toLowerCase();
  const names = business
    ? { name: str(md.company_name) }
    : { firstName: str(bAddr.first_name) ?? (first || undefined), lastName: str(bAddr.last_name) ?? (rest.join(' ') || undefined) };
  const sNames = business
    ? names
    : (() => {
        const s = obj(obj(o?.shipping).address);
        return { firstName: str(s.first_name) ?? names.firstName, lastName: str(s.last_name) ?? names.lastName };
      })();
  const phone = o?.customer?.phone ?? str(obj(billing.phone).number);
  const email = o?.customer?.email ?? job.customer_email ?? str(billing.email);
  const customer = defined({
    invoicingAddress: addressOf(o?.billing, names),
    deliveryAddress: addressOf(o?.shipping, sNames),
    userInputs: defined({ phone: phone ?? undefined, email: email ?? undefined }),
  });
  const body: InitializeRequest = {
    checkoutSetup: defined({
      mode: business ? 'B2B' : 'B2C',
      language: LANGUAGE[locale] ?? 'English',
      completedNotificationUrl: notificationUrl(session),
      termsAndConditionsUrl: str(md.terms_and_conditions_url),
      displayItems: true,
      enableCountrySelector: false,
      invoicingCountries: country ? [country] : undefined,
      deliveryCountries: shipCountry ? [shipCountry] : undefined,
      // A payment that sets up a mandate offers recurring payments (the customer's consent box, ticked), as the
      // WooCommerce plugin does for a subscription; the purchase's token is read once it is Completed (response.ts).
      ...(setsUpMandate(job) ? { recurringPayments: 'checked' as const, hideUnsupportedRecurringPaymentMethods: true } : {}),
    }),
    items: itemsFor(job, job.amount, linesOf(o?.order_details), o?.description ?? 'Order'),
    extraIdentifiers: { orderReference: orderReference(job) },
    [business ? 'b2B' : 'b2C']: customer,
  };
  return { method: 'POST', path: '/api/partner/payments', headers: auth(token), body };
}

/** The status sync: read the purchase (its step says whether the customer completed the checkout). */
export const readRequest = (job: ConnectorJob, _c: Credentials, token?: string): ProviderRequest => ({
  method: 'GET',
  path: purchase(job),
  headers: auth(token),
});

/** A capture activates (delivers) the items captured: those given, the whole order, or one item for the amount. */
export function activateRequest(job: ConnectorJob, _c: Credentials, token?: string): ProviderRequest {
  const body: OrderRequest = {
    orderReference: orderReference(job),
    tranId: tranId(job),
    items: itemsFor(job, job.amount, linesOf(job.capture_details?.order_details), 'Delivery'),
  };
  return { method: 'POST', path: `${purchase(job)}/order`, headers: auth(token), body };
}

/** A void cancels what is left of the purchase (the un-activated amount). Avarda requires a reason. */
export function cancelRequest(job: ConnectorJob, _c: Credentials, token?: string): ProviderRequest {
  const body: CancelRequest = { reason: job.reason?.trim() || 'Cancelled by the merchant' };
  return { method: 'POST', path: `${purchase(job)}/cancel`, headers: auth(token), body };
}

/**
 * A refund is a return (`…/return`): the rows credited, printed as negative rows on the customer's invoice. Our refunds
 * only ever take back captured money, and a capture at Avarda is an activation (`…/order`), so every refund follows an
 * activation; Avarda's `…/refund` (money the customer no longer needs to be delivered: a reservation not activated)
 * matches no refund of ours (a void cancels what is not activated). The rows: the order's when the whole order is
 * refunded, else one row for the amount with the order's VAT in proportion.
 */
export function refundRequest(job: ConnectorJob, _c: Credentials, token?: string): ProviderRequest {
  const body: OrderRequest = { orderReference: orderReference(job), tranId: tranId(job), items: itemsFor(job, job.amount, null, 'Return') };
  return { method: 'POST', path: `${purchase(job)}/return`, headers: auth(token), body };
}

// ---- mandates (recurring payments) --------------------------------------------------------------------------------

/** A payment that sets up a mandate: recurring payments are offered in its checkout. */
export const setsUpMandate = (job: Pick<ConnectorJob, 'mandate'>) => job.mandate?.kind === 'new' || job.mandate?.kind === 'setup';

/**
 * Our connector_mandate_id for Avarda: a recurring charge needs both the purchase the customer consented in (its path)
 * and that purchase's recurring payment token (its body), so the reference holds both: `<purchaseId>:<token>`.
 */
export const mandateReference = (purchaseId: string, token: string) => `${purchaseId}:${token}`;
export function readMandateReference(ref: string | null | undefined): { purchaseId: string; token: string } | null {
  const at = ref?.indexOf(':') ?? -1;
  if (!ref || at < 1 || at === ref.length - 1) return null;
  return { purchaseId: ref.slice(0, at), token: ref.slice(at + 1) };
}

/**
 * A recurring charge (job.mandate.kind 'recurring'): off-session on the first purchase's token, no customer step.
 * `POST /api/partner/payments/{purchaseId}/authorizerecurringpayment {recurringPaymentToken, items, orderReference}`
 * (WooCommerce plugin ACO_Request_Auth_Recurring_Payment); the answer names a new purchase, activated as any other.
 */
export function recurringRequest(job: ConnectorJob, _c: Credentials, token?: string): ProviderRequest {
  const ref = readMandateReference(job.mandate?.connector_mandate_id);
  if (!ref) throw new Error(`avarda: the mandate ${job.mandate?.mandate_id ?? '(none)'} holds no Avarda reference <purchaseId>:<token>`);
  const body: RecurringRequest = {
    recurringPaymentToken: ref.token,
    items: itemsFor(job, job.amount, linesOf(job.order?.order_details), job.order?.description ?? 'Order'),
    orderReference: orderReference(job),
  };
  return {
    method: 'POST',
    path: `/api/partner/payments/${encodeURIComponent(ref.purchaseId)}/authorizerecurringpayment`,
    headers: auth(token),
    body,
  };
}
