// Original file: proto/payment_state.proto

import type { PayLaterData as _bnpl_paymentstate_v1_PayLaterData, PayLaterData__Output as _bnpl_paymentstate_v1_PayLaterData__Output } from '../../../bnpl/paymentstate/v1/PayLaterData.ts';
import type { Address as _bnpl_paymentstate_v1_Address, Address__Output as _bnpl_paymentstate_v1_Address__Output } from '../../../bnpl/paymentstate/v1/Address.ts';

export interface PaymentMethodData {
  'pay_later'?: (_bnpl_paymentstate_v1_PayLaterData | null);
  'billing'?: (_bnpl_paymentstate_v1_Address | null);
  'null_fields'?: (string)[];
}

export interface PaymentMethodData__Output {
  'pay_later': (_bnpl_paymentstate_v1_PayLaterData__Output | null);
  'billing': (_bnpl_paymentstate_v1_Address__Output | null);
  'null_fields': (string)[];
}
