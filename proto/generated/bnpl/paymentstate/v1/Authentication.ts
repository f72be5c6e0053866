// Original file: proto/payment_state.proto


export interface Authentication {
  'trans_status'?: (string);
  'trans_status_reason'?: (string);
  'three_dsserver_trans_id'?: (string);
  'acs_trans_id'?: (string);
  'acs_reference_number'?: (string);
  'acs_url'?: (string);
  'challenge_request'?: (string);
  'acs_signed_content'?: (string);
  'three_ds_requestor_url'?: (string);
  'ds_trans_id'?: (string);
  'eci'?: (string);
  'message_version'?: (string);
}

export interface Authentication__Output {
  'trans_status': (string);
  'trans_status_reason': (string);
  'three_dsserver_trans_id': (string);
  'acs_trans_id': (string);
  'acs_reference_number': (string);
  'acs_url': (string);
  'challenge_request': (string);
  'acs_signed_content': (string);
  'three_ds_requestor_url': (string);
  'ds_trans_id': (string);
  'eci': (string);
  'message_version': (string);
}
