// Original file: proto/payment_state.proto


export interface Strings {
  'items'?: (string)[];
}

export interface Strings__Output {
  'items': (string)[];
}
