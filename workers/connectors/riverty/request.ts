// Our operations in Riverty's dialect (eCommerce API v3): decimal amounts in major units, per item net, gross, VAT
// percent and VAT amount per unit; the header X-Auth-Key. The order number is the authorization's operation id (unique,
// [A-Za-z0-9_-]): a retry of the same authorization sends the same number, and Riverty answers with the same order.
import type { ConnectorJob, ProviderOrder } from '../../../domain/job.ts';
import type { ProviderRequest } from '../kit/http.ts';
import { notificationUrl, type Session } from '../kit/session.ts';
import { major, taxRatePercent } from '../kit/money.ts';
import { int, linesOf, obj, type OrderLine, str, taxShare } from '../kit/order.ts';
import type { AuthorizeRequest, CaptureRequest, CONVERSATION_LANGUAGES, Item, OrderSummary, RefundRequest } from './schemas.ts';

/** Where Riverty's API starts under the base URL; the provider sandbox mounts its Riverty at /riverty. */
export const API = '/api/v3';

const auth = (apiKey: string) => ({ 'x-auth-key': apiKey });

/** Minor units -> Riverty's decimal: a JSON number with the currency's decimals, converted exactly (kit major). */
const decimal = major;

type Line = OrderLine;

function itemType(l: Line): Item['type'] {
  if (l.category === 'shipping_costs') return 'ShippingFee';
  if (l.category === 'voucher') return 'Discount';
  if (l.product_type === 'digital') return 'DigitalArticle';
  return 'PhysicalArticle';
}

/** VAT percent with up to two decimals: the line's own, else what its tax is of its net. */
const vatPercentOf = (gross: number, tax: number, given: unknown): number =>
  typeof given === 'number' && Number.isFinite(given) ? given : taxRatePercent(gross, tax);

/**
 * One of our order lines (amount = the line's gross total, total_tax_amount its tax, in minor units) as a Riverty
 * item priced per unit. A total that does not divide by the quantity is sent as one item "3 × Name", so the sums stay exact.
 */
export function itemOf(l: Line, i: number, currency: string): Item {
  const gross = int(l.amount) ?? 0;
  const tax = int(l.total_tax_amount) ?? int(l.tax_amount) ?? 0;
  let quantity = int(l.quantity) ?? 1;
  let description = str(l.product_name) ?? `Item ${i + 1}`;
  if (quantity < 1 || gross % quantity !== 0 || tax % quantity !== 0) {
    description = `${quantity} × ${description}`;
    quantity = 1;
  }
  const unitGross = gross / quantity;
  const unitTax = tax / quantity;
  return {
    productId: str(l.product_id) ?? `line-${i + 1}`,
    description,
    type: itemType(l),
    quantity,
    netUnitPrice: decimal(unitGross - unitTax, currency),
    grossUnitPrice: decimal(unitGross, currency),
    vatPercent: vatPercentOf(unitGross, unitTax, l.tax_percentage),
    vatAmount: decimal(unitTax, currency),
    ...(str(obj(l).product_img_link) ? { imageUrl: str(obj(l).product_img_link) } : {}),
    ...(str(obj(l).product_link) ? { productUrl: str(obj(l).product_link) } : {}),
  };
}

/** Gross, net and items for an amount: the given lines, else one item of the whole amount with the order's tax. */
export function orderDetails(amount: number, currency: string, lines: Line[] | null | undefined, tax: number | null | undefined, name = 'Order'): OrderSummary {
  const items = lines?.length
    ? lines.map((l, i) => itemOf(l, i, currency))
    : [itemOf({ product_name: name, quantity: 1, amount, total_tax_amount: tax ?? 0 }, 0, currency)];
  const taxOfLines = lines?.length ? lines.reduce((s, l) => s + (int(l.total_tax_amount) ?? int(l.tax_amount) ?? 0), 0) : (tax ?? 0);
  return { totalGrossAmount: decimal(amount, currency), totalNetAmount: decimal(amount - taxOfLines, currency), currency, items };
}

/** "Hauptstr. 12a" -> street "Hauptstr.", streetNumber "12a"; a line without a trailing number is all street. */
export function splitStreet(line1: string | undefined, line2: string | undefined) {
  const m = /^(.*?)[\s,]+(\d+\s?[A-Za-z]?(?:[-/]\d+[A-Za-z]?)?)$/.exec((line1 ?? '').trim());
  return m
    ? { street: m[1]!, streetNumber: m[2]!.replace(/\s/g, ''), ...(line2 ? { streetNumberAdditional: line2 } : {}) }
    : { street: (line1 ?? '').trim(), ...(line2 ? { streetNumber: line2 } : {}) };
}

function addressOf(a: Record<string, unknown>) {
  return {
    ...splitStreet(str(a.line1), str(a.line2)),
    postalCode: str(a.zip) ?? '',
    postalPlace: str(a.city) ?? '',
    countryCode: str(a.country) ?? '',
  };
}

const isBusiness = (o: ProviderOrder | undefined) => ['business', 'b2b', 'company'].includes(String(o?.metadata?.buyer_type ?? '').toLowerCase());

/** First and last name: the billing address's, else the customer's name split at its last space. */
function namesOf(o: ProviderOrder | undefined, address: Record<string, unknown>) {
  const [first, last] = [str(address.first_name), str(address.last_name)];
  if (first || last) return { firstName: first ?? '', lastName: last ?? '' };
  const name = o?.customer?.name?.trim() ?? '';
  const at = name.lastIndexOf(' ');
  return at > 0 ? { firstName: name.slice(0, at), lastName: name.slice(at + 1) } : { firstName: '', lastName: name };
}

/**
 * Riverty's conversation language from the customer's locale: its own codes (docs.riverty.com get_order enum NO, SV,
 * FI, DA, EN, DE, NL, FR: Swedish is SV and Danish DA, as ISO 639; Norwegian nb/nn/no is NO). A language Riverty does
 * not speak is left out (Riverty then writes in the country's language).
 */
const LANGUAGE: Record<string, (typeof CONVERSATION_LANGUAGES)[number]> = {
  no: 'NO',
  nb: 'NO',
  nn: 'NO',
  sv: 'SV',
  fi: 'FI',
  da: 'DA',
  en: 'EN',
  de: 'DE',
  nl: 'NL',
  fr: 'FR',
};
export const languageOf = (o: ProviderOrder | undefined) => {
  const l = str(o?.metadata?.customer_locale) ?? str(o?.locale) ?? str(o?.browser_info?.language);
  return l ? LANGUAGE[l.slice(0, 2).toLowerCase()] : undefined;
};

const PAYMENT_TYPE: Record<string, AuthorizeRequest['payment']['type']> = {
  invoice: 'Invoice',
  installment_invoice: 'Installment',
  installment_direct_debit: 'Installment',
  direct_debit: 'Invoice',
  subscription_invoice: 'Invoice',
  subscription_direct_debit: 'Invoice',
};

function customerOf(job: ConnectorJob): AuthorizeRequest['customer'] {
  const o = job.order;
  const billing = obj(o?.billing);
  const address = obj(billing.address);
  const business = isBusiness(o);
  const phone = o?.customer?.phone ?? str(obj(billing.phone).number);
  const birthDate = str(o?.metadata?.birth_date) ?? str(o?.birth_date);
  const ip = str(o?.browser_info?.ip_address);
  const tracking = str(o?.metadata?.device_token);
  return {
    customerCategory: business ? ('Company' as const) : ('Person' as const),
    ...namesOf(o, address),
    ...(business && str(o?.metadata?.company_name) ? { companyName: str(o?.metadata?.company_name) } : {}),
    ...(business && str(o?.metadata?.company_vat_id) ? { identificationNumber: str(o?.metadata?.company_vat_id) } : {}),
    email: job.customer_email ?? str(billing.email) ?? '',
    ...(phone ? { mobilePhone: phone } : {}),
    ...(!business && birthDate ? { birthDate } : {}),
    ...(languageOf(o) ? { conversationLanguage: languageOf(o) } : {}),
    address: addressOf(address),
    ...(ip || tracking ? { riskData: { ...(ip ? { ipAddress: ip } : {}), ...(tracking ? { profileTrackingId: tracking } : {}) } } : {}),
  };
}

function deliveryCustomerOf(job: ConnectorJob): AuthorizeRequest['deliveryCustomer'] {
  const shipping = obj(job.order?.shipping);
  const address = obj(shipping.address);
  if (!str(address.line1)) return undefined;
  return { customerCategory: isBusiness(job.order) ? ('Company' as const) : ('Person' as const), ...namesOf(job.order, address), address: addressOf(address) };
}

/** The order number of the job's payment at Riverty: known after the authorization, the authorization's operation id before. */
export const orderNumber = (job: ConnectorJob) => job.connector_transaction_id ?? job.operation_id;

export const authorizeRequest = (job: ConnectorJob, apiKey: string, session?: Session): ProviderRequest => {
  const o = job.order;
  const delivery = deliveryCustomerOf(job);
  const body: AuthorizeRequest = {
    payment: { type: PAYMENT_TYPE[o?.payment_method_type ?? 'invoice'] ?? 'Invoice' },
    customer: customerOf(job),
    ...(delivery ? { deliveryCustomer: delivery } : {}),
    order: { number: job.operation_id, ...orderDetails(job.amount, job.currency, linesOf(o?.order_details), o?.order_tax_amount, o?.description ?? 'Order') },
    ...(job.return_url ? { merchantUrl: job.return_url } : {}),
    yourReference: job.merchant_order_reference_id ?? job.payment_id,
    ourReference: job.payment_id,
    // UNVERIFIED for the direct authorize (documented for the hosted checkout; Riverty's integration team registers
    // a merchant's webhook endpoint): where Riverty notifies us.
    webhookUrl: notificationUrl(session),
  };
  return { method: 'POST', path: `${API}/checkout/authorize`, idempotencyKey: job.operation_id, headers: auth(apiKey), body };
};

/** The order as Riverty holds it (docs.riverty.com get_order): the status sync of an authorization. */
export const syncRequest = (job: ConnectorJob, apiKey: string): ProviderRequest => ({
  method: 'GET',
  path: `${API}/orders/${encodeURIComponent(orderNumber(job))}`,
  headers: auth(apiKey),
});

/**
 * A capture is Riverty's invoice: the merchant's invoice number (capture_metadata.invoice_data.merchant_invoice_ref,
 * else metadata.invoice_number; Riverty numbers it without one), the amount with the lines shipped (the capture's
 * order_details, else the order's when the whole order is captured, else one item with its share of the tax).
 * transactionReference is our operation id: a retry names the same capture.
 */
export const captureRequest = (job: ConnectorJob, apiKey: string): ProviderRequest => {
  const d = job.capture_details;
  const invoiceNumber = str(obj(obj(d?.capture_metadata).invoice_data).merchant_invoice_ref) ?? str(d?.metadata?.invoice_number);
  const orderLines = linesOf(job.order?.order_details);
  const given = linesOf(d?.order_details);
  const orderGross = orderLines.reduce((s, l) => s + (l.amount ?? 0), 0);
  const captureLines = given.length ? given : orderLines.length && orderGross === job.amount ? orderLines : null;
  const share = captureLines ? null : taxShare(job.amount, job.order);
  return {
    method: 'POST',
    path: `${API}/orders/${encodeURIComponent(orderNumber(job))}/captures`,
    idempotencyKey: job.operation_id,
    headers: auth(apiKey),
    body: {
      ...(invoiceNumber ? { invoiceNumber } : {}),
      orderDetails: orderDetails(job.amount, job.currency, captureLines, share, 'Partial delivery'),
      transactionReference: job.operation_id,
    } satisfies CaptureRequest,
  };
};

/** Releases what is left of the reservation (an empty body voids the whole remaining amount). */
export const voidRequest = (job: ConnectorJob, apiKey: string): ProviderRequest => ({
  method: 'POST',
  path: `${API}/orders/${encodeURIComponent(orderNumber(job))}/voids`,
  idempotencyKey: job.operation_id,
  headers: auth(apiKey),
  body: {},
});

/**
 * A refund of a capture (its captureNumber: the refund's capture, else the latest). Riverty needs the items refunded:
 * the refund's amount as one item with the order's tax share. Our refund id is the transactionReference; a retry names
 * the same refund.
 */
export const refundRequest = (job: ConnectorJob, apiKey: string): ProviderRequest => {
  if (!job.connector_capture_id) throw new Error(`riverty: refund ${job.refund_id} names no capture (no charged capture)`);
  const details = orderDetails(job.amount, job.currency, null, taxShare(job.amount, job.order), job.reason ?? 'Refund');
  return {
    method: 'POST',
    path: `${API}/orders/${encodeURIComponent(orderNumber(job))}/refunds`,
    idempotencyKey: job.operation_id,
    headers: auth(apiKey),
    body: {
      captureNumber: job.connector_capture_id,
      refundType: 'Refund',
      items: details.items,
      transactionReference: job.refund_id ?? job.operation_id,
    } satisfies RefundRequest,
  };
};
