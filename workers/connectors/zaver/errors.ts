// Zaver's error body {"errors": [{"errorCode", "errorMessage", "docs"}]} -> our error fields: error_code and
// error_message are Zaver's own (the first error's code, every message), unified_code/unified_message ours.
import { z } from 'zod';
import type { Outcome } from '../../../domain/payment.ts';
import { ProviderUnavailable } from '../kit/http.ts';
import type { ProviderResponse } from '../kit/http.ts';
import { UNIFIED } from '../kit/errors.ts';

export const ZaverError = z.object({
  errors: z.array(z.object({ errorCode: z.string().min(1), errorMessage: z.string(), docs: z.string().nullish() })).min(1),
});

/** Zaver's documented codes by what a merchant can do about them. */
const BY_CODE: Record<string, keyof typeof UNIFIED> = {
  VALIDATION_ERROR: 'invalid_request',
  PARSE_ERROR: 'invalid_request',
  PAYMENT_NOT_FOUND: 'invalid_request',
  AMOUNT_INVALID: 'invalid_request',
  AMOUNT_EXCEEDS_REFUNDABLE_AMOUNT: 'invalid_request',
  LINE_ITEM_NOT_FOUND: 'invalid_request',
  DUPLICATE_LINE_ITEM_ID: 'invalid_request',
  USER_NOT_FOUND: 'invalid_request',
  MULTIPLE_USERS_FOUND: 'invalid_request',
  PAYMENT_ILLEGAL_STATE: 'invalid_state',
  REFUND_ILLEGAL_STATE: 'invalid_state',
  REFUND_NOT_POSSIBLE: 'refund_declined',
  INSUFFICIENT_FUNDS_SWISH: 'refund_declined',
};

type ErrorFields = Pick<Outcome, 'error_code' | 'error_message' | 'unified_code' | 'unified_message'>;

/** What an error answer says. PAYMENT_LOCKED (another operation on the payment is running) is retried, not mapped. */
export function errorFields(res: ProviderResponse): ErrorFields {
  const parsed = ZaverError.safeParse(res.body);
  if (!parsed.success) {
    return { error_code: `http_${res.status}`, error_message: `HTTP ${res.status}`, ...(res.status === 401 || res.status === 403 ? UNIFIED.credentials_refused : UNIFIED.provider_error) };
  }
  const errs = parsed.data.errors;
  const first = errs[0]!;
  if (first.errorCode === 'PAYMENT_LOCKED') throw new ProviderUnavailable(`zaver: PAYMENT_LOCKED (HTTP ${res.status}): ${first.errorMessage}`);
  const unified = res.status === 401 || res.status === 403 ? UNIFIED.credentials_refused
    : BY_CODE[first.errorCode] ? UNIFIED[BY_CODE[first.errorCode]!]
    : res.status < 500 ? UNIFIED.invalid_request : UNIFIED.provider_error;
  return { error_code: first.errorCode, error_message: errs.map((e) => e.errorMessage).join('; '), ...unified };
}

/** A payment Zaver ended without an authorization: the payer cancelled or was declined (Zaver gives no reason). */
export const paymentEnded = (status: 'CANCELLED' | 'ERROR'): ErrorFields => ({
  error_code: status,
  error_message: status === 'CANCELLED' ? 'The payment was cancelled at Zaver (declined, or abandoned by the payer)' : 'The payment failed at Zaver',
  ...UNIFIED.customer_declined,
});

/** A refund Zaver cancelled (the merchant's representative, or Zaver) instead of executing it. */
export const refundCancelled: ErrorFields = { error_code: 'CANCELLED', error_message: 'The refund was cancelled at Zaver before it was executed', ...UNIFIED.refund_declined };
