// Original file: proto/payment_state.proto

import type { OrderLines as _bnpl_paymentstate_v1_OrderLines, OrderLines__Output as _bnpl_paymentstate_v1_OrderLines__Output } from '../../../bnpl/paymentstate/v1/OrderLines.ts';
import type { Struct as _google_protobuf_Struct, Struct__Output as _google_protobuf_Struct__Output } from '../../../google/protobuf/Struct.ts';
import type { Long } from '@grpc/proto-loader';

export interface CancelParams {
  'amount_to_cancel'?: (number | string | Long);
  'cancellation_reason'?: (string);
  'order_details'?: (_bnpl_paymentstate_v1_OrderLines | null);
  'merchant_connector_details'?: (_google_protobuf_Struct | null);
  'null_fields'?: (string)[];
  '_amount_to_cancel'?: "amount_to_cancel";
  '_cancellation_reason'?: "cancellation_reason";
}

export interface CancelParams__Output {
  'amount_to_cancel'?: (number);
  'cancellation_reason'?: (string);
  'order_details': (_bnpl_paymentstate_v1_OrderLines__Output | null);
  'merchant_connector_details': (_google_protobuf_Struct__Output | null);
  'null_fields': (string)[];
  '_amount_to_cancel'?: "amount_to_cancel";
  '_cancellation_reason'?: "cancellation_reason";
}
