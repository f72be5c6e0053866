// Original file: proto/payment_state.proto


export interface Empty {
  'null_fields'?: (string)[];
}

export interface Empty__Output {
  'null_fields': (string)[];
}
