// Original file: proto/payment_state.proto


export interface Phone {
  'number'?: (string);
  'country_code'?: (string);
  'null_fields'?: (string)[];
  '_number'?: "number";
  '_country_code'?: "country_code";
}

export interface Phone__Output {
  'number'?: (string);
  'country_code'?: (string);
  'null_fields': (string)[];
  '_number'?: "number";
  '_country_code'?: "country_code";
}
