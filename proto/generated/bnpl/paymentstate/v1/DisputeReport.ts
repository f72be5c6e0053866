// Original file: proto/payment_state.proto

import type { Long } from '@grpc/proto-loader';

export interface DisputeReport {
  'merchant_id'?: (string);
  'payment_id'?: (string);
  'connector_dispute_id'?: (string);
  'amount'?: (number | string | Long);
  'currency'?: (string);
  'dispute_stage'?: (string);
  'dispute_status'?: (string);
  'connector_status'?: (string);
  'connector_reason'?: (string);
  'connector_reason_code'?: (string);
  'challenge_required_by'?: (string);
  'connector_created_at'?: (string);
  'connector_updated_at'?: (string);
}

export interface DisputeReport__Output {
  'merchant_id': (string);
  'payment_id': (string);
  'connector_dispute_id': (string);
  'amount': (number);
  'currency': (string);
  'dispute_stage': (string);
  'dispute_status': (string);
  'connector_status': (string);
  'connector_reason': (string);
  'connector_reason_code': (string);
  'challenge_required_by': (string);
  'connector_created_at': (string);
  'connector_updated_at': (string);
}
