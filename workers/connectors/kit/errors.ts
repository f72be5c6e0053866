// Unified error codes: what a merchant can act on without knowing the provider.
export const UNIFIED = {
  customer_declined: { unified_code: 'UE_1000', unified_message: 'The customer was declined by the provider' },
  invalid_request: { unified_code: 'UE_2000', unified_message: 'The provider rejected the request data' },
  invalid_state: { unified_code: 'UE_3000', unified_message: "The provider does not allow this operation in the payment's state" },
  credentials_refused: { unified_code: 'UE_4000', unified_message: "The provider refused the connector account's credentials" },
  authentication_failed: { unified_code: 'UE_5000', unified_message: 'The customer did not pass the 3DS authentication' },
  refund_declined: { unified_code: 'UE_6000', unified_message: 'The provider declined the refund' },
  // The provider says the customer's mandate is revoked (or unknown) at its end: our mandate becomes revoked too
  // (domain/mandates.ts MANDATE_REVOKED_UNIFIED_CODE is this code; issue 22).
  mandate_revoked: { unified_code: 'UE_7000', unified_message: "The customer's mandate was revoked at the provider" },
  provider_error: { unified_code: 'UE_9000', unified_message: 'The provider could not process the request' },
} as const;
