// Original file: proto/payment_state.proto

import type { RoutingAccount as _bnpl_paymentstate_v1_RoutingAccount, RoutingAccount__Output as _bnpl_paymentstate_v1_RoutingAccount__Output } from '../../../bnpl/paymentstate/v1/RoutingAccount.ts';

export interface RoutingChoice {
  'connector_name'?: (string);
  'account'?: (_bnpl_paymentstate_v1_RoutingAccount | null);
  'choice'?: "connector_name"|"account";
}

export interface RoutingChoice__Output {
  'connector_name'?: (string);
  'account'?: (_bnpl_paymentstate_v1_RoutingAccount__Output | null);
  'choice'?: "connector_name"|"account";
}
