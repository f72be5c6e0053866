// Original file: proto/payment_state.proto


export interface AddressDetails {
  'city'?: (string);
  'country'?: (string);
  'line1'?: (string);
  'line2'?: (string);
  'line3'?: (string);
  'zip'?: (string);
  'state'?: (string);
  'first_name'?: (string);
  'last_name'?: (string);
  'null_fields'?: (string)[];
  '_city'?: "city";
  '_country'?: "country";
  '_line1'?: "line1";
  '_line2'?: "line2";
  '_line3'?: "line3";
  '_zip'?: "zip";
  '_state'?: "state";
  '_first_name'?: "first_name";
  '_last_name'?: "last_name";
}

export interface AddressDetails__Output {
  'city'?: (string);
  'country'?: (string);
  'line1'?: (string);
  'line2'?: (string);
  'line3'?: (string);
  'zip'?: (string);
  'state'?: (string);
  'first_name'?: (string);
  'last_name'?: (string);
  'null_fields': (string)[];
  '_city'?: "city";
  '_country'?: "country";
  '_line1'?: "line1";
  '_line2'?: "line2";
  '_line3'?: "line3";
  '_zip'?: "zip";
  '_state'?: "state";
  '_first_name'?: "first_name";
  '_last_name'?: "last_name";
}
