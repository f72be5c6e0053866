// Zinia's error bodies -> our error fields (error_code/error_message Zinia's own, unified_code/unified_message ours).
// Designed (the guide's error chapter is not public, UNVERIFIED): HTTP 400/401/404/422 with {code, message, field?};
// the API gateway in front (Azure API Management, UNVERIFIED) refuses a wrong Merchant API Key with its own
// {statusCode, message}. 409 is kept for "still processing" (retried, workers/provider-http.ts), never for a refusal.
import type { Outcome } from '../../../domain/payment.ts';
import type { ProviderResponse } from '../kit/http.ts';
import { UNIFIED } from '../kit/errors.ts';
import { maybeAnswer } from '../kit/answer.ts';
import { GatewayError, ZiniaError } from './schemas.ts';

const BY_CODE: Record<string, keyof typeof UNIFIED> = {
  INVALID_CLIENT_CREDENTIALS: 'credentials_refused',
  INVALID_TOKEN: 'credentials_refused',
  VALIDATION_ERROR: 'invalid_request',
  AMOUNT_OUT_OF_RANGE: 'invalid_request',
  ORDER_NOT_FOUND: 'invalid_request',
  REFUND_NOT_FOUND: 'invalid_request',
  AMOUNT_EXCEEDS_REMAINING: 'invalid_request',
  AMOUNT_EXCEEDS_REFUNDABLE: 'invalid_request',
  MERCHANT_ORDER_ID_CONFLICT: 'invalid_request',
  INVALID_ORDER_STATUS: 'invalid_state',
  CREDIT_CHECK_REJECTED: 'customer_declined',
  CUSTOMER_CANCELLED: 'customer_declined',
  CUSTOMER_UNDERAGE: 'customer_declined',
  ORDER_EXPIRED: 'customer_declined',
  REFUND_REJECTED: 'refund_declined',
};

export function unifiedFor(code: string, status?: number) {
  const known = BY_CODE[code];
  if (known) return UNIFIED[known];
  if (status === 401 || status === 403) return UNIFIED.credentials_refused;
  return UNIFIED.provider_error;
}

export type ErrorFields = Pick<Outcome, 'error_code' | 'error_message' | 'unified_code' | 'unified_message'>;

export const fieldsOf = (code: string, message: string, status?: number): ErrorFields => ({
  error_code: code,
  error_message: message,
  ...unifiedFor(code, status),
});

/** An error answer's fields: Zinia's {code, message}, the API gateway's {statusCode, message}, else the HTTP status. */
export function errorFields(res: ProviderResponse): ErrorFields {
  const z1 = maybeAnswer(ZiniaError, res);
  if (z1) return fieldsOf(z1.code, z1.message, res.status);
  const g = maybeAnswer(GatewayError, res);
  if (g) return fieldsOf(`HTTP_${g.statusCode}`, g.message, res.status);
  return fieldsOf(`HTTP_${res.status}`, `HTTP ${res.status}`, res.status);
}
