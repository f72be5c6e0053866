import type * as grpc from '@grpc/grpc-js';
import type { EnumTypeDefinition, MessageTypeDefinition } from '@grpc/proto-loader';

import type { AuthenticateParams as _bnpl_paymentstate_v1_AuthenticateParams, AuthenticateParams__Output as _bnpl_paymentstate_v1_AuthenticateParams__Output } from './bnpl/paymentstate/v1/AuthenticateParams.ts';
import type { Authentication as _bnpl_paymentstate_v1_Authentication, Authentication__Output as _bnpl_paymentstate_v1_Authentication__Output } from './bnpl/paymentstate/v1/Authentication.ts';
import type { BeginReply as _bnpl_paymentstate_v1_BeginReply, BeginReply__Output as _bnpl_paymentstate_v1_BeginReply__Output } from './bnpl/paymentstate/v1/BeginReply.ts';
import type { BeginRequest as _bnpl_paymentstate_v1_BeginRequest, BeginRequest__Output as _bnpl_paymentstate_v1_BeginRequest__Output } from './bnpl/paymentstate/v1/BeginRequest.ts';
import type { CancelParams as _bnpl_paymentstate_v1_CancelParams, CancelParams__Output as _bnpl_paymentstate_v1_CancelParams__Output } from './bnpl/paymentstate/v1/CancelParams.ts';
import type { CaptureParams as _bnpl_paymentstate_v1_CaptureParams, CaptureParams__Output as _bnpl_paymentstate_v1_CaptureParams__Output } from './bnpl/paymentstate/v1/CaptureParams.ts';
import type { CompleteReply as _bnpl_paymentstate_v1_CompleteReply, CompleteReply__Output as _bnpl_paymentstate_v1_CompleteReply__Output } from './bnpl/paymentstate/v1/CompleteReply.ts';
import type { CompleteRequest as _bnpl_paymentstate_v1_CompleteRequest, CompleteRequest__Output as _bnpl_paymentstate_v1_CompleteRequest__Output } from './bnpl/paymentstate/v1/CompleteRequest.ts';
import type { ConfirmParams as _bnpl_paymentstate_v1_ConfirmParams, ConfirmParams__Output as _bnpl_paymentstate_v1_ConfirmParams__Output } from './bnpl/paymentstate/v1/ConfirmParams.ts';
import type { ConnectorJob as _bnpl_paymentstate_v1_ConnectorJob, ConnectorJob__Output as _bnpl_paymentstate_v1_ConnectorJob__Output } from './bnpl/paymentstate/v1/ConnectorJob.ts';
import type { DisputeReport as _bnpl_paymentstate_v1_DisputeReport, DisputeReport__Output as _bnpl_paymentstate_v1_DisputeReport__Output } from './bnpl/paymentstate/v1/DisputeReport.ts';
import type { IncrementalAuthorizationParams as _bnpl_paymentstate_v1_IncrementalAuthorizationParams, IncrementalAuthorizationParams__Output as _bnpl_paymentstate_v1_IncrementalAuthorizationParams__Output } from './bnpl/paymentstate/v1/IncrementalAuthorizationParams.ts';
import type { JobAuthentication as _bnpl_paymentstate_v1_JobAuthentication, JobAuthentication__Output as _bnpl_paymentstate_v1_JobAuthentication__Output } from './bnpl/paymentstate/v1/JobAuthentication.ts';
import type { MerchantPolicy as _bnpl_paymentstate_v1_MerchantPolicy, MerchantPolicy__Output as _bnpl_paymentstate_v1_MerchantPolicy__Output } from './bnpl/paymentstate/v1/MerchantPolicy.ts';
import type { OperationTiming as _bnpl_paymentstate_v1_OperationTiming, OperationTiming__Output as _bnpl_paymentstate_v1_OperationTiming__Output } from './bnpl/paymentstate/v1/OperationTiming.ts';
import type { Outcome as _bnpl_paymentstate_v1_Outcome, Outcome__Output as _bnpl_paymentstate_v1_Outcome__Output } from './bnpl/paymentstate/v1/Outcome.ts';
import type { PaymentStateClient as _bnpl_paymentstate_v1_PaymentStateClient, PaymentStateDefinition as _bnpl_paymentstate_v1_PaymentStateDefinition } from './bnpl/paymentstate/v1/PaymentState.ts';
import type { RefundParams as _bnpl_paymentstate_v1_RefundParams, RefundParams__Output as _bnpl_paymentstate_v1_RefundParams__Output } from './bnpl/paymentstate/v1/RefundParams.ts';
import type { ReviewDecisionParams as _bnpl_paymentstate_v1_ReviewDecisionParams, ReviewDecisionParams__Output as _bnpl_paymentstate_v1_ReviewDecisionParams__Output } from './bnpl/paymentstate/v1/ReviewDecisionParams.ts';
import type { RoutedConnector as _bnpl_paymentstate_v1_RoutedConnector, RoutedConnector__Output as _bnpl_paymentstate_v1_RoutedConnector__Output } from './bnpl/paymentstate/v1/RoutedConnector.ts';
import type { UpdateParams as _bnpl_paymentstate_v1_UpdateParams, UpdateParams__Output as _bnpl_paymentstate_v1_UpdateParams__Output } from './bnpl/paymentstate/v1/UpdateParams.ts';
import type { UpdateRefundParams as _bnpl_paymentstate_v1_UpdateRefundParams, UpdateRefundParams__Output as _bnpl_paymentstate_v1_UpdateRefundParams__Output } from './bnpl/paymentstate/v1/UpdateRefundParams.ts';

type SubtypeConstructor<Constructor extends new (...args: any) => any, Subtype> = {
  new(...args: ConstructorParameters<Constructor>): Subtype;
};

export interface ProtoGrpcType {
  bnpl: {
    paymentstate: {
      v1: {
        Action: EnumTypeDefinition
        AuthenticateParams: MessageTypeDefinition<_bnpl_paymentstate_v1_AuthenticateParams, _bnpl_paymentstate_v1_AuthenticateParams__Output>
        Authentication: MessageTypeDefinition<_bnpl_paymentstate_v1_Authentication, _bnpl_paymentstate_v1_Authentication__Output>
        BeginReply: MessageTypeDefinition<_bnpl_paymentstate_v1_BeginReply, _bnpl_paymentstate_v1_BeginReply__Output>
        BeginRequest: MessageTypeDefinition<_bnpl_paymentstate_v1_BeginRequest, _bnpl_paymentstate_v1_BeginRequest__Output>
        CancelParams: MessageTypeDefinition<_bnpl_paymentstate_v1_CancelParams, _bnpl_paymentstate_v1_CancelParams__Output>
        CaptureParams: MessageTypeDefinition<_bnpl_paymentstate_v1_CaptureParams, _bnpl_paymentstate_v1_CaptureParams__Output>
        CompleteReply: MessageTypeDefinition<_bnpl_paymentstate_v1_CompleteReply, _bnpl_paymentstate_v1_CompleteReply__Output>
        CompleteRequest: MessageTypeDefinition<_bnpl_paymentstate_v1_CompleteRequest, _bnpl_paymentstate_v1_CompleteRequest__Output>
        ConfirmParams: MessageTypeDefinition<_bnpl_paymentstate_v1_ConfirmParams, _bnpl_paymentstate_v1_ConfirmParams__Output>
        ConnectorJob: MessageTypeDefinition<_bnpl_paymentstate_v1_ConnectorJob, _bnpl_paymentstate_v1_ConnectorJob__Output>
        DisputeReport: MessageTypeDefinition<_bnpl_paymentstate_v1_DisputeReport, _bnpl_paymentstate_v1_DisputeReport__Output>
        IncrementalAuthorizationParams: MessageTypeDefinition<_bnpl_paymentstate_v1_IncrementalAuthorizationParams, _bnpl_paymentstate_v1_IncrementalAuthorizationParams__Output>
        JobAuthentication: MessageTypeDefinition<_bnpl_paymentstate_v1_JobAuthentication, _bnpl_paymentstate_v1_JobAuthentication__Output>
        MerchantPolicy: MessageTypeDefinition<_bnpl_paymentstate_v1_MerchantPolicy, _bnpl_paymentstate_v1_MerchantPolicy__Output>
        OperationTiming: MessageTypeDefinition<_bnpl_paymentstate_v1_OperationTiming, _bnpl_paymentstate_v1_OperationTiming__Output>
        Outcome: MessageTypeDefinition<_bnpl_paymentstate_v1_Outcome, _bnpl_paymentstate_v1_Outcome__Output>
        PaymentState: SubtypeConstructor<typeof grpc.Client, _bnpl_paymentstate_v1_PaymentStateClient> & { service: _bnpl_paymentstate_v1_PaymentStateDefinition }
        RefundParams: MessageTypeDefinition<_bnpl_paymentstate_v1_RefundParams, _bnpl_paymentstate_v1_RefundParams__Output>
        ReviewDecisionParams: MessageTypeDefinition<_bnpl_paymentstate_v1_ReviewDecisionParams, _bnpl_paymentstate_v1_ReviewDecisionParams__Output>
        RoutedConnector: MessageTypeDefinition<_bnpl_paymentstate_v1_RoutedConnector, _bnpl_paymentstate_v1_RoutedConnector__Output>
        UpdateParams: MessageTypeDefinition<_bnpl_paymentstate_v1_UpdateParams, _bnpl_paymentstate_v1_UpdateParams__Output>
        UpdateRefundParams: MessageTypeDefinition<_bnpl_paymentstate_v1_UpdateRefundParams, _bnpl_paymentstate_v1_UpdateRefundParams__Output>
      }
    }
  }
}

