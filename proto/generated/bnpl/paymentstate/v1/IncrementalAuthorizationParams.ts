// Original file: proto/payment_state.proto

import type { Long } from '@grpc/proto-loader';

export interface IncrementalAuthorizationParams {
  'amount'?: (number | string | Long);
  'reason'?: (string);
  'null_fields'?: (string)[];
  '_amount'?: "amount";
  '_reason'?: "reason";
}

export interface IncrementalAuthorizationParams__Output {
  'amount'?: (number);
  'reason'?: (string);
  'null_fields': (string)[];
  '_amount'?: "amount";
  '_reason'?: "reason";
}
