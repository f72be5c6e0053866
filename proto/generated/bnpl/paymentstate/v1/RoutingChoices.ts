// Original file: proto/payment_state.proto

import type { RoutingChoice as _bnpl_paymentstate_v1_RoutingChoice, RoutingChoice__Output as _bnpl_paymentstate_v1_RoutingChoice__Output } from '../../../bnpl/paymentstate/v1/RoutingChoice.ts';

export interface RoutingChoices {
  'items'?: (_bnpl_paymentstate_v1_RoutingChoice)[];
}

export interface RoutingChoices__Output {
  'items': (_bnpl_paymentstate_v1_RoutingChoice__Output)[];
}
