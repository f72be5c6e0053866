// Original file: proto/payment_state.proto


export interface CompleteReply {
  'applied'?: (boolean);
  'status'?: (string);
}

export interface CompleteReply__Output {
  'applied': (boolean);
  'status': (string);
}
