import type * as grpc from '@grpc/grpc-js';
import type { EnumTypeDefinition, MessageTypeDefinition } from '@grpc/proto-loader';

import type { Authentication as _bnpl_paymentstate_v1_Authentication, Authentication__Output as _bnpl_paymentstate_v1_Authentication__Output } from './bnpl/paymentstate/v1/Authentication.ts';
import type { BeginReply as _bnpl_paymentstate_v1_BeginReply, BeginReply__Output as _bnpl_paymentstate_v1_BeginReply__Output } from './bnpl/paymentstate/v1/BeginReply.ts';
import type { BeginRequest as _bnpl_paymentstate_v1_BeginRequest, BeginRequest__Output as _bnpl_paymentstate_v1_BeginRequest__Output } from './bnpl/paymentstate/v1/BeginRequest.ts';
import type { CompleteReply as _bnpl_paymentstate_v1_CompleteReply, CompleteReply__Output as _bnpl_paymentstate_v1_CompleteReply__Output } from './bnpl/paymentstate/v1/CompleteReply.ts';
import type { CompleteRequest as _bnpl_paymentstate_v1_CompleteRequest, CompleteRequest__Output as _bnpl_paymentstate_v1_CompleteRequest__Output } from './bnpl/paymentstate/v1/CompleteRequest.ts';
import type { MerchantPolicy as _bnpl_paymentstate_v1_MerchantPolicy, MerchantPolicy__Output as _bnpl_paymentstate_v1_MerchantPolicy__Output } from './bnpl/paymentstate/v1/MerchantPolicy.ts';
import type { Outcome as _bnpl_paymentstate_v1_Outcome, Outcome__Output as _bnpl_paymentstate_v1_Outcome__Output } from './bnpl/paymentstate/v1/Outcome.ts';
import type { PaymentStateClient as _bnpl_paymentstate_v1_PaymentStateClient, PaymentStateDefinition as _bnpl_paymentstate_v1_PaymentStateDefinition } from './bnpl/paymentstate/v1/PaymentState.ts';
import type { RoutedConnector as _bnpl_paymentstate_v1_RoutedConnector, RoutedConnector__Output as _bnpl_paymentstate_v1_RoutedConnector__Output } from './bnpl/paymentstate/v1/RoutedConnector.ts';

type SubtypeConstructor<Constructor extends new (...args: any) => any, Subtype> = {
  new(...args: ConstructorParameters<Constructor>): Subtype;
};

export interface ProtoGrpcType {
  bnpl: {
    paymentstate: {
      v1: {
        Action: EnumTypeDefinition
        Authentication: MessageTypeDefinition<_bnpl_paymentstate_v1_Authentication, _bnpl_paymentstate_v1_Authentication__Output>
        BeginReply: MessageTypeDefinition<_bnpl_paymentstate_v1_BeginReply, _bnpl_paymentstate_v1_BeginReply__Output>
        BeginRequest: MessageTypeDefinition<_bnpl_paymentstate_v1_BeginRequest, _bnpl_paymentstate_v1_BeginRequest__Output>
        CompleteReply: MessageTypeDefinition<_bnpl_paymentstate_v1_CompleteReply, _bnpl_paymentstate_v1_CompleteReply__Output>
        CompleteRequest: MessageTypeDefinition<_bnpl_paymentstate_v1_CompleteRequest, _bnpl_paymentstate_v1_CompleteRequest__Output>
        MerchantPolicy: MessageTypeDefinition<_bnpl_paymentstate_v1_MerchantPolicy, _bnpl_paymentstate_v1_MerchantPolicy__Output>
        Outcome: MessageTypeDefinition<_bnpl_paymentstate_v1_Outcome, _bnpl_paymentstate_v1_Outcome__Output>
        PaymentState: SubtypeConstructor<typeof grpc.Client, _bnpl_paymentstate_v1_PaymentStateClient> & { service: _bnpl_paymentstate_v1_PaymentStateDefinition }
        RoutedConnector: MessageTypeDefinition<_bnpl_paymentstate_v1_RoutedConnector, _bnpl_paymentstate_v1_RoutedConnector__Output>
      }
    }
  }
}

