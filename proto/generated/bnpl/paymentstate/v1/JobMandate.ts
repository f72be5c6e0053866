// Original file: proto/payment_state.proto


export interface JobMandate {
  'kind'?: (string);
  'mandate_id'?: (string);
  'connector_mandate_id'?: (string);
  'null_fields'?: (string)[];
  '_kind'?: "kind";
  '_mandate_id'?: "mandate_id";
  '_connector_mandate_id'?: "connector_mandate_id";
}

export interface JobMandate__Output {
  'kind'?: (string);
  'mandate_id'?: (string);
  'connector_mandate_id'?: (string);
  'null_fields': (string)[];
  '_kind'?: "kind";
  '_mandate_id'?: "mandate_id";
  '_connector_mandate_id'?: "connector_mandate_id";
}
