// Unzer's error codes -> our unified codes. Unzer codes are "<family>.<group>.<...>" strings: API.* for a refused
// request, COR.* for the core's answers (a decline, an address check). The codes below are the named constants of
// Unzer's PHP SDK (unzerdev/php-sdk src/Constants/ApiResponseCodes.php, README.md Sources); any other code is read by
// its family. Issue 21: API.320.000.004 is "authorize not allowed" and API.340.100.014/015 "already cancelled /
// charged back" there, not a wrong key and amount errors as this table said before.
import { UNIFIED } from '../kit/errors.ts';

/** Unzer's answer to an authorization repeating an orderId it already has (the chain then reads that payment). */
export const ORDER_ID_IN_USE = 'API.320.200.138';

const BY_CODE: Record<string, keyof typeof UNIFIED> = {
  'API.710.000.002': 'credentials_refused', // API_ERROR_INVALID_KEY
  'API.710.000.005': 'credentials_refused', // API_ERROR_INSUFFICIENT_PERMISSION
  'API.710.000.007': 'credentials_refused', // API_ERROR_WRONG_AUTHENTICATION_METHOD
  'API.710.200.100': 'invalid_request', // API_ERROR_FIELD_IS_MISSING
  'COR.100.300.600': 'credentials_refused', // CORE_ERROR_INVALID_OR_MISSING_LOGIN
  'API.320.000.004': 'invalid_state', // API_ERROR_TRANSACTION_AUTHORIZE_NOT_ALLOWED
  'API.330.000.004': 'invalid_state', // API_ERROR_TRANSACTION_CHARGE_NOT_ALLOWED
  'API.340.000.004': 'invalid_state', // API_ERROR_TRANSACTION_CANCEL_NOT_ALLOWED
  'API.340.100.014': 'invalid_state', // API_ERROR_ALREADY_CANCELLED
  'API.340.100.015': 'invalid_state', // API_ERROR_ALREADY_CHARGED_BACK
  'API.340.100.018': 'invalid_state', // API_ERROR_ALREADY_CHARGED
  'API.330.100.007': 'invalid_request', // API_ERROR_CHARGED_AMOUNT_HIGHER_THAN_EXPECTED
  'API.310.100.003': 'invalid_request', // API_ERROR_PAYMENT_NOT_FOUND
  [ORDER_ID_IN_USE]: 'invalid_request', // API_ERROR_ORDER_ID_ALREADY_IN_USE (authorize reads the payment instead)
  'COR.400.100.101': 'customer_declined', // Unzer's Java SDK test data: "Address untraceable"
};

/** The unified code of an Unzer code: the exact code, else its family (API.710.000 keys, other API.* requests, COR.400 declines). */
export function unifiedFor(code: string) {
  const known = BY_CODE[code];
  if (known) return UNIFIED[known];
  if (code.startsWith('API.710.000.')) return UNIFIED.credentials_refused;
  if (code.startsWith('API.')) return UNIFIED.invalid_request;
  if (code.startsWith('COR.400.')) return UNIFIED.customer_declined;
  return UNIFIED.provider_error;
}
