// Original file: proto/payment_state.proto


export interface BeginReply {
  'operation_id'?: (string);
  'needs_connector'?: (boolean);
  'job_json'?: (string);
  'replayed'?: (boolean);
  'status'?: (string);
}

export interface BeginReply__Output {
  'operation_id': (string);
  'needs_connector': (boolean);
  'job_json': (string);
  'replayed': (boolean);
  'status': (string);
}
