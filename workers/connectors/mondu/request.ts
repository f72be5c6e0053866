// Our operations in Mondu's dialect (Sources: README.md): JSON bodies, amounts in
// integer cents, the API token in the `Api-Token` header. Paths are relative to Mondu's API root (MONDU_BASE_URL,
// e.g. https://api.demo.mondu.ai/api/v1); without MONDU_BASE_URL the provider sandbox serves it at /mondu/api/v1.
import type { ConnectorJob } from '../../../domain/job.ts';
import type { ProviderRequest } from '../kit/http.ts';
import { captureInvoice, int, lineTax, linesOf, obj, str, taxShare, type Obj } from '../kit/order.ts';
import { manifest } from './manifest.ts';

/** The API root's path below the base URL: the sandbox's when MONDU_BASE_URL is unset. */
export const apiRoot = () => (process.env[manifest.settings.base_url.env] ? '' : '/mondu/api/v1');

const headers = (apiToken: string) => ({ 'api-token': apiToken });

/** Our payment_method_type -> Mondu's payment_method. */
const PAYMENT_METHOD: Record<string, string> = {
  invoice: 'invoice',
  direct_debit: 'direct_debit',
  installment_invoice: 'installment_by_invoice',
  installment_direct_debit: 'installment',
};
// docs.mondu.ai/reference/post_api-v1-orders: `language` enum en, de, nl, fr, es, it (fixtures/rules.json).
const LANGUAGES = ['en', 'de', 'nl', 'fr', 'es', 'it'];

/** Mondu's address from ours (spec 2.3). */
function address(a: unknown) {
  const x = obj(obj(a).address);
  return {
    address_line1: str(x.line1),
    address_line2: str(x.line2),
    city: str(x.city),
    state: str(x.state),
    zip_code: str(x.zip),
    country_code: str(x.country),
  };
}

/** POST /orders: the hosted checkout's order, in the authorization flow (we confirm after the buyer's checkout). */
export function createOrderRequest(job: ConnectorJob, apiToken: string): ProviderRequest {
  const o = job.order;
  const md = obj(o?.metadata);
  const billing = obj(o?.billing);
  const name = obj(obj(billing).address);
  const [first, ...rest] = (o?.customer?.name ?? '').split(' ');
  const lines = linesOf(o?.order_details);
  const tax = o?.order_tax_amount ?? lines.reduce((t, l) => t + lineTax(l), 0);
  let shipping = 0;
  let discount = 0;
  const items: Obj[] = [];
  lines.forEach((l, i) => {
    const net = (l.amount ?? 0) - lineTax(l);
    if (l.category === 'shipping_costs') shipping += net;
    else if (l.category === 'voucher') discount += net;
    else {
      const quantity = l.quantity ?? 1;
      items.push({
        title: l.product_name,
        quantity,
        external_reference_id: l.product_id ?? `line-${i + 1}`,
        product_id: l.product_id ?? undefined,
        item_type: l.product_type === 'digital' ? 'VIRTUAL' : 'PHYSICAL',
        net_price_per_item_cents: Math.round(net / quantity),
        net_price_cents: net,
        tax_cents: lineTax(l),
      });
    }
  });
  const locale = str(md.customer_locale) ?? o?.locale ?? undefined;
  const language = locale?.slice(0, 2).toLowerCase();
  const returnUrl = job.return_url ?? undefined;
  return {
    method: 'POST',
    path: `${apiRoot()}/orders`,
    idempotencyKey: job.operation_id,
    headers: headers(apiToken),
    body: {
      payment_method: PAYMENT_METHOD[o?.payment_method_type ?? ''] ?? 'invoice',
      currency: job.currency,
      external_reference_id: job.merchant_order_reference_id ?? job.payment_id,
      gross_amount_cents: job.amount,
      net_price_cents: job.amount - tax,
      tax_cents: tax,
      ...(int(md.net_term) !== undefined ? { net_term: int(md.net_term) } : {}),
      buyer: {
        email: o?.customer?.email ?? job.customer_email ?? str(billing.email),
        first_name: str(name.first_name) ?? (first || undefined),
        last_name: str(name.last_name) ?? (rest.join(' ') || undefined),
        company_name: str(md.company_name),
        legal_form: str(md.legal_form),
        legal_form_category: str(md.legal_form_category),
        phone: o?.customer?.phone ?? str(obj(billing.phone).number),
        external_reference_id: o?.customer?.id ?? undefined,
        is_registered: !!o?.customer?.id,
      },
      billing_address: address(o?.billing),
      shipping_address: address(o?.shipping ?? o?.billing),
      lines: [{ shipping_price_cents: shipping, discount_cents: discount, line_items: items }],
      success_url: returnUrl,
      cancel_url: returnUrl,
      declined_url: returnUrl,
      state_flow: 'authorization_flow',
      source: 'hosted',
      ...(language && LANGUAGES.includes(language) ? { language } : {}),
    },
  };
}

/**
 * The status sync of an authorization, first call: read the order (`GET /orders/{uuid}`), as Mondu's plugins do
 * before they confirm (magento2-checkout `Observer/CreateOrder.php`: read, then confirm only an order the state
 * calls for). Issue 21: we used to confirm on every sync.
 */
export const readOrderRequest = (job: ConnectorJob, apiToken: string): ProviderRequest => ({
  method: 'GET',
  path: `${apiRoot()}/orders/${job.connector_transaction_id}`,
  headers: headers(apiToken),
});

/**
 * The status sync's second call, made only when the read order is `authorized` (the buyer finished the hosted
 * checkout): confirm it with the shop's order number (docs.mondu.ai Confirm Order: "from authorized to confirmed",
 * body `{external_reference_id}`). Mondu then decides: confirmed, pending (review), declined.
 */
export const confirmRequest = (job: ConnectorJob, apiToken: string): ProviderRequest => ({
  method: 'POST',
  path: `${apiRoot()}/orders/${job.connector_transaction_id}/confirm`,
  headers: headers(apiToken),
  body: { external_reference_id: job.merchant_order_reference_id ?? job.payment_id },
});

/** A capture is an invoice: the merchant's invoice number and PDF, the amount, and the lines shipped. */
export function invoiceRequest(job: ConnectorJob, apiToken: string): ProviderRequest {
  const { number, url, lines, tax } = captureInvoice(job);
  return {
    method: 'POST',
    path: `${apiRoot()}/orders/${job.connector_transaction_id}/invoices`,
    idempotencyKey: job.operation_id,
    headers: headers(apiToken),
    body: {
      external_reference_id: number ?? job.operation_id,
      invoice_url: url,
      gross_amount_cents: job.amount,
      tax_cents: tax,
      discount_cents: 0,
      shipping_price_cents: 0,
      ...(lines.length
        ? {
            line_items: lines
              .filter((l) => l.category !== 'shipping_costs' && l.category !== 'voucher')
              .map((l, i) => ({ external_reference_id: l.product_id ?? `line-${i + 1}`, quantity: l.quantity ?? 1 })),
          }
        : {}),
    },
  };
}

/** A void cancels the whole order (Mondu's partial void is an adjust, which we do not use). */
export const cancelRequest = (job: ConnectorJob, apiToken: string): ProviderRequest => ({
  method: 'POST',
  path: `${apiRoot()}/orders/${job.connector_transaction_id}/cancel`,
  idempotencyKey: job.operation_id,
  headers: headers(apiToken),
  body: {},
});

/** A refund is a credit note on the invoice (the capture) it is refunded within; our refund id is its number. */
export function creditNoteRequest(job: ConnectorJob, apiToken: string): ProviderRequest {
  if (!job.connector_capture_id) throw new Error(`mondu: refund ${job.refund_id} names no invoice (no charged capture)`);
  return {
    method: 'POST',
    path: `${apiRoot()}/invoices/${job.connector_capture_id}/credit_notes`,
    idempotencyKey: job.operation_id,
    headers: headers(apiToken),
    body: {
      external_reference_id: job.refund_id ?? job.operation_id,
      gross_amount_cents: job.amount,
      tax_cents: taxShare(job.amount, job.order),
      ...(job.reason ? { notes: job.reason } : {}),
    },
  };
}
