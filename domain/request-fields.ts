// The request fields a confirm or an update applies onto a payment, and the rules across fields they can break. Pure.
import { orderDetailsMismatch, REQUEST_EXTRAS, type ConfirmPaymentBody, type UpdatePaymentBody } from '../lib/schemas/payment.ts';
import { customerFields } from './customer.ts';
import type { Refusal, StoredPayment } from './payment.ts';
import { refuse } from './transitions.ts';

const CONFIRM_UPDATABLE = [
  'amount',
  'currency',
  'order_tax_amount',
  'amount_to_capture',
  'routing',
  'capture_method',
  'authentication_type',
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
  'allowed_payment_method_types',
  'surcharge_details',
  'split_payments',
  'connector_metadata',
  'feature_metadata',
  'frm_metadata',
] as const;

/** The request fields apply onto the payment, the customer object kept in step with the deprecated fields. */
export function withRequestFields(p: StoredPayment, body: ConfirmPaymentBody | UpdatePaymentBody): StoredPayment {
  const next: StoredPayment = { ...p };
  for (const k of CONFIRM_UPDATABLE) if (body[k] !== undefined && body[k] !== null) (next as Record<string, unknown>)[k] = body[k];
  if (body.customer || body.customer_id || body.email || body.name || body.phone) Object.assign(next, customerFields(body, p.customer));
  const extras = requestExtras(body);
  if (Object.keys(extras).length) next.request_extras = { ...p.request_extras, ...extras };
  return next;
}

export function requestExtras(body: Partial<Record<(typeof REQUEST_EXTRAS)[number], unknown>>): Record<string, unknown> {
  return Object.fromEntries(REQUEST_EXTRAS.filter((k) => body[k] != null).map((k) => [k, body[k]]));
}

/** Rules across fields that a changed amount or order can break. */
export function crossFieldRefusal(p: StoredPayment): Refusal | null {
  if (p.amount_to_capture != null && p.amount_to_capture > p.amount) return refuse('IR_05', 'amount_to_capture must not exceed amount', 'amount_to_capture');
  const mismatch = orderDetailsMismatch(p.order_details as { amount: number }[] | null, p.amount);
  return mismatch ? refuse('IR_05', `Invalid value for order_details: ${mismatch}`, 'order_details') : null;
}
