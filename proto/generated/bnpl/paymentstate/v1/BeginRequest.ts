// Original file: proto/payment_state.proto

import type { Action as _bnpl_paymentstate_v1_Action, Action__Output as _bnpl_paymentstate_v1_Action__Output } from '../../../bnpl/paymentstate/v1/Action.ts';

export interface BeginRequest {
  'merchant_id'?: (string);
  'payment_id'?: (string);
  'action'?: (_bnpl_paymentstate_v1_Action);
  'params_json'?: (string);
}

export interface BeginRequest__Output {
  'merchant_id': (string);
  'payment_id': (string);
  'action': (_bnpl_paymentstate_v1_Action__Output);
  'params_json': (string);
}
