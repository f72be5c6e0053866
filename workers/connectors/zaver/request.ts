// Our operations in Zaver's dialect (Payment Link API v2, Refund API v1: the calls of Zaver's PHP SDK v3 and its
// WooCommerce plugin; README.md, Sources): JSON bodies typed by schemas.ts, amounts as JSON numbers in major units
// (converted exactly from our minor units), VAT per line as a rate and an absolute amount, the API key in
// `Authorization: Bearer`. Zaver's callbacks go to merchantUrls.callbackUrl: our gateway's address for the account.
import type { ConnectorJob, ProviderOrder } from '../../../domain/job.ts';
import type { ProviderRequest } from '../kit/http.ts';
import { notificationUrl, type Session } from '../kit/session.ts';
import { major, taxRatePercent } from '../kit/money.ts';
import { lineTax, linesOf, obj, perUnit, str } from '../kit/order.ts';
import type { Address, LineItem, PaymentCaptureRequest, PaymentCreationRequest, RefundCreationRequest } from './schemas.ts';

export const PAYMENTS = '/payments/link/v2';
export const REFUNDS = '/refund/v1';

const auth = (apiKey: string) => ({ authorization: `Bearer ${apiKey}` });

type Line = Record<string, unknown>;

function itemType(l: Line): NonNullable<LineItem['itemType']> {
  if (l.category === 'shipping_costs') return 'SHIPPING';
  if (l.category === 'voucher') return 'DISCOUNT';
  if (l.product_type === 'digital') return 'DIGITAL';
  return 'PHYSICAL';
}

/** A VAT rate with at most two decimals: the line's own, else what its tax is of its net amount. */
export function taxRate(gross: number, tax: number, given?: unknown): number {
  return typeof given === 'number' && Number.isFinite(given) ? given : taxRatePercent(gross, tax);
}

/**
 * One of our order lines (amount = the line's gross total, total_tax_amount its tax, minor units) as a Zaver line
 * item: totalAmount and taxAmount for the whole line, unitPrice per unit ("Must satisfy totalAmount = unitPrice x
 * quantity"). A total that does not divide by the quantity is one item "3 × Name". No `id`: Zaver sets it.
 */
export function lineItemOf(l: Line, i: number, currency: string): LineItem {
  const { name, quantity, gross, tax, unitGross } = perUnit(l, i);
  return {
    name,
    quantity,
    unitPrice: major(unitGross, currency),
    totalAmount: major(gross, currency),
    taxRatePercent: taxRate(gross, tax, l.tax_percentage),
    taxAmount: major(tax, currency),
    itemType: itemType(l),
    ...(str(l.product_id) ? { merchantReference: str(l.product_id) } : {}),
  };
}

/** The order's lines, else one line of the whole amount with the order's tax. */
export function lineItems(job: ConnectorJob): LineItem[] {
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

// Fields left undefined are not sent (JSON has no undefined).

/**
 * One of our addresses as Zaver's Address: for market DE streetName and houseNumber instead of addressLine1 ("For
 * market DE streetName and houseNumber must be used instead"), split at the last space before a number.
 */
export function addressOf(v: unknown, market: string): Address | undefined {
  const a = obj(obj(v).address);
  const line1 = str(a.line1);
  if (!line1 && !str(a.city)) return undefined;
  const name = [str(a.first_name), str(a.last_name)].filter(Boolean).join(' ') || undefined;
  const street = market === 'DE' && line1 ? /^(.*\S)\s+(\d[\w\s/-]*)$/.exec(line1) : null;
  return {
    name,
    ...(street ? { streetName: street[1], houseNumber: street[2] } : { addressLine1: line1 }),
    addressLine2: str(a.line2),
    city: str(a.city),
    postalCode: str(a.zip),
    country: str(a.country),
  };
}

/** POST /payments/link/v2: the payment and its payment link, which the payer opens (the customer step). */
export function createPaymentRequest(job: ConnectorJob, apiKey: string, session?: Session): ProviderRequest {
  const o = job.order;
  const reference = job.merchant_order_reference_id ?? job.payment_id;
  const birth = str(o?.metadata?.birth_date) ?? str(o?.birth_date);
  // Required by Zaver (the manifest requires billing.address.country).
  const market = str(obj(obj(o?.billing).address).country) ?? '';
  const payer = {
    email: job.customer_email ?? undefined,
    phoneNumber: phoneOf(o),
    ...names(o),
    ...(birth ? { dateOfBirth: birth } : {}),
    billingAddress: addressOf(o?.billing, market),
    shippingAddress: addressOf(o?.shipping, market),
  };
  const returnUrl = job.return_url ?? undefined;
  const body: PaymentCreationRequest = {
    merchantPaymentReference: reference,
    amount: major(job.amount, job.currency),
    currency: job.currency,
    market,
    ...(languageOf(o) ? { language: languageOf(o) } : {}),
    title: o?.description ?? `Order ${reference}`,
    merchantUrls: { callbackUrl: notificationUrl(session), successUrl: returnUrl, cancelUrl: returnUrl },
    lineItems: lineItems(job),
    payerData: payer,
    paymentMetadata: { paymentId: job.payment_id },
    // Zaver captures at once unless told otherwise ("If not set, defaults to immediate"); we capture by our own call
    // (manual, and automatic as a follow-up), so the payment waits in PENDING_MERCHANT_CAPTURE.
    merchantCustomizations: { captureMethod: 'deferred' },
    // Zaver's own idempotency: a retry of the same authorization answers the same payment.
    idempotencyKey: job.operation_id,
  };
  return { method: 'POST', path: PAYMENTS, idempotencyKey: job.operation_id, headers: auth(apiKey), body };
}

/** The payment as Zaver holds it (the status sync of an authorization). */
export const getPaymentRequest = (job: ConnectorJob, apiKey: string): ProviderRequest => ({
  method: 'GET',
  path: `${PAYMENTS}/${encodeURIComponent(job.connector_transaction_id ?? '')}`,
  headers: auth(apiKey),
});

/**
 * A capture of part or all of what is authorized; captureIdempotencyKey (our operation id) names it on a retry and is
 * the capture's only name at Zaver (v2 answers the payment, not a capture object).
 */
export function captureRequest(job: ConnectorJob, apiKey: string): ProviderRequest {
  const d = job.capture_details;
  const invoice = str(obj(obj(d?.capture_metadata).invoice_data).merchant_invoice_ref) ?? str(d?.metadata?.invoice_number);
  const body: PaymentCaptureRequest = {
    amount: major(job.amount, job.currency),
    currency: job.currency,
    captureIdempotencyKey: job.operation_id,
    ...(invoice ? { captureMetadata: { invoiceReference: invoice } } : {}),
  };
  return {
    method: 'POST',
    path: `${PAYMENTS}/${encodeURIComponent(job.connector_transaction_id ?? '')}/capture`,
    idempotencyKey: job.operation_id,
    headers: auth(apiKey),
    body,
  };
}

/** Cancels the payment (empty body): what is authorized and not captured is released. */
export const cancelRequest = (job: ConnectorJob, apiKey: string): ProviderRequest => ({
  method: 'POST',
  path: `${PAYMENTS}/${encodeURIComponent(job.connector_transaction_id ?? '')}/cancel`,
  idempotencyKey: job.operation_id,
  headers: auth(apiKey),
});

/**
 * POST /refund/v1: a fixed-amount refund of the payment, with its share of the order's VAT (the refund's tax amount
 * and rate). Our refund id is merchantReference ("must be unique"). Zaver creates it PENDING_MERCHANT_APPROVAL: it
 * executes once a representative of the merchant approves it (in Zaver for Business); we wait for that.
 */
export function refundRequest(job: ConnectorJob, apiKey: string, session?: Session): ProviderRequest {
  const { gross, tax } = orderTax(job.order, job.amount);
  const refundTax = job.amount >= gross ? tax : Math.round((tax * job.amount) / gross);
  const body: RefundCreationRequest = {
    paymentId: job.connector_transaction_id ?? '',
    // Required: "The invoice reference of the payment being refunded" (the WooCommerce plugin sends its order number).
    invoiceReference: job.merchant_order_reference_id ?? job.payment_id,
    refundAmount: major(job.amount, job.currency),
    refundTaxAmount: major(refundTax, job.currency),
    refundTaxRatePercent: taxRate(gross, tax),
    description: job.reason ?? `Refund ${job.refund_id ?? job.operation_id}`,
    merchantReference: job.refund_id ?? job.operation_id,
    merchantUrls: { callbackUrl: notificationUrl(session) },
  };
  return { method: 'POST', path: REFUNDS, idempotencyKey: job.operation_id, headers: auth(apiKey), body };
}

/** The refund as Zaver holds it now (the refund sync). */
export const getRefundRequest = (job: ConnectorJob, apiKey: string): ProviderRequest => ({
  method: 'GET',
  path: `${REFUNDS}/${encodeURIComponent(job.connector_refund_id ?? '')}`,
  headers: auth(apiKey),
});
