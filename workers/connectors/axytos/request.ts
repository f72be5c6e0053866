// Our operations in axytos's dialect (invoice API v1; the models: schemas.ts, fixtures/openapi.json). Amounts are
// decimals in major units (JSON numbers), computed exactly in minor units first (kit/money.ts); net = gross / (1 + tax
// rate), rounded to the cent, per position. Orders are addressed by the shop's externalOrderId. An authorization is a
// chain (Flow.next): precheck, confirm (with the precheck's answer echoed back), and for automatic capture
// reportshipping and createInvoice. An invoice carries the shop's own invoice number (externalInvoiceNumber) and a
// refund names that number as originalInvoiceNumber (axytos's SDK and plugins do so), not the number axytos returned.
import type { ConnectorJob } from '../../../domain/job.ts';
import { major } from '../kit/money.ts';
import type { ProviderRequest } from '../kit/http.ts';
import { obj, text as str, type Obj } from '../kit/order.ts';
import {
  type ConfirmRequest,
  Country,
  type InvoiceRequest,
  type PrecheckRequest,
  type PrecheckResponse,
  type RefundRequest,
  type ReportShippingRequest,
} from './schemas.ts';

/** Minor units -> the decimal number axytos takes (double, major units [OAS]). */
export const money = major;
/** [OAS] every operation: the API key in X-API-KEY. */
const headers = (apiKey: string) => ({ 'x-api-key': apiKey });

export const externalOrderId = (job: ConnectorJob) => job.merchant_order_reference_id ?? job.payment_id;
/** The order at axytos: the authorization's id once known, else the id the authorization gives it. */
const orderId = (job: ConnectorJob) => job.connector_transaction_id ?? externalOrderId(job);
export const isBusiness = (job: ConnectorJob) => job.order?.metadata?.buyer_type === 'business';
export const isAutomatic = (job: ConnectorJob) => !['manual', 'manual_multiple'].includes(job.capture_method);

/** A basket position in minor units, before it is written in axytos's numbers. */
export interface Position {
  productId: string;
  productName: string;
  productCategory?: string;
  quantity: number;
  taxPercent: number;
  grossUnit: number;
  netUnit: number;
  gross: number;
  net: number;
}

const net = (gross: number, rate: number) => Math.round((gross * 100) / (100 + rate));

function position(productId: string, productName: string, quantity: number, gross: number, rate: number, category?: string): Position {
  // Per unit only where the line divides exactly; else one unit of the whole line.
  const [q, name] = gross % quantity === 0 ? [quantity, productName] : [1, `${quantity} x ${productName}`];
  const grossUnit = gross / q;
  const netUnit = net(grossUnit, rate);
  return { productId, productName: name, productCategory: category, quantity: q, taxPercent: rate, grossUnit, netUnit, gross, net: netUnit * q };
}

const num = (v: unknown): number | undefined => (typeof v === 'number' && Number.isFinite(v) ? v : undefined);
const rateOf = (l: Obj) => {
  const pct = num(l.tax_percentage);
  if (pct !== undefined) return pct;
  const amount = Number(l.amount);
  const tax = num(l.tax_amount) ?? num(l.total_tax_amount);
  return tax !== undefined && amount - tax > 0 ? Math.round((tax / (amount - tax)) * 100) : 0;
};

export function positionsOf(lines: readonly Obj[]): Position[] {
  return lines.map((l, i) => {
    const q = num(l.quantity);
    return position(
      str(l.product_id) ?? `item-${i + 1}`,
      str(l.product_name) ?? `Item ${i + 1}`,
      q !== undefined && Number.isInteger(q) && q > 0 ? q : 1,
      Number(l.amount),
      rateOf(l),
      str(l.category) === 'shipping_costs' ? 'shipping' : str(l.category),
    );
  });
}

/** The order's positions: its lines, else one position of the whole amount. */
export function orderPositions(job: ConnectorJob): Position[] {
  const lines = job.order?.order_details ?? [];
  return lines.length ? positionsOf(lines) : [position('order', job.order?.description ?? 'Order', 1, job.amount, 0)];
}

/** The order's one tax rate when all its lines share it, else 0 (for a part amount without lines). */
const commonRate = (job: ConnectorJob) => {
  const rates = new Set(orderPositions(job).map((p) => p.taxPercent));
  return rates.size === 1 ? [...rates][0]! : 0;
};

/** What a capture invoices: its own lines, else the order's when it takes the whole amount, else one position of it. */
export function capturePositions(job: ConnectorJob): Position[] {
  const own = job.capture_details?.order_details ?? [];
  if (own.length) return positionsOf(own.map(obj));
  const all = orderPositions(job);
  if (all.reduce((t, p) => t + p.gross, 0) === job.amount) return all;
  return [position('partial-delivery', 'Partial delivery', 1, job.amount, commonRate(job))];
}

function basket(job: ConnectorJob, positions: Position[]): PrecheckRequest['basket'] {
  const m = (n: number) => money(n, job.currency);
  return {
    netTotal: m(positions.reduce((t, p) => t + p.net, 0)),
    grossTotal: m(positions.reduce((t, p) => t + p.gross, 0)),
    currency: job.currency,
    positions: positions.map((p) => ({
      productId: p.productId,
      productName: p.productName,
      ...(p.productCategory ? { productCategory: p.productCategory } : {}),
      quantity: p.quantity,
      taxPercent: p.taxPercent,
      netPricePerUnit: m(p.netUnit),
      grossPricePerUnit: m(p.grossUnit),
      netPositionTotal: m(p.net),
      grossPositionTotal: m(p.gross),
    })),
  };
}

function taxGroups(job: ConnectorJob, positions: Position[]): InvoiceRequest['basket']['taxGroups'] {
  const groups = new Map<number, { net: number; gross: number }>();
  for (const p of positions) {
    const g = groups.get(p.taxPercent) ?? { net: 0, gross: 0 };
    groups.set(p.taxPercent, { net: g.net + p.net, gross: g.gross + p.gross });
  }
  return [...groups].map(([taxPercent, g]) => ({ taxPercent, valueToTax: money(g.net, job.currency), total: money(g.gross - g.net, job.currency) }));
}

const GENDER: Record<string, 'M' | 'F' | 'D'> = { m: 'M', male: 'M', f: 'F', female: 'F', d: 'D', diverse: 'D' };

function address(job: ConnectorJob, a: Obj): PrecheckRequest['invoiceAddress'] {
  const ad = obj(a.address);
  const md = job.order?.metadata ?? {};
  // The gateway refuses countries axytos does not serve (manifest.countries); the enum is axytos's [OAS CountryCode].
  const country = Country.safeParse(str(ad.country));
  if (!country.success) throw new Error(`axytos: country ${String(ad.country)} is not one axytos serves (${Country.options.join(', ')})`);
  return {
    company: isBusiness(job) ? str(md.company_name) : undefined,
    firstname: str(ad.first_name),
    lastname: str(ad.last_name),
    addressLine1: str(ad.line1) ?? '',
    addressLine2: str(ad.line2),
    addressLine3: str(ad.line3),
    zipCode: str(ad.zip) ?? '',
    city: str(ad.city) ?? '',
    region: str(ad.state),
    country: country.data,
    vatId: isBusiness(job) ? str(md.company_vat_id) : undefined,
  };
}

/** The buyer and the order as the precheck and the confirm both carry them. */
function orderData(job: ConnectorJob): Pick<PrecheckRequest, 'personalData' | 'invoiceAddress' | 'deliveryAddress' | 'basket'> {
  const o = job.order;
  const md = o?.metadata ?? {};
  const billing = obj(o?.billing);
  const shipping = obj(o?.shipping);
  const birth = str(md.birth_date) ?? o?.birth_date ?? undefined;
  const phone = obj(billing.phone);
  const email = job.customer_email ?? o?.customer?.email ?? str(billing.email);
  const shipTo = obj(shipping.address);
  return {
    personalData: {
      // Required [OAS CustomerDataRequestModel]; a guest has no customer id: its email (as the WooCommerce plugin does), else the payment.
      externalCustomerId: o?.customer?.id ?? email ?? job.payment_id,
      language: str(md.customer_locale ?? o?.locale)
        ?.slice(0, 2)
        .toLowerCase(),
      // date-time [OAS]; axytos's SDK writes Y-m-d\TH:i:s\Z (DateTimeSerializer).
      dateOfBirth: birth ? `${birth.slice(0, 10)}T00:00:00Z` : undefined,
      gender: GENDER[(str(md.gender) ?? o?.gender ?? '').toLowerCase()],
      email,
      fixNetPhoneNumber: str(phone.number) ? `${str(phone.country_code) ?? ''}${str(phone.number)}` : undefined,
      company: isBusiness(job) ? { name: str(md.company_name), legalForm: str(md.legal_form), uid: str(md.company_vat_id) } : undefined,
    },
    invoiceAddress: address(job, billing),
    // A delivery address needs zipCode, city and country [OAS DeliveryAddress]: the shipping address when it has them.
    deliveryAddress: address(job, str(shipTo.zip) && str(shipTo.city) && str(shipTo.country) ? shipping : billing),
    basket: basket(job, orderPositions(job)),
  };
}

export function precheckRequest(job: ConnectorJob, apiKey: string): ProviderRequest {
  const body: PrecheckRequest = {
    // [SDK InvoiceClient::precheck]: SingleStep, AAE, INVOICE, U (unsecured: invoice).
    requestMode: 'SingleStep',
    paymentTypeSecurity: 'U',
    selectedPaymentType: 'INVOICE',
    proofOfInterest: 'AAE',
    customReference: job.payment_id,
    ...orderData(job),
  };
  return { method: 'POST', path: '/Payments/invoice/order/precheck', headers: headers(apiKey), body };
}

/** The confirm echoes the precheck's answer as received (its signed transactionMetadata; unknown fields kept). */
export function confirmRequest(job: ConnectorJob, apiKey: string, precheck: PrecheckResponse): ProviderRequest {
  const body: ConfirmRequest = {
    customReference: job.payment_id,
    externalOrderId: externalOrderId(job),
    date: new Date().toISOString(),
    ...orderData(job),
    orderPrecheckResponse: precheck,
  };
  return { method: 'POST', path: '/Payments/invoice/order/confirm', headers: headers(apiKey), body };
}

/** A capture's sub-order: none for an automatic capture (the whole order), else the operation (one shipment). */
const subOrder = (job: ConnectorJob) => (job.kind === 'authorize' ? '' : job.operation_id);
/**
 * The shop's invoice number (externalInvoiceNumber): the capture's merchant_invoice_ref, else its metadata's
 * invoice_number, else the operation id. It is the capture's connector id: the refund names it as originalInvoiceNumber.
 */
export function invoiceNumber(job: ConnectorJob): string {
  const inv = obj(obj(job.capture_details?.capture_metadata).invoice_data);
  return str(inv.merchant_invoice_ref) ?? str(job.capture_details?.metadata?.invoice_number) ?? job.operation_id;
}
const positionsFor = (job: ConnectorJob) => (job.kind === 'authorize' ? orderPositions(job) : capturePositions(job));

export function reportShippingRequest(job: ConnectorJob, apiKey: string): ProviderRequest {
  const body: ReportShippingRequest = {
    externalOrderId: orderId(job),
    externalSubOrderId: subOrder(job),
    basketPositions: positionsFor(job).map((p) => ({ productId: p.productId, quantity: p.quantity })),
    shippingDate: new Date().toISOString(),
  };
  return { method: 'POST', path: '/Payments/invoice/order/reportshipping', headers: headers(apiKey), body };
}

export function createInvoiceRequest(job: ConnectorJob, apiKey: string): ProviderRequest {
  const positions = positionsFor(job);
  const b = basket(job, positions);
  const term = Number(job.order?.metadata?.net_term);
  const body: InvoiceRequest = {
    externalOrderId: orderId(job),
    externalInvoiceNumber: invoiceNumber(job),
    externalInvoiceDisplayName: invoiceNumber(job),
    externalSubOrderId: subOrder(job),
    dueDateOffsetDays: Number.isInteger(term) && term > 0 ? term : 14,
    basket: {
      grossTotal: b.grossTotal,
      netTotal: b.netTotal,
      positions: b.positions.map(({ productName: _n, productCategory: _c, ...p }) => p),
      taxGroups: taxGroups(job, positions),
    },
  };
  return { method: 'POST', path: '/Payments/invoice/order/createInvoice', headers: headers(apiKey), body };
}

export const paymentStateRequest = (job: ConnectorJob, apiKey: string): ProviderRequest => ({
  method: 'GET',
  path: `/Payments/invoice/order/paymentstate/${encodeURIComponent(orderId(job))}`,
  headers: headers(apiKey),
});

export const cancelRequest = (job: ConnectorJob, apiKey: string): ProviderRequest => ({
  method: 'POST',
  path: `/Payments/invoice/order/cancel/${encodeURIComponent(orderId(job))}`,
  headers: headers(apiKey),
});

/**
 * A refund credits the invoice it names: originalInvoiceNumber is the shop's invoice number given at the invoice
 * (the capture's connector id; [SDK InvoiceClient::refund], [WC createRefundData]). One position of the amount at the
 * order's tax rate.
 */
export function refundRequest(job: ConnectorJob, apiKey: string): ProviderRequest {
  if (!job.connector_capture_id) throw new Error(`axytos: refund ${job.refund_id ?? job.operation_id} names no invoice (no charged capture)`);
  const p = position('refund', 'Refund', 1, job.amount, commonRate(job));
  const body: RefundRequest = {
    externalOrderId: orderId(job),
    externalSubOrderId: '',
    refundDate: new Date().toISOString(),
    originalInvoiceNumber: job.connector_capture_id,
    basket: {
      grossTotal: money(p.gross, job.currency),
      netTotal: money(p.net, job.currency),
      positions: [{ productId: p.productId, netRefundTotal: money(p.net, job.currency), grossRefundTotal: money(p.gross, job.currency) }],
      taxGroups: taxGroups(job, [p]),
    },
  };
  return { method: 'POST', path: '/Payments/invoice/order/refund', headers: headers(apiKey), body };
}
