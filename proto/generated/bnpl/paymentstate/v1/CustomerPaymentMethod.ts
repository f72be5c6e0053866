// Original file: proto/payment_state.proto


export interface CustomerPaymentMethod {
  'payment_token'?: (string);
  'customer_id'?: (string);
  'payment_method'?: (string);
  'payment_method_type'?: (string);
  'setup_future_usage'?: (string);
  'connector'?: (string);
  'merchant_connector_id'?: (string);
  'mandate_id'?: (string);
  'created_at'?: (string);
  'last_used_at'?: (string);
  'null_fields'?: (string)[];
  '_payment_token'?: "payment_token";
  '_customer_id'?: "customer_id";
  '_payment_method'?: "payment_method";
  '_payment_method_type'?: "payment_method_type";
  '_setup_future_usage'?: "setup_future_usage";
  '_connector'?: "connector";
  '_merchant_connector_id'?: "merchant_connector_id";
  '_mandate_id'?: "mandate_id";
  '_created_at'?: "created_at";
  '_last_used_at'?: "last_used_at";
}

export interface CustomerPaymentMethod__Output {
  'payment_token'?: (string);
  'customer_id'?: (string);
  'payment_method'?: (string);
  'payment_method_type'?: (string);
  'setup_future_usage'?: (string);
  'connector'?: (string);
  'merchant_connector_id'?: (string);
  'mandate_id'?: (string);
  'created_at'?: (string);
  'last_used_at'?: (string);
  'null_fields': (string)[];
  '_payment_token'?: "payment_token";
  '_customer_id'?: "customer_id";
  '_payment_method'?: "payment_method";
  '_payment_method_type'?: "payment_method_type";
  '_setup_future_usage'?: "setup_future_usage";
  '_connector'?: "connector";
  '_merchant_connector_id'?: "merchant_connector_id";
  '_mandate_id'?: "mandate_id";
  '_created_at'?: "created_at";
  '_last_used_at'?: "last_used_at";
}
