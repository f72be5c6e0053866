// Mondu's error body {status, errors: [{name, details}]} (name: a dotted field path, details: text) and its declines
// -> our error fields: error_code/error_message are Mondu's own, unified_code/unified_message ours.
import type { Outcome } from '../../../domain/payment.ts';
import type { ProviderResponse } from '../kit/http.ts';
import { UNIFIED } from '../kit/errors.ts';
import { maybeAnswer } from '../kit/answer.ts';
import { MonduError } from './schemas.ts';

/** Decline reasons of a declined order (Mondu's `decline_reason`; values UNVERIFIED) and our unified code for them. */
export const declined = (
  reason: string | null | undefined,
  message?: string,
): Pick<Outcome, 'error_code' | 'error_message' | 'unified_code' | 'unified_message'> => ({
  error_code: reason ?? 'declined',
  error_message: message ?? 'Mondu declined the order',
  ...UNIFIED.customer_declined,
});

/** What an error answer says: the first error's field as the code, every error as the message. */
export function errorFields(
  res: ProviderResponse,
  what: 'order' | 'refund' = 'order',
): Pick<Outcome, 'error_code' | 'error_message' | 'unified_code' | 'unified_message'> {
  const parsed = maybeAnswer(MonduError, res);
  if (!parsed) return { error_code: `http_${res.status}`, error_message: `HTTP ${res.status}`, ...UNIFIED.provider_error };
  const errs = parsed.errors;
  const first = errs[0]!;
  const unified =
    res.status === 401 || res.status === 403
      ? UNIFIED.credentials_refused
      : first.name === 'state'
        ? UNIFIED.invalid_state
        : what === 'refund' && first.name === 'invoice'
          ? UNIFIED.refund_declined
          : res.status === 404 || res.status === 422 || res.status === 400
            ? UNIFIED.invalid_request
            : UNIFIED.provider_error;
  return { error_code: first.name, error_message: errs.map((e) => `${e.name} ${e.details}`).join('; '), ...unified };
}

/** A 422 refusing the call because of the order's state (e.g. confirming an order the buyer has not authorized). */
export const isStateError = (res: ProviderResponse) => res.status === 422 && !!maybeAnswer(MonduError, res)?.errors.some((e) => e.name === 'state');
