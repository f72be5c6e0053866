// Riverty's message codes -> our unified codes. Riverty publishes the message object {type, code, message,
// customerFacingMessage, actionCode, fieldReference} and the actionCode enum (docs.riverty.com get_order: Unavailable,
// AskConsumerToConfirm, AskConsumerToReEnterData, OfferSecurePaymentMethods, RequiresSsn, AskConsumerToIdentify,
// ManualReview), not its code list. Codes seen in Riverty's integrations: 200.001-200.003 and 200.900-200.903 (the
// payment method is not available to the customer) and 400.103 (national id missing) in Epinova.ArvatoPaymentGateway
// src/InvoiceGatewayService.cs; the other codes below are the provider sandbox's (UNVERIFIED). A code we do not know
// is read by its actionCode, then by the HTTP status.
import { UNIFIED } from '../kit/errors.ts';
import type { UnifiedReason } from '../kit/outcome.ts';

const BY_CODE: Readonly<Record<string, UnifiedReason>> = {
  '200.001': 'customer_declined',
  '200.002': 'customer_declined',
  '200.003': 'customer_declined',
  '200.900': 'customer_declined',
  '200.901': 'customer_declined',
  '200.902': 'customer_declined',
  '200.903': 'customer_declined',
  '400.103': 'invalid_request',
  // The order's own end (orderDetails.status, docs.riverty.com get_order): no authorization for this customer.
  Rejected: 'customer_declined',
  Cancelled: 'customer_declined',
  Expired: 'customer_declined',
  // The sandbox's (UNVERIFIED): 100 credentials, 200.1xx request data, 300 risk, 400 order management.
  '100.001': 'credentials_refused',
  '200.101': 'invalid_request',
  '200.102': 'invalid_request',
  '200.103': 'invalid_request',
  '300.101': 'customer_declined',
  '300.102': 'customer_declined',
  '300.103': 'customer_declined',
  '400.101': 'invalid_request',
  '400.201': 'invalid_state',
  '400.202': 'invalid_request',
  '400.203': 'invalid_state',
  '400.301': 'invalid_request',
  '400.302': 'refund_declined',
};

const BY_ACTION: Readonly<Record<string, UnifiedReason>> = {
  AskConsumerToReEnterData: 'invalid_request',
  RequiresSsn: 'invalid_request',
  AskConsumerToIdentify: 'invalid_request',
  AskConsumerToConfirm: 'invalid_request',
  Unavailable: 'customer_declined',
  OfferSecurePaymentMethods: 'customer_declined',
};

export function unifiedFor(code: string, status?: number, actionCode?: string | null) {
  const known = BY_CODE[code] ?? (actionCode ? BY_ACTION[actionCode] : undefined);
  if (known) return UNIFIED[known];
  if (status === 401 || status === 403) return UNIFIED.credentials_refused;
  return UNIFIED.provider_error;
}
