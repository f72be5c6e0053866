// Our operations in Zaver's dialect (Payment Link API v2, Refund API v1): JSON bodies, amounts as JSON numbers in
// major units (converted exactly from our minor units), VAT per line as a rate and an absolute amount, the API key
// in `Authorization: Bearer`. Zaver's callbacks go to merchantUrls.callbackUrl: our gateway's address for the account.
import type { ConnectorJob, ProviderOrder } from '../../../domain/job.ts';
import { major } from '../kit/money.ts';
import type { ProviderRequest } from '../kit/http.ts';
import { notificationUrl, type Session } from '../kit/session.ts';
import { int, lineTax, linesOf, obj, perUnit, str } from '../kit/order.ts';

export const PAYMENTS = '/payments/link/v2';
export const REFUNDS = '/refund/v1';

const auth = (apiKey: string) => ({ authorization: `Bearer ${apiKey}` });

/** Minor units -> Zaver's major-unit number (exact: via the decimal string). */
export { major };

type Line = Record<string, unknown>;

export type ItemType = 'PHYSICAL' | 'DIGITAL' | 'SERVICE' | 'SHIPPING' | 'FEE' | 'DISCOUNT';
export interface ZaverLineItem {
  id: string;
  name: string;
  quantity: number;
  unitPrice: number;
  totalAmount: number;
  taxRatePercent: number;
  taxAmount: number;
  itemType: ItemType;
  merchantReference?: string;
}

function itemType(l: Line): ItemType {
  if (l.category === 'shipping_costs') return 'SHIPPING';
  if (l.category === 'voucher') return 'DISCOUNT';
  if (l.product_type === 'digital') return 'DIGITAL';
  return 'PHYSICAL';
}

/** A VAT rate with at most two decimals: the line's own, else what its tax is of its net amount. */
export function taxRate(gross: number, tax: number, given?: unknown): number {
  if (typeof given === 'number' && Number.isFinite(given)) return given;
  const net = gross - tax;
  return net > 0 ? Math.round((tax / net) * 10_000) / 100 : 0;
}

/**
 * One of our order lines (amount = the line's gross total, total_tax_amount its tax, minor units) as a Zaver line
 * item: totalAmount and taxAmount for the whole line, unitPrice per unit. A total that does not divide by the
 * quantity is one item "3 × Name", so unitPrice × quantity stays totalAmount.
 */
export function lineItemOf(l: Line, i: number, currency: string): ZaverLineItem {
  const { name, quantity, gross, tax, unitGross } = perUnit(l, i);
  return {
    id: str(l.product_id) ?? `line-${i + 1}`,
    name, quantity,
    unitPrice: major(unitGross, currency),
    totalAmount: major(gross, currency),
    taxRatePercent: taxRate(gross, tax, l.tax_percentage),
    taxAmount: major(tax, currency),
    itemType: itemType(l),
    ...(str(l.product_id) ? { merchantReference: str(l.product_id) } : {}),
  };
}

/** The order's lines, else one line of the whole amount with the order's tax. */
export function lineItems(job: ConnectorJob): ZaverLineItem[] {
  const lines = job.order?.order_details;
  if (lines?.length) return lines.map((l, i) => lineItemOf(l, i, job.currency));
  const name = job.order?.description ?? `Order ${job.merchant_order_reference_id ?? job.payment_id}`;
  return [lineItemOf({ product_name: name, quantity: 1, amount: job.amount, total_tax_amount: job.order?.order_tax_amount ?? 0 }, 0, job.currency)];
}

/** The order's tax (order_tax_amount, else its lines') and gross (its lines', else the amount). */
function orderTax(o: ProviderOrder | undefined, amount: number) {
  const lines = linesOf(o?.order_details);
  const gross = lines.reduce((s, l) => s + (l.amount ?? 0), 0) || amount;
  const tax = o?.order_tax_amount ?? lines.reduce((s, l) => s + lineTax(l), 0);
  return { gross, tax };
}

/** "de-DE" / "sv" -> "de" / "sv": the payment link's language. */
const languageOf = (o: ProviderOrder | undefined) => {
  const l = str(o?.metadata?.customer_locale) ?? str(o?.locale) ?? str(o?.browser_info?.language);
  return l ? l.slice(0, 2).toLowerCase() : undefined;
};

/** First and last name: the billing address's, else the customer's name split at its last space. */
function names(o: ProviderOrder | undefined) {
  const a = obj(obj(o?.billing).address);
  const [first, last] = [str(a.first_name), str(a.last_name)];
  if (first || last) return { givenName: first, familyName: last };
  const name = o?.customer?.name?.trim() ?? '';
  const at = name.lastIndexOf(' ');
  return at > 0 ? { givenName: name.slice(0, at), familyName: name.slice(at + 1) } : { familyName: name || undefined };
}

/** "+49" + "15112345678", or a phone already with its country code. */
function phoneOf(o: ProviderOrder | undefined): string | undefined {
  const p = obj(obj(o?.billing).phone);
  const number = str(p.number);
  if (number) return `${str(p.country_code) ?? ''}${number}`;
  const c = str(o?.customer?.phone);
  if (!c) return undefined;
  return c.startsWith('+') ? c : `${o?.customer?.phone_country_code ?? ''}${c}`;
}

/** POST /payments/link/v2: the payment and its payment link, which the payer opens (the customer step). */
export function createPaymentRequest(job: ConnectorJob, apiKey: string, session?: Session): ProviderRequest {
  const o = job.order;
  const reference = job.merchant_order_reference_id ?? job.payment_id;
  const birth = str(o?.metadata?.birth_date) ?? str(o?.birth_date);
  const country = str(obj(obj(o?.billing).address).country);
  const payer = {
    email: job.customer_email ?? undefined, phoneNumber: phoneOf(o), ...names(o), ...(birth ? { dateOfBirth: birth } : {}),
  };
  const returnUrl = job.return_url ?? undefined;
  return {
    method: 'POST', path: PAYMENTS, idempotencyKey: job.operation_id, headers: auth(apiKey),
    body: {
      merchantPaymentReference: reference,
      amount: major(job.amount, job.currency),
      currency: job.currency,
      ...(country ? { market: country } : {}),
      ...(languageOf(o) ? { language: languageOf(o) } : {}),
      title: o?.description ?? `Order ${reference}`,
      merchantUrls: { callbackUrl: notificationUrl(session), successUrl: returnUrl, cancelUrl: returnUrl },
      lineItems: lineItems(job),
      payerData: Object.fromEntries(Object.entries(payer).filter(([, v]) => v !== undefined)),
      merchantMetadata: { paymentId: job.payment_id },
      // Zaver's own idempotency: a retry of the same authorization answers the same payment.
      idempotencyKey: job.operation_id,
    },
  };
}

/** The payment as Zaver holds it (the status sync of an authorization). */
export const getPaymentRequest = (job: ConnectorJob, apiKey: string): ProviderRequest =>
  ({ method: 'GET', path: `${PAYMENTS}/${encodeURIComponent(job.connector_transaction_id ?? '')}`, headers: auth(apiKey) });

/** A capture of part or all of what is authorized; captureIdempotencyKey (our operation id) names it on a retry. */
export function captureRequest(job: ConnectorJob, apiKey: string): ProviderRequest {
  const d = job.capture_details;
  const invoice = str(obj(obj(d?.capture_metadata).invoice_data).merchant_invoice_ref) ?? str(d?.metadata?.invoice_number);
  return {
    method: 'POST', path: `${PAYMENTS}/${encodeURIComponent(job.connector_transaction_id ?? '')}/capture`, idempotencyKey: job.operation_id, headers: auth(apiKey),
    body: {
      amount: major(job.amount, job.currency), currency: job.currency, captureIdempotencyKey: job.operation_id,
      ...(invoice ? { captureMetadata: { invoiceReference: invoice } } : {}),
    },
  };
}

/** Cancels the payment (empty body): what is authorized and not captured is released. */
export const cancelRequest = (job: ConnectorJob, apiKey: string): ProviderRequest => ({
  method: 'POST', path: `${PAYMENTS}/${encodeURIComponent(job.connector_transaction_id ?? '')}/cancel`, idempotencyKey: job.operation_id, headers: auth(apiKey),
});

/**
 * POST /refund/v1: a refund of the payment, with its share of the order's VAT (Zaver wants the refund's tax amount
 * and rate). Our refund id is merchantReference: a retry names the same refund. Zaver may hold it for the merchant's
 * approval (PENDING_MERCHANT_APPROVAL) before it executes it.
 */
export function refundRequest(job: ConnectorJob, apiKey: string, session?: Session): ProviderRequest {
  const { gross, tax } = orderTax(job.order, job.amount);
  const refundTax = job.amount >= gross ? tax : Math.round((tax * job.amount) / gross);
  return {
    method: 'POST', path: REFUNDS, idempotencyKey: job.operation_id, headers: auth(apiKey),
    body: {
      paymentId: job.connector_transaction_id,
      refundAmount: major(job.amount, job.currency),
      refundTaxAmount: major(refundTax, job.currency),
      refundTaxRatePercent: taxRate(gross, tax),
      description: job.reason ?? `Refund ${job.refund_id ?? job.operation_id}`,
      merchantReference: job.refund_id ?? job.operation_id,
      merchantUrls: { callbackUrl: notificationUrl(session) },
    },
  };
}

/** The refund as Zaver holds it now (the refund sync). */
export const getRefundRequest = (job: ConnectorJob, apiKey: string): ProviderRequest =>
  ({ method: 'GET', path: `${REFUNDS}/${encodeURIComponent(job.connector_refund_id ?? '')}`, headers: auth(apiKey) });
