// Original file: proto/payment_state.proto

import type { SingleUseMandate as _bnpl_paymentstate_v1_SingleUseMandate, SingleUseMandate__Output as _bnpl_paymentstate_v1_SingleUseMandate__Output } from '../../../bnpl/paymentstate/v1/SingleUseMandate.ts';

export interface MandateType {
  'single_use'?: (_bnpl_paymentstate_v1_SingleUseMandate | null);
  'null_fields'?: (string)[];
}

export interface MandateType__Output {
  'single_use': (_bnpl_paymentstate_v1_SingleUseMandate__Output | null);
  'null_fields': (string)[];
}
