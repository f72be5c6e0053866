// Original file: proto/payment_state.proto

import type { VolumeSplit as _bnpl_paymentstate_v1_VolumeSplit, VolumeSplit__Output as _bnpl_paymentstate_v1_VolumeSplit__Output } from '../../../bnpl/paymentstate/v1/VolumeSplit.ts';

export interface VolumeSplits {
  'items'?: (_bnpl_paymentstate_v1_VolumeSplit)[];
}

export interface VolumeSplits__Output {
  'items': (_bnpl_paymentstate_v1_VolumeSplit__Output)[];
}
