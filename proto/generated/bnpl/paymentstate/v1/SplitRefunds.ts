// Original file: proto/payment_state.proto

import type { SplitRefund as _bnpl_paymentstate_v1_SplitRefund, SplitRefund__Output as _bnpl_paymentstate_v1_SplitRefund__Output } from '../../../bnpl/paymentstate/v1/SplitRefund.ts';

export interface SplitRefunds {
  'items'?: ({[key: string]: _bnpl_paymentstate_v1_SplitRefund});
}

export interface SplitRefunds__Output {
  'items': ({[key: string]: _bnpl_paymentstate_v1_SplitRefund__Output});
}
