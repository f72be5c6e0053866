// Original file: proto/payment_state.proto

import type { InvoiceData as _bnpl_paymentstate_v1_InvoiceData, InvoiceData__Output as _bnpl_paymentstate_v1_InvoiceData__Output } from '../../../bnpl/paymentstate/v1/InvoiceData.ts';

export interface CaptureMetadata {
  'invoice_data'?: (_bnpl_paymentstate_v1_InvoiceData | null);
  'null_fields'?: (string)[];
}

export interface CaptureMetadata__Output {
  'invoice_data': (_bnpl_paymentstate_v1_InvoiceData__Output | null);
  'null_fields': (string)[];
}
