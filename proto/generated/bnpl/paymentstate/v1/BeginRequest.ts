// Original file: proto/payment_state.proto

import type { Action as _bnpl_paymentstate_v1_Action, Action__Output as _bnpl_paymentstate_v1_Action__Output } from '../../../bnpl/paymentstate/v1/Action.ts';
import type { MerchantPolicy as _bnpl_paymentstate_v1_MerchantPolicy, MerchantPolicy__Output as _bnpl_paymentstate_v1_MerchantPolicy__Output } from '../../../bnpl/paymentstate/v1/MerchantPolicy.ts';
import type { RoutedConnector as _bnpl_paymentstate_v1_RoutedConnector, RoutedConnector__Output as _bnpl_paymentstate_v1_RoutedConnector__Output } from '../../../bnpl/paymentstate/v1/RoutedConnector.ts';

export interface BeginRequest {
  'merchant_id'?: (string);
  'payment_id'?: (string);
  'action'?: (_bnpl_paymentstate_v1_Action);
  'params_json'?: (string);
  'policy'?: (_bnpl_paymentstate_v1_MerchantPolicy | null);
  'route'?: (_bnpl_paymentstate_v1_RoutedConnector | null);
}

export interface BeginRequest__Output {
  'merchant_id': (string);
  'payment_id': (string);
  'action': (_bnpl_paymentstate_v1_Action__Output);
  'params_json': (string);
  'policy': (_bnpl_paymentstate_v1_MerchantPolicy__Output | null);
  'route': (_bnpl_paymentstate_v1_RoutedConnector__Output | null);
}
