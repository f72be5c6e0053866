// Original file: proto/payment_state.proto


export interface StatementDescriptor {
  'name'?: (string);
  'suffix'?: (string);
  'prefix'?: (string);
  'null_fields'?: (string)[];
  '_name'?: "name";
  '_suffix'?: "suffix";
  '_prefix'?: "prefix";
}

export interface StatementDescriptor__Output {
  'name'?: (string);
  'suffix'?: (string);
  'prefix'?: (string);
  'null_fields': (string)[];
  '_name'?: "name";
  '_suffix'?: "suffix";
  '_prefix'?: "prefix";
}
