// Original file: proto/payment_state.proto

import type { StringMap as _bnpl_paymentstate_v1_StringMap, StringMap__Output as _bnpl_paymentstate_v1_StringMap__Output } from '../../../bnpl/paymentstate/v1/StringMap.ts';
import type { Long } from '@grpc/proto-loader';

export interface SdkInformation {
  'sdk_app_id'?: (string);
  'sdk_enc_data'?: (string);
  'sdk_ephem_pub_key'?: (_bnpl_paymentstate_v1_StringMap | null);
  'sdk_trans_id'?: (string);
  'sdk_reference_number'?: (string);
  'sdk_max_timeout'?: (number | string | Long);
  'null_fields'?: (string)[];
  '_sdk_app_id'?: "sdk_app_id";
  '_sdk_enc_data'?: "sdk_enc_data";
  '_sdk_trans_id'?: "sdk_trans_id";
  '_sdk_reference_number'?: "sdk_reference_number";
  '_sdk_max_timeout'?: "sdk_max_timeout";
}

export interface SdkInformation__Output {
  'sdk_app_id'?: (string);
  'sdk_enc_data'?: (string);
  'sdk_ephem_pub_key': (_bnpl_paymentstate_v1_StringMap__Output | null);
  'sdk_trans_id'?: (string);
  'sdk_reference_number'?: (string);
  'sdk_max_timeout'?: (number);
  'null_fields': (string)[];
  '_sdk_app_id'?: "sdk_app_id";
  '_sdk_enc_data'?: "sdk_enc_data";
  '_sdk_trans_id'?: "sdk_trans_id";
  '_sdk_reference_number'?: "sdk_reference_number";
  '_sdk_max_timeout'?: "sdk_max_timeout";
}
