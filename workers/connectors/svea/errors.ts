// Svea's error codes -> our unified codes. Svea answers {Code, ErrorMessage}; its code list is UNVERIFIED, these are
// the provider sandbox's (README.md): 4000x request data, 40010 credit refused, 40101 credentials, 40401 unknown
// order, 40901 not allowed in the order's state (sent with HTTP 400: a 409 would be retried as "still processing").
import { UNIFIED } from '../kit/errors.ts';

const BY_CODE: Record<string, keyof typeof UNIFIED> = {
  '40001': 'invalid_request',
  '40010': 'refund_declined',
  '40101': 'credentials_refused',
  '40401': 'invalid_request',
  '40901': 'invalid_state',
  Cancelled: 'customer_declined',
};

export function unifiedFor(code: string, status?: number) {
  const known = BY_CODE[code];
  if (known) return UNIFIED[known];
  if (status === 401 || status === 403) return UNIFIED.credentials_refused;
  if (status === 400 || status === 404) return UNIFIED.invalid_request;
  return UNIFIED.provider_error;
}
