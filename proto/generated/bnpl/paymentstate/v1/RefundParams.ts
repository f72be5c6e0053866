// Original file: proto/payment_state.proto

import type { Long } from '@grpc/proto-loader';

export interface RefundParams {
  'payment_id'?: (string);
  'amount'?: (number | string | Long);
  'reason'?: (string);
  'refund_id'?: (string);
  'metadata_json'?: (string);
  'capture_id'?: (string);
  'split_refunds_json'?: (string);
  'order_details_json'?: (string);
  'refund_type'?: (string);
  'null_fields'?: (string)[];
  '_payment_id'?: "payment_id";
  '_amount'?: "amount";
  '_reason'?: "reason";
  '_refund_id'?: "refund_id";
  '_metadata_json'?: "metadata_json";
  '_capture_id'?: "capture_id";
  '_split_refunds_json'?: "split_refunds_json";
  '_order_details_json'?: "order_details_json";
  '_refund_type'?: "refund_type";
}

export interface RefundParams__Output {
  'payment_id'?: (string);
  'amount'?: (number);
  'reason'?: (string);
  'refund_id'?: (string);
  'metadata_json'?: (string);
  'capture_id'?: (string);
  'split_refunds_json'?: (string);
  'order_details_json'?: (string);
  'refund_type'?: (string);
  'null_fields': (string)[];
  '_payment_id'?: "payment_id";
  '_amount'?: "amount";
  '_reason'?: "reason";
  '_refund_id'?: "refund_id";
  '_metadata_json'?: "metadata_json";
  '_capture_id'?: "capture_id";
  '_split_refunds_json'?: "split_refunds_json";
  '_order_details_json'?: "order_details_json";
  '_refund_type'?: "refund_type";
}
