// Capture, cancel and refund from a payment's dashboard page (issue 23), through the API's own code: the request
// schemas of POST /payments/{id}/capture, /cancel and POST /refunds, runOperation and createRefund. A form carries an
// idempotency key made when the page was rendered; the operation runs under it as under an API Idempotency-Key
// (lib/ids.ts idempotencyScope), so its operation id and refund_id derive from it and the same form sent again
// finds what the first sending did: it applies once.
import { randomBytes } from 'node:crypto';
import { z } from 'zod';
import { ApiError } from '../../lib/errors.ts';
import { idempotencyScope } from '../../lib/ids.ts';
import { fromDecimalString, toDecimalString } from '../../lib/money.ts';
import { CancelPaymentRequest, CapturePaymentRequest } from '../../lib/schemas/payment.ts';
import { CreateRefundRequest } from '../../lib/schemas/refund.ts';
import type { StoredPayment } from '../../domain/payment.ts';
import { runOperation, type Deps } from '../operations.ts';
import { createRefund } from '../routes/refunds.ts';
import { toApiError } from '../validate.ts';

export const ACTIONS = ['capture', 'cancel', 'refund'] as const;
export type ActionName = (typeof ACTIONS)[number];

/** The hidden idempotency key of a rendered form. */
export const newFormKey = () => randomBytes(18).toString('base64url');

const DAMAGED = 'is missing or damaged: reload the page and send the form again';
const FormKey = z.string({ error: DAMAGED }).regex(/^[A-Za-z0-9_-]{16,64}$/, DAMAGED);
/** What the forms post, besides `_csrf` (the session's check, before this). Blank fields are not given. */
const ActionForm = z.strictObject({
  _csrf: z.string().optional(),
  idempotency_key: FormKey,
  amount: z.string().max(40).optional(),
  reason: z.string().max(255).optional(),
});

/** How the forms name their fields; an API field maps to the form field it came from. */
export const FORM_FIELDS: Record<string, { field: string; label: string }> = {
  amount: { field: 'amount', label: 'Amount' },
  amount_to_capture: { field: 'amount', label: 'Amount' },
  amount_to_cancel: { field: 'amount', label: 'Amount' },
  reason: { field: 'reason', label: 'Reason' },
  cancellation_reason: { field: 'reason', label: 'Reason' },
  idempotency_key: { field: 'idempotency_key', label: 'Form' },
};

export type ActionResult = { ok: true; message: string; payment: StoredPayment | null } | { ok: false; field: string | null; message: string };

/** The amounts the summary shows, in minor units: what was authorized, captured, refunded, and what is left. */
export function amountsOf(p: StoredPayment) {
  const authorized = p.operations.some((o) => o.kind === 'authorize' && (o.last_outcome === 'AUTHORIZED' || o.last_outcome === 'CAPTURED')) ? p.amount : 0;
  const captured = p.amount_received ?? 0;
  const refunds = (p.refunds ?? []).filter((r) => r.status !== 'failed');
  const refunded = refunds.filter((r) => r.status === 'succeeded').reduce((s, r) => s + r.amount, 0);
  const refundPending = refunds.filter((r) => r.status !== 'succeeded').reduce((s, r) => s + r.amount, 0);
  return { authorized, captured, capturable: p.amount_capturable, refunded, refundPending, refundable: Math.max(captured - refunded - refundPending, 0) };
}

/** The decimal a form field shows for an amount (12.50 for 1250 EUR). */
export const formAmount = (minor: number, p: Pick<StoredPayment, 'currency'>) => toDecimalString(minor, p.currency);

function fieldError(param: string | undefined, message: string): ActionResult {
  const f = param ? FORM_FIELDS[param] : undefined;
  return { ok: false, field: f?.field ?? null, message: f ? `${f.label}: ${message}` : message };
}

/** An API refusal in the form's words: its message, the field it names as the form names it. */
function refusal(err: ApiError): ActionResult {
  // The API's message names its own field ("Invalid value for amount_to_capture: ..."): the form's label replaces it.
  if (err.message === `Missing required param: ${err.param}`) return fieldError(err.param, 'is required');
  const message = err.param ? err.message.replace(new RegExp(`^(Invalid value for )?${err.param}:? ?`), '') : err.message;
  return fieldError(err.param, message || err.message);
}

function amountOf(raw: string | undefined, p: StoredPayment): number | undefined {
  if (raw === undefined || raw.trim() === '') return undefined;
  try {
    return fromDecimalString(raw, p.currency);
  } catch {
    throw new ApiError(400, 'IR_05', `must be an amount in ${p.currency} like ${formAmount(1250, p)}`, 'amount');
  }
}

/**
 * Runs one form's action on the merchant's payment `p` (read for this merchant by the caller: another merchant's is
 * never reached). A refusal comes back as the form's error; anything else (a 5xx) is thrown.
 */
export async function runAction(deps: Deps, merchantId: string, p: StoredPayment, action: ActionName, form: unknown): Promise<ActionResult> {
  const blankless = form && typeof form === 'object' ? Object.fromEntries(Object.entries(form).filter(([, v]) => v !== '')) : {};
  const parsed = ActionForm.safeParse(blankless);
  if (!parsed.success) {
    const issue = parsed.error.issues[0]!;
    if (issue.code === 'unrecognized_keys') return { ok: false, field: null, message: `Unknown field: ${issue.keys[0]}` };
    return fieldError(String(issue.path[0]), issue.message);
  }
  const { idempotency_key, amount: rawAmount, reason } = parsed.data;
  // Scoped to the merchant and to the dashboard: no API Idempotency-Key of the merchant's can name the same ids.
  const scope = { claim: `${merchantId}:dashboard:${idempotency_key}`, requestHash: `${action}:${p.payment_id}` };
  try {
    const amount = amountOf(rawAmount, p);
    return await idempotencyScope.run(scope, async (): Promise<ActionResult> => {
      if (action === 'capture') {
        const body = CapturePaymentRequest.safeParse({ amount_to_capture: amount });
        if (!body.success) throw toApiError(body.error.issues, { amount_to_capture: amount });
        return captured(await runOperation(deps, merchantId, p.payment_id, 'CAPTURE', body.data));
      }
      if (action === 'cancel') {
        const given = { cancellation_reason: reason, amount_to_cancel: amount };
        const body = CancelPaymentRequest.safeParse(given);
        if (!body.success) throw toApiError(body.error.issues, given);
        return cancelled(await runOperation(deps, merchantId, p.payment_id, 'CANCEL', body.data));
      }
      const given = { payment_id: p.payment_id, amount, reason };
      const body = CreateRefundRequest.safeParse(given);
      if (!body.success) throw toApiError(body.error.issues, given);
      const refund = await createRefund(deps, merchantId, body.data);
      const what = `${formAmount(refund.amount, p)} ${p.currency} (${refund.refund_id})`;
      if (refund.status === 'failed')
        return { ok: false, field: null, message: `The refund of ${what} failed: ${refund.error_message ?? 'the provider refused it'}` };
      return { ok: true, payment: null, message: refund.status === 'succeeded' ? `Refunded ${what}` : `Refund of ${what} asked: waiting for the provider` };
    });
  } catch (err) {
    if (err instanceof ApiError && err.status < 500) return refusal(err);
    throw err;
  }
}

/** A capture's outcome in words; a provider's refusal (the payment back where it was, with an error) is the form's error. */
function captured(p: StoredPayment): ActionResult {
  const total = `${formAmount(p.amount_received ?? 0, p)} ${p.currency}`;
  if (p.status === 'succeeded' || p.status.startsWith('partially_captured')) return { ok: true, payment: p, message: `Captured: ${total} in all` };
  if (p.operations.some((o) => o.kind === 'capture' && o.open)) return { ok: true, payment: p, message: 'Capture asked: waiting for the provider' };
  return { ok: false, field: null, message: `The capture did not go through${p.error_message ? `: ${p.error_message}` : ''}` };
}

function cancelled(p: StoredPayment): ActionResult {
  if (p.status === 'cancelled' || p.status === 'partially_captured') return { ok: true, payment: p, message: 'Payment cancelled' };
  if (p.operations.some((o) => o.kind === 'void' && o.open)) return { ok: true, payment: p, message: 'Cancel asked: waiting for the provider' };
  return { ok: false, field: null, message: `The cancel did not go through${p.error_message ? `: ${p.error_message}` : ''}` };
}
