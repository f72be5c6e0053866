// Ratepay's decline categories and reasons -> our unified codes. Each decline is one HTTP status + one category + one
// or more reasons (docs.ratepay.com ".../payment_2.0/declines/decline_categories" and each category's page; the lists
// are in fixtures/docs/declines.json); the reasons decide where they are more specific than the category.
import { UNIFIED } from '../kit/errors.ts';

const BY_REASON: Record<string, keyof typeof UNIFIED> = {
  // 422 UNPROCESSABLE_OPERATION on a refund: Ratepay's only documented refusal of a refund.
  REFUND_AMOUNT_TOO_HIGH: 'refund_declined',
  // The buyer would have to confirm with a one-time passcode the merchant's contract does not enable: not payable.
  OTP_VERIFICATION_REQUIRED_BUT_FEATURE_NOT_ENABLED: 'customer_declined',
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
  // The OAuth server's and the API's refusals of the client or its token (body UNVERIFIED: OAuth 2.0's error codes).
  access_denied: 'credentials_refused',
  invalid_client: 'credentials_refused',
  invalid_token: 'credentials_refused',
  UNAUTHORIZED: 'credentials_refused',
};

export function unifiedFor(category: string, reasons: readonly string[] = []) {
  const byReason = reasons.map((r) => BY_REASON[r]).find(Boolean);
  return UNIFIED[byReason ?? BY_CATEGORY[category] ?? 'provider_error'];
}
