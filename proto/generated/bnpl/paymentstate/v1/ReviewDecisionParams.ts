// Original file: proto/payment_state.proto


export interface ReviewDecisionParams {
}

export interface ReviewDecisionParams__Output {
}
