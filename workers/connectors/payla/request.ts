// Our operations in PAYONE's Server API dialect: every call is a form-encoded POST of key=value parameters to
// {base}/post-gateway/ with the account parameters (mid, aid, portalid, key = sha384 of the portal key, api_version,
// mode, encoding); amounts in minor units (refunds negative); answers are key=value lines (response.ts). Each point is
// traced to PAYONE's own shop plugins and docs in README.md (Sources).
import { createHash } from 'node:crypto';
import type { z } from 'zod';
import type { ConnectorJob } from '../../../domain/job.ts';
import type { ProviderRequest } from '../kit/http.ts';
import { linesOf, obj, trimmed as str, taxShare, type OrderLine } from '../kit/order.ts';
import type { paylaCredentials } from './manifest.ts';

type Credentials = z.infer<typeof paylaCredentials>;
type Form = Record<string, string>;

export const PATH = '/post-gateway/';
export const API_VERSION = '3.10';
/** PAYONE's test or live mode: one endpoint for both (PAYLA_MODE, default test). */
export const mode = () => (process.env.PAYLA_MODE === 'live' ? 'live' : 'test');

/**
 * `key`: the portal key's SHA-384 (hex), as PAYONE's current plugins send it (woocommerce-3 Request::set_key,
 * shopware-6 AbstractRequestParameterEnricher::createRequest). PAYONE's TransactionStatus carries the MD5 instead.
 */
export const hashedKey = (portalKey: string) => createHash('sha384').update(portalKey, 'utf8').digest('hex');

function call(c: Credentials, params: Form): ProviderRequest {
  return {
    method: 'POST',
    path: PATH,
    answer: 'text',
    headers: { accept: 'text/plain' },
    form: {
      mid: c.key1,
      aid: c.key2,
      portalid: c.api_key,
      key: hashedKey(c.api_secret),
      api_version: API_VERSION,
      mode: mode(),
      encoding: 'UTF-8',
      ...params,
    },
  };
}

/**
 * PAYONE's `reference` (unique per portal, at most 20 of [A-Za-z0-9_./-], UNVERIFIED length): the last 20 such
 * characters of our payment id (pay_ + 26 random characters), so every payment has its own.
 */
export const referenceOf = (paymentId: string) => paymentId.replace(/[^A-Za-z0-9_./-]/g, '').slice(-20);

/** PAYONE numbers the calls on a transaction: the (pre)authorization is 0, each accepted follow-up one more. */
export const sequenceNumber = (job: ConnectorJob) => String((job.follow_ups_before ?? 0) + 1);

// ---- basket ----------------------------------------------------------------------------------------------------

/**
 * PAYONE's va[n]: the VAT rate in basis points (19% -> 1900, 7.7% -> 770), as all three of PAYONE's plugins send it
 * (shopware-6 LineItemHydrator: rate x 100; woocommerce-3 Transaction/Base: round(100 x rate); magento-2
 * Model/Api/Invoice: "expected * 100 to also handle vats with decimals").
 */
export const vatParam = (rate: number) => String(Math.round(rate * 100));

function rateOf(l: OrderLine): number {
  if (l.tax_percentage != null) return l.tax_percentage;
  const gross = l.amount ?? 0;
  const tax = l.total_tax_amount ?? (l.tax_amount != null ? l.tax_amount * (l.quantity ?? 1) : 0);
  return gross - tax > 0 ? Math.round((tax / (gross - tax)) * 1000) / 10 : 0;
}

/**
 * Our order lines as PAYONE basket positions it[n] / id[n] / pr[n] (unit gross, minor units) / no[n] / de[n] / va[n].
 * Unit prices must multiply out exactly: a line whose total does not divide by its quantity goes as one position
 * "3 x Shoe". `sign` -1 for a debit's lines: PAYONE's plugins negate pr[n] on refunds of the secured methods
 * (shopware-6 OrderLinesRequestParameterBuilder, magento-2 Debit setNegatePrice), no[n] stays positive.
 */
export function basketOf(lines: OrderLine[], sign: 1 | -1 = 1): Form {
  const f: Form = {};
  lines.forEach((l, i) => {
    const n = i + 1;
    const q = l.quantity ?? 1;
    const gross = l.amount ?? 0;
    const even = gross % q === 0;
    const name = l.product_name ?? `item ${n}`;
    f[`it[${n}]`] = l.category === 'shipping_costs' ? 'shipment' : gross < 0 ? 'voucher' : 'goods';
    f[`id[${n}]`] = (l.product_id ?? (l.category === 'shipping_costs' ? 'shipping' : `line-${n}`)).slice(0, 32);
    f[`pr[${n}]`] = String(sign * (even ? gross / q : gross));
    f[`no[${n}]`] = String(even ? q : 1);
    f[`de[${n}]`] = (even || q === 1 ? name : `${q} x ${name}`).slice(0, 255);
    f[`va[${n}]`] = vatParam(rateOf(l));
  });
  return f;
}

const orderLines = (job: ConnectorJob) => linesOf(job.order?.order_details);

/**
 * One position for `amount` (minor units): at the order's VAT rate when its lines share one, else with the order's
 * tax in proportion (its rate derived from that).
 */
function onePosition(job: ConnectorJob, amount: number, name: string, id: string): OrderLine {
  const rates = new Set(orderLines(job).map((l) => l.tax_percentage ?? null));
  const [only] = [...rates];
  const line: OrderLine = { product_name: name, quantity: 1, amount, product_id: id };
  return rates.size === 1 && only != null ? { ...line, tax_percentage: only } : { ...line, total_tax_amount: taxShare(amount, job.order) };
}

const grossOf = (lines: OrderLine[]) => lines.reduce((t, l) => t + (l.amount ?? 0), 0);

/** The authorization's basket: the order lines, or one position for the whole amount (rate from order_tax_amount). */
export function authorizeBasket(job: ConnectorJob): Form {
  const lines = orderLines(job);
  if (lines?.length) return basketOf(lines);
  return basketOf([
    {
      product_name: job.order?.description ?? 'Order',
      quantity: 1,
      amount: job.amount,
      product_id: 'order',
      total_tax_amount: job.order?.order_tax_amount ?? 0,
    },
  ]);
}

/**
 * A capture's basket (issue 21: PAYONE's plugins send it on every capture of the secured invoice: woocommerce-3
 * Transaction/Base::should_submit_cart for SecuredInvoice captures, shopware-6 OrderLinesRequestParameterBuilder for
 * SecuredInvoicePaymentHandler, magento-2 Capture::sendRequest): the lines the capture names; else the order's lines
 * when it captures the whole order; else one position for the amount.
 */
export function captureBasket(job: ConnectorJob): Form {
  const named = linesOf(job.capture_details?.order_details);
  if (named.length) return basketOf(named);
  const lines = orderLines(job);
  if (lines.length && grossOf(lines) === job.amount) return basketOf(lines);
  return basketOf([onePosition(job, job.amount, 'Partial delivery', 'capture')]);
}

/**
 * A debit's basket, its prices negative (issue 21: woocommerce-3 sends the refund's articles on every secured-invoice
 * debit, shopware-6 and magento-2 the credit memo's lines with negated prices): the order's lines when the whole order
 * is refunded, else one position for the amount.
 */
export function debitBasket(job: ConnectorJob): Form {
  const lines = orderLines(job);
  if (lines.length && grossOf(lines) === job.amount) return basketOf(lines, -1);
  return basketOf([onePosition(job, job.amount, 'Refund', 'refund')], -1);
}

// ---- the buyer ---------------------------------------------------------------------------------------------------

/** Our billing or shipping `.address` (the merchant's, checked by the gateway): its fields that hold text. */
function addressOf(a: Record<string, unknown> | null | undefined) {
  const o = obj(a?.address);
  return {
    line1: str(o.line1),
    line2: str(o.line2),
    zip: str(o.zip),
    city: str(o.city),
    country: str(o.country),
    first_name: str(o.first_name),
    last_name: str(o.last_name),
  };
}

/** 1980-02-03 -> 19800203 (PAYONE's birthday); anything else is passed on for PAYONE to refuse. */
export const birthday = (date: string) => (/^\d{4}-\d{2}-\d{2}$/.test(date) ? date.replaceAll('-', '') : date);

/** A phone as PAYONE's telephonenumber: digits only, the country code in front (+49 151... -> 49151...). */
export function phoneOf(job: ConnectorJob): string | undefined {
  const c = job.order?.customer;
  const billing = obj(job.order?.billing?.phone);
  const number = str(billing.number);
  const raw = c?.phone
    ? `${c.phone.startsWith('+') ? '' : (c.phone_country_code ?? '')}${c.phone}`
    : number
      ? `${str(billing.country_code) ?? ''}${number}`
      : undefined;
  return raw?.replace(/\D/g, '') || undefined;
}

export const isBusiness = (job: ConnectorJob) => ['business', 'b2b', 'company'].includes(String(job.order?.metadata?.buyer_type ?? '').toLowerCase());

export function buyerOf(job: ConnectorJob): Form {
  const o = job.order;
  const md = o?.metadata ?? {};
  const b = addressOf(o?.billing);
  const [first, ...rest] = (o?.customer?.name ?? '').trim().split(/\s+/);
  const business = isBusiness(job);
  const f: Form = {
    firstname: b.first_name ?? first ?? '',
    lastname: b.last_name ?? rest.join(' '),
    street: [b.line1, b.line2].filter(Boolean).join(' '),
    zip: b.zip ?? '',
    city: b.city ?? '',
    country: b.country ?? '',
    email: job.customer_email ?? o?.customer?.email ?? '',
    businessrelation: business ? 'b2b' : 'b2c',
  };
  const phone = phoneOf(job);
  if (phone) f.telephonenumber = phone;
  const dob = str(md.birth_date) ?? o?.birth_date ?? undefined;
  if (dob) f.birthday = birthday(dob);
  const locale = str(md.customer_locale) ?? o?.locale ?? undefined;
  if (locale) f.language = locale.slice(0, 2).toLowerCase();
  if (business) {
    if (str(md.company_name)) f.company = str(md.company_name)!;
    if (str(md.company_vat_id)) f.vatid = str(md.company_vat_id)!;
  }
  if (o?.customer?.id) f.customerid = o.customer.id.slice(0, 20);
  const s = addressOf(o?.shipping);
  if (s?.line1) {
    Object.assign(f, {
      shipping_firstname: s.first_name ?? f.firstname,
      shipping_lastname: s.last_name ?? f.lastname,
      shipping_street: [s.line1, s.line2].filter(Boolean).join(' '),
      shipping_zip: s.zip ?? '',
      shipping_city: s.city ?? '',
      shipping_country: s.country ?? '',
      ...(business && f.company ? { shipping_company: f.company } : {}),
    });
  }
  return f;
}

export const isManual = (job: ConnectorJob) => job.capture_method === 'manual' || job.capture_method === 'manual_multiple';

/**
 * The customer's IP address (issue 21: `ip` is required on the secured invoice's (pre)authorization, docs.payone.com
 * "PAYONE - Secured Invoice", ip CHAR(1..39); the plugins send the shopper's address): browser_info.ip_address, which
 * the manifest requires (the gateway refuses a payment without it, naming the field). Absent only for a payment
 * confirmed before the requirement: then no `ip` is sent and PAYONE's parameter error declines it.
 */
export const ipOf = (job: ConnectorJob): string | undefined => str(obj(job.order?.browser_info).ip_address)?.slice(0, 39);

/** The Payla device token: browser_info.device_fingerprint.payla, else metadata.device_token. */
export function deviceToken(job: ConnectorJob): string {
  return str(obj(obj(job.order?.browser_info).device_fingerprint).payla) ?? str(job.order?.metadata?.device_token) ?? '';
}

/** preauthorization (manual capture) or authorization (automatic: reserved and captured at once), secured invoice. */
export const authorizeRequest = (job: ConnectorJob, c: Credentials): ProviderRequest =>
  call(c, {
    request: isManual(job) ? 'preauthorization' : 'authorization',
    clearingtype: 'fnc',
    financingtype: 'PIV',
    amount: String(job.amount),
    currency: job.currency,
    reference: referenceOf(job.payment_id),
    ...buyerOf(job),
    ...authorizeBasket(job),
    'add_paydata[device_token]': deviceToken(job),
    ...(ipOf(job) ? { ip: ipOf(job)! } : {}),
    ...(job.merchant_order_reference_id ? { param: job.merchant_order_reference_id.slice(0, 255) } : {}),
  });

/**
 * A capture of part or all of what is authorized, with its basket. No `capturemode` and no `settleaccount`
 * (issue 21: shopware-6 CaptureRequestParameterBuilder unsets capturemode for PaymentHandlerGroups::BNPL, woocommerce-3
 * Transaction/Capture sends neither): PAYONE keeps what is not captured reserved for further captures.
 */
export function captureRequest(job: ConnectorJob, c: Credentials): ProviderRequest {
  return call(c, {
    request: 'capture',
    txid: job.connector_transaction_id ?? '',
    sequencenumber: sequenceNumber(job),
    amount: String(job.amount),
    currency: job.currency,
    ...captureBasket(job),
  });
}

/** A void: a capture of 0, which releases what is left of the reservation (no basket: nothing is captured). */
export const voidRequest = (job: ConnectorJob, c: Credentials): ProviderRequest =>
  call(c, {
    request: 'capture',
    txid: job.connector_transaction_id ?? '',
    sequencenumber: sequenceNumber(job),
    amount: '0',
    currency: job.currency,
  });

/** A refund: request=debit with the negative amount and its basket (prices negative). */
export const refundRequest = (job: ConnectorJob, c: Credentials): ProviderRequest =>
  call(c, {
    request: 'debit',
    txid: job.connector_transaction_id ?? '',
    sequencenumber: sequenceNumber(job),
    amount: String(-job.amount),
    currency: job.currency,
    ...debitBasket(job),
    ...(job.reason ? { narrative_text: job.reason.slice(0, 81) } : {}),
  });
