// Original file: proto/payment_state.proto

import type { CustomerAcceptance as _bnpl_paymentstate_v1_CustomerAcceptance, CustomerAcceptance__Output as _bnpl_paymentstate_v1_CustomerAcceptance__Output } from '../../../bnpl/paymentstate/v1/CustomerAcceptance.ts';
import type { MandateType as _bnpl_paymentstate_v1_MandateType, MandateType__Output as _bnpl_paymentstate_v1_MandateType__Output } from '../../../bnpl/paymentstate/v1/MandateType.ts';

export interface MandateData {
  'update_mandate_id'?: (string);
  'customer_acceptance'?: (_bnpl_paymentstate_v1_CustomerAcceptance | null);
  'mandate_type'?: (_bnpl_paymentstate_v1_MandateType | null);
  'null_fields'?: (string)[];
  '_update_mandate_id'?: "update_mandate_id";
}

export interface MandateData__Output {
  'update_mandate_id'?: (string);
  'customer_acceptance': (_bnpl_paymentstate_v1_CustomerAcceptance__Output | null);
  'mandate_type': (_bnpl_paymentstate_v1_MandateType__Output | null);
  'null_fields': (string)[];
  '_update_mandate_id'?: "update_mandate_id";
}
