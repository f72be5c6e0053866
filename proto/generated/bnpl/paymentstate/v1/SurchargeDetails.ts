// Original file: proto/payment_state.proto

import type { Long } from '@grpc/proto-loader';

export interface SurchargeDetails {
  'surcharge_amount'?: (number | string | Long);
  'tax_amount'?: (number | string | Long);
  'null_fields'?: (string)[];
  '_surcharge_amount'?: "surcharge_amount";
  '_tax_amount'?: "tax_amount";
}

export interface SurchargeDetails__Output {
  'surcharge_amount'?: (number);
  'tax_amount'?: (number);
  'null_fields': (string)[];
  '_surcharge_amount'?: "surcharge_amount";
  '_tax_amount'?: "tax_amount";
}
