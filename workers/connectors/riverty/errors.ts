// Riverty's message codes -> our unified codes. Riverty's concrete code strings are UNVERIFIED (its docs show the
// message object {type, code, message, customerFacingMessage, actionCode, fieldReference}, not the code list); these
// are the provider sandbox's, by family: 100 credentials, 200 request data, 300 risk, 400 order management.
import { UNIFIED } from '../kit/errors.ts';

const BY_CODE: Record<string, keyof typeof UNIFIED> = {
  '100.001': 'credentials_refused',
  '200.101': 'invalid_request',
  '200.102': 'invalid_request',
  '200.103': 'invalid_request',
  '300.101': 'customer_declined',
  '300.102': 'customer_declined',
  '300.103': 'customer_declined',
  '400.101': 'invalid_request',
  '400.201': 'invalid_state',
  '400.202': 'invalid_request',
  '400.203': 'invalid_state',
  '400.301': 'invalid_request',
  '400.302': 'refund_declined',
};

export function unifiedFor(code: string, status?: number) {
  const known = BY_CODE[code];
  if (known) return UNIFIED[known];
  if (status === 401 || status === 403) return UNIFIED.credentials_refused;
  return UNIFIED.provider_error;
}
