// Original file: proto/payment_state.proto


export interface DeviceFingerprint {
  'payla'?: (string);
  'ratepay'?: (string);
  'unzer'?: (string);
  'null_fields'?: (string)[];
  '_payla'?: "payla";
  '_ratepay'?: "ratepay";
  '_unzer'?: "unzer";
}

export interface DeviceFingerprint__Output {
  'payla'?: (string);
  'ratepay'?: (string);
  'unzer'?: (string);
  'null_fields': (string)[];
  '_payla'?: "payla";
  '_ratepay'?: "ratepay";
  '_unzer'?: "unzer";
}
