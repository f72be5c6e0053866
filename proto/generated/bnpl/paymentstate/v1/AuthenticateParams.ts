// Original file: proto/payment_state.proto


export interface AuthenticateParams {
  'client_secret'?: (string);
  'sdk_information_json'?: (string);
  'device_channel'?: (string);
  'threeds_method_comp_ind'?: (string);
  'browser_info_json'?: (string);
  'null_fields'?: (string)[];
  '_client_secret'?: "client_secret";
  '_sdk_information_json'?: "sdk_information_json";
  '_device_channel'?: "device_channel";
  '_threeds_method_comp_ind'?: "threeds_method_comp_ind";
  '_browser_info_json'?: "browser_info_json";
}

export interface AuthenticateParams__Output {
  'client_secret'?: (string);
  'sdk_information_json'?: (string);
  'device_channel'?: (string);
  'threeds_method_comp_ind'?: (string);
  'browser_info_json'?: (string);
  'null_fields': (string)[];
  '_client_secret'?: "client_secret";
  '_sdk_information_json'?: "sdk_information_json";
  '_device_channel'?: "device_channel";
  '_threeds_method_comp_ind'?: "threeds_method_comp_ind";
  '_browser_info_json'?: "browser_info_json";
}
