// Original file: proto/payment_state.proto

import type { Authentication as _bnpl_paymentstate_v1_Authentication, Authentication__Output as _bnpl_paymentstate_v1_Authentication__Output } from '../../../bnpl/paymentstate/v1/Authentication.ts';

// Original file: proto/payment_state.proto

export const _bnpl_paymentstate_v1_Outcome_Kind = {
  KIND_UNSPECIFIED: 'KIND_UNSPECIFIED',
  AUTHORIZED: 'AUTHORIZED',
  CAPTURED: 'CAPTURED',
  DECLINED: 'DECLINED',
  CUSTOMER_ACTION: 'CUSTOMER_ACTION',
  PENDING: 'PENDING',
  VOIDED: 'VOIDED',
  FAILED: 'FAILED',
  AUTHENTICATED: 'AUTHENTICATED',
  REFUNDED: 'REFUNDED',
} as const;

export type _bnpl_paymentstate_v1_Outcome_Kind =
  | 'KIND_UNSPECIFIED'
  | 0
  | 'AUTHORIZED'
  | 1
  | 'CAPTURED'
  | 2
  | 'DECLINED'
  | 3
  | 'CUSTOMER_ACTION'
  | 4
  | 'PENDING'
  | 5
  | 'VOIDED'
  | 6
  | 'FAILED'
  | 7
  | 'AUTHENTICATED'
  | 8
  | 'REFUNDED'
  | 9

export type _bnpl_paymentstate_v1_Outcome_Kind__Output = typeof _bnpl_paymentstate_v1_Outcome_Kind[keyof typeof _bnpl_paymentstate_v1_Outcome_Kind]

export interface Outcome {
  'kind'?: (_bnpl_paymentstate_v1_Outcome_Kind);
  'connector_transaction_id'?: (string);
  'connector_reference_id'?: (string);
  'redirect_url'?: (string);
  'error_code'?: (string);
  'error_message'?: (string);
  'unified_code'?: (string);
  'unified_message'?: (string);
  'authentication'?: (_bnpl_paymentstate_v1_Authentication | null);
  'connector_mandate_id'?: (string);
}

export interface Outcome__Output {
  'kind': (_bnpl_paymentstate_v1_Outcome_Kind__Output);
  'connector_transaction_id': (string);
  'connector_reference_id': (string);
  'redirect_url': (string);
  'error_code': (string);
  'error_message': (string);
  'unified_code': (string);
  'unified_message': (string);
  'authentication': (_bnpl_paymentstate_v1_Authentication__Output | null);
  'connector_mandate_id': (string);
}
