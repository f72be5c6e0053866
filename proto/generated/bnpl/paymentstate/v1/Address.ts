// Original file: proto/payment_state.proto

import type { AddressDetails as _bnpl_paymentstate_v1_AddressDetails, AddressDetails__Output as _bnpl_paymentstate_v1_AddressDetails__Output } from '../../../bnpl/paymentstate/v1/AddressDetails.ts';
import type { Phone as _bnpl_paymentstate_v1_Phone, Phone__Output as _bnpl_paymentstate_v1_Phone__Output } from '../../../bnpl/paymentstate/v1/Phone.ts';

export interface Address {
  'address'?: (_bnpl_paymentstate_v1_AddressDetails | null);
  'phone'?: (_bnpl_paymentstate_v1_Phone | null);
  'email'?: (string);
  'null_fields'?: (string)[];
  '_email'?: "email";
}

export interface Address__Output {
  'address': (_bnpl_paymentstate_v1_AddressDetails__Output | null);
  'phone': (_bnpl_paymentstate_v1_Phone__Output | null);
  'email'?: (string);
  'null_fields': (string)[];
  '_email'?: "email";
}
