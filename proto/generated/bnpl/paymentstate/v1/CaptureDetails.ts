// Original file: proto/payment_state.proto

import type { Struct as _google_protobuf_Struct, Struct__Output as _google_protobuf_Struct__Output } from '../../../google/protobuf/Struct.ts';
import type { Values as _bnpl_paymentstate_v1_Values, Values__Output as _bnpl_paymentstate_v1_Values__Output } from '../../../bnpl/paymentstate/v1/Values.ts';
import type { StatementDescriptor as _bnpl_paymentstate_v1_StatementDescriptor, StatementDescriptor__Output as _bnpl_paymentstate_v1_StatementDescriptor__Output } from '../../../bnpl/paymentstate/v1/StatementDescriptor.ts';

export interface CaptureDetails {
  'capture_metadata'?: (_google_protobuf_Struct | null);
  'metadata'?: (_google_protobuf_Struct | null);
  'order_details'?: (_bnpl_paymentstate_v1_Values | null);
  'statement_descriptor'?: (_bnpl_paymentstate_v1_StatementDescriptor | null);
  'null_fields'?: (string)[];
}

export interface CaptureDetails__Output {
  'capture_metadata': (_google_protobuf_Struct__Output | null);
  'metadata': (_google_protobuf_Struct__Output | null);
  'order_details': (_bnpl_paymentstate_v1_Values__Output | null);
  'statement_descriptor': (_bnpl_paymentstate_v1_StatementDescriptor__Output | null);
  'null_fields': (string)[];
}
