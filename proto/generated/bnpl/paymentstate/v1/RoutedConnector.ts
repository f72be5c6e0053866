// Original file: proto/payment_state.proto


export interface RoutedConnector {
  'connector'?: (string);
  'merchant_connector_id'?: (string);
  'connector_label'?: (string);
  'reason'?: (string);
}

export interface RoutedConnector__Output {
  'connector': (string);
  'merchant_connector_id': (string);
  'connector_label': (string);
  'reason': (string);
}
