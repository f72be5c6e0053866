// Original file: proto/payment_state.proto

import type { CaptureMetadata as _bnpl_paymentstate_v1_CaptureMetadata, CaptureMetadata__Output as _bnpl_paymentstate_v1_CaptureMetadata__Output } from '../../../bnpl/paymentstate/v1/CaptureMetadata.ts';
import type { Struct as _google_protobuf_Struct, Struct__Output as _google_protobuf_Struct__Output } from '../../../google/protobuf/Struct.ts';
import type { OrderLines as _bnpl_paymentstate_v1_OrderLines, OrderLines__Output as _bnpl_paymentstate_v1_OrderLines__Output } from '../../../bnpl/paymentstate/v1/OrderLines.ts';
import type { Long } from '@grpc/proto-loader';

export interface CaptureParams {
  'amount_to_capture'?: (number | string | Long);
  'capture_id'?: (string);
  'capture_metadata'?: (_bnpl_paymentstate_v1_CaptureMetadata | null);
  'metadata'?: (_google_protobuf_Struct | null);
  'order_details'?: (_bnpl_paymentstate_v1_OrderLines | null);
  'refund_uncaptured_amount'?: (boolean);
  'statement_descriptor_suffix'?: (string);
  'statement_descriptor_prefix'?: (string);
  'merchant_connector_details'?: (_google_protobuf_Struct | null);
  'capture_type'?: (string);
  'statement_descriptor_name'?: (string);
  'null_fields'?: (string)[];
  '_amount_to_capture'?: "amount_to_capture";
  '_capture_id'?: "capture_id";
  '_refund_uncaptured_amount'?: "refund_uncaptured_amount";
  '_statement_descriptor_suffix'?: "statement_descriptor_suffix";
  '_statement_descriptor_prefix'?: "statement_descriptor_prefix";
  '_capture_type'?: "capture_type";
  '_statement_descriptor_name'?: "statement_descriptor_name";
}

export interface CaptureParams__Output {
  'amount_to_capture'?: (number);
  'capture_id'?: (string);
  'capture_metadata': (_bnpl_paymentstate_v1_CaptureMetadata__Output | null);
  'metadata': (_google_protobuf_Struct__Output | null);
  'order_details': (_bnpl_paymentstate_v1_OrderLines__Output | null);
  'refund_uncaptured_amount'?: (boolean);
  'statement_descriptor_suffix'?: (string);
  'statement_descriptor_prefix'?: (string);
  'merchant_connector_details': (_google_protobuf_Struct__Output | null);
  'capture_type'?: (string);
  'statement_descriptor_name'?: (string);
  'null_fields': (string)[];
  '_amount_to_capture'?: "amount_to_capture";
  '_capture_id'?: "capture_id";
  '_refund_uncaptured_amount'?: "refund_uncaptured_amount";
  '_statement_descriptor_suffix'?: "statement_descriptor_suffix";
  '_statement_descriptor_prefix'?: "statement_descriptor_prefix";
  '_capture_type'?: "capture_type";
  '_statement_descriptor_name'?: "statement_descriptor_name";
}
