// Original file: proto/payment_state.proto

import type { RoutingChoice as _bnpl_paymentstate_v1_RoutingChoice, RoutingChoice__Output as _bnpl_paymentstate_v1_RoutingChoice__Output } from '../../../bnpl/paymentstate/v1/RoutingChoice.ts';
import type { Long } from '@grpc/proto-loader';

export interface VolumeSplit {
  'connector'?: (_bnpl_paymentstate_v1_RoutingChoice | null);
  'split'?: (number | string | Long);
  'null_fields'?: (string)[];
  '_split'?: "split";
}

export interface VolumeSplit__Output {
  'connector': (_bnpl_paymentstate_v1_RoutingChoice__Output | null);
  'split'?: (number);
  'null_fields': (string)[];
  '_split'?: "split";
}
