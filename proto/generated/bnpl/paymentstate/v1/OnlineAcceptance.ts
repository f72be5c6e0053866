// Original file: proto/payment_state.proto


export interface OnlineAcceptance {
  'ip_address'?: (string);
  'user_agent'?: (string);
  'null_fields'?: (string)[];
  '_ip_address'?: "ip_address";
  '_user_agent'?: "user_agent";
}

export interface OnlineAcceptance__Output {
  'ip_address'?: (string);
  'user_agent'?: (string);
  'null_fields': (string)[];
  '_ip_address'?: "ip_address";
  '_user_agent'?: "user_agent";
}
