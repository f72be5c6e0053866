// Original file: proto/payment_state.proto

import type { Action as _bnpl_paymentstate_v1_Action, Action__Output as _bnpl_paymentstate_v1_Action__Output } from '../../../bnpl/paymentstate/v1/Action.ts';
import type { MerchantPolicy as _bnpl_paymentstate_v1_MerchantPolicy, MerchantPolicy__Output as _bnpl_paymentstate_v1_MerchantPolicy__Output } from '../../../bnpl/paymentstate/v1/MerchantPolicy.ts';
import type { RoutedConnector as _bnpl_paymentstate_v1_RoutedConnector, RoutedConnector__Output as _bnpl_paymentstate_v1_RoutedConnector__Output } from '../../../bnpl/paymentstate/v1/RoutedConnector.ts';
import type { UpdateParams as _bnpl_paymentstate_v1_UpdateParams, UpdateParams__Output as _bnpl_paymentstate_v1_UpdateParams__Output } from '../../../bnpl/paymentstate/v1/UpdateParams.ts';
import type { ConfirmParams as _bnpl_paymentstate_v1_ConfirmParams, ConfirmParams__Output as _bnpl_paymentstate_v1_ConfirmParams__Output } from '../../../bnpl/paymentstate/v1/ConfirmParams.ts';
import type { CaptureParams as _bnpl_paymentstate_v1_CaptureParams, CaptureParams__Output as _bnpl_paymentstate_v1_CaptureParams__Output } from '../../../bnpl/paymentstate/v1/CaptureParams.ts';
import type { CancelParams as _bnpl_paymentstate_v1_CancelParams, CancelParams__Output as _bnpl_paymentstate_v1_CancelParams__Output } from '../../../bnpl/paymentstate/v1/CancelParams.ts';
import type { IncrementalAuthorizationParams as _bnpl_paymentstate_v1_IncrementalAuthorizationParams, IncrementalAuthorizationParams__Output as _bnpl_paymentstate_v1_IncrementalAuthorizationParams__Output } from '../../../bnpl/paymentstate/v1/IncrementalAuthorizationParams.ts';
import type { ReviewDecisionParams as _bnpl_paymentstate_v1_ReviewDecisionParams, ReviewDecisionParams__Output as _bnpl_paymentstate_v1_ReviewDecisionParams__Output } from '../../../bnpl/paymentstate/v1/ReviewDecisionParams.ts';
import type { AuthenticateParams as _bnpl_paymentstate_v1_AuthenticateParams, AuthenticateParams__Output as _bnpl_paymentstate_v1_AuthenticateParams__Output } from '../../../bnpl/paymentstate/v1/AuthenticateParams.ts';
import type { RefundParams as _bnpl_paymentstate_v1_RefundParams, RefundParams__Output as _bnpl_paymentstate_v1_RefundParams__Output } from '../../../bnpl/paymentstate/v1/RefundParams.ts';
import type { UpdateRefundParams as _bnpl_paymentstate_v1_UpdateRefundParams, UpdateRefundParams__Output as _bnpl_paymentstate_v1_UpdateRefundParams__Output } from '../../../bnpl/paymentstate/v1/UpdateRefundParams.ts';
import type { MandateResource as _bnpl_paymentstate_v1_MandateResource, MandateResource__Output as _bnpl_paymentstate_v1_MandateResource__Output } from '../../../bnpl/paymentstate/v1/MandateResource.ts';
import type { CustomerPaymentMethod as _bnpl_paymentstate_v1_CustomerPaymentMethod, CustomerPaymentMethod__Output as _bnpl_paymentstate_v1_CustomerPaymentMethod__Output } from '../../../bnpl/paymentstate/v1/CustomerPaymentMethod.ts';
import type { Long } from '@grpc/proto-loader';

export interface BeginRequest {
  'merchant_id'?: (string);
  'payment_id'?: (string);
  'action'?: (_bnpl_paymentstate_v1_Action);
  'policy'?: (_bnpl_paymentstate_v1_MerchantPolicy | null);
  'route'?: (_bnpl_paymentstate_v1_RoutedConnector | null);
  'operation_id'?: (string);
  'repeat'?: (boolean);
  'not_after_ms'?: (number | string | Long);
  'update'?: (_bnpl_paymentstate_v1_UpdateParams | null);
  'confirm'?: (_bnpl_paymentstate_v1_ConfirmParams | null);
  'capture'?: (_bnpl_paymentstate_v1_CaptureParams | null);
  'cancel'?: (_bnpl_paymentstate_v1_CancelParams | null);
  'incremental_authorization'?: (_bnpl_paymentstate_v1_IncrementalAuthorizationParams | null);
  'approve'?: (_bnpl_paymentstate_v1_ReviewDecisionParams | null);
  'reject'?: (_bnpl_paymentstate_v1_ReviewDecisionParams | null);
  'authenticate'?: (_bnpl_paymentstate_v1_AuthenticateParams | null);
  'refund'?: (_bnpl_paymentstate_v1_RefundParams | null);
  'update_refund'?: (_bnpl_paymentstate_v1_UpdateRefundParams | null);
  'mandate'?: (_bnpl_paymentstate_v1_MandateResource | null);
  'payment_method'?: (_bnpl_paymentstate_v1_CustomerPaymentMethod | null);
  'params'?: "update"|"confirm"|"capture"|"cancel"|"incremental_authorization"|"approve"|"reject"|"authenticate"|"refund"|"update_refund";
}

export interface BeginRequest__Output {
  'merchant_id': (string);
  'payment_id': (string);
  'action': (_bnpl_paymentstate_v1_Action__Output);
  'policy': (_bnpl_paymentstate_v1_MerchantPolicy__Output | null);
  'route': (_bnpl_paymentstate_v1_RoutedConnector__Output | null);
  'operation_id': (string);
  'repeat': (boolean);
  'not_after_ms': (number);
  'update'?: (_bnpl_paymentstate_v1_UpdateParams__Output | null);
  'confirm'?: (_bnpl_paymentstate_v1_ConfirmParams__Output | null);
  'capture'?: (_bnpl_paymentstate_v1_CaptureParams__Output | null);
  'cancel'?: (_bnpl_paymentstate_v1_CancelParams__Output | null);
  'incremental_authorization'?: (_bnpl_paymentstate_v1_IncrementalAuthorizationParams__Output | null);
  'approve'?: (_bnpl_paymentstate_v1_ReviewDecisionParams__Output | null);
  'reject'?: (_bnpl_paymentstate_v1_ReviewDecisionParams__Output | null);
  'authenticate'?: (_bnpl_paymentstate_v1_AuthenticateParams__Output | null);
  'refund'?: (_bnpl_paymentstate_v1_RefundParams__Output | null);
  'update_refund'?: (_bnpl_paymentstate_v1_UpdateRefundParams__Output | null);
  'mandate': (_bnpl_paymentstate_v1_MandateResource__Output | null);
  'payment_method': (_bnpl_paymentstate_v1_CustomerPaymentMethod__Output | null);
  'params'?: "update"|"confirm"|"capture"|"cancel"|"incremental_authorization"|"approve"|"reject"|"authenticate"|"refund"|"update_refund";
}
