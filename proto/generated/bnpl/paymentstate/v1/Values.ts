// Original file: proto/payment_state.proto

import type { Value as _google_protobuf_Value, Value__Output as _google_protobuf_Value__Output } from '../../../google/protobuf/Value.ts';

export interface Values {
  'items'?: (_google_protobuf_Value)[];
}

export interface Values__Output {
  'items': (_google_protobuf_Value__Output)[];
}
