// Original file: proto/payment_state.proto

import type { CustomerAcceptance as _bnpl_paymentstate_v1_CustomerAcceptance, CustomerAcceptance__Output as _bnpl_paymentstate_v1_CustomerAcceptance__Output } from '../../../bnpl/paymentstate/v1/CustomerAcceptance.ts';
import type { MandateType as _bnpl_paymentstate_v1_MandateType, MandateType__Output as _bnpl_paymentstate_v1_MandateType__Output } from '../../../bnpl/paymentstate/v1/MandateType.ts';

export interface MandateResource {
  'mandate_id'?: (string);
  'merchant_id'?: (string);
  'customer_id'?: (string);
  'status'?: (string);
  'payment_method'?: (string);
  'payment_method_type'?: (string);
  'payment_token'?: (string);
  'connector'?: (string);
  'merchant_connector_id'?: (string);
  'connector_mandate_id'?: (string);
  'customer_acceptance'?: (_bnpl_paymentstate_v1_CustomerAcceptance | null);
  'mandate_type'?: (_bnpl_paymentstate_v1_MandateType | null);
  'original_payment_id'?: (string);
  'created_at'?: (string);
  'revoked_at'?: (string);
  'null_fields'?: (string)[];
  '_mandate_id'?: "mandate_id";
  '_merchant_id'?: "merchant_id";
  '_customer_id'?: "customer_id";
  '_status'?: "status";
  '_payment_method'?: "payment_method";
  '_payment_method_type'?: "payment_method_type";
  '_payment_token'?: "payment_token";
  '_connector'?: "connector";
  '_merchant_connector_id'?: "merchant_connector_id";
  '_connector_mandate_id'?: "connector_mandate_id";
  '_original_payment_id'?: "original_payment_id";
  '_created_at'?: "created_at";
  '_revoked_at'?: "revoked_at";
}

export interface MandateResource__Output {
  'mandate_id'?: (string);
  'merchant_id'?: (string);
  'customer_id'?: (string);
  'status'?: (string);
  'payment_method'?: (string);
  'payment_method_type'?: (string);
  'payment_token'?: (string);
  'connector'?: (string);
  'merchant_connector_id'?: (string);
  'connector_mandate_id'?: (string);
  'customer_acceptance': (_bnpl_paymentstate_v1_CustomerAcceptance__Output | null);
  'mandate_type': (_bnpl_paymentstate_v1_MandateType__Output | null);
  'original_payment_id'?: (string);
  'created_at'?: (string);
  'revoked_at'?: (string);
  'null_fields': (string)[];
  '_mandate_id'?: "mandate_id";
  '_merchant_id'?: "merchant_id";
  '_customer_id'?: "customer_id";
  '_status'?: "status";
  '_payment_method'?: "payment_method";
  '_payment_method_type'?: "payment_method_type";
  '_payment_token'?: "payment_token";
  '_connector'?: "connector";
  '_merchant_connector_id'?: "merchant_connector_id";
  '_connector_mandate_id'?: "connector_mandate_id";
  '_original_payment_id'?: "original_payment_id";
  '_created_at'?: "created_at";
  '_revoked_at'?: "revoked_at";
}
