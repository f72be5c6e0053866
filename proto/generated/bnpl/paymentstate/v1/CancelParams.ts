// Original file: proto/payment_state.proto

import type { Long } from '@grpc/proto-loader';

export interface CancelParams {
  'amount_to_cancel'?: (number | string | Long);
  'cancellation_reason'?: (string);
  'order_details_json'?: (string);
  'merchant_connector_details_json'?: (string);
  'null_fields'?: (string)[];
  '_amount_to_cancel'?: "amount_to_cancel";
  '_cancellation_reason'?: "cancellation_reason";
  '_order_details_json'?: "order_details_json";
  '_merchant_connector_details_json'?: "merchant_connector_details_json";
}

export interface CancelParams__Output {
  'amount_to_cancel'?: (number);
  'cancellation_reason'?: (string);
  'order_details_json'?: (string);
  'merchant_connector_details_json'?: (string);
  'null_fields': (string)[];
  '_amount_to_cancel'?: "amount_to_cancel";
  '_cancellation_reason'?: "cancellation_reason";
  '_order_details_json'?: "order_details_json";
  '_merchant_connector_details_json'?: "merchant_connector_details_json";
}
