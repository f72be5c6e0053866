// Our operations in Avarda Checkout 3's partner dialect (reference: ../shared/reference/providers/avarda.md): JSON
// bodies under /api/partner, a partner token as Bearer, amounts as decimal numbers in the major unit, gross per unit
// with the unit's VAT beside it (taxAmount) and the rate as a string (taxCode).
import type { z } from 'zod';
import type { ConnectorJob, ProviderOrder } from '../../../domain/job.ts';
import { major, majorString } from '../kit/money.ts';
import type { ProviderRequest } from '../kit/http.ts';
import { environment, notificationUrl, type Session } from '../kit/session.ts';
import { obj, str, type Obj } from '../kit/order.ts';
import type { avardaCredentials } from './manifest.ts';

type Credentials = z.infer<typeof avardaCredentials>;
/** Drops undefined fields, so a body carries only what we know. */
const clean = <T extends Obj>(o: T): T => Object.fromEntries(Object.entries(o).filter(([, v]) => v !== undefined)) as T;

/** Minor units -> Avarda's decimal number, exactly (29900 SEK -> 299). */
export const dec = major;
/** Minor units -> a 2-decimal string (the refund's `amount`). */
export const decString = majorString;

export const tokenRequest = (c: Credentials): ProviderRequest =>
  ({ method: 'POST', path: '/api/partner/tokens', body: { clientId: c.api_key, clientSecret: c.key1 } });

const auth = (token: string | undefined) => ({ authorization: `Bearer ${token ?? ''}` });
const purchase = (job: ConnectorJob) => `/api/partner/payments/${encodeURIComponent(job.connector_transaction_id ?? '')}`;

// ---- items ------------------------------------------------------------------------------------------------------

export interface AvardaItem { description: string; notes?: string; amount: number; taxCode: string; taxAmount: number; quantity: number }
interface Line { product_name?: string; quantity?: number; amount?: number; product_id?: string | null; tax_percentage?: number | null; tax_amount?: number | null; total_tax_amount?: number | null }

const cut = (s: string) => (s.length > 34 ? s.slice(0, 34) : s);
/** A rate as Avarda's taxCode: "25", "19", "25.5". */
const rateCode = (rate: number) => String(Math.round(rate * 10) / 10);

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
    return clean({
      description: cut(even || m.q === 1 ? name : `${m.q} x ${name}`),
      notes: l.product_id ? cut(l.product_id) : undefined,
      amount: dec(m.gross / q, currency), taxCode: rateCode(m.rate), taxAmount: dec(m.tax / q, currency), quantity: q,
    }) as AvardaItem;
  });
}

const linesOf = (v: unknown): Line[] => (Array.isArray(v) ? (v as Line[]) : []);
const sum = (lines: Line[]) => lines.reduce((t, l) => t + (l.amount ?? 0), 0);

/** The order's tax for `amount` of it: the whole tax for the whole order, else in proportion. */
export function taxShare(amount: number, order: ProviderOrder | undefined): number {
  const lines = linesOf(order?.order_details);
  const gross = sum(lines) || amount;
  const tax = order?.order_tax_amount ?? lines.reduce((t, l) => t + lineMinor(l).tax, 0);
  if (!tax) return 0;
  return amount === gross ? tax : Math.round((tax * amount) / gross);
}

/** One item for an amount without lines of its own (the order's tax in proportion). */
function amountItem(description: string, amount: number, job: ConnectorJob): AvardaItem {
  const tax = taxShare(amount, job.order);
  return { description: cut(description), amount: dec(amount, job.currency), taxCode: rateCode(amount - tax > 0 ? (tax / (amount - tax)) * 100 : 0), taxAmount: dec(tax, job.currency), quantity: 1 };
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
 * the purchase JWT): the setting checkout_page_url (AVARDA_CHECKOUT_PAGE_URL) names the page that embeds it; unset, <base>/checkout
 * (the sandbox's imitation of it).
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

/** The merchant's order reference at Avarda (extraIdentifiers.orderReference): its own, else our payment id. */
export const orderReference = (job: ConnectorJob) => job.merchant_order_reference_id ?? job.payment_id;

const LANGUAGE: Record<string, string> = { sv: 'Swedish', nb: 'Norwegian', no: 'Norwegian', nn: 'Norwegian', da: 'Danish', fi: 'Finnish' };
export const isBusiness = (o: ProviderOrder | undefined) => o?.metadata?.buyer_type === 'business';

function addressOf(a: unknown, names: { firstName?: string; lastName?: string; name?: string }) {
  const x = obj(obj(a).address);
  if (!str(x.line1) && !str(x.zip)) return undefined;
  return clean({ ...names, address1: str(x.line1), address2: str(x.line2), zip: str(x.zip), city: str(x.city), country: str(x.country) });
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
  const sNames = business ? names : (() => {
    const s = obj(obj(o?.shipping).address);
    return { firstName: str(s.first_name) ?? names.firstName, lastName: str(s.last_name) ?? names.lastName };
  })();
  const phone = o?.customer?.phone ?? str(obj(billing.phone).number);
  const email = o?.customer?.email ?? job.customer_email ?? str(billing.email);
  const customer = clean({
    invoicingAddress: addressOf(o?.billing, names),
    deliveryAddress: addressOf(o?.shipping, sNames),
    userInputs: clean({ phone: phone ?? undefined, email: email ?? undefined }),
  });
  return {
    method: 'POST', path: '/api/partner/payments', headers: auth(token),
    body: {
      checkoutSetup: clean({
        mode: business ? 'B2B' : 'B2C',
        language: LANGUAGE[locale] ?? 'English',
        completedNotificationUrl: notificationUrl(session),
        termsAndConditionsUrl: str(md.terms_and_conditions_url),
        displayItems: true,
        enableCountrySelector: false,
        invoicingCountries: country ? [country] : undefined,
        deliveryCountries: shipCountry ? [shipCountry] : undefined,
      }),
      items: itemsFor(job, job.amount, linesOf(o?.order_details), o?.description ?? 'Order'),
      extraIdentifiers: { orderReference: orderReference(job) },
      [business ? 'b2B' : 'b2C']: customer,
    },
  };
}

/** The status sync: read the purchase (its step says whether the customer completed the checkout). */
export const readRequest = (job: ConnectorJob, _c: Credentials, token?: string): ProviderRequest =>
  ({ method: 'GET', path: purchase(job), headers: auth(token) });

/** A capture activates (delivers) the items captured: those given, the whole order, or one item for the amount. */
export const activateRequest = (job: ConnectorJob, _c: Credentials, token?: string): ProviderRequest => ({
  method: 'POST', path: `${purchase(job)}/order`, headers: auth(token),
  body: { orderReference: orderReference(job), items: itemsFor(job, job.amount, linesOf(job.capture_details?.order_details), 'Delivery') },
});

/** A void cancels what is left of the purchase (the un-activated amount). */
export const cancelRequest = (job: ConnectorJob, _c: Credentials, token?: string): ProviderRequest =>
  ({ method: 'POST', path: `${purchase(job)}/cancel`, headers: auth(token), body: { reason: job.reason ?? '' } });

/** A refund by amount (2-decimal string), our refund id in the note when no reason is given. */
export const refundRequest = (job: ConnectorJob, _c: Credentials, token?: string): ProviderRequest => ({
  method: 'POST', path: `${purchase(job)}/refund`, headers: auth(token),
  body: { orderReference: orderReference(job), amount: decString(job.amount, job.currency), note: job.reason ?? `Refund ${job.refund_id ?? job.operation_id}` },
});
