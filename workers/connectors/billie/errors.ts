// Billie's error bodies -> our error fields (error_code/error_message Billie's own, unified_code/unified_message ours):
//   API calls   {"errors": [{"title", "code", "source"?}]}  (400 invalid, 401 token, 403 not allowed in the state, 404)
//   /oauth/token  {"error", "error_description"}  (OAuth2's shape; UNVERIFIED for Billie)
// A decline is not an error: HTTP 200 with state "declined" and a decline_reason.
import type { Outcome } from '../../../domain/payment.ts';
import type { ProviderResponse } from '../kit/http.ts';
import { UNIFIED } from '../kit/errors.ts';
import { maybeAnswer } from '../kit/answer.ts';
import { BillieError, OAuthError } from './schemas.ts';

type ErrorFields = Pick<Outcome, 'error_code' | 'error_message' | 'unified_code' | 'unified_message'>;

/** decline_reason values (Billie's order-states page). */
export const DECLINE_REASONS = ['debtor_address', 'debtor_not_identified', 'risk_policy', 'risk_scoring_failed', 'debtor_limit_exceeded'] as const;
export const declined = (reason: string | null | undefined): ErrorFields => ({
  error_code: reason ?? 'declined',
  error_message: `Billie declined the order${reason ? ` (${reason})` : ''}`,
  ...UNIFIED.customer_declined,
});

export function errorFields(res: ProviderResponse, what: 'order' | 'refund' = 'order'): ErrorFields {
  const oauth = maybeAnswer(OAuthError, res);
  if (oauth) return { error_code: oauth.error, error_message: oauth.error_description ?? oauth.error, ...UNIFIED.credentials_refused };
  const parsed = maybeAnswer(BillieError, res);
  if (!parsed) return { error_code: `http_${res.status}`, error_message: `HTTP ${res.status}`, ...UNIFIED.provider_error };
  const first = parsed.errors[0]!;
  const unified =
    res.status === 401
      ? UNIFIED.credentials_refused
      : res.status === 403
        ? what === 'refund'
          ? UNIFIED.refund_declined
          : UNIFIED.invalid_state
        : res.status === 400 || res.status === 404 || res.status === 422
          ? UNIFIED.invalid_request
          : UNIFIED.provider_error;
  return {
    error_code: first.code ?? `http_${res.status}`,
    error_message: parsed.errors.map((e) => (e.source ? `${e.source}: ${e.title}` : e.title)).join('; '),
    ...unified,
  };
}
