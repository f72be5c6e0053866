// Twisto's error bodies -> our error fields (error_code/error_message Twisto's own, unified_code/unified_message ours).
// Twisto documents HTTP 4xx on validation but not the body (UNVERIFIED): v4 is a Django REST framework API, so we read
// DRF's two shapes:
//   {"detail": "...", "code"?: "..."}          one error (authentication, not found, a call the state refuses)
//   {"<field>": ["msg", ...], "<obj>": {...}}   field errors, nested like the request ("shopper": {"email": [...]})
// Without a `code`, DRF's default code of the status (401 authentication_failed, 404 not_found, ...) is the code.
// A scoring decline is not an error: the checkout's state becomes `cancelled` (Twisto exposes no reason).
import type { Outcome } from '../../../domain/payment.ts';
import type { ProviderResponse } from '../kit/http.ts';
import { UNIFIED } from '../kit/errors.ts';
import { maybeAnswer } from '../kit/answer.ts';
import { type FieldTree, TwistoDetailError, TwistoFieldErrors } from './schemas.ts';

type ErrorFields = Pick<Outcome, 'error_code' | 'error_message' | 'unified_code' | 'unified_message'>;

/** DRF's default codes of its exceptions, by status. */
const DRF_CODES: Record<number, string> = {
  400: 'invalid',
  401: 'authentication_failed',
  403: 'permission_denied',
  404: 'not_found',
  405: 'method_not_allowed',
  415: 'unsupported_media_type',
};

/** Every field error as [dotted path, message], in the body's order (list items by index). */
export function fieldErrors(tree: FieldTree, prefix = ''): [string, string][] {
  const out: [string, string][] = [];
  for (const [k, v] of Object.entries(tree)) {
    const path = prefix ? `${prefix}.${k}` : k;
    // A list of messages names the field; a list of objects (a list field's items) names each item by its index.
    if (!Array.isArray(v)) out.push(...fieldErrors(v, path));
    else
      v.forEach((x: string | FieldTree, i: number) => {
        if (typeof x === 'string') out.push([path, x]);
        else out.push(...fieldErrors(x, `${path}.${i}`));
      });
  }
  return out;
}

/** The scoring's refusal (checkout cancelled) or the shopper's own cancel: Twisto does not say which. */
export const declined = (): ErrorFields => ({
  error_code: 'cancelled',
  error_message: 'Twisto rejected the checkout or the shopper cancelled it',
  ...UNIFIED.customer_declined,
});

/** What an error answer says. `what`: the operation, which decides the unified code of a refusal. */
export function errorFields(res: ProviderResponse, what: 'payment' | 'refund' = 'payment'): ErrorFields {
  const auth = res.status === 401 || res.status === 403 ? UNIFIED.credentials_refused : null;
  const detail = maybeAnswer(TwistoDetailError, res);
  if (detail) {
    const code = detail.code ?? DRF_CODES[res.status] ?? `http_${res.status}`;
    const unified =
      auth ??
      (what === 'refund'
        ? UNIFIED.refund_declined
        : code === 'invalid_state'
          ? UNIFIED.invalid_state
          : res.status === 400 || res.status === 404
            ? UNIFIED.invalid_request
            : UNIFIED.provider_error);
    return { error_code: code, error_message: detail.detail, ...unified };
  }
  const fields = maybeAnswer(TwistoFieldErrors, res);
  const list = fields ? fieldErrors(fields) : [];
  if (!list.length) return { error_code: `http_${res.status}`, error_message: `HTTP ${res.status}`, ...(auth ?? UNIFIED.provider_error) };
  return { error_code: list[0]![0], error_message: list.map(([p, m]) => `${p}: ${m}`).join('; '), ...(auth ?? UNIFIED.invalid_request) };
}
