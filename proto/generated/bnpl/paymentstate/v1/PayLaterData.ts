// Original file: proto/payment_state.proto

import type { Empty as _bnpl_paymentstate_v1_Empty, Empty__Output as _bnpl_paymentstate_v1_Empty__Output } from '../../../bnpl/paymentstate/v1/Empty.ts';

export interface PayLaterData {
  'invoice'?: (_bnpl_paymentstate_v1_Empty | null);
  'installment_invoice'?: (_bnpl_paymentstate_v1_Empty | null);
  'subscription_invoice'?: (_bnpl_paymentstate_v1_Empty | null);
  'direct_debit'?: (_bnpl_paymentstate_v1_Empty | null);
  'installment_direct_debit'?: (_bnpl_paymentstate_v1_Empty | null);
  'subscription_direct_debit'?: (_bnpl_paymentstate_v1_Empty | null);
  'null_fields'?: (string)[];
}

export interface PayLaterData__Output {
  'invoice': (_bnpl_paymentstate_v1_Empty__Output | null);
  'installment_invoice': (_bnpl_paymentstate_v1_Empty__Output | null);
  'subscription_invoice': (_bnpl_paymentstate_v1_Empty__Output | null);
  'direct_debit': (_bnpl_paymentstate_v1_Empty__Output | null);
  'installment_direct_debit': (_bnpl_paymentstate_v1_Empty__Output | null);
  'subscription_direct_debit': (_bnpl_paymentstate_v1_Empty__Output | null);
  'null_fields': (string)[];
}
