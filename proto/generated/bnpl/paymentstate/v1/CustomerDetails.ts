// Original file: proto/payment_state.proto


export interface CustomerDetails {
  'id'?: (string);
  'name'?: (string);
  'email'?: (string);
  'phone'?: (string);
  'phone_country_code'?: (string);
  'birth_date'?: (string);
  'gender'?: (string);
  'locale'?: (string);
  'ssn'?: (string);
  'null_fields'?: (string)[];
  '_id'?: "id";
  '_name'?: "name";
  '_email'?: "email";
  '_phone'?: "phone";
  '_phone_country_code'?: "phone_country_code";
  '_birth_date'?: "birth_date";
  '_gender'?: "gender";
  '_locale'?: "locale";
  '_ssn'?: "ssn";
}

export interface CustomerDetails__Output {
  'id'?: (string);
  'name'?: (string);
  'email'?: (string);
  'phone'?: (string);
  'phone_country_code'?: (string);
  'birth_date'?: (string);
  'gender'?: (string);
  'locale'?: (string);
  'ssn'?: (string);
  'null_fields': (string)[];
  '_id'?: "id";
  '_name'?: "name";
  '_email'?: "email";
  '_phone'?: "phone";
  '_phone_country_code'?: "phone_country_code";
  '_birth_date'?: "birth_date";
  '_gender'?: "gender";
  '_locale'?: "locale";
  '_ssn'?: "ssn";
}
