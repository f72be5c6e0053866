// Our operations in Twisto's dialect (README.md `## Sources`: docs.twisto.cz psp-api): JSON bodies, amounts as
// decimal strings in major units ("119.00"), the secret key as a Bearer token. Paths are relative to Twisto's API root
// (TWISTO_BASE_URL, e.g. https://api.twisto.cz/psp/v4); without it the provider sandbox serves it at /twisto/psp/v4.
// Idempotency: Twisto's "Edge cases and error handling" page (psp-api/edge-cases-and-error-handling) names POST
// /charges, POST /refunds and POST /checkouts/{id}/cancel "transactional": a retry must carry the original request's
// `Idempotency-Key` header. We send the operation id, the same on every retry of a job (issue 21: we used to say Twisto
// documents none). The flows still read first (a GET), so a repeat after the key is forgotten finds what the first
// call did. POST /checkouts is "non-transactional" (a repeat makes a new checkout, which the shopper never sees).
import type { ConnectorJob, ProviderOrder } from '../../../domain/job.ts';
import type { ProviderRequest, ProviderResponse } from '../kit/http.ts';
import { maybeAnswer } from '../kit/answer.ts';
import { majorString } from '../kit/money.ts';
import { linesOf, obj, str } from '../kit/order.ts';
import { manifest, type TwistoCredentials } from './manifest.ts';
import { TwistoCheckout, TwistoRefundList } from './schemas.ts';

/** The API root's path below the base URL: the sandbox's when TWISTO_BASE_URL is unset. */
export const apiRoot = () => (process.env[manifest.settings.base_url.env] ? '' : '/twisto/psp/v4');

const headers = (secretKey: string) => ({ authorization: `Bearer ${secretKey}` });

const cut = (v: string | undefined, max: number) => (v === undefined ? undefined : v.slice(0, max));

/** Minor units -> Twisto's decimal string ("119.00"; CZK and EUR have two places): the kit's exact conversion. */
export const decimal = (minor: number, currency: string): string => majorString(minor, currency);

/** Our reference of the order at Twisto (order.reference, the charge's order.reference; ≤ 200). */
const orderReference = (job: ConnectorJob) => cut(job.merchant_order_reference_id ?? job.payment_id, 200)!;

/**
 * The checkout's `merchant_reference`: in Twisto's PSP API the MERCHANT's reference, the `reference` the PSP gave it
 * when registering it with POST /merchants ("Unique external reference - is later used in a checkout creation
 * request in merchant_reference field", psp-api/register-merchant-and-eshop). Not the order's (issue 21: we sent the
 * order reference). The account's `key1` when set, else our merchant id (the reference we register our merchants by).
 */
export const merchantReference = (job: ConnectorJob, c: TwistoCredentials) => c.key1 ?? job.merchant_id;

const ITEM_TYPE: Record<string, string> = { shipping_costs: 'shipping', voucher: 'discount' };

/**
 * Twisto's order items (each `amount` the line's gross total): ours when they add up to the amount, a voucher as a
 * negative discount item; otherwise one item for the whole order, so Twisto's sum check cannot refuse the checkout.
 */
export function items(job: ConnectorJob) {
  const lines = linesOf(job.order?.order_details);
  const mapped = lines.map((l, i) => {
    const type = ITEM_TYPE[l.category ?? ''] ?? 'sku';
    const amount = type === 'discount' ? -Math.abs(l.amount ?? 0) : (l.amount ?? 0);
    return {
      name: cut(l.product_name ?? `Item ${i + 1}`, 255)!,
      amount,
      quantity: Math.max(1, l.quantity ?? 1),
      type,
      ...(l.product_id ? { reference: cut(l.product_id, 200) } : {}),
    };
  });
  const whole = mapped.length > 0 && mapped.reduce((t, x) => t + x.amount, 0) === job.amount;
  const chosen = whole ? mapped : [{ name: cut(job.order?.description ?? `Order ${orderReference(job)}`, 255)!, amount: job.amount, quantity: 1, type: 'sku' }];
  return chosen.map((x) => ({ ...x, amount: decimal(x.amount, job.currency) }));
}

/** Twisto's shopper from our customer, billing address and spec 2.5 metadata. */
function shopper(job: ConnectorJob) {
  const o: Partial<ProviderOrder> = job.order ?? {};
  const billing = obj(o.billing);
  const a = obj(billing.address);
  const [first, ...rest] = (o.customer?.name ?? '').trim().split(/\s+/);
  const md = obj(o.metadata);
  const phone =
    o.customer?.phone ?? (str(obj(billing.phone).number) ? `${str(obj(billing.phone).country_code) ?? ''}${str(obj(billing.phone).number)}` : undefined);
  const birth = str(md.birth_date) ?? o.birth_date ?? undefined;
  return {
    email: o.customer?.email ?? job.customer_email ?? str(billing.email),
    first_name: cut(str(a.first_name) ?? (first || undefined), 40),
    last_name: cut(str(a.last_name) ?? (rest.join(' ') || undefined), 40),
    ...(phone ? { phone: cut(phone, 20) } : {}),
    ...(birth && /^\d{4}-\d{2}-\d{2}$/.test(birth) ? { birth_date: birth } : {}),
    ...(str(md.personal_id) ? { personal_id: cut(str(md.personal_id), 11) } : {}),
    ...(Object.keys(a).length
      ? {
          billing_address: {
            line1: str(a.line1),
            line2: str(a.line2),
            city: str(a.city),
            state: str(a.state),
            postal_code: str(a.zip),
            country: str(a.country),
          },
        }
      : {}),
  };
}

/** POST /checkouts: the hosted checkout the shopper is sent to (authorize). */
export function createCheckoutRequest(job: ConnectorJob, c: TwistoCredentials): ProviderRequest {
  const secretKey = c.api_key;
  const ref = orderReference(job);
  const installments = (job.order?.payment_method_type ?? '').startsWith('installment');
  return {
    method: 'POST',
    path: `${apiRoot()}/checkouts`,
    idempotencyKey: job.operation_id,
    headers: headers(secretKey),
    body: {
      type: installments ? 'pay-in-three' : 'standard',
      config: { redirect_uri: cut(job.return_url ?? undefined, 1000) },
      shopper: shopper(job),
      order: { reference: ref, amount: decimal(job.amount, job.currency), currency: job.currency, items: items(job) },
      merchant_reference: merchantReference(job, c),
    },
  };
}

/** GET /checkouts/{id}: the status sync of an authorization, and the first read of a capture or a void. */
export const checkoutRequest = (job: ConnectorJob, secretKey: string): ProviderRequest => ({
  method: 'GET',
  path: `${apiRoot()}/checkouts/${job.connector_transaction_id}`,
  headers: headers(secretKey),
});

const checkoutOf = (answers: readonly ProviderResponse[]) => (answers[0] ? maybeAnswer(TwistoCheckout, answers[0]) : null);

/**
 * capture, after the checkout's read: an approved checkout is charged in full with capture (POST /charges); a completed
 * one was charged already (our earlier call whose answer was lost), so nothing more is sent.
 */
export function chargeNext(job: ConnectorJob, secretKey: string, answers: readonly ProviderResponse[]): ProviderRequest | null {
  if (answers.length !== 1 || checkoutOf(answers)?.state !== 'approved') return null;
  const invoice = str(obj(obj(job.capture_details?.capture_metadata).invoice_data).merchant_invoice_ref);
  const ref = orderReference(job);
  return {
    method: 'POST',
    path: `${apiRoot()}/charges`,
    idempotencyKey: job.operation_id,
    headers: headers(secretKey),
    body: {
      authority: { type: 'checkout_id', value: job.connector_transaction_id },
      // ≤ 140 (charge-create; issue 21: we cut at 200): in a manual settlement the bank transfer's reference.
      reference: cut(invoice ?? ref, 140),
      amount: decimal(job.amount, job.currency),
      currency: job.currency,
      capture: true,
      order: { reference: ref },
    },
  };
}

/** void, after the checkout's read: cancel it unless it is cancelled already. */
export function cancelNext(job: ConnectorJob, secretKey: string, answers: readonly ProviderResponse[]): ProviderRequest | null {
  if (answers.length !== 1 || checkoutOf(answers)?.state === 'cancelled') return null;
  return {
    method: 'POST',
    path: `${apiRoot()}/checkouts/${job.connector_transaction_id}/cancel`,
    idempotencyKey: job.operation_id,
    headers: headers(secretKey),
  };
}

/** refund, first: the checkout's refunds (ours carry our refund id as `reference`). */
export const refundListRequest = (job: ConnectorJob, secretKey: string): ProviderRequest => ({
  method: 'GET',
  path: `${apiRoot()}/refunds?${new URLSearchParams({ checkoutId: job.connector_transaction_id ?? '', limit: '200', skip: '0' })}`,
  headers: headers(secretKey),
});

/** The refund already made for this refund id, from the list's answer. */
export const listedRefund = (job: ConnectorJob, answer: ProviderResponse | undefined) =>
  (answer ? maybeAnswer(TwistoRefundList, answer) : null)?.items.find((r) => r.reference === (job.refund_id ?? job.operation_id));

/** refund, then: POST /refunds unless the list shows it made (our earlier call whose answer was lost). */
export function refundNext(job: ConnectorJob, secretKey: string, answers: readonly ProviderResponse[]): ProviderRequest | null {
  if (answers.length !== 1 || listedRefund(job, answers[0])) return null;
  return {
    method: 'POST',
    path: `${apiRoot()}/refunds`,
    idempotencyKey: job.operation_id,
    headers: headers(secretKey),
    body: {
      checkout_id: job.connector_transaction_id,
      reference: cut(job.refund_id ?? job.operation_id, 140),
      reason: cut(job.reason ?? 'return', 255),
      amount: decimal(job.amount, job.currency),
    },
  };
}

/** refundSync: GET /refunds/{id}. */
export const refundRequest = (job: ConnectorJob, secretKey: string): ProviderRequest => ({
  method: 'GET',
  path: `${apiRoot()}/refunds/${job.connector_refund_id}`,
  headers: headers(secretKey),
});
