// The 3DS server's refusals and failed authentications -> our unified codes.
import { UNIFIED } from '../../connectors/kit/errors.ts';

const BY_CODE: Record<string, keyof typeof UNIFIED> = {
  invalid_areq: 'invalid_request',
  not_found: 'invalid_request',
  unauthorized: 'credentials_refused',
};

export const unifiedFor = (code: string) => UNIFIED[BY_CODE[code] ?? 'provider_error'];

/** What each failed trans_status means for the customer (EMV 3DS transStatus). */
export const FAILED_STATUS: Record<string, string> = {
  N: 'Not authenticated: the customer did not pass the 3DS authentication',
  R: 'Rejected by the card issuer',
  U: 'The 3DS authentication could not be performed',
  I: 'Informational only: no authentication was performed',
};
