// Unzer's error codes -> our unified codes. Unzer codes are "<family>.<group>.<...>" strings: API.* for a refused
// request, COR.* for the core's (the risk check's) answers. Exact decline codes are UNVERIFIED (see README.md).
import { UNIFIED } from '../kit/errors.ts';

const BY_CODE: Record<string, keyof typeof UNIFIED> = {
  'API.320.000.004': 'credentials_refused', // invalid private key (UNVERIFIED code; HTTP 401)
  'COR.400.100.101': 'customer_declined', // paylater-invoice: declined by the risk check
  'COR.400.100.102': 'customer_declined', // declined at the customer step (redirect)
  'COR.400.200.101': 'refund_declined', // a cancel of charges refused
  'API.340.100.014': 'invalid_request', // amount above what is left
  'API.340.100.015': 'invalid_state', // the payment is not in a state for this transaction
  'API.310.100.003': 'invalid_request', // no such resource
};

/** The unified code of an Unzer code: the exact code, else its family (API.320 keys, API.3xx requests, COR risk). */
export function unifiedFor(code: string) {
  const known = BY_CODE[code];
  if (known) return UNIFIED[known];
  if (code.startsWith('API.320.')) return UNIFIED.credentials_refused;
  if (code.startsWith('API.')) return UNIFIED.invalid_request;
  if (code.startsWith('COR.400.')) return UNIFIED.customer_declined;
  return UNIFIED.provider_error;
}
