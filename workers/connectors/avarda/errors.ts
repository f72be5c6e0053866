// Avarda's error answers -> our error fields. Avarda publishes its error body as `{Errors: [{Property, ErrorCode,
// ErrorMessage}], StatusCode}` (docs.avarda.com/checkout-3/error-codes/) and, for the cancel, a bare list
// `[{ErrorCode, ErrorMessage}]` (order-management/checkout-3/cancel-order); schemas.ts's ErrorAnswer reads those and
// the two shapes the Magento module reads. error_code: Avarda's ErrorCode when it names one (e.g. 100 "Purchase must be
// in completed state"), else the property, else `http_<status>`; error_message: every entry's "<Property>: <message>".
// Avarda exposes no decline reasons: a credit decline never reaches the API.
import { maybeAnswer } from '../kit/answer.ts';
import { UNIFIED } from '../kit/errors.ts';
import type { ProviderResponse } from '../kit/http.ts';
import type { Outcome } from '../kit/outcome.ts';
import { camelKeys, ErrorAnswer } from './schemas.ts';

type ErrorFields = Pick<Outcome, 'error_code' | 'error_message' | 'unified_code' | 'unified_message'>;
interface Entry {
  code: string | null;
  property: string | null;
  message: string;
}

/** Avarda's published codes that refuse the operation in the purchase's state (checkout-3/error-codes): 100–102, the
 * recurring payment's 110–122, and 123 "Multiple parallel operation on one purchase detected". */
const STATE_CODES = new Set(['100', '101', '102', '110', '120', '121', '122', '123']);

/**
 * Avarda answers every refusal 400 (error-codes: "In addition to the 400 StatusCode …"). One of its state codes is a
 * refusal in the purchase's state; for a refund, any entry naming no field of our request is Avarda declining it;
 * everything else in 4xx is our request.
 */
function unifiedFor(status: number, what: 'payment' | 'refund', first: Entry | undefined) {
  if (status === 401 || status === 403) return UNIFIED.credentials_refused;
  const state = status === 409 || status === 422 || (status === 400 && first !== undefined && STATE_CODES.has(first.code ?? ''));
  const declined = what === 'refund' && status === 400 && first !== undefined && !first.property;
  if (state || declined) return what === 'refund' ? UNIFIED.refund_declined : UNIFIED.invalid_state;
  if (status >= 400 && status < 500) return UNIFIED.invalid_request;
  return UNIFIED.provider_error;
}

/** Avarda's entries, whichever published shape the body has; none when it has none of them. */
function entriesOf(res: ProviderResponse): Entry[] {
  const e = maybeAnswer(ErrorAnswer, { ...res, body: camelKeys(res.body) });
  if (!e) return [];
  const of = (x: { property?: string; errorCode?: number | string; errorMessage: string }): Entry => ({
    code: x.errorCode === undefined ? null : String(x.errorCode),
    property: x.property || null,
    message: x.errorMessage,
  });
  if (Array.isArray(e)) return e.map(of);
  if ('errors' in e) return e.errors.map(of);
  if ('error_description' in e) return [{ code: e.error ?? null, property: null, message: e.error_description }];
  return [of(e)];
}

export function errorFields(res: ProviderResponse, what: 'payment' | 'refund' = 'payment'): ErrorFields {
  const entries = entriesOf(res);
  const unified = unifiedFor(res.status, what, entries[0]);
  if (!entries.length) return { error_code: `http_${res.status}`, error_message: `HTTP ${res.status}`, ...unified };
  const first = entries[0]!;
  // ErrorCode 0 is Avarda's "Non specific error": the property says more.
  const code = first.code && first.code !== '0' ? first.code : (first.property ?? first.code ?? `http_${res.status}`);
  return { error_code: code, error_message: entries.map((x) => (x.property ? `${x.property}: ${x.message}` : x.message)).join('; '), ...unified };
}

/** A session that ended without the customer completing the purchase (left, declined in the form, or expired). */
export const ended = (state: string): ErrorFields => ({
  error_code: state,
  error_message: `The Avarda Checkout session ended (${state}) before the customer completed the purchase`,
  ...UNIFIED.customer_declined,
});
