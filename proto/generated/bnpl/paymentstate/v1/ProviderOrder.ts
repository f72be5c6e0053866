// Original file: proto/payment_state.proto

import type { JobCustomer as _bnpl_paymentstate_v1_JobCustomer, JobCustomer__Output as _bnpl_paymentstate_v1_JobCustomer__Output } from '../../../bnpl/paymentstate/v1/JobCustomer.ts';
import type { Struct as _google_protobuf_Struct, Struct__Output as _google_protobuf_Struct__Output } from '../../../google/protobuf/Struct.ts';
import type { Structs as _bnpl_paymentstate_v1_Structs, Structs__Output as _bnpl_paymentstate_v1_Structs__Output } from '../../../bnpl/paymentstate/v1/Structs.ts';
import type { Long } from '@grpc/proto-loader';

export interface ProviderOrder {
  'customer'?: (_bnpl_paymentstate_v1_JobCustomer | null);
  'billing'?: (_google_protobuf_Struct | null);
  'shipping'?: (_google_protobuf_Struct | null);
  'order_details'?: (_bnpl_paymentstate_v1_Structs | null);
  'order_tax_amount'?: (number | string | Long);
  'metadata'?: (_google_protobuf_Struct | null);
  'browser_info'?: (_google_protobuf_Struct | null);
  'description'?: (string);
  'payment_method_type'?: (string);
  'birth_date'?: (string);
  'gender'?: (string);
  'locale'?: (string);
  'null_fields'?: (string)[];
  '_order_tax_amount'?: "order_tax_amount";
  '_description'?: "description";
  '_payment_method_type'?: "payment_method_type";
  '_birth_date'?: "birth_date";
  '_gender'?: "gender";
  '_locale'?: "locale";
}

export interface ProviderOrder__Output {
  'customer': (_bnpl_paymentstate_v1_JobCustomer__Output | null);
  'billing': (_google_protobuf_Struct__Output | null);
  'shipping': (_google_protobuf_Struct__Output | null);
  'order_details': (_bnpl_paymentstate_v1_Structs__Output | null);
  'order_tax_amount'?: (number);
  'metadata': (_google_protobuf_Struct__Output | null);
  'browser_info': (_google_protobuf_Struct__Output | null);
  'description'?: (string);
  'payment_method_type'?: (string);
  'birth_date'?: (string);
  'gender'?: (string);
  'locale'?: (string);
  'null_fields': (string)[];
  '_order_tax_amount'?: "order_tax_amount";
  '_description'?: "description";
  '_payment_method_type'?: "payment_method_type";
  '_birth_date'?: "birth_date";
  '_gender'?: "gender";
  '_locale'?: "locale";
}
