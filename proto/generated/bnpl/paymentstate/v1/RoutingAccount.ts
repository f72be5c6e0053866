// Original file: proto/payment_state.proto


export interface RoutingAccount {
  'connector'?: (string);
  'merchant_connector_id'?: (string);
  'null_fields'?: (string)[];
  '_connector'?: "connector";
  '_merchant_connector_id'?: "merchant_connector_id";
}

export interface RoutingAccount__Output {
  'connector'?: (string);
  'merchant_connector_id'?: (string);
  'null_fields': (string)[];
  '_connector'?: "connector";
  '_merchant_connector_id'?: "merchant_connector_id";
}
