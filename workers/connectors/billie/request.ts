// Our operations in Billie's dialect (traced to Billie's SDK and docs: README.md, Sources): JSON bodies, amounts as
// decimal euros {net, gross, tax} (converted exactly: lib/money.ts), a Bearer token from POST /oauth/token. Paths are
// relative to Billie's API root (BILLIE_BASE_URL, e.g. https://paella-sandbox.billie.io/api/v2); without
// BILLIE_BASE_URL the provider sandbox serves it at /billie/api/v2.
import type { ConnectorJob } from '../../../domain/job.ts';
import { major } from '../kit/money.ts';
import type { ProviderRequest } from '../kit/http.ts';
import { captureInvoice, int, lineTax, linesOf, obj, str, taxShare } from '../kit/order.ts';
import { manifest } from './manifest.ts';

export const apiRoot = () => (process.env[manifest.settings.base_url.env] ? '' : '/billie/api/v2');

/** Minor units -> Billie's decimal euros (exact: the digits are moved, 11900 -> 119, 9520 -> 95.2). */
export { major };
/** Billie's amount object: gross and tax given in minor units, net = gross − tax. */
export const amountOf = (gross: number, tax: number, currency: string) => ({
  net: major(gross - tax, currency),
  gross: major(gross, currency),
  tax: major(tax, currency),
});

/** "Hauptstr. 1a" -> street "Hauptstr.", house_number "1a" (Billie takes them apart). */
export function streetAndNumber(line1: string | undefined, line2: string | undefined) {
  const m = /^(.*\S)\s+(\d+[\w/-]*)$/.exec(line1 ?? '');
  return m ? { street: m[1], house_number: m[2] } : { street: line1, house_number: line2 };
}

function address(a: unknown) {
  const x = obj(obj(a).address);
  return { ...streetAndNumber(str(x.line1), str(x.line2)), city: str(x.city), postal_code: str(x.zip), country: str(x.country) };
}

const bearer = (token: string | undefined) => ({ authorization: `Bearer ${token ?? ''}` });

/** POST /oauth/token: client credentials (JSON, as Billie's SDK sends them). */
export const tokenRequest = (c: { api_key: string; key1: string }): ProviderRequest => ({
  method: 'POST',
  path: `${apiRoot()}/oauth/token`,
  body: { grant_type: 'client_credentials', client_id: c.api_key, client_secret: c.key1 },
});

/** POST /orders: a direct (server-side) order; Billie decides at once (created, declined) or reviews it (waiting). */
export function createOrderRequest(job: ConnectorJob, token: string | undefined): ProviderRequest {
  const o = job.order;
  const md = obj(o?.metadata);
  const billing = obj(o?.billing);
  const name = obj(billing.address);
  const [first, ...rest] = (o?.customer?.name ?? '').split(' ');
  const lines = linesOf(o?.order_details);
  const tax = o?.order_tax_amount ?? lines.reduce((t, l) => t + lineTax(l), 0);
  const shipping = o?.shipping && obj(o.shipping).address ? o.shipping : null;
  const email = o?.customer?.email ?? job.customer_email ?? str(billing.email);
  return {
    method: 'POST',
    path: `${apiRoot()}/orders`,
    idempotencyKey: job.operation_id,
    headers: bearer(token),
    body: {
      amount: amountOf(job.amount, tax, job.currency),
      duration: int(md.net_term) ?? 30,
      external_code: job.merchant_order_reference_id ?? job.payment_id,
      debtor: {
        // Required by Billie (issue 21: a guest order without it is refused). Our customer id, else the buyer's email,
        // as Billie's Magento 2 module sends for every buyer, guests included (docs/decisions.md).
        merchant_customer_id: str(o?.customer?.id) ?? email,
        name: str(md.company_name),
        legal_form: str(md.legal_form),
        tax_id: str(md.company_vat_id),
        company_address: address(o?.billing),
      },
      debtor_person: {
        email,
        first_name: str(name.first_name) ?? (first || undefined),
        last_name: str(name.last_name) ?? (rest.join(' ') || undefined),
        phone_number: o?.customer?.phone ?? str(obj(billing.phone).number),
      },
      ...(shipping ? { delivery_address: address(shipping) } : {}),
      line_items: lines.map((l, i) => ({
        external_id: l.product_id ?? `line-${i + 1}`,
        title: l.product_name,
        quantity: l.quantity ?? 1,
        category: l.category ?? undefined,
        brand: l.brand ?? undefined,
        amount: amountOf(l.amount ?? 0, lineTax(l), job.currency),
      })),
    },
  };
}

/** The status sync of an order under review: read it. */
export const orderRequest = (job: ConnectorJob, token: string | undefined): ProviderRequest => ({
  method: 'GET',
  path: `${apiRoot()}/orders/${job.connector_transaction_id}`,
  headers: bearer(token),
});

/** A capture is an invoice for the order: the merchant's invoice number and URL, the amount, the lines shipped. */
export function invoiceRequest(job: ConnectorJob, token: string | undefined): ProviderRequest {
  const { number, url, lines, tax } = captureInvoice(job);
  return {
    method: 'POST',
    path: `${apiRoot()}/invoices`,
    idempotencyKey: job.operation_id,
    headers: bearer(token),
    body: {
      orders: [job.connector_transaction_id],
      external_code: number ?? job.operation_id,
      invoice_url: url,
      // Billie's SDK: "can be an empty object, but is required" (issue 21). We have no carrier data to give.
      shipping_info: {},
      amount: amountOf(job.amount, tax, job.currency),
      ...(lines.length ? { line_items: lines.map((l, i) => ({ external_id: l.product_id ?? `line-${i + 1}`, quantity: l.quantity ?? 1 })) } : {}),
    },
  };
}

export const cancelRequest = (job: ConnectorJob, token: string | undefined): ProviderRequest => ({
  method: 'POST',
  path: `${apiRoot()}/orders/${job.connector_transaction_id}/cancel`,
  idempotencyKey: job.operation_id,
  headers: bearer(token),
  body: {},
});

/** A refund is a credit note on the invoice (the capture) it is refunded within; our refund id is its number. */
export function creditNoteRequest(job: ConnectorJob, token: string | undefined): ProviderRequest {
  if (!job.connector_capture_id) throw new Error(`billie: refund ${job.refund_id} names no invoice (no charged capture)`);
  return {
    method: 'POST',
    path: `${apiRoot()}/invoices/${job.connector_capture_id}/credit-notes`,
    idempotencyKey: job.operation_id,
    headers: bearer(token),
    body: {
      external_code: job.refund_id ?? job.operation_id,
      amount: amountOf(job.amount, taxShare(job.amount, job.order), job.currency),
      ...(job.reason ? { comment: job.reason } : {}),
    },
  };
}
