// Original file: proto/payment_state.proto

import type { Outcome as _bnpl_paymentstate_v1_Outcome, Outcome__Output as _bnpl_paymentstate_v1_Outcome__Output } from '../../../bnpl/paymentstate/v1/Outcome.ts';
import type { OperationTiming as _bnpl_paymentstate_v1_OperationTiming, OperationTiming__Output as _bnpl_paymentstate_v1_OperationTiming__Output } from '../../../bnpl/paymentstate/v1/OperationTiming.ts';

export interface CompleteRequest {
  'merchant_id'?: (string);
  'payment_id'?: (string);
  'operation_id'?: (string);
  'outcome'?: (_bnpl_paymentstate_v1_Outcome | null);
  'timing'?: (_bnpl_paymentstate_v1_OperationTiming | null);
}

export interface CompleteRequest__Output {
  'merchant_id': (string);
  'payment_id': (string);
  'operation_id': (string);
  'outcome': (_bnpl_paymentstate_v1_Outcome__Output | null);
  'timing': (_bnpl_paymentstate_v1_OperationTiming__Output | null);
}
