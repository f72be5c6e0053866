// Our operations in Ratepay's Payment API 2.0 dialect: OAuth2 client-credentials token, then JSON calls under
// {base}/transaction/management/v2/transactions with decimal (major-unit) amounts and a shop basket per call.
import type { z } from 'zod';
import type { ConnectorJob, ProviderOrder } from '../../../domain/job.ts';
import { maybeAnswer } from '../kit/answer.ts';
import type { ProviderRequest } from '../kit/http.ts';
import { major, taxRatePercent } from '../kit/money.ts';
import { linesOf, obj, str, type OrderLine } from '../kit/order.ts';
import { type Environment, environment, inSandbox, type Session } from '../kit/session.ts';
import type { ratepayCredentials } from './manifest.ts';
import type { RatepayAuthorizationRequest, RatepayBuyer, RatepayFollowUpRequest, RatepayItem, RatepayShopBasket, RatepayTokenRequest } from './schemas.ts';
import { RatepayTransaction } from './schemas.ts';
import { captured, transactionState } from './state.ts';

type Credentials = z.infer<typeof ratepayCredentials>;

/** Ratepay's OAuth2 server (one for the integration and the production API; the audience tells them apart). */
export const RATEPAY_OAUTH_URL = 'https://oauth.ratepay.com';

/**
 * Where the calls go (the runtime's environment for the call). The provider sandbox mounts Ratepay at /ratepay (its
 * token endpoint too); the real API lives under /transaction/management of the API host (https://api-integration.
 * ratepay.com, https://api.ratepay.com), its token server on its own host.
 */
export function endpoints(env: Partial<Environment> | undefined) {
  const { base_url } = environment(env);
  const sandbox = inSandbox(env);
  const api = sandbox ? '/ratepay/transaction/management' : '/transaction/management';
  return {
    api,
    /** The token is for this API: Ratepay's `audience`. */
    audience: `${base_url}${api}`,
    token: sandbox ? { path: '/ratepay/oauth/token' } : { baseUrl: RATEPAY_OAUTH_URL, path: '/oauth/token' },
  };
}

export const tokenRequest = (c: Credentials, env?: Partial<Environment>): ProviderRequest => {
  const e = endpoints(env);
  const body: z.infer<typeof RatepayTokenRequest> = { client_id: c.api_key, client_secret: c.key1, audience: e.audience, grant_type: 'client_credentials' };
  return { method: 'POST', path: e.token.path, ...(e.token.baseUrl ? { baseUrl: e.token.baseUrl } : {}), body };
};

const auth = (s: Session | undefined) => ({ authorization: `Bearer ${s?.access_token ?? ''}` });
const tx = (job: ConnectorJob, s: Session | undefined) => `${endpoints(s).api}/v2/transactions/${encodeURIComponent(job.connector_transaction_id ?? '')}`;

// ---- amounts and baskets ----------------------------------------------------------------------------------------

type Item = z.infer<typeof RatepayItem>;
type Basket = z.infer<typeof RatepayShopBasket>;

/** Minor units -> Ratepay's decimal number, exactly (12345 EUR -> 123.45; at most 2 decimals, createTransaction). */
export const dec = major;

/** A line in minor units: gross and net totals, rate. Tax: total_tax_amount, else tax_amount per unit, else from the rate. */
function lineMinor(l: OrderLine) {
  const q = l.quantity ?? 1;
  const gross = l.amount ?? 0;
  const rate = l.tax_percentage ?? null;
  const tax = l.total_tax_amount ?? (l.tax_amount != null ? l.tax_amount * q : rate != null ? gross - Math.round((gross * 100) / (100 + rate)) : 0);
  const net = gross - tax;
  // A rate derived from amounts is rounded to one decimal (19, 7, 8.1, 2.6): cent rounding skews it slightly.
  return { q, gross, net, tax, rate: rate ?? taxRatePercent(gross, tax, 1) };
}

/**
 * Our order lines as Ratepay items (shipping costs as special items), and one vats entry per rate (Ratepay refuses
 * MULTIPLE_VAT_OBJECTS_PER_TAX_RATE_NOT_ALLOWED). Unit prices must multiply out exactly: a line whose total does not
 * divide by its quantity is sent as one item named "3 x Shoe".
 */
export function itemsOf(lines: OrderLine[], currency: string): Required<Pick<Basket, 'items' | 'vats'>> & Pick<Basket, 'special_items'> {
  const items: Item[] = [];
  const special: Item[] = [];
  const vats = new Map<number, { net: number; tax: number }>();
  lines.forEach((l, i) => {
    const m = lineMinor(l);
    const even = m.gross % m.q === 0 && m.net % m.q === 0;
    const q = even ? m.q : 1;
    const name = l.product_name ?? `item ${i + 1}`;
    const item: Item = {
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
    items,
    ...(special.length ? { special_items: special } : {}),
    vats: [...vats].map(([tax_rate, v]) => ({ tax_rate, net_amount: dec(v.net, currency), tax_amount: dec(v.tax, currency) })),
  };
}

const orderLines = (o: ProviderOrder | undefined) => linesOf(o?.order_details);
const sum = (lines: OrderLine[]) => lines.reduce((t, l) => t + (l.amount ?? 0), 0);

/** The partner shop: the payment's metadata.partner_shop_id (spec 2.5), else the connector account's key2. */
export const partnerShopId = (job: ConnectorJob, c: Credentials) =>
  str(job.capture_details?.metadata?.partner_shop_id) ?? str(job.order?.metadata?.partner_shop_id) ?? c.key2 ?? '';

/** Ratepay's partner_transaction_id (1..50) and shop_transaction_id (1..127): the merchant's order reference when it
 * fits 50, else our payment id (30). */
export const shopTransactionId = (job: ConnectorJob) =>
  job.merchant_order_reference_id && job.merchant_order_reference_id.length <= 50 ? job.merchant_order_reference_id : job.payment_id;

/** The authorization's basket: the order lines, or one line for the whole amount (tax from order_tax_amount). */
export function authorizeBasket(job: ConnectorJob, c: Credentials): Basket {
  const lines = orderLines(job.order);
  const given: OrderLine[] = lines.length
    ? lines
    : [
        {
          product_name: job.order?.description ?? 'Order',
          quantity: 1,
          amount: job.amount,
          product_id: 'order',
          total_tax_amount: job.order?.order_tax_amount ?? 0,
        },
      ];
  return {
    partner_shop_id: partnerShopId(job, c),
    shop_transaction_id: shopTransactionId(job),
    gross_amount: dec(job.amount, job.currency),
    ...itemsOf(given, job.currency),
  };
}

type FollowUp = z.infer<typeof RatepayFollowUpRequest>;

/**
 * A follow-up (capture, cancellation, refund): the lines given for it; else, when the amount is the whole order, the
 * order's lines; else the amount alone (captureTransaction requires gross_amount only; refunds may be "amount-based").
 */
export function followUp(job: ConnectorJob, c: Credentials, lines: OrderLine[], partnerOperationId: string): FollowUp {
  const order = orderLines(job.order);
  const chosen = lines.length ? lines : order.length && sum(order) === job.amount ? order : null;
  return {
    partner_shop_id: partnerShopId(job, c),
    shop_transaction_id: shopTransactionId(job),
    gross_amount: dec(job.amount, job.currency),
    partner_operation_id: partnerOperationId,
    ...(chosen ? itemsOf(chosen, job.currency) : {}),
  };
}

// ---- the buyer --------------------------------------------------------------------------------------------------

/** "Allee 84a" -> street "Allee", street_number "84a"; no trailing number: the whole line is the street. */
export function splitStreet(line1: string): { street: string; street_number?: string } {
  const m = /^(.*\S)\s+(\d+\s?[a-zA-Z]?(?:\s?[-/]\s?\d+\s?[a-zA-Z]?)?)$/.exec(line1.trim());
  return m ? { street: m[1]!, street_number: m[2]! } : { street: line1.trim() };
}

/** Our address (billing or shipping .address) as its fields, whatever the merchant sent. */
function addressOf(a: Record<string, unknown> | null | undefined) {
  const x = obj(a?.address);
  return {
    line1: str(x.line1),
    line2: str(x.line2),
    zip: str(x.zip),
    city: str(x.city),
    country: str(x.country),
    first_name: str(x.first_name),
    last_name: str(x.last_name),
  };
}

function ratepayAddress(a: ReturnType<typeof addressOf>): z.infer<typeof RatepayBuyer>['billing_address'] {
  return {
    ...splitStreet(a.line1 ?? ''),
    ...(a.line2 ? { street_addition: a.line2 } : {}),
    zip_code: a.zip ?? '',
    city: a.city ?? '',
    country_code: a.country ?? '',
  };
}

/** The buyer's names: billing's, else the customer's name split at its first blank. */
function namesOf(job: ConnectorJob): { firstName: string; lastName: string } {
  const billing = addressOf(job.order?.billing);
  const [first, ...rest] = (job.order?.customer?.name ?? '').trim().split(/\s+/);
  return { firstName: billing.first_name ?? (first || ''), lastName: billing.last_name ?? rest.join(' ') };
}

/** The buyer's phone as one string, its country code in front ("+49 177 4445555"): the customer's, else billing's. */
export function phoneOf(o: ProviderOrder | undefined): string | undefined {
  const billing = obj(o?.billing?.phone);
  const own = str(o?.customer?.phone);
  const number = own ?? str(billing.number);
  if (!number) return undefined;
  const code = own ? str(o?.customer?.phone_country_code) : str(billing.country_code);
  return code && !number.startsWith('+') && !number.startsWith('00') ? `${code} ${number}` : number;
}

/**
 * The buyer: a person (B2C: names, date_of_birth) or, for metadata.buyer_type 'business', a company. Ratepay's person
 * has title, first_name, last_name and date_of_birth only (no gender, unlike Payment API 1.8); contact.phone is a
 * plain string (every Ratepay example: "+49 177 4445555").
 */
export function buyerOf(job: ConnectorJob): z.infer<typeof RatepayBuyer> {
  const o = job.order;
  const md = o?.metadata ?? {};
  const billing = addressOf(o?.billing);
  const { firstName, lastName } = namesOf(job);
  const locale = str(md.customer_locale) ?? o?.locale ?? null;
  const business = md.buyer_type === 'business';
  const phone = phoneOf(o);
  const vatId = str(md.company_vat_id);
  return {
    // B2B: the company (its VAT id where given); B2C: the person, with the date of birth Ratepay's check needs.
    ...(business
      ? { company: { name: str(md.company_name) ?? '', ...(vatId ? { vat_id: vatId } : {}) } }
      : { person: { first_name: firstName, last_name: lastName, date_of_birth: str(md.birth_date) ?? o?.birth_date ?? '' } }),
    billing_address: ratepayAddress(billing),
    contact: { email: job.customer_email ?? '', ...(phone ? { phone } : {}) },
    language: (locale ?? billing.country ?? 'de').slice(0, 2).toLowerCase(),
    ...(o?.customer?.id ? { shop_buyer_id: o.customer.id } : {}),
  };
}

export const isManual = (job: ConnectorJob) => job.capture_method === 'manual' || job.capture_method === 'manual_multiple';

export const authorizeRequest = (job: ConnectorJob, c: Credentials, s?: Session): ProviderRequest => {
  const o = job.order;
  const bi = obj(o?.browser_info);
  const ip = str(bi.ip_address);
  const shipping = addressOf(o?.shipping);
  const company = o?.metadata?.buyer_type === 'business' ? str(o.metadata.company_name) : undefined;
  const body: z.infer<typeof RatepayAuthorizationRequest> = {
    buyer: buyerOf(job),
    currency: job.currency,
    device: {
      token: str(obj(bi.device_fingerprint).ratepay) ?? str(o?.metadata?.device_token) ?? '',
      ...(ip ? { source_ip_address: ip } : {}),
    },
    partner_transaction_id: shopTransactionId(job),
    partner_operation_id: job.operation_id,
    payment_method: { payment_option: 'OPEN_INVOICE', transfer_type: 'BANK_TRANSFER' },
    ...(shipping.line1
      ? {
          // The recipient: the shipping address's names, else the buyer's.
          delivery: {
            first_name: shipping.first_name ?? namesOf(job).firstName,
            last_name: shipping.last_name ?? namesOf(job).lastName,
            ...(company ? { company } : {}),
            address: ratepayAddress(shipping),
          },
        }
      : {}),
    shop_baskets: [authorizeBasket(job, c)],
  };
  return {
    method: 'POST',
    path: `${endpoints(s).api}/v2/transactions`,
    idempotencyKey: job.operation_id,
    headers: { ...auth(s), prefer: 'return=representation' },
    body,
  };
};

/** The status sync reads the transaction (GET /v2/transactions/{id}). */
export const syncRequest = (job: ConnectorJob, _c: Credentials, s?: Session): ProviderRequest => ({ method: 'GET', path: tx(job, s), headers: auth(s) });

/**
 * After the read, an automatic-capture payment whose transaction is authorized (no decline, no passcode awaited) and
 * not captured yet is captured, whole, keyed apart from the authorization; a manual one, or any other state, needs no
 * further call (a capture the read links was ours: a sync after it, even past the key's 24 hours, sends none).
 */
export function syncNext(job: ConnectorJob, c: Credentials, answers: readonly { status: number; body: unknown }[], s?: Session): ProviderRequest | null {
  if (isManual(job) || answers.length !== 1 || answers[0]!.status >= 400) return null;
  const read = maybeAnswer(RatepayTransaction, answers[0]!);
  if (!read || transactionState(read).kind !== 'AUTHORIZED' || captured(read)) return null;
  return autoCaptureRequest(job, c, s);
}

/** The capture of an automatic-capture payment: the whole order, keyed apart from the authorization. */
export const autoCaptureRequest = (job: ConnectorJob, c: Credentials, s?: Session): ProviderRequest => ({
  method: 'POST',
  path: `${tx(job, s)}/captures`,
  idempotencyKey: `${job.operation_id}-capture`,
  headers: auth(s),
  body: followUp(job, c, [], `${job.operation_id}-capture`),
});

/** The invoice number Ratepay prints (partner_invoice_id, at most 50): capture_metadata.invoice_data.merchant_invoice_ref, else metadata.invoice_number. */
export function invoiceIdOf(job: ConnectorJob): string | undefined {
  const cd = job.capture_details;
  return str(obj(cd?.capture_metadata?.invoice_data).merchant_invoice_ref) ?? str(cd?.metadata?.invoice_number) ?? str(job.order?.metadata?.invoice_number);
}

export const captureRequest = (job: ConnectorJob, c: Credentials, s?: Session): ProviderRequest => {
  const invoice = invoiceIdOf(job);
  const body: FollowUp = {
    ...followUp(job, c, linesOf(job.capture_details?.order_details), job.operation_id),
    ...(invoice ? { partner_invoice_id: invoice } : {}),
  };
  return { method: 'POST', path: `${tx(job, s)}/captures`, idempotencyKey: job.operation_id, headers: auth(s), body };
};

/** A cancellation of what is left of the authorization (the job's amount: the capturable amount). */
export const voidRequest = (job: ConnectorJob, c: Credentials, s?: Session): ProviderRequest => ({
  method: 'POST',
  path: `${tx(job, s)}/cancellations`,
  idempotencyKey: job.operation_id,
  headers: auth(s),
  body: followUp(job, c, [], job.operation_id),
});

/** A refund names our refund id as its partner_operation_id. */
export const refundRequest = (job: ConnectorJob, c: Credentials, s?: Session): ProviderRequest => ({
  method: 'POST',
  path: `${tx(job, s)}/refunds`,
  idempotencyKey: job.operation_id,
  headers: auth(s),
  body: followUp(job, c, [], job.refund_id ?? job.operation_id),
});

export const refundSyncRequest = (job: ConnectorJob, _c: Credentials, s?: Session): ProviderRequest => ({
  method: 'GET',
  path: `${tx(job, s)}/refunds/${encodeURIComponent(job.connector_refund_id ?? '')}`,
  headers: auth(s),
});
