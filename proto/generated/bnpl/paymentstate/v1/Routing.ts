// Original file: proto/payment_state.proto

import type { RoutingSingle as _bnpl_paymentstate_v1_RoutingSingle, RoutingSingle__Output as _bnpl_paymentstate_v1_RoutingSingle__Output } from '../../../bnpl/paymentstate/v1/RoutingSingle.ts';
import type { RoutingPriority as _bnpl_paymentstate_v1_RoutingPriority, RoutingPriority__Output as _bnpl_paymentstate_v1_RoutingPriority__Output } from '../../../bnpl/paymentstate/v1/RoutingPriority.ts';
import type { RoutingVolumeSplit as _bnpl_paymentstate_v1_RoutingVolumeSplit, RoutingVolumeSplit__Output as _bnpl_paymentstate_v1_RoutingVolumeSplit__Output } from '../../../bnpl/paymentstate/v1/RoutingVolumeSplit.ts';

export interface Routing {
  'single'?: (_bnpl_paymentstate_v1_RoutingSingle | null);
  'priority'?: (_bnpl_paymentstate_v1_RoutingPriority | null);
  'volume_split'?: (_bnpl_paymentstate_v1_RoutingVolumeSplit | null);
  'algorithm'?: "single"|"priority"|"volume_split";
}

export interface Routing__Output {
  'single'?: (_bnpl_paymentstate_v1_RoutingSingle__Output | null);
  'priority'?: (_bnpl_paymentstate_v1_RoutingPriority__Output | null);
  'volume_split'?: (_bnpl_paymentstate_v1_RoutingVolumeSplit__Output | null);
  'algorithm'?: "single"|"priority"|"volume_split";
}
