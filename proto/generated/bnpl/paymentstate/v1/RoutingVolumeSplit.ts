// Original file: proto/payment_state.proto

import type { VolumeSplits as _bnpl_paymentstate_v1_VolumeSplits, VolumeSplits__Output as _bnpl_paymentstate_v1_VolumeSplits__Output } from '../../../bnpl/paymentstate/v1/VolumeSplits.ts';

export interface RoutingVolumeSplit {
  'data'?: (_bnpl_paymentstate_v1_VolumeSplits | null);
  'null_fields'?: (string)[];
}

export interface RoutingVolumeSplit__Output {
  'data': (_bnpl_paymentstate_v1_VolumeSplits__Output | null);
  'null_fields': (string)[];
}
