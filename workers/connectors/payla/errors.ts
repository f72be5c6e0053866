// PAYONE's error codes (status=ERROR, errorcode) -> our unified codes. PAYONE publishes its code list only in the
// merchant portal: the codes below are the imitation's (UNVERIFIED, see README.md), grouped the way PAYONE numbers
// them: 1-99 account parameters, 1000-1999 request parameters, 300s and 98x risk declines, 9xx transaction state.
import { UNIFIED } from '../kit/errors.ts';

const BY_CODE: Record<string, keyof typeof UNIFIED> = {
  307: 'customer_declined', // risk check declined the buyer
  981: 'customer_declined', // Payla declined the transaction
  911: 'invalid_state', // reference already used on this portal
  921: 'invalid_state', // sequencenumber out of order
  922: 'invalid_state', // amount exceeds what is open
  950: 'invalid_state', // the transaction was completed or cancelled
  600: 'invalid_request', // txid not found
  991: 'refund_declined', // the debit was refused
};

export function unifiedFor(errorcode: string) {
  const n = Number(errorcode);
  if (BY_CODE[errorcode]) return UNIFIED[BY_CODE[errorcode]];
  // mid, aid, portalid, key: the account's own parameters.
  if (n >= 1 && n <= 99) return UNIFIED.credentials_refused;
  if (n >= 1000 && n <= 1999) return UNIFIED.invalid_request;
  return UNIFIED.provider_error;
}
