// Original file: proto/payment_state.proto

import type { ConnectorJob as _bnpl_paymentstate_v1_ConnectorJob, ConnectorJob__Output as _bnpl_paymentstate_v1_ConnectorJob__Output } from '../../../bnpl/paymentstate/v1/ConnectorJob.ts';

export interface BeginReply {
  'operation_id'?: (string);
  'needs_connector'?: (boolean);
  'replayed'?: (boolean);
  'status'?: (string);
  'job'?: (_bnpl_paymentstate_v1_ConnectorJob | null);
  'enqueued'?: (boolean);
}

export interface BeginReply__Output {
  'operation_id': (string);
  'needs_connector': (boolean);
  'replayed': (boolean);
  'status': (string);
  'job': (_bnpl_paymentstate_v1_ConnectorJob__Output | null);
  'enqueued': (boolean);
}
