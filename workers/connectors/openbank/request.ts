// Our operations in Zinia's dialect as designed from the integration guide's outline (most names UNVERIFIED, see
// README.md): JSON bodies, amounts as decimal euros (JSON numbers, converted exactly from our cents: lib/money.ts), the
// Merchant API Key in Ocp-Apim-Subscription-Key on every call and the login's access token as Bearer.
import type { ConnectorJob, ProviderOrder } from '../../../domain/job.ts';
import { major } from '../kit/money.ts';
import type { ProviderRequest } from '../kit/http.ts';
import { obj, perUnit, str, type Obj } from '../kit/order.ts';
import { notificationUrl, type Session } from '../kit/session.ts';

export const SUBSCRIPTION_HEADER = 'ocp-apim-subscription-key';

export interface Credentials {
  api_key: string;
  key1: string;
  api_secret: string;
}

/** Cents -> Zinia's decimal euros (exact: 11900 -> 119, 4760 -> 47.6). */
export const euros = (minor: number, currency = 'EUR') => major(minor, currency);

const headers = (c: Credentials, s?: Session) => ({ [SUBSCRIPTION_HEADER]: c.api_key, ...(s ? { authorization: `Bearer ${s.access_token ?? ''}` } : {}) });

/** POST /auth/login (the guide's "Merchant_login"; path and body UNVERIFIED): client id and secret -> an access token. */
export const loginRequest = (c: Credentials): ProviderRequest => ({
  method: 'POST',
  path: '/auth/login',
  headers: headers(c),
  body: { client_id: c.key1, client_secret: c.api_secret },
});

export interface ZiniaItem {
  sku: string;
  name: string;
  type: 'PRODUCT' | 'DIGITAL' | 'SHIPPING' | 'DISCOUNT';
  quantity: number;
  unit_price: number;
  total_amount: number;
  tax_rate: number;
  tax_amount: number;
}

function itemType(l: Obj): ZiniaItem['type'] {
  if (l.category === 'shipping_costs') return 'SHIPPING';
  if (l.category === 'voucher') return 'DISCOUNT';
  return l.product_type === 'digital' ? 'DIGITAL' : 'PRODUCT';
}

/**
 * One of our order lines (amount = its gross total in cents, total_tax_amount its tax) as a Zinia item. A total that
 * does not divide by the quantity is sent as one item "3 × Name", so unit price × quantity is the total exactly.
 */
export function itemOf(l: Obj, i: number, currency: string): ZiniaItem {
  const { name, quantity, gross, tax, unitGross } = perUnit(l, i);
  const net = gross - tax;
  const rate = typeof l.tax_percentage === 'number' ? l.tax_percentage : net > 0 ? Math.round((tax / net) * 10_000) / 100 : 0;
  return {
    sku: str(l.product_id) ?? `line-${i + 1}`,
    name,
    type: itemType(l),
    quantity,
    unit_price: euros(unitGross, currency),
    total_amount: euros(gross, currency),
    tax_rate: rate,
    tax_amount: euros(tax, currency),
  };
}

/** The order's items: its lines, else one item of the whole amount with the order's tax. */
export function itemsOf(amount: number, currency: string, lines: Obj[] | null | undefined, tax: number | null | undefined, name = 'Order'): ZiniaItem[] {
  return lines?.length
    ? lines.map((l, i) => itemOf(l, i, currency))
    : [itemOf({ product_name: name, quantity: 1, amount, total_tax_amount: tax ?? 0 }, 0, currency)];
}

function addressOf(a: Obj) {
  return {
    address_line_1: str(a.line1),
    ...(str(a.line2) ? { address_line_2: str(a.line2) } : {}),
    postal_code: str(a.zip),
    city: str(a.city),
    country_code: str(a.country),
  };
}

/** The mobile number in international form: customer.phone when it has its +prefix, else country code + number. */
export function mobileOf(o: ProviderOrder | undefined): string | undefined {
  const phone = str(o?.customer?.phone);
  if (phone?.startsWith('+')) return phone.replace(/[\s/-]/g, '');
  const billingPhone = obj(obj(o?.billing).phone);
  const number = phone ?? str(billingPhone.number);
  const code = str(o?.customer?.phone_country_code) ?? str(billingPhone.country_code);
  if (!number) return undefined;
  return `${code ? (code.startsWith('+') ? code : `+${code}`) : ''}${number.replace(/^0+/, '').replace(/[\s/-]/g, '')}`;
}

/** First and last name: the billing address's, else the customer's name split at its last space. */
function namesOf(o: ProviderOrder | undefined) {
  const a = obj(obj(o?.billing).address);
  if (str(a.first_name) || str(a.last_name)) return { first_name: str(a.first_name), last_name: str(a.last_name) };
  const name = str(o?.customer?.name) ?? '';
  const at = name.lastIndexOf(' ');
  return at > 0 ? { first_name: name.slice(0, at), last_name: name.slice(at + 1) } : { last_name: name || undefined };
}

const PRODUCT: Record<string, 'PAY_IN_30' | 'INSTALMENTS'> = { installment_invoice: 'INSTALMENTS', installment_direct_debit: 'INSTALMENTS' };

/**
 * POST /checkout/orders (the guide's path): the order the customer then completes at Zinia (the Link-Up at
 * redirect_url). merchant_order_id is the authorization's operation id, so a retry names the same order and Zinia
 * answers it again; merchant_reference is what the customer sees.
 */
export function createOrderRequest(job: ConnectorJob, c: Credentials, s?: Session): ProviderRequest {
  const o = job.order;
  const md = obj(o?.metadata);
  const billing = obj(o?.billing);
  const shipping = obj(obj(o?.shipping).address);
  const locale = str(md.customer_locale) ?? str(o?.locale) ?? str(o?.browser_info?.language);
  const birthDate = str(md.birth_date) ?? str(o?.birth_date);
  const back = job.return_url ?? undefined;
  return {
    method: 'POST',
    path: '/checkout/orders',
    idempotencyKey: job.operation_id,
    headers: headers(c, s),
    body: {
      merchant_order_id: job.operation_id,
      merchant_reference: job.merchant_order_reference_id ?? job.payment_id,
      product: PRODUCT[o?.payment_method_type ?? ''] ?? 'PAY_IN_30',
      amount: euros(job.amount, job.currency),
      currency: job.currency,
      customer: {
        ...namesOf(o),
        email: job.customer_email ?? str(o?.customer?.email) ?? str(billing.email),
        mobile_phone: mobileOf(o),
        birth_date: birthDate,
        ...(str(md.national_id) ? { national_id: str(md.national_id) } : {}),
        ...(locale ? { language: locale.slice(0, 2).toLowerCase() } : {}),
      },
      billing_address: addressOf(obj(billing.address)),
      ...(str(shipping.line1) ? { shipping_address: addressOf(shipping) } : {}),
      items: itemsOf(job.amount, job.currency, o?.order_details, o?.order_tax_amount, str(o?.description) ?? 'Order'),
      urls: { return_url: back, cancel_url: back, notification_url: notificationUrl(s) },
    },
  };
}

/** GET /checkout/orders/{order_id}: the order as Zinia holds it (the status sync). */
export const orderRequest = (job: ConnectorJob, c: Credentials, s?: Session): ProviderRequest => ({
  method: 'GET',
  path: `/checkout/orders/${encodeURIComponent(job.connector_transaction_id ?? '')}`,
  headers: headers(c, s),
});

/**
 * POST /orders/{order_id}/confirm-shipment: the capture. shipment_id is our operation id (a retry names the same
 * shipment); the invoice number from capture_metadata.invoice_data.merchant_invoice_ref or metadata.invoice_number;
 * the lines shipped when the capture names them.
 */
export function shipmentRequest(job: ConnectorJob, c: Credentials, s?: Session): ProviderRequest {
  const d = job.capture_details;
  const invoice = str(obj(obj(d?.capture_metadata).invoice_data).merchant_invoice_ref) ?? str(obj(d?.metadata).invoice_number);
  const lines = d?.order_details?.map(obj);
  return {
    method: 'POST',
    path: `/orders/${encodeURIComponent(job.connector_transaction_id ?? '')}/confirm-shipment`,
    idempotencyKey: job.operation_id,
    headers: headers(c, s),
    body: {
      shipment_id: job.operation_id,
      amount: euros(job.amount, job.currency),
      ...(invoice ? { invoice_number: invoice } : {}),
      ...(lines?.length ? { items: itemsOf(job.amount, job.currency, lines, null) } : {}),
    },
  };
}

/** POST /orders/{order_id}/cancel: releases what is not shipped. */
export const cancelRequest = (job: ConnectorJob, c: Credentials, s?: Session): ProviderRequest => ({
  method: 'POST',
  path: `/orders/${encodeURIComponent(job.connector_transaction_id ?? '')}/cancel`,
  idempotencyKey: job.operation_id,
  headers: headers(c, s),
  body: { ...(job.reason ? { reason: job.reason } : {}) },
});

/** POST /orders/{order_id}/refunds: a refund of the order (within what was shipped); our refund id names it. */
export const refundRequest = (job: ConnectorJob, c: Credentials, s?: Session): ProviderRequest => ({
  method: 'POST',
  path: `/orders/${encodeURIComponent(job.connector_transaction_id ?? '')}/refunds`,
  idempotencyKey: job.operation_id,
  headers: headers(c, s),
  body: { merchant_refund_id: job.refund_id ?? job.operation_id, amount: euros(job.amount, job.currency), ...(job.reason ? { reason: job.reason } : {}) },
});

/** GET /orders/{order_id}/refunds/{refund_id}: a refund Zinia has not finished (the refund sync). */
export const refundReadRequest = (job: ConnectorJob, c: Credentials, s?: Session): ProviderRequest => ({
  method: 'GET',
  path: `/orders/${encodeURIComponent(job.connector_transaction_id ?? '')}/refunds/${encodeURIComponent(job.connector_refund_id ?? '')}`,
  headers: headers(c, s),
});
