// Original file: proto/payment_state.proto


export interface SplitRefund {
  'revert_platform_fee'?: (boolean);
  'revert_transfer'?: (boolean);
  'null_fields'?: (string)[];
  '_revert_platform_fee'?: "revert_platform_fee";
  '_revert_transfer'?: "revert_transfer";
}

export interface SplitRefund__Output {
  'revert_platform_fee'?: (boolean);
  'revert_transfer'?: (boolean);
  'null_fields': (string)[];
  '_revert_platform_fee'?: "revert_platform_fee";
  '_revert_transfer'?: "revert_transfer";
}
