// Original file: proto/payment_state.proto

import type { Struct as _google_protobuf_Struct, Struct__Output as _google_protobuf_Struct__Output } from '../../../google/protobuf/Struct.ts';
import type { Long } from '@grpc/proto-loader';

export interface SingleUseMandate {
  'amount'?: (number | string | Long);
  'currency'?: (string);
  'start_date'?: (string);
  'end_date'?: (string);
  'metadata'?: (_google_protobuf_Struct | null);
  'null_fields'?: (string)[];
  '_amount'?: "amount";
  '_currency'?: "currency";
  '_start_date'?: "start_date";
  '_end_date'?: "end_date";
}

export interface SingleUseMandate__Output {
  'amount'?: (number);
  'currency'?: (string);
  'start_date'?: (string);
  'end_date'?: (string);
  'metadata': (_google_protobuf_Struct__Output | null);
  'null_fields': (string)[];
  '_amount'?: "amount";
  '_currency'?: "currency";
  '_start_date'?: "start_date";
  '_end_date'?: "end_date";
}
