// Original file: proto/payment_state.proto


export interface UpdateRefundParams {
  'refund_id'?: (string);
  'reason'?: (string);
  'metadata_json'?: (string);
  'null_fields'?: (string)[];
  '_refund_id'?: "refund_id";
  '_reason'?: "reason";
  '_metadata_json'?: "metadata_json";
}

export interface UpdateRefundParams__Output {
  'refund_id'?: (string);
  'reason'?: (string);
  'metadata_json'?: (string);
  'null_fields': (string)[];
  '_refund_id'?: "refund_id";
  '_reason'?: "reason";
  '_metadata_json'?: "metadata_json";
}
