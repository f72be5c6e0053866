// Mandates (issue 22): what a payment asks of a mandate, and the checks a recurring payment passes. Pure.
// The payment carries its mandate part (StoredPayment.mandate); once the payment is authorized, the mandate and the
// saved payment method are projections of it (adapters/mandate-projection.ts), as refunds are.
import { createHash } from 'node:crypto';
import { CustomerAcceptance, type CustomerPaymentMethod, type MandateResource, type MandateType } from '../lib/schemas/mandate.ts';
import { MandateData } from '../lib/schemas/payment.ts';
import type { Refusal, StoredPayment } from './payment.ts';
import { refuse } from './transitions.ts';

/**
 * The mandate part of a payment:
 * - 'new': a payment that also sets up a mandate (setup_future_usage off_session, or payment_type new_mandate);
 * - 'setup': payment_type setup_mandate: a zero authorization (or the provider's verification) that leaves a mandate;
 * - 'recurring': an off-session charge on an existing mandate (mandate_id, or a payment_token with one).
 */
export interface PaymentMandate {
  kind: 'new' | 'setup' | 'recurring';
  /** For new and setup, the id the mandate will have (made at confirm, so a replay names the same one). */
  mandate_id: string;
  customer_acceptance: CustomerAcceptance | null;
  mandate_type: MandateType | null;
  /** The provider's reference: for recurring, the mandate's; for new and setup, what the provider answered. */
  connector_mandate_id: string | null;
}

export type { MandateResource };

/** A saved payment method as the projection writes it (the resource and its merchant). */
export type SavedPaymentMethod = CustomerPaymentMethod & { merchant_id: string };

/**
 * The unified code a connector reports when the provider says the customer's mandate is revoked (or unknown) at
 * its end: the recurring charge fails and our mandate becomes revoked (workers/connectors/kit/errors.ts
 * UNIFIED.mandate_revoked holds the same code; domain/mandates.test.ts checks they agree).
 */
export const MANDATE_REVOKED_UNIFIED_CODE = 'UE_7000';

/** What the confirm's gateway read for it: the mandate charged on, the saved payment method named by payment_token. */
export interface MandateContext {
  mandate?: MandateResource | null;
  paymentMethod?: CustomerPaymentMethod | null;
}

const digest = (s: string) => createHash('sha256').update(s).digest('hex');

/** The id of the mandate a payment sets up: one per payment, so a replayed or repeated confirm names the same one. */
export const newMandateId = (merchantId: string, paymentId: string) => `man_${digest(`mandate:${merchantId}:${paymentId}`).slice(0, 26)}`;
/** The payment_token of the payment method a payment saves (setup_future_usage): one per payment. */
export const newPaymentToken = (merchantId: string, paymentId: string) => `token_${digest(`token:${merchantId}:${paymentId}`).slice(0, 26)}`;

/** The payment's mandate_data as the request schema reads it (stored as given; null when absent or not that shape). */
const mandateDataOf = (p: Pick<StoredPayment, 'mandate_data'>) => {
  const r = MandateData.nullish().safeParse(p.mandate_data);
  return r.success ? (r.data ?? null) : null;
};

const paymentTypeOf = (p: Pick<StoredPayment, 'request_extras'>): string | null => {
  const t = p.request_extras?.payment_type;
  return typeof t === 'string' ? t : null;
};

/**
 * Which mandate part the payment (its request fields applied) asks for, and which field asked (named in refusals):
 * a mandate_id (or a payment_token holding one, off-session) charges on it; payment_type setup_mandate sets one up
 * with a zero authorization; setup_future_usage off_session or payment_type new_mandate sets one up with this payment.
 */
export function mandateAsked(
  p: StoredPayment,
  ctx: MandateContext,
): { kind: PaymentMandate['kind']; field: 'mandate_id' | 'payment_token' | 'payment_type' | 'setup_future_usage' } | null {
  // A re-confirm (after a failed attempt) keeps what the first asked.
  if (p.mandate)
    return { kind: p.mandate.kind, field: p.mandate.kind === 'recurring' ? 'mandate_id' : p.mandate.kind === 'setup' ? 'payment_type' : 'setup_future_usage' };
  if (p.mandate_id) return { kind: 'recurring', field: 'mandate_id' };
  if (p.payment_token && p.off_session && ctx.paymentMethod?.mandate_id) return { kind: 'recurring', field: 'payment_token' };
  const type = paymentTypeOf(p);
  if (type === 'setup_mandate') return { kind: 'setup', field: 'payment_type' };
  if (type === 'new_mandate') return { kind: 'new', field: 'payment_type' };
  if (p.setup_future_usage === 'off_session') return { kind: 'new', field: 'setup_future_usage' };
  return null;
}

/**
 * A confirm's mandate part: the payment with what the mandate (or the saved payment method) fills in, and its
 * `mandate`; or why it is refused. Every refusal names the field.
 */
export function withMandate(p: StoredPayment, ctx: MandateContext & { now: string }): StoredPayment | Refusal {
  let next: StoredPayment = { ...p };
  // A saved payment method stands in for payment_method_data: it names the method and its type.
  if (p.payment_token && !p.mandate && p.payment_token !== newPaymentToken(p.merchant_id, p.payment_id)) {
    const pm = ctx.paymentMethod;
    if (!pm || pm.payment_token !== p.payment_token)
      return refuse('IR_05', 'payment_token does not name a saved payment method of this merchant', 'payment_token');
    if (p.customer_id && pm.customer_id !== p.customer_id)
      return refuse('IR_05', 'payment_token belongs to another customer than customer_id', 'payment_token');
    if (p.payment_method_type && pm.payment_method_type && p.payment_method_type !== pm.payment_method_type) {
      return refuse('IR_05', `payment_token holds a ${pm.payment_method_type} payment method, not ${p.payment_method_type}`, 'payment_method_type');
    }
    next = {
      ...next,
      payment_method: next.payment_method ?? (pm.payment_method === 'pay_later' ? 'pay_later' : null),
      payment_method_type: next.payment_method_type ?? pm.payment_method_type,
    };
    if (!next.customer_id) next = { ...next, ...customerOf(pm.customer_id, next) };
    if (p.off_session && pm.mandate_id && !p.mandate_id) next.mandate_id = pm.mandate_id;
  }
  const asked = mandateAsked(next, ctx);
  if (!asked) return next;
  // A recurring charge is checked against the mandate as it is now, at every confirm.
  if (asked.kind === 'recurring') return withRecurring(next, ctx.mandate ?? null, ctx.now);
  if (p.mandate) return next;
  // A new mandate: the customer's consent, kept by the customer.
  if (!next.customer_id) {
    return refuse(
      'IR_04',
      `Missing required param: customer_id (${asked.field} ${asked.field === 'payment_type' ? paymentTypeOf(next) : 'off_session'} saves a mandate for a customer)`,
      'customer_id',
    );
  }
  const data = mandateDataOf(next);
  const acceptance = data?.customer_acceptance ?? null;
  if (!acceptance) {
    return refuse(
      'IR_04',
      "Missing required param: mandate_data.customer_acceptance (a new mandate needs the customer's acceptance)",
      'mandate_data.customer_acceptance',
    );
  }
  if (!next.payment_method_type)
    return refuse('IR_04', 'Missing required param: payment_method_type (a mandate is for one payment method type)', 'payment_method_type');
  const single = data?.mandate_type?.single_use;
  if (single?.start_date && single.end_date && Date.parse(single.end_date) < Date.parse(single.start_date)) {
    return refuse('IR_05', 'mandate_data.mandate_type.single_use.end_date is before its start_date', 'mandate_data.mandate_type.single_use.end_date');
  }
  const mandateId = newMandateId(next.merchant_id, next.payment_id);
  return {
    ...next,
    mandate_id: mandateId,
    mandate: {
      kind: asked.kind,
      mandate_id: mandateId,
      customer_acceptance: acceptance,
      mandate_type: data?.mandate_type ?? null,
      connector_mandate_id: null,
    },
  };
}

/**
 * The customer's acceptance given at confirm as the top-level `customer_acceptance` (the client's confirm with the
 * publishable key may carry it): it becomes mandate_data.customer_acceptance.
 */
export function withClientAcceptance(p: StoredPayment, given: unknown): StoredPayment | Refusal {
  if (given == null) return p;
  const r = CustomerAcceptance.safeParse(given);
  if (!r.success) {
    const issue = r.error.issues[0];
    const path = ['customer_acceptance', ...(issue?.path.map(String) ?? [])].join('.');
    return refuse('IR_05', `Invalid value for ${path}: ${issue?.message ?? 'not a customer acceptance'}`, path);
  }
  return { ...p, mandate_data: { ...mandateDataOf(p), customer_acceptance: r.data } };
}

/** The customer fields of a payment charged for `customerId` (named by its mandate or saved payment method). */
function customerOf(customerId: string, p: StoredPayment): Pick<StoredPayment, 'customer_id' | 'customer'> {
  const c = p.customer ?? { id: null, name: null, email: null, phone: null, phone_country_code: null };
  return { customer_id: customerId, customer: { ...c, id: customerId } };
}

/** A recurring charge on a mandate: the mandate's checks, then its payment method, customer and reference. */
function withRecurring(p: StoredPayment, m: MandateResource | null, now: string): StoredPayment | Refusal {
  const refused = recurringRefusal(p, m, now);
  if (refused) return refused;
  const mandate = m!;
  return {
    ...p,
    ...(p.customer_id ? {} : customerOf(mandate.customer_id, p)),
    mandate_id: mandate.mandate_id,
    payment_method: p.payment_method ?? (mandate.payment_method === 'pay_later' ? 'pay_later' : p.payment_method),
    payment_method_type: p.payment_method_type ?? mandate.payment_method_type,
    payment_token: p.payment_token ?? mandate.payment_token,
    connector_mandate_id: mandate.connector_mandate_id,
    mandate: {
      kind: 'recurring',
      mandate_id: mandate.mandate_id,
      customer_acceptance: mandate.customer_acceptance,
      mandate_type: mandate.mandate_type,
      connector_mandate_id: mandate.connector_mandate_id,
    },
  };
}

/**
 * Can this payment be charged on this mandate now? off_session is mandatory (spec 4.1); the mandate must be this
 * merchant's (null: not found, which never says whether another merchant has one by that id), active, of this
 * customer, and a single_use mandate's limits hold: its currency, at most its amount per charge, within its dates.
 */
export function recurringRefusal(p: StoredPayment, m: MandateResource | null, now: string): Refusal | null {
  if (p.off_session !== true) {
    return refuse('IR_04', 'Missing required param: off_session (a payment charged on a mandate_id is off-session: set off_session to true)', 'off_session');
  }
  if (!m || m.mandate_id !== p.mandate_id) return refuse('IR_05', 'mandate_id does not name a mandate of this merchant', 'mandate_id');
  if (m.status !== 'active') return refuse('IR_05', `mandate_id names a mandate that is ${m.status}; it cannot be charged`, 'mandate_id');
  if (p.customer_id && p.customer_id !== m.customer_id) return refuse('IR_05', 'mandate_id names a mandate of another customer than customer_id', 'mandate_id');
  if (p.payment_method_type && m.payment_method_type && p.payment_method_type !== m.payment_method_type) {
    return refuse('IR_05', `mandate_id names a ${m.payment_method_type} mandate, not ${p.payment_method_type}`, 'payment_method_type');
  }
  const single = m.mandate_type?.single_use;
  if (single) {
    if (p.currency !== single.currency) return refuse('IR_05', `currency must be the mandate's currency (${single.currency})`, 'currency');
    if (p.amount > single.amount) return refuse('IR_05', `amount (${p.amount}) is above what the mandate allows per charge (${single.amount})`, 'amount');
    const at = Date.parse(now);
    if (single.start_date && at < Date.parse(single.start_date))
      return refuse('IR_05', `mandate_id names a mandate that starts on ${single.start_date}`, 'mandate_id');
    if (single.end_date && at > Date.parse(single.end_date))
      return refuse('IR_05', `mandate_id names a mandate that ended on ${single.end_date}`, 'mandate_id');
  }
  return null;
}

/**
 * The authorize operation of the payment's current attempt was accepted by the provider (authorized or captured), and
 * the payment is neither failed nor cancelled nor held in our manual review (approved, it counts from then). Read from
 * the operations, not the status alone: an automatic capture that follows the authorization goes processing ->
 * processing -> succeeded. The mandate projection and the mandate_active event (domain/events.ts) both ask this.
 */
export function authorizedAtProvider(p: StoredPayment): boolean {
  if (p.status === 'failed' || p.status === 'cancelled' || p.status === 'requires_merchant_action') return false;
  const attempt = p.attempts?.at(-1)?.attempt_id;
  return p.operations.some((o) => o.kind === 'authorize' && o.ref === attempt && (o.last_outcome === 'AUTHORIZED' || o.last_outcome === 'CAPTURED'));
}

/** The mandate a payment set up, once it is authorized (the projection's document); null for any other payment. */
export function mandateOf(p: StoredPayment): MandateResource | null {
  const m = p.mandate;
  if (!m || m.kind === 'recurring' || !p.customer_id || !p.connector || !p.payment_method || !authorizedAtProvider(p)) return null;
  const created = p.attempts?.at(-1)?.modified_at ?? p.updated;
  return {
    mandate_id: m.mandate_id,
    merchant_id: p.merchant_id,
    customer_id: p.customer_id,
    status: 'active',
    payment_method: p.payment_method,
    payment_method_type: p.payment_method_type,
    payment_token: p.payment_token,
    connector: p.connector,
    merchant_connector_id: p.merchant_connector_id ?? null,
    connector_mandate_id: p.connector_mandate_id ?? m.connector_mandate_id,
    customer_acceptance: m.customer_acceptance,
    mandate_type: m.mandate_type,
    original_payment_id: p.payment_id,
    created_at: created,
    revoked_at: null,
  };
}

/** The payment method a payment saved (setup_future_usage, or a mandate it set up), once authorized; else null. */
export function savedPaymentMethodOf(p: StoredPayment): SavedPaymentMethod | null {
  const m = p.mandate && p.mandate.kind !== 'recurring' ? p.mandate : null;
  const usage: 'off_session' | 'on_session' | null = m
    ? 'off_session'
    : p.setup_future_usage === 'off_session' || p.setup_future_usage === 'on_session'
      ? p.setup_future_usage
      : null;
  if (!usage || !p.payment_token || !p.customer_id || !p.connector || !p.payment_method || !authorizedAtProvider(p)) return null;
  if (p.payment_token !== newPaymentToken(p.merchant_id, p.payment_id)) return null;
  return {
    merchant_id: p.merchant_id,
    payment_token: p.payment_token,
    customer_id: p.customer_id,
    payment_method: p.payment_method,
    payment_method_type: p.payment_method_type,
    setup_future_usage: usage,
    connector: p.connector,
    merchant_connector_id: p.merchant_connector_id ?? null,
    mandate_id: m?.mandate_id ?? null,
    created_at: p.attempts?.at(-1)?.modified_at ?? p.updated,
    last_used_at: null,
  };
}

/** A payment that saves its payment method gets its payment_token at confirm (one per payment); others keep theirs. */
export function withPaymentToken(p: StoredPayment): StoredPayment {
  const saves = (p.setup_future_usage || (p.mandate && p.mandate.kind !== 'recurring')) && p.customer_id && !p.payment_token;
  return saves ? { ...p, payment_token: newPaymentToken(p.merchant_id, p.payment_id) } : p;
}

/** A recurring charge the provider refused because the mandate is revoked at its end: our mandate is revoked too. */
export function revokedAtProviderBy(p: StoredPayment): string | null {
  return p.mandate?.kind === 'recurring' && p.status === 'failed' && p.unified_code === MANDATE_REVOKED_UNIFIED_CODE ? p.mandate.mandate_id : null;
}

/** A saved payment method this payment was charged with (payment_token, or its mandate's), once authorized: its last use. */
export function usedPaymentMethod(p: StoredPayment): { payment_token: string; at: string } | null {
  if (!p.payment_token || p.payment_token === newPaymentToken(p.merchant_id, p.payment_id) || !authorizedAtProvider(p)) return null;
  return { payment_token: p.payment_token, at: p.attempts?.at(-1)?.modified_at ?? p.updated };
}

/**
 * A confirm's mandate part, whole: the customer's acceptance given at confirm, the mandate or saved payment method
 * filling the payment in, the payment_token of what it saves, and amount 0 for setup_mandate only. beginConfirm
 * decides with it; the gateway asks it too before a create with confirm writes anything.
 */
export function prepareMandate(p: StoredPayment, customerAcceptance: unknown, ctx: MandateContext & { now: string }): StoredPayment | Refusal {
  const accepted = withClientAcceptance(p, customerAcceptance);
  if ('kind' in accepted) return accepted;
  const mandated = withMandate(accepted, ctx);
  if ('kind' in mandated) return mandated;
  if (mandated.amount === 0 && mandated.mandate?.kind !== 'setup') {
    return refuse('IR_05', 'amount must be greater than 0 (only payment_type setup_mandate authorizes zero)', 'amount');
  }
  return withPaymentToken(mandated);
}
