// Original file: proto/payment_state.proto


export interface ReviewDecisionParams {
  'null_fields'?: (string)[];
}

export interface ReviewDecisionParams__Output {
  'null_fields': (string)[];
}
