// Our operations in Ratepay's Payment API 2.0 dialect: OAuth2 client-credentials token, then JSON calls under
// {base}/transaction/management/v2/transactions with decimal (major-unit) amounts and a shop basket per call.
import type { z } from 'zod';
import type { ConnectorJob, ProviderOrder } from '../../../domain/job.ts';
import { major } from '../kit/money.ts';
import type { ProviderRequest } from '../kit/http.ts';
import { environment, type Environment } from '../kit/session.ts';
import { str } from '../kit/order.ts';
import type { ratepayCredentials } from './manifest.ts';

type Credentials = z.infer<typeof ratepayCredentials>;

/** Ratepay's OAuth2 server (one for the integration and the production API; the audience tells them apart). */
export const RATEPAY_OAUTH_URL = 'https://oauth.ratepay.com';

/**
 * Where the calls go. The provider sandbox mounts Ratepay at /ratepay (its token endpoint too); the real API lives
 * under /transaction/management of the API host, its token server on its own host.
 */
export function endpoints(env: Partial<Environment> | undefined) {
  const { base_url: baseUrl, sandbox_url: sandboxUrl } = environment(env);
  const sandbox = baseUrl === sandboxUrl;
  const api = sandbox ? '/ratepay/transaction/management' : '/transaction/management';
  return {
    api,
    /** The token is for this API: Ratepay's `audience`. */
    audience: `${baseUrl}${api}`,
    token: sandbox ? { path: '/ratepay/oauth/token' } : { baseUrl: RATEPAY_OAUTH_URL, path: '/oauth/token' },
  };
}

export const tokenRequest = (c: Credentials, env?: Partial<Environment>): ProviderRequest => {
  const e = endpoints(env);
  return {
    method: 'POST', path: e.token.path, ...(e.token.baseUrl ? { baseUrl: e.token.baseUrl } : {}),
    body: { client_id: c.api_key, client_secret: c.key1, audience: e.audience, grant_type: 'client_credentials' },
  };
};

const auth = (token: string | undefined) => ({ authorization: `Bearer ${token ?? ''}` });
const tx = (job: ConnectorJob, env: Partial<Environment> | undefined) => `${endpoints(env).api}/v2/transactions/${encodeURIComponent(job.connector_transaction_id ?? '')}`;

// ---- amounts and baskets ----------------------------------------------------------------------------------------

/** Minor units -> Ratepay's decimal number, exactly (12345 EUR -> 123.45). */
export const dec = major;

export interface RatepayItem {
  article_number: string;
  name: string;
  category?: string;
  quantity: number;
  tax_rate: number;
  gross_unit_price: number;
  net_unit_price: number;
  gross_total_price: number;
  net_total_price: number;
}
export interface RatepayBasket {
  partner_shop_id: string;
  shop_transaction_id: string;
  gross_amount: number;
  items?: RatepayItem[];
  special_items?: RatepayItem[];
  vats?: { tax_rate: number; net_amount: number; tax_amount: number }[];
}

interface OrderLine {
  product_name?: string; quantity?: number; amount?: number; product_id?: string | null; category?: string | null;
  tax_percentage?: number | null; tax_amount?: number | null; total_tax_amount?: number | null;
}

/** A line in minor units: gross and net totals, rate. Tax: total_tax_amount, else tax_amount per unit, else from the rate. */
function lineMinor(l: OrderLine) {
  const q = l.quantity ?? 1;
  const gross = l.amount ?? 0;
  const rate = l.tax_percentage ?? null;
  const tax = l.total_tax_amount ?? (l.tax_amount != null ? l.tax_amount * q : rate != null ? gross - Math.round((gross * 100) / (100 + rate)) : 0);
  const net = gross - tax;
  // A rate derived from amounts is rounded to one decimal (19, 7, 8.1, 2.6): cent rounding skews it slightly.
  return { q, gross, net, tax, rate: rate ?? (net > 0 ? Math.round((tax / net) * 1000) / 10 : 0) };
}

/**
 * Our order lines as Ratepay items (shipping costs as special items). Unit prices must multiply out exactly: a line
 * whose total does not divide by its quantity is sent as one item named "3 x Shoe".
 */
export function itemsOf(lines: OrderLine[], currency: string) {
  const items: RatepayItem[] = [];
  const special: RatepayItem[] = [];
  const vats = new Map<number, { net: number; tax: number }>();
  lines.forEach((l, i) => {
    const m = lineMinor(l);
    const even = m.gross % m.q === 0 && m.net % m.q === 0;
    const q = even ? m.q : 1;
    const name = l.product_name ?? `item ${i + 1}`;
    const item: RatepayItem = {
      article_number: l.product_id ?? `line-${i + 1}`,
      name: even || m.q === 1 ? name : `${m.q} x ${name}`,
      ...(l.category ? { category: l.category } : {}),
      quantity: q,
      tax_rate: m.rate,
      gross_unit_price: dec(m.gross / q, currency),
      net_unit_price: dec(m.net / q, currency),
      gross_total_price: dec(m.gross, currency),
      net_total_price: dec(m.net, currency),
    };
    (l.category === 'shipping_costs' ? special : items).push(item);
    const v = vats.get(m.rate) ?? { net: 0, tax: 0 };
    vats.set(m.rate, { net: v.net + m.net, tax: v.tax + m.tax });
  });
  return {
    items, ...(special.length ? { special_items: special } : {}),
    vats: [...vats].map(([tax_rate, v]) => ({ tax_rate, net_amount: dec(v.net, currency), tax_amount: dec(v.tax, currency) })),
  };
}

const orderLines = (o: ProviderOrder | undefined) => (o?.order_details ?? null) as OrderLine[] | null;
const sum = (lines: OrderLine[]) => lines.reduce((t, l) => t + (l.amount ?? 0), 0);

/** The partner shop: the payment's metadata.partner_shop_id (spec 2.5), else the connector account's key2. */
export const partnerShopId = (job: ConnectorJob, c: Credentials) =>
  str(job.capture_details?.metadata?.partner_shop_id) ?? str(job.order?.metadata?.partner_shop_id) ?? c.key2 ?? '';

/** Ratepay's partner_transaction_id (1-50): the merchant's order reference, else our payment id. */
export const shopTransactionId = (job: ConnectorJob) =>
  job.merchant_order_reference_id && job.merchant_order_reference_id.length <= 50 ? job.merchant_order_reference_id : job.payment_id;

/** The authorization's basket: the order lines, or one line for the whole amount (tax from order_tax_amount). */
export function authorizeBasket(job: ConnectorJob, c: Credentials): RatepayBasket {
  const lines = orderLines(job.order);
  const given: OrderLine[] = lines?.length ? lines : [{
    product_name: job.order?.description ?? 'Order', quantity: 1, amount: job.amount, product_id: 'order',
    total_tax_amount: job.order?.order_tax_amount ?? 0,
  }];
  return { partner_shop_id: partnerShopId(job, c), shop_transaction_id: shopTransactionId(job), gross_amount: dec(job.amount, job.currency), ...itemsOf(given, job.currency) };
}

/**
 * A follow-up's basket (capture, cancellation, refund): the lines given for it; else, when the amount is the whole
 * order, the order's lines; else the amount alone (part of an order without lines: UNVERIFIED that Ratepay takes it).
 */
export function followUpBasket(job: ConnectorJob, c: Credentials, lines: OrderLine[] | null): RatepayBasket {
  const order = orderLines(job.order);
  const chosen = lines?.length ? lines : order?.length && sum(order) === job.amount ? order : null;
  return {
    partner_shop_id: partnerShopId(job, c), shop_transaction_id: shopTransactionId(job), gross_amount: dec(job.amount, job.currency),
    ...(chosen ? itemsOf(chosen, job.currency) : {}),
  };
}

// ---- the buyer --------------------------------------------------------------------------------------------------

/** "Allee 84a" -> street "Allee", street_number "84a"; no trailing number: the whole line is the street. */
export function splitStreet(line1: string): { street: string; street_number?: string } {
  const m = /^(.*\S)\s+(\d+\s?[a-zA-Z]?(?:\s?[-/]\s?\d+\s?[a-zA-Z]?)?)$/.exec(line1.trim());
  return m ? { street: m[1]!, street_number: m[2]! } : { street: line1.trim() };
}

type Address = { line1?: string; line2?: string; zip?: string; city?: string; country?: string; first_name?: string; last_name?: string };
const addressOf = (a: Record<string, unknown> | null | undefined) => ((a?.address ?? null) as Address | null);

function ratepayAddress(a: Address) {
  return {
    ...splitStreet(a.line1 ?? ''),
    ...(a.line2 ? { street_addition: a.line2 } : {}),
    zip_code: a.zip ?? '', city: a.city ?? '', country_code: a.country ?? '',
  };
}

const GENDER: Record<string, string> = { male: 'M', m: 'M', female: 'F', f: 'F', diverse: 'U', other: 'U', u: 'U' };

/** The buyer: a person (B2C: names, date_of_birth) or, for metadata.buyer_type 'business', a company. */
export function buyerOf(job: ConnectorJob) {
  const o = job.order;
  const md = o?.metadata ?? {};
  const billing = addressOf(o?.billing) ?? {};
  const [first, ...rest] = (o?.customer?.name ?? '').trim().split(/\s+/);
  const firstName = billing.first_name ?? first ?? '';
  const lastName = billing.last_name ?? rest.join(' ');
  const locale = str(md.customer_locale) ?? o?.locale ?? null;
  const gender = GENDER[(str(md.gender) ?? o?.gender ?? '').toLowerCase()];
  const business = md.buyer_type === 'business';
  const phone = o?.customer?.phone ?? (o?.billing?.phone as { number?: string } | undefined)?.number;
  return {
    // B2B: the company (its VAT id where given); B2C: the person, with the date of birth Ratepay's check needs.
    ...(business
      ? { company: { name: str(md.company_name) ?? '', ...(str(md.company_vat_id) ? { vat_id: str(md.company_vat_id) } : {}) } }
      : {
        person: {
          first_name: firstName, last_name: lastName, date_of_birth: str(md.birth_date) ?? o?.birth_date ?? '',
          ...(gender ? { gender } : {}),
        },
      }),
    billing_address: ratepayAddress(billing),
    contact: { email: job.customer_email ?? '', ...(phone ? { phone: { direct_dial: phone } } : {}) },
    language: (locale ?? billing.country ?? 'de').slice(0, 2).toLowerCase(),
    ...(o?.customer?.id ? { shop_buyer_id: o.customer.id } : {}),
  };
}

const isManual = (job: ConnectorJob) => job.capture_method === 'manual' || job.capture_method === 'manual_multiple';
export { isManual };

export const authorizeRequest = (job: ConnectorJob, c: Credentials, token?: string, env?: Partial<Environment>): ProviderRequest => {
  const o = job.order;
  const bi = (o?.browser_info ?? {}) as { ip_address?: string; device_fingerprint?: { ratepay?: string } };
  const shipping = addressOf(o?.shipping);
  return {
    method: 'POST', path: `${endpoints(env).api}/v2/transactions`, idempotencyKey: job.operation_id,
    headers: { ...auth(token), prefer: 'return=representation' },
    body: {
      buyer: buyerOf(job),
      currency: job.currency,
      device: {
        token: bi.device_fingerprint?.ratepay ?? str(o?.metadata?.device_token) ?? '',
        ...(bi.ip_address ? { source_ip_address: bi.ip_address } : {}),
      },
      partner_transaction_id: shopTransactionId(job),
      partner_operation_id: job.operation_id,
      payment_method: { payment_option: 'OPEN_INVOICE', transfer_type: 'BANK_TRANSFER' },
      ...(shipping?.line1 ? {
        delivery: {
          first_name: shipping.first_name ?? '', last_name: shipping.last_name ?? '',
          ...(o?.metadata?.buyer_type === 'business' && str(o.metadata.company_name) ? { company: str(o.metadata.company_name) } : {}),
          address: ratepayAddress(shipping),
        },
      } : {}),
      shop_baskets: [authorizeBasket(job, c)],
    },
  };
};

/** Manual capture: read the transaction. Automatic capture: the capture that follows the authorization, once. */
export const syncRequest = (job: ConnectorJob, c: Credentials, token?: string, env?: Partial<Environment>): ProviderRequest =>
  isManual(job) ? { method: 'GET', path: tx(job, env), headers: auth(token) } : autoCaptureRequest(job, c, token, env);

/** The capture of an automatic-capture payment: the whole order, keyed apart from the authorization. */
export const autoCaptureRequest = (job: ConnectorJob, c: Credentials, token?: string, env?: Partial<Environment>): ProviderRequest => ({
  method: 'POST', path: `${tx(job, env)}/captures`, idempotencyKey: `${job.operation_id}-capture`, headers: auth(token),
  body: { ...followUpBasket(job, c, null), partner_operation_id: `${job.operation_id}-capture` },
});

/** The invoice number Ratepay prints: capture_metadata.invoice_data.merchant_invoice_ref, else metadata.invoice_number. */
export function invoiceIdOf(job: ConnectorJob): string | undefined {
  const cd = job.capture_details;
  const invoice = (cd?.capture_metadata?.invoice_data ?? null) as { merchant_invoice_ref?: string } | null;
  return str(invoice?.merchant_invoice_ref) ?? str(cd?.metadata?.invoice_number) ?? str(job.order?.metadata?.invoice_number);
}

export const captureRequest = (job: ConnectorJob, c: Credentials, token?: string, env?: Partial<Environment>): ProviderRequest => {
  const invoice = invoiceIdOf(job);
  return {
    method: 'POST', path: `${tx(job, env)}/captures`, idempotencyKey: job.operation_id, headers: auth(token),
    body: {
      ...followUpBasket(job, c, (job.capture_details?.order_details ?? null) as OrderLine[] | null),
      partner_operation_id: job.operation_id,
      ...(invoice ? { partner_invoice_id: invoice } : {}),
    },
  };
};

/** A cancellation of what is left of the authorization (the job's amount: the capturable amount). */
export const voidRequest = (job: ConnectorJob, c: Credentials, token?: string, env?: Partial<Environment>): ProviderRequest => ({
  method: 'POST', path: `${tx(job, env)}/cancellations`, idempotencyKey: job.operation_id, headers: auth(token),
  body: { ...followUpBasket(job, c, null), partner_operation_id: job.operation_id },
});

/** A refund names our refund id as its partner_operation_id. */
export const refundRequest = (job: ConnectorJob, c: Credentials, token?: string, env?: Partial<Environment>): ProviderRequest => ({
  method: 'POST', path: `${tx(job, env)}/refunds`, idempotencyKey: job.operation_id, headers: auth(token),
  body: { ...followUpBasket(job, c, null), partner_operation_id: job.refund_id ?? job.operation_id },
});

export const refundSyncRequest = (job: ConnectorJob, _c: Credentials, token?: string, env?: Partial<Environment>): ProviderRequest =>
  ({ method: 'GET', path: `${tx(job, env)}/refunds/${encodeURIComponent(job.connector_refund_id ?? '')}`, headers: auth(token) });
