// PAYONE's error codes (status=ERROR, errorcode) -> our unified codes. PAYONE's published list (docs.payone.com
// "Error messages") gives 1-99 to the card issuer's answers (2 "Authorization declined", 13 "Limit exceeded", 21
// "Activity not processed", 91 "Card issuer temporarily not available"...), not to the account's parameters: an
// account parameter refused is told by the message naming it ("Parameter {key} faulty or missing"). 307 is Payla's
// decline (PAYONE's WooCommerce plugin: "This payment method is not available"). The other codes are the imitation's
// (UNVERIFIED, see README.md): 1000-1999 request parameters, 9xx the transaction's state.
import { UNIFIED } from '../kit/errors.ts';

const BY_CODE: Record<string, keyof typeof UNIFIED> = {
  307: 'customer_declined', // Payla declined the buyer
  981: 'customer_declined', // Payla declined the transaction
  911: 'invalid_state', // reference already used on this portal
  921: 'invalid_state', // sequencenumber out of order
  922: 'invalid_state', // amount exceeds what is open
  950: 'invalid_state', // the transaction was completed or cancelled
  600: 'invalid_request', // txid not found
  991: 'refund_declined', // the debit was refused
};

/** The account's own parameters: a message naming one of them refuses the credentials, not the buyer. */
const ACCOUNT_PARAMETER = /\{(key|mid|aid|portalid)\}/;

export function unifiedFor(errorcode: string, errormessage = '') {
  const n = Number(errorcode);
  if (ACCOUNT_PARAMETER.test(errormessage)) return UNIFIED.credentials_refused;
  if (BY_CODE[errorcode]) return UNIFIED[BY_CODE[errorcode]];
  if (n >= 1000 && n <= 1999) return UNIFIED.invalid_request;
  return UNIFIED.provider_error;
}
