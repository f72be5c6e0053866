// Zaver's error body {"errors": [{"errorCode", "errorMessage", "docs"}]} -> our error fields: error_code and
// error_message are Zaver's own (the first error's code, every message), unified_code/unified_message ours.
import { maybeAnswer } from '../kit/answer.ts';
import { UNIFIED } from '../kit/errors.ts';
import type { ProviderResponse } from '../kit/http.ts';
import { type Outcome, unifiedTable } from '../kit/outcome.ts';
import { ErrorResponse } from './schemas.ts';

/** Zaver's documented codes (SDK src/Config/ErrorCode.php) by what a merchant can do about them. */
const BY_CODE = {
  VALIDATION_ERROR: 'invalid_request',
  PARSE_ERROR: 'invalid_request',
  PAYMENT_NOT_FOUND: 'invalid_request',
  AMOUNT_INVALID: 'invalid_request',
  AMOUNT_EXCEEDS_REFUNDABLE_AMOUNT: 'invalid_request',
  LINE_ITEM_NOT_FOUND: 'invalid_request',
  DUPLICATE_LINE_ITEM_ID: 'invalid_request',
  USER_NOT_FOUND: 'invalid_request',
  MULTIPLE_USERS_FOUND: 'invalid_request',
  // "An attempt was made to change a payment in an unchangable state": a state error, not a lock to wait out.
  PAYMENT_LOCKED: 'invalid_state',
  PAYMENT_ILLEGAL_STATE: 'invalid_state',
  REFUND_ILLEGAL_STATE: 'invalid_state',
  REFUND_NOT_POSSIBLE: 'refund_declined',
  INSUFFICIENT_FUNDS_SWISH: 'refund_declined',
} as const;
const unifiedFor = unifiedTable(BY_CODE);
const documented = (code: string): code is keyof typeof BY_CODE => code in BY_CODE;

type ErrorFields = Pick<Outcome, 'error_code' | 'error_message' | 'unified_code' | 'unified_message'>;

/** What an error answer says. */
export function errorFields(res: ProviderResponse): ErrorFields {
  const parsed = maybeAnswer(ErrorResponse, res);
  if (!parsed) {
    return {
      error_code: `http_${res.status}`,
      error_message: `HTTP ${res.status}`,
      ...(res.status === 401 || res.status === 403 ? UNIFIED.credentials_refused : UNIFIED.provider_error),
    };
  }
  const errs = parsed.errors;
  const first = errs[0]!;
  const unified =
    res.status === 401 || res.status === 403
      ? UNIFIED.credentials_refused
      : documented(first.errorCode)
        ? unifiedFor(first.errorCode)
        : res.status < 500
          ? UNIFIED.invalid_request
          : UNIFIED.provider_error;
  return { error_code: first.errorCode, error_message: errs.map((e) => e.errorMessage).join('; '), ...unified };
}

/** A payment Zaver ended without an authorization: the payer cancelled or was declined (Zaver gives no reason). */
export const paymentEnded = (status: 'CANCELLED' | 'ERROR'): ErrorFields => ({
  error_code: status,
  error_message: status === 'CANCELLED' ? 'The payment was cancelled at Zaver (declined, or abandoned by the payer)' : 'The payment failed at Zaver',
  ...UNIFIED.customer_declined,
});

/** A refund Zaver cancelled (the merchant's representative, or Zaver) instead of executing it. */
export const refundCancelled: ErrorFields = {
  error_code: 'CANCELLED',
  error_message: 'The refund was cancelled at Zaver before it was executed',
  ...UNIFIED.refund_declined,
};
