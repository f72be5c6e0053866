// Original file: proto/payment_state.proto

import type { Long } from '@grpc/proto-loader';

export interface CaptureParams {
  'amount_to_capture'?: (number | string | Long);
  'capture_id'?: (string);
  'capture_metadata_json'?: (string);
  'metadata_json'?: (string);
  'order_details_json'?: (string);
  'refund_uncaptured_amount'?: (boolean);
  'statement_descriptor_suffix'?: (string);
  'statement_descriptor_prefix'?: (string);
  'merchant_connector_details_json'?: (string);
  'capture_type'?: (string);
  'statement_descriptor_name'?: (string);
  'null_fields'?: (string)[];
  '_amount_to_capture'?: "amount_to_capture";
  '_capture_id'?: "capture_id";
  '_capture_metadata_json'?: "capture_metadata_json";
  '_metadata_json'?: "metadata_json";
  '_order_details_json'?: "order_details_json";
  '_refund_uncaptured_amount'?: "refund_uncaptured_amount";
  '_statement_descriptor_suffix'?: "statement_descriptor_suffix";
  '_statement_descriptor_prefix'?: "statement_descriptor_prefix";
  '_merchant_connector_details_json'?: "merchant_connector_details_json";
  '_capture_type'?: "capture_type";
  '_statement_descriptor_name'?: "statement_descriptor_name";
}

export interface CaptureParams__Output {
  'amount_to_capture'?: (number);
  'capture_id'?: (string);
  'capture_metadata_json'?: (string);
  'metadata_json'?: (string);
  'order_details_json'?: (string);
  'refund_uncaptured_amount'?: (boolean);
  'statement_descriptor_suffix'?: (string);
  'statement_descriptor_prefix'?: (string);
  'merchant_connector_details_json'?: (string);
  'capture_type'?: (string);
  'statement_descriptor_name'?: (string);
  'null_fields': (string)[];
  '_amount_to_capture'?: "amount_to_capture";
  '_capture_id'?: "capture_id";
  '_capture_metadata_json'?: "capture_metadata_json";
  '_metadata_json'?: "metadata_json";
  '_order_details_json'?: "order_details_json";
  '_refund_uncaptured_amount'?: "refund_uncaptured_amount";
  '_statement_descriptor_suffix'?: "statement_descriptor_suffix";
  '_statement_descriptor_prefix'?: "statement_descriptor_prefix";
  '_merchant_connector_details_json'?: "merchant_connector_details_json";
  '_capture_type'?: "capture_type";
  '_statement_descriptor_name'?: "statement_descriptor_name";
}
