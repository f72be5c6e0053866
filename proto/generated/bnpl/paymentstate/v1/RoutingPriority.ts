// Original file: proto/payment_state.proto

import type { RoutingChoices as _bnpl_paymentstate_v1_RoutingChoices, RoutingChoices__Output as _bnpl_paymentstate_v1_RoutingChoices__Output } from '../../../bnpl/paymentstate/v1/RoutingChoices.ts';

export interface RoutingPriority {
  'data'?: (_bnpl_paymentstate_v1_RoutingChoices | null);
  'null_fields'?: (string)[];
}

export interface RoutingPriority__Output {
  'data': (_bnpl_paymentstate_v1_RoutingChoices__Output | null);
  'null_fields': (string)[];
}
