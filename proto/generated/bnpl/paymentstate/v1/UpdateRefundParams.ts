// Original file: proto/payment_state.proto

import type { Struct as _google_protobuf_Struct, Struct__Output as _google_protobuf_Struct__Output } from '../../../google/protobuf/Struct.ts';

export interface UpdateRefundParams {
  'refund_id'?: (string);
  'reason'?: (string);
  'metadata'?: (_google_protobuf_Struct | null);
  'null_fields'?: (string)[];
  '_refund_id'?: "refund_id";
  '_reason'?: "reason";
}

export interface UpdateRefundParams__Output {
  'refund_id'?: (string);
  'reason'?: (string);
  'metadata': (_google_protobuf_Struct__Output | null);
  'null_fields': (string)[];
  '_refund_id'?: "refund_id";
  '_reason'?: "reason";
}
