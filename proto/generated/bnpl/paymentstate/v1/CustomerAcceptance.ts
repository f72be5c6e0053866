// Original file: proto/payment_state.proto

import type { OnlineAcceptance as _bnpl_paymentstate_v1_OnlineAcceptance, OnlineAcceptance__Output as _bnpl_paymentstate_v1_OnlineAcceptance__Output } from '../../../bnpl/paymentstate/v1/OnlineAcceptance.ts';

export interface CustomerAcceptance {
  'acceptance_type'?: (string);
  'accepted_at'?: (string);
  'online'?: (_bnpl_paymentstate_v1_OnlineAcceptance | null);
  'null_fields'?: (string)[];
  '_acceptance_type'?: "acceptance_type";
  '_accepted_at'?: "accepted_at";
}

export interface CustomerAcceptance__Output {
  'acceptance_type'?: (string);
  'accepted_at'?: (string);
  'online': (_bnpl_paymentstate_v1_OnlineAcceptance__Output | null);
  'null_fields': (string)[];
  '_acceptance_type'?: "acceptance_type";
  '_accepted_at'?: "accepted_at";
}
