// Original file: proto/payment_state.proto

import type { OrderLine as _bnpl_paymentstate_v1_OrderLine, OrderLine__Output as _bnpl_paymentstate_v1_OrderLine__Output } from '../../../bnpl/paymentstate/v1/OrderLine.ts';

export interface OrderLines {
  'items'?: (_bnpl_paymentstate_v1_OrderLine)[];
}

export interface OrderLines__Output {
  'items': (_bnpl_paymentstate_v1_OrderLine__Output)[];
}
