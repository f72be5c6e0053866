// Original file: proto/payment_state.proto

import type * as grpc from '@grpc/grpc-js'
import type { MethodDefinition } from '@grpc/proto-loader'
import type { BeginReply as _bnpl_paymentstate_v1_BeginReply, BeginReply__Output as _bnpl_paymentstate_v1_BeginReply__Output } from '../../../bnpl/paymentstate/v1/BeginReply.ts';
import type { BeginRequest as _bnpl_paymentstate_v1_BeginRequest, BeginRequest__Output as _bnpl_paymentstate_v1_BeginRequest__Output } from '../../../bnpl/paymentstate/v1/BeginRequest.ts';
import type { CompleteReply as _bnpl_paymentstate_v1_CompleteReply, CompleteReply__Output as _bnpl_paymentstate_v1_CompleteReply__Output } from '../../../bnpl/paymentstate/v1/CompleteReply.ts';
import type { CompleteRequest as _bnpl_paymentstate_v1_CompleteRequest, CompleteRequest__Output as _bnpl_paymentstate_v1_CompleteRequest__Output } from '../../../bnpl/paymentstate/v1/CompleteRequest.ts';
import type { DisputeReport as _bnpl_paymentstate_v1_DisputeReport, DisputeReport__Output as _bnpl_paymentstate_v1_DisputeReport__Output } from '../../../bnpl/paymentstate/v1/DisputeReport.ts';

export interface PaymentStateClient extends grpc.Client {
  Begin(argument: _bnpl_paymentstate_v1_BeginRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_bnpl_paymentstate_v1_BeginReply__Output>): grpc.ClientUnaryCall;
  Begin(argument: _bnpl_paymentstate_v1_BeginRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_bnpl_paymentstate_v1_BeginReply__Output>): grpc.ClientUnaryCall;
  Begin(argument: _bnpl_paymentstate_v1_BeginRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_bnpl_paymentstate_v1_BeginReply__Output>): grpc.ClientUnaryCall;
  Begin(argument: _bnpl_paymentstate_v1_BeginRequest, callback: grpc.requestCallback<_bnpl_paymentstate_v1_BeginReply__Output>): grpc.ClientUnaryCall;
  begin(argument: _bnpl_paymentstate_v1_BeginRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_bnpl_paymentstate_v1_BeginReply__Output>): grpc.ClientUnaryCall;
  begin(argument: _bnpl_paymentstate_v1_BeginRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_bnpl_paymentstate_v1_BeginReply__Output>): grpc.ClientUnaryCall;
  begin(argument: _bnpl_paymentstate_v1_BeginRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_bnpl_paymentstate_v1_BeginReply__Output>): grpc.ClientUnaryCall;
  begin(argument: _bnpl_paymentstate_v1_BeginRequest, callback: grpc.requestCallback<_bnpl_paymentstate_v1_BeginReply__Output>): grpc.ClientUnaryCall;
  
  Complete(argument: _bnpl_paymentstate_v1_CompleteRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_bnpl_paymentstate_v1_CompleteReply__Output>): grpc.ClientUnaryCall;
  Complete(argument: _bnpl_paymentstate_v1_CompleteRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_bnpl_paymentstate_v1_CompleteReply__Output>): grpc.ClientUnaryCall;
  Complete(argument: _bnpl_paymentstate_v1_CompleteRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_bnpl_paymentstate_v1_CompleteReply__Output>): grpc.ClientUnaryCall;
  Complete(argument: _bnpl_paymentstate_v1_CompleteRequest, callback: grpc.requestCallback<_bnpl_paymentstate_v1_CompleteReply__Output>): grpc.ClientUnaryCall;
  complete(argument: _bnpl_paymentstate_v1_CompleteRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_bnpl_paymentstate_v1_CompleteReply__Output>): grpc.ClientUnaryCall;
  complete(argument: _bnpl_paymentstate_v1_CompleteRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_bnpl_paymentstate_v1_CompleteReply__Output>): grpc.ClientUnaryCall;
  complete(argument: _bnpl_paymentstate_v1_CompleteRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_bnpl_paymentstate_v1_CompleteReply__Output>): grpc.ClientUnaryCall;
  complete(argument: _bnpl_paymentstate_v1_CompleteRequest, callback: grpc.requestCallback<_bnpl_paymentstate_v1_CompleteReply__Output>): grpc.ClientUnaryCall;
  
  ReportDispute(argument: _bnpl_paymentstate_v1_DisputeReport, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_bnpl_paymentstate_v1_CompleteReply__Output>): grpc.ClientUnaryCall;
  ReportDispute(argument: _bnpl_paymentstate_v1_DisputeReport, metadata: grpc.Metadata, callback: grpc.requestCallback<_bnpl_paymentstate_v1_CompleteReply__Output>): grpc.ClientUnaryCall;
  ReportDispute(argument: _bnpl_paymentstate_v1_DisputeReport, options: grpc.CallOptions, callback: grpc.requestCallback<_bnpl_paymentstate_v1_CompleteReply__Output>): grpc.ClientUnaryCall;
  ReportDispute(argument: _bnpl_paymentstate_v1_DisputeReport, callback: grpc.requestCallback<_bnpl_paymentstate_v1_CompleteReply__Output>): grpc.ClientUnaryCall;
  reportDispute(argument: _bnpl_paymentstate_v1_DisputeReport, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_bnpl_paymentstate_v1_CompleteReply__Output>): grpc.ClientUnaryCall;
  reportDispute(argument: _bnpl_paymentstate_v1_DisputeReport, metadata: grpc.Metadata, callback: grpc.requestCallback<_bnpl_paymentstate_v1_CompleteReply__Output>): grpc.ClientUnaryCall;
  reportDispute(argument: _bnpl_paymentstate_v1_DisputeReport, options: grpc.CallOptions, callback: grpc.requestCallback<_bnpl_paymentstate_v1_CompleteReply__Output>): grpc.ClientUnaryCall;
  reportDispute(argument: _bnpl_paymentstate_v1_DisputeReport, callback: grpc.requestCallback<_bnpl_paymentstate_v1_CompleteReply__Output>): grpc.ClientUnaryCall;
  
}

export interface PaymentStateHandlers extends grpc.UntypedServiceImplementation {
  Begin: grpc.handleUnaryCall<_bnpl_paymentstate_v1_BeginRequest__Output, _bnpl_paymentstate_v1_BeginReply>;
  
  Complete: grpc.handleUnaryCall<_bnpl_paymentstate_v1_CompleteRequest__Output, _bnpl_paymentstate_v1_CompleteReply>;
  
  ReportDispute: grpc.handleUnaryCall<_bnpl_paymentstate_v1_DisputeReport__Output, _bnpl_paymentstate_v1_CompleteReply>;
  
}

export interface PaymentStateDefinition extends grpc.ServiceDefinition {
  Begin: MethodDefinition<_bnpl_paymentstate_v1_BeginRequest, _bnpl_paymentstate_v1_BeginReply, _bnpl_paymentstate_v1_BeginRequest__Output, _bnpl_paymentstate_v1_BeginReply__Output>
  Complete: MethodDefinition<_bnpl_paymentstate_v1_CompleteRequest, _bnpl_paymentstate_v1_CompleteReply, _bnpl_paymentstate_v1_CompleteRequest__Output, _bnpl_paymentstate_v1_CompleteReply__Output>
  ReportDispute: MethodDefinition<_bnpl_paymentstate_v1_DisputeReport, _bnpl_paymentstate_v1_CompleteReply, _bnpl_paymentstate_v1_DisputeReport__Output, _bnpl_paymentstate_v1_CompleteReply__Output>
}
