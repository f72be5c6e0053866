// axytos's requests and answers as zod schemas, written from axytos's OpenAPI models (fixtures/openapi.json, transcribed
// from the generated client axytos/financial-services-api-sdk; fixtures/SOURCES.md names each model). Requests are the
// types the transformers build; answers are parsed with them (an answer that does not parse is an unknown outcome).
// Field names, required fields, enums and minimums are the models'; the lengths of strings are published nowhere.
import { z } from 'zod';

// ---- enums [OAS Axytos*Enums*] and decisions [SDK CheckDecisions]
export const Country = z.enum(['AT', 'BE', 'CH', 'DE', 'FR', 'IT', 'NL']);
export const Gender = z.enum(['M', 'F', 'D']);
export const PaymentTypeSecurity = z.enum(['S', 'U']);
export const RequestMode = z.enum(['SingleStep', 'TwoSteps']);
export const RiskTaker = z.enum(['None', 'Shop', 'CoveragePartner']);
export const PaymentState = z.enum(['Unpaid', 'PartiallyPaid', 'Paid', 'Overpaid']);
/** U: unsecured methods (invoice) approved; S: only secured methods; R: rejected. */
export const Decision = z.enum(['U', 'S', 'R']);

// ---- requests
/** AxytosCommonPublicAPIModelsCommonCompanyRequestModel. */
const Company = z.object({
  name: z.string().optional(),
  number: z.string().optional(),
  legalForm: z.string().optional(),
  uid: z.string().optional(),
  foundationDate: z.string().optional(),
});
/** AxytosCommonPublicAPIModelsCommonCustomerDataRequestModel: externalCustomerId is required. */
const PersonalData = z.object({
  externalCustomerId: z.string(),
  language: z.string().optional(),
  dateOfBirth: z.iso.datetime().optional(),
  gender: Gender.optional(),
  email: z.string().optional(),
  fixNetPhoneNumber: z.string().optional(),
  mobilePhoneNumber: z.string().optional(),
  company: Company.optional(),
});
const addressFields = {
  company: z.string().optional(),
  salutation: z.string().optional(),
  firstname: z.string().optional(),
  lastname: z.string().optional(),
  zipCode: z.string(),
  city: z.string(),
  region: z.string().optional(),
  country: Country,
  vatId: z.string().optional(),
  addressLine1: z.string().optional(),
  addressLine2: z.string().optional(),
  addressLine3: z.string().optional(),
  addressLine4: z.string().optional(),
};
/** AxytosCommonPublicAPIModelsCommonInvoiceAddress: zipCode, city, country and addressLine1 required. */
const InvoiceAddress = z.object({ ...addressFields, addressLine1: z.string() });
/** AxytosCommonPublicAPIModelsCommonDeliveryAddress: zipCode, city, country required. */
const DeliveryAddress = z.object(addressFields);
/** AxytosCommonPublicAPIModelsOrderBasketPosition: all but productCategory required. */
const OrderPosition = z.object({
  productId: z.string(),
  productName: z.string(),
  productCategory: z.string().optional(),
  quantity: z.number().int(),
  taxPercent: z.number(),
  netPricePerUnit: z.number(),
  grossPricePerUnit: z.number(),
  netPositionTotal: z.number(),
  grossPositionTotal: z.number(),
});
/** AxytosCommonPublicAPIModelsOrderBasket: netTotal >= 0.001, grossTotal >= 0.01. */
const OrderBasket = z.object({ netTotal: z.number().min(0.001), grossTotal: z.number().min(0.01), currency: z.string(), positions: z.array(OrderPosition) });

/**
 * AxytosCommonPublicAPIModelsPaymentControlOrderPrecheckResponse: the precheck's answer. Loose: the confirm echoes it
 * as received (its transactionMetadata is signed), fields we do not know included.
 */
export const PrecheckResponse = z.looseObject({
  approvedPaymentTypeSecurities: z.array(PaymentTypeSecurity),
  processId: z.string(),
  decision: Decision,
  transactionMetadata: z.looseObject({
    transactionId: z.string(),
    transactionInfoSignature: z.string(),
    transactionTimestamp: z.string(),
    transactionExpirationTimestamp: z.string(),
  }),
  step: z.string().nullish(),
  riskTaker: RiskTaker.nullish(),
});
export type PrecheckResponse = z.infer<typeof PrecheckResponse>;

/** AxytosCommonPublicAPIModelsOrderOrderPreCheckRequest: POST /Payments/invoice/order/precheck. */
export const PrecheckRequest = z.object({
  requestMode: RequestMode,
  customReference: z.string().optional(),
  personalData: PersonalData,
  proofOfInterest: z.string().optional(),
  selectedPaymentType: z.string().optional(),
  paymentTypeSecurity: PaymentTypeSecurity.optional(),
  invoiceAddress: InvoiceAddress,
  deliveryAddress: DeliveryAddress.optional(),
  basket: OrderBasket,
});
export type PrecheckRequest = z.infer<typeof PrecheckRequest>;

/** AxytosCommonPublicAPIModelsOrderOrderCreateRequest: POST /Payments/invoice/order/confirm, the precheck's answer echoed. */
export const ConfirmRequest = z.object({
  customReference: z.string().optional(),
  externalOrderId: z.string(),
  date: z.iso.datetime().optional(),
  personalData: PersonalData,
  invoiceAddress: InvoiceAddress,
  deliveryAddress: DeliveryAddress.optional(),
  basket: OrderBasket,
  orderPrecheckResponse: PrecheckResponse,
});
export type ConfirmRequest = z.infer<typeof ConfirmRequest>;

/** AxytosApiModelsReportShippingModel: POST /Payments/invoice/order/reportshipping. */
export const ReportShippingRequest = z.object({
  externalOrderId: z.string(),
  externalSubOrderId: z.string().optional(),
  basketPositions: z.array(z.object({ productId: z.string(), quantity: z.number().int() })),
  shippingDate: z.iso.datetime().optional(),
});
export type ReportShippingRequest = z.infer<typeof ReportShippingRequest>;

const TaxGroup = z.object({ taxPercent: z.number().min(0), valueToTax: z.number().min(0), total: z.number().min(0) });
/** AxytosApiModelsInvoiceCreationModel: POST /Payments/invoice/order/createInvoice. externalInvoiceNumber is the shop's. */
export const InvoiceRequest = z.object({
  externalOrderId: z.string(),
  externalInvoiceNumber: z.string().optional(),
  externalInvoiceDisplayName: z.string().optional(),
  externalSubOrderId: z.string().optional(),
  dueDateOffsetDays: z.number().int().optional(),
  basket: z.object({
    grossTotal: z.number(),
    netTotal: z.number(),
    taxGroups: z.array(TaxGroup),
    positions: z.array(
      z.object({
        productId: z.string(),
        quantity: z.number().int(),
        taxPercent: z.number(),
        netPricePerUnit: z.number(),
        grossPricePerUnit: z.number(),
        netPositionTotal: z.number(),
        grossPositionTotal: z.number(),
      }),
    ),
  }),
});
export type InvoiceRequest = z.infer<typeof InvoiceRequest>;

/** AxytosApiModelsRefundRequestModel: POST /Payments/invoice/order/refund. originalInvoiceNumber is the shop's invoice number. */
export const RefundRequest = z.object({
  externalOrderId: z.string(),
  refundDate: z.iso.datetime().optional(),
  originalInvoiceNumber: z.string(),
  externalSubOrderId: z.string().optional(),
  basket: z.object({
    grossTotal: z.number().min(0.01),
    netTotal: z.number().min(0.001),
    taxGroups: z.array(TaxGroup),
    positions: z.array(z.object({ productId: z.string(), netRefundTotal: z.number().min(0), grossRefundTotal: z.number().min(0) })),
  }),
});
export type RefundRequest = z.infer<typeof RefundRequest>;

// ---- answers
/** AxytosApiModelsInvoiceCreationResponse: axytos's own number of the invoice. */
export const InvoiceResponse = z.object({ invoiceNumber: z.string().min(1) });
/** AxytosApiModelsPaymentStateResponseModel (the field may be absent; the SDK then reports "PaymentState not found"). */
export const PaymentStateResponse = z.object({ paymentState: PaymentState });
/** AxytosApiModelsPaymentResponseModel: GET /Payment/{id}, what axytos's payment push names. */
export const PaymentResponse = z.object({
  id: z.string(),
  date: z.string().nullish(),
  invoiceNumber: z.string().nullish(),
  externalOrderId: z.string().nullish(),
  amount: z.number().nullish(),
  currency: z.string().nullish(),
});
/** MicrosoftAspNetCoreMvcProblemDetails (400, 401, 403), with ASP.NET's validation `errors` where a field was refused. */
export const ProblemDetails = z.object({
  type: z.string().nullish(),
  title: z.string().nullish(),
  status: z.number().int().nullish(),
  detail: z.string().nullish(),
  instance: z.string().nullish(),
  errors: z.record(z.string(), z.array(z.string())).optional(),
});
/** The other error body the WooCommerce plugin reads. */
export const MessageError = z.object({ message: z.string() });
