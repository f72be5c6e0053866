// Original file: proto/payment_state.proto

import type { DeviceFingerprint as _bnpl_paymentstate_v1_DeviceFingerprint, DeviceFingerprint__Output as _bnpl_paymentstate_v1_DeviceFingerprint__Output } from '../../../bnpl/paymentstate/v1/DeviceFingerprint.ts';
import type { Long } from '@grpc/proto-loader';

export interface BrowserInfo {
  'color_depth'?: (number | string | Long);
  'java_enabled'?: (boolean);
  'java_script_enabled'?: (boolean);
  'language'?: (string);
  'screen_height'?: (number | string | Long);
  'screen_width'?: (number | string | Long);
  'time_zone'?: (number | string | Long);
  'ip_address'?: (string);
  'accept_header'?: (string);
  'user_agent'?: (string);
  'os_type'?: (string);
  'os_version'?: (string);
  'device_model'?: (string);
  'device_fingerprint'?: (_bnpl_paymentstate_v1_DeviceFingerprint | null);
  'null_fields'?: (string)[];
  '_color_depth'?: "color_depth";
  '_java_enabled'?: "java_enabled";
  '_java_script_enabled'?: "java_script_enabled";
  '_language'?: "language";
  '_screen_height'?: "screen_height";
  '_screen_width'?: "screen_width";
  '_time_zone'?: "time_zone";
  '_ip_address'?: "ip_address";
  '_accept_header'?: "accept_header";
  '_user_agent'?: "user_agent";
  '_os_type'?: "os_type";
  '_os_version'?: "os_version";
  '_device_model'?: "device_model";
}

export interface BrowserInfo__Output {
  'color_depth'?: (number);
  'java_enabled'?: (boolean);
  'java_script_enabled'?: (boolean);
  'language'?: (string);
  'screen_height'?: (number);
  'screen_width'?: (number);
  'time_zone'?: (number);
  'ip_address'?: (string);
  'accept_header'?: (string);
  'user_agent'?: (string);
  'os_type'?: (string);
  'os_version'?: (string);
  'device_model'?: (string);
  'device_fingerprint': (_bnpl_paymentstate_v1_DeviceFingerprint__Output | null);
  'null_fields': (string)[];
  '_color_depth'?: "color_depth";
  '_java_enabled'?: "java_enabled";
  '_java_script_enabled'?: "java_script_enabled";
  '_language'?: "language";
  '_screen_height'?: "screen_height";
  '_screen_width'?: "screen_width";
  '_time_zone'?: "time_zone";
  '_ip_address'?: "ip_address";
  '_accept_header'?: "accept_header";
  '_user_agent'?: "user_agent";
  '_os_type'?: "os_type";
  '_os_version'?: "os_version";
  '_device_model'?: "device_model";
}
