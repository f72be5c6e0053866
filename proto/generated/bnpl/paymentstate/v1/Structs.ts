// Original file: proto/payment_state.proto

import type { Struct as _google_protobuf_Struct, Struct__Output as _google_protobuf_Struct__Output } from '../../../google/protobuf/Struct.ts';

export interface Structs {
  'items'?: (_google_protobuf_Struct)[];
}

export interface Structs__Output {
  'items': (_google_protobuf_Struct__Output)[];
}
