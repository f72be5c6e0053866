// Original file: proto/payment_state.proto


export interface OperationTiming {
  'provider_ms'?: (number | string);
  'queue_ms'?: (number | string);
  '_provider_ms'?: "provider_ms";
  '_queue_ms'?: "queue_ms";
}

export interface OperationTiming__Output {
  'provider_ms'?: (number);
  'queue_ms'?: (number);
  '_provider_ms'?: "provider_ms";
  '_queue_ms'?: "queue_ms";
}
