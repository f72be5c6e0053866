// A new payment intent (spec 4.1, status requires_confirmation), built from a validated create body. Pure.
import { createHash } from 'node:crypto';
import { refundView } from './refunds.ts';
import { paymentDisputeView } from './disputes.ts';
import { framingSource } from '../lib/schemas/payment-link.ts';
import { ORDER_LINE_FIELDS, PAYMENT_FIELDS, PaymentMethodData, type CreatePaymentBody, type PaymentResource } from '../lib/schemas/payment.ts';
import { customerFields, type CustomerView } from './customer.ts';
import { netAmount, type StoredPayment } from './payment.ts';
import { requestExtras } from './request-fields.ts';

export const DEFAULT_SESSION_EXPIRY_S = 900;
const EPHEMERAL_KEY_TTL_S = 3600;

/** The customer's ephemeral key (the spec's shape): made with a payment for its customer, or by POST /ephemeral_keys. */
export function ephemeralKeyFor(customerId: string, createdS: number, secret: string) {
  return { customer_id: customerId, created_at: createdS, expires: createdS + EPHEMERAL_KEY_TTL_S, secret };
}

/** Fields of the create body that are stored on the payment as given. */
const STORED_AS_GIVEN = [
  'amount',
  'currency',
  'order_tax_amount',
  'amount_to_capture',
  'routing',
  'capture_method',
  'billing',
  'shipping',
  'off_session',
  'description',
  'return_url',
  'setup_future_usage',
  'payment_method_data',
  'payment_method',
  'payment_method_type',
  'payment_token',
  'statement_descriptor_name',
  'statement_descriptor_suffix',
  'order_details',
  'mandate_data',
  'mandate_id',
  'browser_info',
  'payment_experience',
  'metadata',
  'merchant_order_reference_id',
  'capture_on',
  'business_label',
  'business_country',
  'business_sub_label',
  'profile_id',
  'allowed_payment_method_types',
  'surcharge_details',
  'split_payments',
  'connector_metadata',
  'feature_metadata',
  'frm_metadata',
] as const satisfies readonly (keyof CreatePaymentBody)[];

/** Canonical hash of a request body: the same body in any key order hashes the same. */
export function requestHash(body: unknown): string {
  const canon = (v: unknown): unknown =>
    Array.isArray(v)
      ? v.map(canon)
      : v && typeof v === 'object'
        ? Object.fromEntries(
            Object.keys(v)
              .sort()
              .map((k) => [k, canon((v as Record<string, unknown>)[k])]),
          )
        : v;
  return createHash('sha256')
    .update(JSON.stringify(canon(body)))
    .digest('hex');
}

export function createIntent(
  merchantId: string,
  body: CreatePaymentBody,
  ctx: {
    now: Date;
    paymentId: string;
    clientSecret: (paymentId: string) => string;
    newCustomerId: () => string;
    ephemeralSecret: () => string;
    /** The stored customer the request attaches by id, if there is one. */
    knownCustomer?: CustomerView | null;
    /** For payment_link: true, the link's id and the base address of the checkout pages. */
    paymentLink?: { id: string; baseUrl: string };
    /** The business profile the gateway resolved (profile_id, business_label, or the merchant's only one). */
    profileId?: string | null;
  },
): StoredPayment {
  const p = Object.fromEntries(PAYMENT_FIELDS.map((k) => [k, null])) as unknown as PaymentResource &
    Pick<StoredPayment, 'amount_to_capture' | 'routing' | 'request_incremental_authorization'>;
  for (const k of STORED_AS_GIVEN) if (body[k] !== undefined) (p as Record<string, unknown>)[k] = body[k];
  Object.assign(p, customerFields(body, ctx.knownCustomer ?? null, ctx.newCustomerId));
  const now = ctx.now.toISOString();
  const created = Math.floor(ctx.now.getTime() / 1000);
  return {
    ...p,
    amount_to_capture: body.amount_to_capture ?? null,
    routing: body.routing ?? null,
    request_incremental_authorization: body.request_incremental_authorization ?? null,
    request_extras: requestExtras(body),
    payment_id: ctx.paymentId,
    merchant_id: merchantId,
    profile_id: ctx.profileId ?? body.profile_id ?? null,
    status: 'requires_confirmation',
    net_amount: netAmount(p),
    amount_capturable: p.amount,
    capture_method: body.capture_method ?? 'automatic',
    authentication_type: body.authentication_type ?? 'no_three_ds',
    attempt_count: 0,
    attempts: [],
    captures: [],
    refunds: [],
    disputes: [],
    incremental_authorizations: [],
    authorization_count: 0,
    incremental_authorization_allowed: false,
    manual_retry_allowed: false,
    connector: body.connector?.[0] ?? null,
    client_secret: ctx.clientSecret(ctx.paymentId),
    created: now,
    updated: now,
    expires_on: new Date(ctx.now.getTime() + (body.session_expiry ?? DEFAULT_SESSION_EXPIRY_S) * 1000).toISOString(),
    payment_link: body.payment_link && ctx.paymentLink ? paymentLinkOf(merchantId, ctx.paymentId, ctx.paymentLink) : null,
    ephemeral_key: p.customer_id ? ephemeralKeyFor(p.customer_id, created, ctx.ephemeralSecret()) : null,
    seq: 0,
    request_hash: requestHash(body),
    operations: [],
    in_flight: false,
    in_flight_since: null,
  };
}

/** The checkout pages of a payment link: open (link_to_pay) and secure (only inside the merchant's site). */
export function paymentLinkOf(merchantId: string, paymentId: string, link: { id: string; baseUrl: string }) {
  const path = `${encodeURIComponent(merchantId)}/${encodeURIComponent(paymentId)}`;
  return { payment_link_id: link.id, link: `${link.baseUrl}/payment_link/${path}`, secure_link: `${link.baseUrl}/payment_link/s/${path}` };
}

/** The API resource of a stored payment: every field of spec 2.2, null where unset, nothing internal. */
/**
 * The sites allowed to frame the payment's secure link (payment_link_config.allowed_domains, stored as origins), or
 * null: the payment has an open link only.
 */
export function framingOrigins(p: Pick<StoredPayment, 'request_extras'>): string[] | null {
  const config = p.request_extras?.payment_link_config as { allowed_domains?: unknown } | undefined;
  const list = Array.isArray(config?.allowed_domains)
    ? config.allowed_domains.flatMap((u) => {
        // Checked again when read: a value stored before the rule goes into the CSP header only if it is an origin now.
        const r = typeof u === 'string' ? framingSource(u) : null;
        return r && 'source' in r ? [r.source] : [];
      })
    : [];
  return list.length ? list : null;
}

/** Built once: `.nullish()` makes a new schema at each call (issue 24: zod's schema construction was per answer). */
const STORED_PAYMENT_METHOD_DATA = PaymentMethodData.nullish();

export function toResource(p: Pick<StoredPayment, keyof PaymentResource | 'request_extras'>): PaymentResource {
  const out: Record<string, unknown> = {};
  for (const k of PAYMENT_FIELDS) out[k] = p[k] ?? null;
  out.order_details = p.order_details?.map(orderLineView) ?? null;
  out.refunds = p.refunds?.map(refundView) ?? [];
  out.disputes = p.disputes?.map(paymentDisputeView) ?? [];
  // Only the spec's shapes are answered: what was stored before pay_later was strict (a card, say) is not.
  if (!STORED_PAYMENT_METHOD_DATA.safeParse(p.payment_method_data).success) out.payment_method_data = null;
  // A secure link exists only for a payment with allowed_domains (an update may add them after the create).
  if (p.payment_link && !framingOrigins(p)) out.payment_link = { ...p.payment_link, secure_link: null };
  return out as PaymentResource;
}

/** Spec 2.4: every field of an order line, null where the request left it out. */
function orderLineView(line: unknown): Record<string, unknown> {
  const l = (line ?? {}) as Record<string, unknown>;
  return Object.fromEntries(ORDER_LINE_FIELDS.map((k) => [k, l[k] ?? null]));
}
