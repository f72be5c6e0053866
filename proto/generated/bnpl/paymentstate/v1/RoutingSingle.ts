// Original file: proto/payment_state.proto

import type { RoutingChoice as _bnpl_paymentstate_v1_RoutingChoice, RoutingChoice__Output as _bnpl_paymentstate_v1_RoutingChoice__Output } from '../../../bnpl/paymentstate/v1/RoutingChoice.ts';

export interface RoutingSingle {
  'data'?: (_bnpl_paymentstate_v1_RoutingChoice | null);
  'null_fields'?: (string)[];
}

export interface RoutingSingle__Output {
  'data': (_bnpl_paymentstate_v1_RoutingChoice__Output | null);
  'null_fields': (string)[];
}
