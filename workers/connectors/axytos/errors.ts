// axytos's errors -> our codes. axytos has no error codes: an HTTP error answers ProblemDetails (its OpenAPI, for 400,
// 401, 403), with ASP.NET's {"errors": {"<field>": ["msg"]}} for a refused field, and a decline is a precheck decision
// S or R. Our error_code is HTTP_<status> (a field's name after it for a validation problem) or DECISION_<S|R>.
import { UNIFIED } from '../kit/errors.ts';

export function unifiedFor(code: string, refund = false) {
  if (code.startsWith('DECISION_')) return UNIFIED.customer_declined;
  if (code === 'HTTP_401' || code === 'HTTP_403') return UNIFIED.credentials_refused;
  if (refund && /^HTTP_4/.test(code)) return UNIFIED.refund_declined;
  if (code.startsWith('HTTP_409') || code.startsWith('HTTP_412')) return UNIFIED.invalid_state;
  if (/^HTTP_4/.test(code)) return UNIFIED.invalid_request;
  return UNIFIED.provider_error;
}

export const DECISION_MESSAGE: Record<string, string> = {
  S: 'axytos approves only secured payment methods for this order (decision S): invoice declined',
  R: 'axytos rejected the order (decision R)',
};
