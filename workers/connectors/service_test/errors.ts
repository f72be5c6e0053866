// service_test's decline and error codes -> our unified codes (connector-independent, the same for every provider).
import { unifiedTable } from '../kit/outcome.ts';

export const unifiedFor = unifiedTable({
  credit_declined: 'customer_declined',
  credit_limit_exceeded: 'customer_declined',
  invalid_request: 'invalid_request',
  amount_exceeds_authorization: 'invalid_request',
  not_capturable: 'invalid_state',
  not_found: 'invalid_request',
  unauthorized: 'credentials_refused',
  refund_declined: 'refund_declined',
  amount_exceeds_captured: 'invalid_request',
  recurring_declined: 'customer_declined',
  mandate_revoked: 'mandate_revoked',
  mandate_not_found: 'mandate_revoked',
});
