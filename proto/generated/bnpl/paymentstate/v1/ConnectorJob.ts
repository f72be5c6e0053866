// Original file: proto/payment_state.proto

import type { JobAuthentication as _bnpl_paymentstate_v1_JobAuthentication, JobAuthentication__Output as _bnpl_paymentstate_v1_JobAuthentication__Output } from '../../../bnpl/paymentstate/v1/JobAuthentication.ts';
import type { ProviderOrder as _bnpl_paymentstate_v1_ProviderOrder, ProviderOrder__Output as _bnpl_paymentstate_v1_ProviderOrder__Output } from '../../../bnpl/paymentstate/v1/ProviderOrder.ts';
import type { CaptureDetails as _bnpl_paymentstate_v1_CaptureDetails, CaptureDetails__Output as _bnpl_paymentstate_v1_CaptureDetails__Output } from '../../../bnpl/paymentstate/v1/CaptureDetails.ts';
import type { JobMandate as _bnpl_paymentstate_v1_JobMandate, JobMandate__Output as _bnpl_paymentstate_v1_JobMandate__Output } from '../../../bnpl/paymentstate/v1/JobMandate.ts';
import type { Long } from '@grpc/proto-loader';

export interface ConnectorJob {
  'merchant_id'?: (string);
  'payment_id'?: (string);
  'operation_id'?: (string);
  'kind'?: (string);
  'connector'?: (string);
  'merchant_connector_id'?: (string);
  'amount'?: (number | string | Long);
  'currency'?: (string);
  'capture_method'?: (string);
  'connector_transaction_id'?: (string);
  'customer_email'?: (string);
  'return_url'?: (string);
  'merchant_order_reference_id'?: (string);
  'mode'?: (string);
  'sync_round'?: (number);
  'once'?: (boolean);
  'authentication'?: (_bnpl_paymentstate_v1_JobAuthentication | null);
  'refund_id'?: (string);
  'connector_refund_id'?: (string);
  'reason'?: (string);
  'capture_id'?: (string);
  'order'?: (_bnpl_paymentstate_v1_ProviderOrder | null);
  'capture_details'?: (_bnpl_paymentstate_v1_CaptureDetails | null);
  'connector_capture_id'?: (string);
  'follow_ups_before'?: (number);
  'mandate'?: (_bnpl_paymentstate_v1_JobMandate | null);
  '_merchant_connector_id'?: "merchant_connector_id";
  '_connector_transaction_id'?: "connector_transaction_id";
  '_customer_email'?: "customer_email";
  '_return_url'?: "return_url";
  '_merchant_order_reference_id'?: "merchant_order_reference_id";
  '_once'?: "once";
  '_refund_id'?: "refund_id";
  '_connector_refund_id'?: "connector_refund_id";
  '_reason'?: "reason";
  '_capture_id'?: "capture_id";
  '_connector_capture_id'?: "connector_capture_id";
  '_follow_ups_before'?: "follow_ups_before";
}

export interface ConnectorJob__Output {
  'merchant_id': (string);
  'payment_id': (string);
  'operation_id': (string);
  'kind': (string);
  'connector': (string);
  'merchant_connector_id'?: (string);
  'amount': (number);
  'currency': (string);
  'capture_method': (string);
  'connector_transaction_id'?: (string);
  'customer_email'?: (string);
  'return_url'?: (string);
  'merchant_order_reference_id'?: (string);
  'mode': (string);
  'sync_round': (number);
  'once'?: (boolean);
  'authentication': (_bnpl_paymentstate_v1_JobAuthentication__Output | null);
  'refund_id'?: (string);
  'connector_refund_id'?: (string);
  'reason'?: (string);
  'capture_id'?: (string);
  'order': (_bnpl_paymentstate_v1_ProviderOrder__Output | null);
  'capture_details': (_bnpl_paymentstate_v1_CaptureDetails__Output | null);
  'connector_capture_id'?: (string);
  'follow_ups_before'?: (number);
  'mandate': (_bnpl_paymentstate_v1_JobMandate__Output | null);
  '_merchant_connector_id'?: "merchant_connector_id";
  '_connector_transaction_id'?: "connector_transaction_id";
  '_customer_email'?: "customer_email";
  '_return_url'?: "return_url";
  '_merchant_order_reference_id'?: "merchant_order_reference_id";
  '_once'?: "once";
  '_refund_id'?: "refund_id";
  '_connector_refund_id'?: "connector_refund_id";
  '_reason'?: "reason";
  '_capture_id'?: "capture_id";
  '_connector_capture_id'?: "connector_capture_id";
  '_follow_ups_before'?: "follow_ups_before";
}
