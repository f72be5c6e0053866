// Ratepay's decline categories and reasons -> our unified codes. Each decline is one HTTP status + one category + one
// or more reasons (docs.ratepay.com ".../payment_2.0/declines/decline_categories"); the reasons decide where they are
// more specific than the category.
import { UNIFIED } from '../kit/errors.ts';

const BY_REASON: Record<string, keyof typeof UNIFIED> = {
  REFUND_REJECTED: 'refund_declined',
};

const BY_CATEGORY: Record<string, keyof typeof UNIFIED> = {
  RISK_DECISION: 'customer_declined',
  TRANSACTION_RISK: 'customer_declined',
  BUYER_IDENTITY: 'customer_declined',
  LEGAL: 'customer_declined',
  BUYER_DATA: 'invalid_request',
  CONTRACT: 'invalid_request',
  PAYMENT_ATTRIBUTE: 'invalid_request',
  SYNTAX: 'invalid_request',
  RESOURCE_NOT_FOUND: 'invalid_request',
  UNPROCESSABLE_OPERATION: 'invalid_state',
  CONFLICT: 'invalid_state',
  // The OAuth server's and the API's refusals of the client or its token.
  access_denied: 'credentials_refused',
  invalid_client: 'credentials_refused',
  invalid_token: 'credentials_refused',
  UNAUTHORIZED: 'credentials_refused',
};

export function unifiedFor(category: string, reasons: readonly string[] = []) {
  const byReason = reasons.map((r) => BY_REASON[r]).find(Boolean);
  return UNIFIED[byReason ?? BY_CATEGORY[category] ?? 'provider_error'];
}
