// Original file: proto/payment_state.proto

import type { Struct as _google_protobuf_Struct, Struct__Output as _google_protobuf_Struct__Output } from '../../../google/protobuf/Struct.ts';
import type { SplitRefunds as _bnpl_paymentstate_v1_SplitRefunds, SplitRefunds__Output as _bnpl_paymentstate_v1_SplitRefunds__Output } from '../../../bnpl/paymentstate/v1/SplitRefunds.ts';
import type { OrderLines as _bnpl_paymentstate_v1_OrderLines, OrderLines__Output as _bnpl_paymentstate_v1_OrderLines__Output } from '../../../bnpl/paymentstate/v1/OrderLines.ts';
import type { Long } from '@grpc/proto-loader';

export interface RefundParams {
  'payment_id'?: (string);
  'amount'?: (number | string | Long);
  'reason'?: (string);
  'refund_id'?: (string);
  'metadata'?: (_google_protobuf_Struct | null);
  'capture_id'?: (string);
  'split_refunds'?: (_bnpl_paymentstate_v1_SplitRefunds | null);
  'order_details'?: (_bnpl_paymentstate_v1_OrderLines | null);
  'refund_type'?: (string);
  'null_fields'?: (string)[];
  '_payment_id'?: "payment_id";
  '_amount'?: "amount";
  '_reason'?: "reason";
  '_refund_id'?: "refund_id";
  '_capture_id'?: "capture_id";
  '_refund_type'?: "refund_type";
}

export interface RefundParams__Output {
  'payment_id'?: (string);
  'amount'?: (number);
  'reason'?: (string);
  'refund_id'?: (string);
  'metadata': (_google_protobuf_Struct__Output | null);
  'capture_id'?: (string);
  'split_refunds': (_bnpl_paymentstate_v1_SplitRefunds__Output | null);
  'order_details': (_bnpl_paymentstate_v1_OrderLines__Output | null);
  'refund_type'?: (string);
  'null_fields': (string)[];
  '_payment_id'?: "payment_id";
  '_amount'?: "amount";
  '_reason'?: "reason";
  '_refund_id'?: "refund_id";
  '_capture_id'?: "capture_id";
  '_refund_type'?: "refund_type";
}
