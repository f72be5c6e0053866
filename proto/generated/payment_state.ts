import type * as grpc from '@grpc/grpc-js';
import type { EnumTypeDefinition, MessageTypeDefinition } from '@grpc/proto-loader';

import type { Address as _bnpl_paymentstate_v1_Address, Address__Output as _bnpl_paymentstate_v1_Address__Output } from './bnpl/paymentstate/v1/Address.ts';
import type { AddressDetails as _bnpl_paymentstate_v1_AddressDetails, AddressDetails__Output as _bnpl_paymentstate_v1_AddressDetails__Output } from './bnpl/paymentstate/v1/AddressDetails.ts';
import type { AuthenticateParams as _bnpl_paymentstate_v1_AuthenticateParams, AuthenticateParams__Output as _bnpl_paymentstate_v1_AuthenticateParams__Output } from './bnpl/paymentstate/v1/AuthenticateParams.ts';
import type { Authentication as _bnpl_paymentstate_v1_Authentication, Authentication__Output as _bnpl_paymentstate_v1_Authentication__Output } from './bnpl/paymentstate/v1/Authentication.ts';
import type { BeginReply as _bnpl_paymentstate_v1_BeginReply, BeginReply__Output as _bnpl_paymentstate_v1_BeginReply__Output } from './bnpl/paymentstate/v1/BeginReply.ts';
import type { BeginRequest as _bnpl_paymentstate_v1_BeginRequest, BeginRequest__Output as _bnpl_paymentstate_v1_BeginRequest__Output } from './bnpl/paymentstate/v1/BeginRequest.ts';
import type { BrowserInfo as _bnpl_paymentstate_v1_BrowserInfo, BrowserInfo__Output as _bnpl_paymentstate_v1_BrowserInfo__Output } from './bnpl/paymentstate/v1/BrowserInfo.ts';
import type { CancelParams as _bnpl_paymentstate_v1_CancelParams, CancelParams__Output as _bnpl_paymentstate_v1_CancelParams__Output } from './bnpl/paymentstate/v1/CancelParams.ts';
import type { CaptureDetails as _bnpl_paymentstate_v1_CaptureDetails, CaptureDetails__Output as _bnpl_paymentstate_v1_CaptureDetails__Output } from './bnpl/paymentstate/v1/CaptureDetails.ts';
import type { CaptureMetadata as _bnpl_paymentstate_v1_CaptureMetadata, CaptureMetadata__Output as _bnpl_paymentstate_v1_CaptureMetadata__Output } from './bnpl/paymentstate/v1/CaptureMetadata.ts';
import type { CaptureParams as _bnpl_paymentstate_v1_CaptureParams, CaptureParams__Output as _bnpl_paymentstate_v1_CaptureParams__Output } from './bnpl/paymentstate/v1/CaptureParams.ts';
import type { CompleteReply as _bnpl_paymentstate_v1_CompleteReply, CompleteReply__Output as _bnpl_paymentstate_v1_CompleteReply__Output } from './bnpl/paymentstate/v1/CompleteReply.ts';
import type { CompleteRequest as _bnpl_paymentstate_v1_CompleteRequest, CompleteRequest__Output as _bnpl_paymentstate_v1_CompleteRequest__Output } from './bnpl/paymentstate/v1/CompleteRequest.ts';
import type { ConfirmParams as _bnpl_paymentstate_v1_ConfirmParams, ConfirmParams__Output as _bnpl_paymentstate_v1_ConfirmParams__Output } from './bnpl/paymentstate/v1/ConfirmParams.ts';
import type { ConnectorJob as _bnpl_paymentstate_v1_ConnectorJob, ConnectorJob__Output as _bnpl_paymentstate_v1_ConnectorJob__Output } from './bnpl/paymentstate/v1/ConnectorJob.ts';
import type { CustomerAcceptance as _bnpl_paymentstate_v1_CustomerAcceptance, CustomerAcceptance__Output as _bnpl_paymentstate_v1_CustomerAcceptance__Output } from './bnpl/paymentstate/v1/CustomerAcceptance.ts';
import type { CustomerDetails as _bnpl_paymentstate_v1_CustomerDetails, CustomerDetails__Output as _bnpl_paymentstate_v1_CustomerDetails__Output } from './bnpl/paymentstate/v1/CustomerDetails.ts';
import type { CustomerPaymentMethod as _bnpl_paymentstate_v1_CustomerPaymentMethod, CustomerPaymentMethod__Output as _bnpl_paymentstate_v1_CustomerPaymentMethod__Output } from './bnpl/paymentstate/v1/CustomerPaymentMethod.ts';
import type { DeviceFingerprint as _bnpl_paymentstate_v1_DeviceFingerprint, DeviceFingerprint__Output as _bnpl_paymentstate_v1_DeviceFingerprint__Output } from './bnpl/paymentstate/v1/DeviceFingerprint.ts';
import type { DisputeReport as _bnpl_paymentstate_v1_DisputeReport, DisputeReport__Output as _bnpl_paymentstate_v1_DisputeReport__Output } from './bnpl/paymentstate/v1/DisputeReport.ts';
import type { Empty as _bnpl_paymentstate_v1_Empty, Empty__Output as _bnpl_paymentstate_v1_Empty__Output } from './bnpl/paymentstate/v1/Empty.ts';
import type { IncrementalAuthorizationParams as _bnpl_paymentstate_v1_IncrementalAuthorizationParams, IncrementalAuthorizationParams__Output as _bnpl_paymentstate_v1_IncrementalAuthorizationParams__Output } from './bnpl/paymentstate/v1/IncrementalAuthorizationParams.ts';
import type { InvoiceData as _bnpl_paymentstate_v1_InvoiceData, InvoiceData__Output as _bnpl_paymentstate_v1_InvoiceData__Output } from './bnpl/paymentstate/v1/InvoiceData.ts';
import type { JobAuthentication as _bnpl_paymentstate_v1_JobAuthentication, JobAuthentication__Output as _bnpl_paymentstate_v1_JobAuthentication__Output } from './bnpl/paymentstate/v1/JobAuthentication.ts';
import type { JobCustomer as _bnpl_paymentstate_v1_JobCustomer, JobCustomer__Output as _bnpl_paymentstate_v1_JobCustomer__Output } from './bnpl/paymentstate/v1/JobCustomer.ts';
import type { JobMandate as _bnpl_paymentstate_v1_JobMandate, JobMandate__Output as _bnpl_paymentstate_v1_JobMandate__Output } from './bnpl/paymentstate/v1/JobMandate.ts';
import type { MandateData as _bnpl_paymentstate_v1_MandateData, MandateData__Output as _bnpl_paymentstate_v1_MandateData__Output } from './bnpl/paymentstate/v1/MandateData.ts';
import type { MandateResource as _bnpl_paymentstate_v1_MandateResource, MandateResource__Output as _bnpl_paymentstate_v1_MandateResource__Output } from './bnpl/paymentstate/v1/MandateResource.ts';
import type { MandateType as _bnpl_paymentstate_v1_MandateType, MandateType__Output as _bnpl_paymentstate_v1_MandateType__Output } from './bnpl/paymentstate/v1/MandateType.ts';
import type { MerchantPolicy as _bnpl_paymentstate_v1_MerchantPolicy, MerchantPolicy__Output as _bnpl_paymentstate_v1_MerchantPolicy__Output } from './bnpl/paymentstate/v1/MerchantPolicy.ts';
import type { OnlineAcceptance as _bnpl_paymentstate_v1_OnlineAcceptance, OnlineAcceptance__Output as _bnpl_paymentstate_v1_OnlineAcceptance__Output } from './bnpl/paymentstate/v1/OnlineAcceptance.ts';
import type { OperationTiming as _bnpl_paymentstate_v1_OperationTiming, OperationTiming__Output as _bnpl_paymentstate_v1_OperationTiming__Output } from './bnpl/paymentstate/v1/OperationTiming.ts';
import type { OrderLine as _bnpl_paymentstate_v1_OrderLine, OrderLine__Output as _bnpl_paymentstate_v1_OrderLine__Output } from './bnpl/paymentstate/v1/OrderLine.ts';
import type { OrderLines as _bnpl_paymentstate_v1_OrderLines, OrderLines__Output as _bnpl_paymentstate_v1_OrderLines__Output } from './bnpl/paymentstate/v1/OrderLines.ts';
import type { Outcome as _bnpl_paymentstate_v1_Outcome, Outcome__Output as _bnpl_paymentstate_v1_Outcome__Output } from './bnpl/paymentstate/v1/Outcome.ts';
import type { PayLaterData as _bnpl_paymentstate_v1_PayLaterData, PayLaterData__Output as _bnpl_paymentstate_v1_PayLaterData__Output } from './bnpl/paymentstate/v1/PayLaterData.ts';
import type { PaymentMethodData as _bnpl_paymentstate_v1_PaymentMethodData, PaymentMethodData__Output as _bnpl_paymentstate_v1_PaymentMethodData__Output } from './bnpl/paymentstate/v1/PaymentMethodData.ts';
import type { PaymentStateClient as _bnpl_paymentstate_v1_PaymentStateClient, PaymentStateDefinition as _bnpl_paymentstate_v1_PaymentStateDefinition } from './bnpl/paymentstate/v1/PaymentState.ts';
import type { Phone as _bnpl_paymentstate_v1_Phone, Phone__Output as _bnpl_paymentstate_v1_Phone__Output } from './bnpl/paymentstate/v1/Phone.ts';
import type { ProviderOrder as _bnpl_paymentstate_v1_ProviderOrder, ProviderOrder__Output as _bnpl_paymentstate_v1_ProviderOrder__Output } from './bnpl/paymentstate/v1/ProviderOrder.ts';
import type { RefundParams as _bnpl_paymentstate_v1_RefundParams, RefundParams__Output as _bnpl_paymentstate_v1_RefundParams__Output } from './bnpl/paymentstate/v1/RefundParams.ts';
import type { ReviewDecisionParams as _bnpl_paymentstate_v1_ReviewDecisionParams, ReviewDecisionParams__Output as _bnpl_paymentstate_v1_ReviewDecisionParams__Output } from './bnpl/paymentstate/v1/ReviewDecisionParams.ts';
import type { RoutedConnector as _bnpl_paymentstate_v1_RoutedConnector, RoutedConnector__Output as _bnpl_paymentstate_v1_RoutedConnector__Output } from './bnpl/paymentstate/v1/RoutedConnector.ts';
import type { Routing as _bnpl_paymentstate_v1_Routing, Routing__Output as _bnpl_paymentstate_v1_Routing__Output } from './bnpl/paymentstate/v1/Routing.ts';
import type { RoutingAccount as _bnpl_paymentstate_v1_RoutingAccount, RoutingAccount__Output as _bnpl_paymentstate_v1_RoutingAccount__Output } from './bnpl/paymentstate/v1/RoutingAccount.ts';
import type { RoutingChoice as _bnpl_paymentstate_v1_RoutingChoice, RoutingChoice__Output as _bnpl_paymentstate_v1_RoutingChoice__Output } from './bnpl/paymentstate/v1/RoutingChoice.ts';
import type { RoutingChoices as _bnpl_paymentstate_v1_RoutingChoices, RoutingChoices__Output as _bnpl_paymentstate_v1_RoutingChoices__Output } from './bnpl/paymentstate/v1/RoutingChoices.ts';
import type { RoutingPriority as _bnpl_paymentstate_v1_RoutingPriority, RoutingPriority__Output as _bnpl_paymentstate_v1_RoutingPriority__Output } from './bnpl/paymentstate/v1/RoutingPriority.ts';
import type { RoutingSingle as _bnpl_paymentstate_v1_RoutingSingle, RoutingSingle__Output as _bnpl_paymentstate_v1_RoutingSingle__Output } from './bnpl/paymentstate/v1/RoutingSingle.ts';
import type { RoutingVolumeSplit as _bnpl_paymentstate_v1_RoutingVolumeSplit, RoutingVolumeSplit__Output as _bnpl_paymentstate_v1_RoutingVolumeSplit__Output } from './bnpl/paymentstate/v1/RoutingVolumeSplit.ts';
import type { SdkInformation as _bnpl_paymentstate_v1_SdkInformation, SdkInformation__Output as _bnpl_paymentstate_v1_SdkInformation__Output } from './bnpl/paymentstate/v1/SdkInformation.ts';
import type { SingleUseMandate as _bnpl_paymentstate_v1_SingleUseMandate, SingleUseMandate__Output as _bnpl_paymentstate_v1_SingleUseMandate__Output } from './bnpl/paymentstate/v1/SingleUseMandate.ts';
import type { SplitRefund as _bnpl_paymentstate_v1_SplitRefund, SplitRefund__Output as _bnpl_paymentstate_v1_SplitRefund__Output } from './bnpl/paymentstate/v1/SplitRefund.ts';
import type { SplitRefunds as _bnpl_paymentstate_v1_SplitRefunds, SplitRefunds__Output as _bnpl_paymentstate_v1_SplitRefunds__Output } from './bnpl/paymentstate/v1/SplitRefunds.ts';
import type { StatementDescriptor as _bnpl_paymentstate_v1_StatementDescriptor, StatementDescriptor__Output as _bnpl_paymentstate_v1_StatementDescriptor__Output } from './bnpl/paymentstate/v1/StatementDescriptor.ts';
import type { StringMap as _bnpl_paymentstate_v1_StringMap, StringMap__Output as _bnpl_paymentstate_v1_StringMap__Output } from './bnpl/paymentstate/v1/StringMap.ts';
import type { Strings as _bnpl_paymentstate_v1_Strings, Strings__Output as _bnpl_paymentstate_v1_Strings__Output } from './bnpl/paymentstate/v1/Strings.ts';
import type { Structs as _bnpl_paymentstate_v1_Structs, Structs__Output as _bnpl_paymentstate_v1_Structs__Output } from './bnpl/paymentstate/v1/Structs.ts';
import type { SurchargeDetails as _bnpl_paymentstate_v1_SurchargeDetails, SurchargeDetails__Output as _bnpl_paymentstate_v1_SurchargeDetails__Output } from './bnpl/paymentstate/v1/SurchargeDetails.ts';
import type { UpdateParams as _bnpl_paymentstate_v1_UpdateParams, UpdateParams__Output as _bnpl_paymentstate_v1_UpdateParams__Output } from './bnpl/paymentstate/v1/UpdateParams.ts';
import type { UpdateRefundParams as _bnpl_paymentstate_v1_UpdateRefundParams, UpdateRefundParams__Output as _bnpl_paymentstate_v1_UpdateRefundParams__Output } from './bnpl/paymentstate/v1/UpdateRefundParams.ts';
import type { Values as _bnpl_paymentstate_v1_Values, Values__Output as _bnpl_paymentstate_v1_Values__Output } from './bnpl/paymentstate/v1/Values.ts';
import type { VolumeSplit as _bnpl_paymentstate_v1_VolumeSplit, VolumeSplit__Output as _bnpl_paymentstate_v1_VolumeSplit__Output } from './bnpl/paymentstate/v1/VolumeSplit.ts';
import type { VolumeSplits as _bnpl_paymentstate_v1_VolumeSplits, VolumeSplits__Output as _bnpl_paymentstate_v1_VolumeSplits__Output } from './bnpl/paymentstate/v1/VolumeSplits.ts';
import type { ListValue as _google_protobuf_ListValue, ListValue__Output as _google_protobuf_ListValue__Output } from './google/protobuf/ListValue.ts';
import type { Struct as _google_protobuf_Struct, Struct__Output as _google_protobuf_Struct__Output } from './google/protobuf/Struct.ts';
import type { Value as _google_protobuf_Value, Value__Output as _google_protobuf_Value__Output } from './google/protobuf/Value.ts';

type SubtypeConstructor<Constructor extends new (...args: any) => any, Subtype> = {
  new(...args: ConstructorParameters<Constructor>): Subtype;
};

export interface ProtoGrpcType {
  bnpl: {
    paymentstate: {
      v1: {
        Action: EnumTypeDefinition
        Address: MessageTypeDefinition<_bnpl_paymentstate_v1_Address, _bnpl_paymentstate_v1_Address__Output>
        AddressDetails: MessageTypeDefinition<_bnpl_paymentstate_v1_AddressDetails, _bnpl_paymentstate_v1_AddressDetails__Output>
        AuthenticateParams: MessageTypeDefinition<_bnpl_paymentstate_v1_AuthenticateParams, _bnpl_paymentstate_v1_AuthenticateParams__Output>
        Authentication: MessageTypeDefinition<_bnpl_paymentstate_v1_Authentication, _bnpl_paymentstate_v1_Authentication__Output>
        BeginReply: MessageTypeDefinition<_bnpl_paymentstate_v1_BeginReply, _bnpl_paymentstate_v1_BeginReply__Output>
        BeginRequest: MessageTypeDefinition<_bnpl_paymentstate_v1_BeginRequest, _bnpl_paymentstate_v1_BeginRequest__Output>
        BrowserInfo: MessageTypeDefinition<_bnpl_paymentstate_v1_BrowserInfo, _bnpl_paymentstate_v1_BrowserInfo__Output>
        CancelParams: MessageTypeDefinition<_bnpl_paymentstate_v1_CancelParams, _bnpl_paymentstate_v1_CancelParams__Output>
        CaptureDetails: MessageTypeDefinition<_bnpl_paymentstate_v1_CaptureDetails, _bnpl_paymentstate_v1_CaptureDetails__Output>
        CaptureMetadata: MessageTypeDefinition<_bnpl_paymentstate_v1_CaptureMetadata, _bnpl_paymentstate_v1_CaptureMetadata__Output>
        CaptureParams: MessageTypeDefinition<_bnpl_paymentstate_v1_CaptureParams, _bnpl_paymentstate_v1_CaptureParams__Output>
        CompleteReply: MessageTypeDefinition<_bnpl_paymentstate_v1_CompleteReply, _bnpl_paymentstate_v1_CompleteReply__Output>
        CompleteRequest: MessageTypeDefinition<_bnpl_paymentstate_v1_CompleteRequest, _bnpl_paymentstate_v1_CompleteRequest__Output>
        ConfirmParams: MessageTypeDefinition<_bnpl_paymentstate_v1_ConfirmParams, _bnpl_paymentstate_v1_ConfirmParams__Output>
        ConnectorJob: MessageTypeDefinition<_bnpl_paymentstate_v1_ConnectorJob, _bnpl_paymentstate_v1_ConnectorJob__Output>
        CustomerAcceptance: MessageTypeDefinition<_bnpl_paymentstate_v1_CustomerAcceptance, _bnpl_paymentstate_v1_CustomerAcceptance__Output>
        CustomerDetails: MessageTypeDefinition<_bnpl_paymentstate_v1_CustomerDetails, _bnpl_paymentstate_v1_CustomerDetails__Output>
        CustomerPaymentMethod: MessageTypeDefinition<_bnpl_paymentstate_v1_CustomerPaymentMethod, _bnpl_paymentstate_v1_CustomerPaymentMethod__Output>
        DeviceFingerprint: MessageTypeDefinition<_bnpl_paymentstate_v1_DeviceFingerprint, _bnpl_paymentstate_v1_DeviceFingerprint__Output>
        DisputeReport: MessageTypeDefinition<_bnpl_paymentstate_v1_DisputeReport, _bnpl_paymentstate_v1_DisputeReport__Output>
        Empty: MessageTypeDefinition<_bnpl_paymentstate_v1_Empty, _bnpl_paymentstate_v1_Empty__Output>
        IncrementalAuthorizationParams: MessageTypeDefinition<_bnpl_paymentstate_v1_IncrementalAuthorizationParams, _bnpl_paymentstate_v1_IncrementalAuthorizationParams__Output>
        InvoiceData: MessageTypeDefinition<_bnpl_paymentstate_v1_InvoiceData, _bnpl_paymentstate_v1_InvoiceData__Output>
        JobAuthentication: MessageTypeDefinition<_bnpl_paymentstate_v1_JobAuthentication, _bnpl_paymentstate_v1_JobAuthentication__Output>
        JobCustomer: MessageTypeDefinition<_bnpl_paymentstate_v1_JobCustomer, _bnpl_paymentstate_v1_JobCustomer__Output>
        JobMandate: MessageTypeDefinition<_bnpl_paymentstate_v1_JobMandate, _bnpl_paymentstate_v1_JobMandate__Output>
        MandateData: MessageTypeDefinition<_bnpl_paymentstate_v1_MandateData, _bnpl_paymentstate_v1_MandateData__Output>
        MandateResource: MessageTypeDefinition<_bnpl_paymentstate_v1_MandateResource, _bnpl_paymentstate_v1_MandateResource__Output>
        MandateType: MessageTypeDefinition<_bnpl_paymentstate_v1_MandateType, _bnpl_paymentstate_v1_MandateType__Output>
        MerchantPolicy: MessageTypeDefinition<_bnpl_paymentstate_v1_MerchantPolicy, _bnpl_paymentstate_v1_MerchantPolicy__Output>
        OnlineAcceptance: MessageTypeDefinition<_bnpl_paymentstate_v1_OnlineAcceptance, _bnpl_paymentstate_v1_OnlineAcceptance__Output>
        OperationTiming: MessageTypeDefinition<_bnpl_paymentstate_v1_OperationTiming, _bnpl_paymentstate_v1_OperationTiming__Output>
        OrderLine: MessageTypeDefinition<_bnpl_paymentstate_v1_OrderLine, _bnpl_paymentstate_v1_OrderLine__Output>
        OrderLines: MessageTypeDefinition<_bnpl_paymentstate_v1_OrderLines, _bnpl_paymentstate_v1_OrderLines__Output>
        Outcome: MessageTypeDefinition<_bnpl_paymentstate_v1_Outcome, _bnpl_paymentstate_v1_Outcome__Output>
        PayLaterData: MessageTypeDefinition<_bnpl_paymentstate_v1_PayLaterData, _bnpl_paymentstate_v1_PayLaterData__Output>
        PaymentMethodData: MessageTypeDefinition<_bnpl_paymentstate_v1_PaymentMethodData, _bnpl_paymentstate_v1_PaymentMethodData__Output>
        PaymentState: SubtypeConstructor<typeof grpc.Client, _bnpl_paymentstate_v1_PaymentStateClient> & { service: _bnpl_paymentstate_v1_PaymentStateDefinition }
        Phone: MessageTypeDefinition<_bnpl_paymentstate_v1_Phone, _bnpl_paymentstate_v1_Phone__Output>
        ProviderOrder: MessageTypeDefinition<_bnpl_paymentstate_v1_ProviderOrder, _bnpl_paymentstate_v1_ProviderOrder__Output>
        RefundParams: MessageTypeDefinition<_bnpl_paymentstate_v1_RefundParams, _bnpl_paymentstate_v1_RefundParams__Output>
        ReviewDecisionParams: MessageTypeDefinition<_bnpl_paymentstate_v1_ReviewDecisionParams, _bnpl_paymentstate_v1_ReviewDecisionParams__Output>
        RoutedConnector: MessageTypeDefinition<_bnpl_paymentstate_v1_RoutedConnector, _bnpl_paymentstate_v1_RoutedConnector__Output>
        Routing: MessageTypeDefinition<_bnpl_paymentstate_v1_Routing, _bnpl_paymentstate_v1_Routing__Output>
        RoutingAccount: MessageTypeDefinition<_bnpl_paymentstate_v1_RoutingAccount, _bnpl_paymentstate_v1_RoutingAccount__Output>
        RoutingChoice: MessageTypeDefinition<_bnpl_paymentstate_v1_RoutingChoice, _bnpl_paymentstate_v1_RoutingChoice__Output>
        RoutingChoices: MessageTypeDefinition<_bnpl_paymentstate_v1_RoutingChoices, _bnpl_paymentstate_v1_RoutingChoices__Output>
        RoutingPriority: MessageTypeDefinition<_bnpl_paymentstate_v1_RoutingPriority, _bnpl_paymentstate_v1_RoutingPriority__Output>
        RoutingSingle: MessageTypeDefinition<_bnpl_paymentstate_v1_RoutingSingle, _bnpl_paymentstate_v1_RoutingSingle__Output>
        RoutingVolumeSplit: MessageTypeDefinition<_bnpl_paymentstate_v1_RoutingVolumeSplit, _bnpl_paymentstate_v1_RoutingVolumeSplit__Output>
        SdkInformation: MessageTypeDefinition<_bnpl_paymentstate_v1_SdkInformation, _bnpl_paymentstate_v1_SdkInformation__Output>
        SingleUseMandate: MessageTypeDefinition<_bnpl_paymentstate_v1_SingleUseMandate, _bnpl_paymentstate_v1_SingleUseMandate__Output>
        SplitRefund: MessageTypeDefinition<_bnpl_paymentstate_v1_SplitRefund, _bnpl_paymentstate_v1_SplitRefund__Output>
        SplitRefunds: MessageTypeDefinition<_bnpl_paymentstate_v1_SplitRefunds, _bnpl_paymentstate_v1_SplitRefunds__Output>
        StatementDescriptor: MessageTypeDefinition<_bnpl_paymentstate_v1_StatementDescriptor, _bnpl_paymentstate_v1_StatementDescriptor__Output>
        StringMap: MessageTypeDefinition<_bnpl_paymentstate_v1_StringMap, _bnpl_paymentstate_v1_StringMap__Output>
        Strings: MessageTypeDefinition<_bnpl_paymentstate_v1_Strings, _bnpl_paymentstate_v1_Strings__Output>
        Structs: MessageTypeDefinition<_bnpl_paymentstate_v1_Structs, _bnpl_paymentstate_v1_Structs__Output>
        SurchargeDetails: MessageTypeDefinition<_bnpl_paymentstate_v1_SurchargeDetails, _bnpl_paymentstate_v1_SurchargeDetails__Output>
        UpdateParams: MessageTypeDefinition<_bnpl_paymentstate_v1_UpdateParams, _bnpl_paymentstate_v1_UpdateParams__Output>
        UpdateRefundParams: MessageTypeDefinition<_bnpl_paymentstate_v1_UpdateRefundParams, _bnpl_paymentstate_v1_UpdateRefundParams__Output>
        Values: MessageTypeDefinition<_bnpl_paymentstate_v1_Values, _bnpl_paymentstate_v1_Values__Output>
        VolumeSplit: MessageTypeDefinition<_bnpl_paymentstate_v1_VolumeSplit, _bnpl_paymentstate_v1_VolumeSplit__Output>
        VolumeSplits: MessageTypeDefinition<_bnpl_paymentstate_v1_VolumeSplits, _bnpl_paymentstate_v1_VolumeSplits__Output>
      }
    }
  }
  google: {
    protobuf: {
      ListValue: MessageTypeDefinition<_google_protobuf_ListValue, _google_protobuf_ListValue__Output>
      NullValue: EnumTypeDefinition
      Struct: MessageTypeDefinition<_google_protobuf_Struct, _google_protobuf_Struct__Output>
      Value: MessageTypeDefinition<_google_protobuf_Value, _google_protobuf_Value__Output>
    }
  }
}

