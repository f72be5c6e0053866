// Original file: proto/payment_state.proto

import type { SdkInformation as _bnpl_paymentstate_v1_SdkInformation, SdkInformation__Output as _bnpl_paymentstate_v1_SdkInformation__Output } from '../../../bnpl/paymentstate/v1/SdkInformation.ts';
import type { BrowserInfo as _bnpl_paymentstate_v1_BrowserInfo, BrowserInfo__Output as _bnpl_paymentstate_v1_BrowserInfo__Output } from '../../../bnpl/paymentstate/v1/BrowserInfo.ts';

export interface AuthenticateParams {
  'client_secret'?: (string);
  'sdk_information'?: (_bnpl_paymentstate_v1_SdkInformation | null);
  'device_channel'?: (string);
  'threeds_method_comp_ind'?: (string);
  'browser_info'?: (_bnpl_paymentstate_v1_BrowserInfo | null);
  'null_fields'?: (string)[];
  '_client_secret'?: "client_secret";
  '_device_channel'?: "device_channel";
  '_threeds_method_comp_ind'?: "threeds_method_comp_ind";
}

export interface AuthenticateParams__Output {
  'client_secret'?: (string);
  'sdk_information': (_bnpl_paymentstate_v1_SdkInformation__Output | null);
  'device_channel'?: (string);
  'threeds_method_comp_ind'?: (string);
  'browser_info': (_bnpl_paymentstate_v1_BrowserInfo__Output | null);
  'null_fields': (string)[];
  '_client_secret'?: "client_secret";
  '_device_channel'?: "device_channel";
  '_threeds_method_comp_ind'?: "threeds_method_comp_ind";
}
