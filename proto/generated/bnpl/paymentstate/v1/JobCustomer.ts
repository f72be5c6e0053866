// Original file: proto/payment_state.proto


export interface JobCustomer {
  'id'?: (string);
  'name'?: (string);
  'email'?: (string);
  'phone'?: (string);
  'phone_country_code'?: (string);
  'null_fields'?: (string)[];
  '_id'?: "id";
  '_name'?: "name";
  '_email'?: "email";
  '_phone'?: "phone";
  '_phone_country_code'?: "phone_country_code";
}

export interface JobCustomer__Output {
  'id'?: (string);
  'name'?: (string);
  'email'?: (string);
  'phone'?: (string);
  'phone_country_code'?: (string);
  'null_fields': (string)[];
  '_id'?: "id";
  '_name'?: "name";
  '_email'?: "email";
  '_phone'?: "phone";
  '_phone_country_code'?: "phone_country_code";
}
