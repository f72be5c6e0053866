// Riverty's requests and answers (eCommerce API v3), written from Riverty's published examples and schemas
// (fixtures/published/, fixtures/SOURCES.md; README.md's Sources table names the page of every field). Answers are
// parsed with these; an answer that does not parse is an unknown outcome (the worker syncs later, never guesses).
// Fields we do not read are let through (Riverty adds fields; we only name what we use).
import { z } from 'zod';
import { states } from '../kit/outcome.ts';

// ---- Requests (what we send; the lengths and enums are also in fixtures/rules.json, which the imitation checks) ----

export const ITEM_TYPES = ['PhysicalArticle', 'DigitalArticle', 'GiftCard', 'Discount', 'ShippingFee', 'Surcharge', 'Info', 'Subscription'] as const;
export const PAYMENT_TYPES = ['Invoice', 'Installment', 'Account', 'Consolidatedinvoice', 'PayinX'] as const;
/** docs.riverty.com get_order / authorize_payment: conversationLanguage (SV and DA, not SE and DK). */
export const CONVERSATION_LANGUAGES = ['NO', 'SV', 'FI', 'DA', 'EN', 'DE', 'NL', 'FR'] as const;
export const COUNTRIES = ['NO', 'SE', 'FI', 'DK', 'DE', 'AT', 'CH', 'NL', 'BE'] as const;
export const CURRENCIES = ['EUR', 'NOK', 'SEK', 'DKK', 'CHF'] as const;

export const Item = z.object({
  productId: z.string().max(100),
  description: z.string().min(1),
  type: z.enum(ITEM_TYPES),
  quantity: z.number().positive(),
  netUnitPrice: z.number(),
  grossUnitPrice: z.number(),
  vatPercent: z.number(),
  vatAmount: z.number(),
  imageUrl: z.string().optional(),
  productUrl: z.string().optional(),
});
export type Item = z.infer<typeof Item>;

export const Address = z.object({
  street: z.string().max(100),
  streetNumber: z.string().max(10).optional(),
  streetNumberAdditional: z.string().max(10).optional(),
  postalCode: z.string().max(10),
  postalPlace: z.string().max(100),
  // One of COUNTRIES (rules.json); the gateway only takes the manifest's countries, so this is checked there and in tests.
  countryCode: z.string().length(2),
});

export const Customer = z.object({
  customerCategory: z.enum(['Company', 'Person']),
  firstName: z.string(),
  lastName: z.string(),
  companyName: z.string().optional(),
  identificationNumber: z.string().max(20).optional(),
  email: z.string().optional(),
  mobilePhone: z.string().optional(),
  birthDate: z
    .string()
    .regex(/^\d{4}-\d{2}-\d{2}$/)
    .optional(),
  conversationLanguage: z.enum(CONVERSATION_LANGUAGES).optional(),
  address: Address,
  riskData: z.object({ ipAddress: z.string().optional(), profileTrackingId: z.string().optional() }).optional(),
});

export const OrderSummary = z.object({
  totalGrossAmount: z.number(),
  totalNetAmount: z.number(),
  // One of CURRENCIES (rules.json); the gateway only takes the manifest's currencies.
  currency: z.string().length(3),
  items: z.array(Item).min(1).max(200),
});
export type OrderSummary = z.infer<typeof OrderSummary>;

export const AuthorizeRequest = z.object({
  payment: z.object({ type: z.enum(PAYMENT_TYPES) }),
  customer: Customer,
  deliveryCustomer: Customer.pick({ customerCategory: true, firstName: true, lastName: true, address: true }).optional(),
  order: OrderSummary.extend({ number: z.string().min(1).max(50) }),
  merchantUrl: z.string().optional(),
  yourReference: z.string().optional(),
  ourReference: z.string().optional(),
  webhookUrl: z.string().optional(),
});
export type AuthorizeRequest = z.infer<typeof AuthorizeRequest>;

export const CaptureRequest = z.object({
  invoiceNumber: z.string().max(20).optional(),
  orderDetails: OrderSummary,
  transactionReference: z.string().max(100),
});
export type CaptureRequest = z.infer<typeof CaptureRequest>;

export const RefundRequest = z.object({
  captureNumber: z.string().min(1).max(50),
  refundType: z.enum(['Return', 'Refund']),
  items: z.array(Item).min(1).max(200),
  transactionReference: z.string().max(100),
});
export type RefundRequest = z.infer<typeof RefundRequest>;

// ---- Answers ----

/** Riverty's message: in riskCheckMessages and, as an array, the body of every 4xx (fixtures/published/capture-error.json). */
export const Message = z.object({
  type: z.string(),
  code: z.string(),
  message: z.string(),
  customerFacingMessage: z.string().nullish(),
  actionCode: z.string().nullish(),
  fieldReference: z.string().nullish(),
});
export type Message = z.infer<typeof Message>;
export const ErrorAnswer = z.array(Message).min(1);

/** POST /checkout/authorize (fixtures/published/authorize-accepted.json); secureLoginUrl: a Pending's authentication page. */
export const AuthorizeAnswer = z.object({
  // Pending: the customer authenticates at secureLoginUrl (without one: waiting, PENDING; response.ts).
  outcome: states(['Accepted', 'Pending', 'Rejected'], { Accepted: 'AUTHORIZED', Pending: 'CUSTOMER_ACTION', Rejected: 'DECLINED' }).schema,
  reservationId: z.string().nullish(),
  checkoutId: z.string().nullish(),
  riskCheckMessages: z.array(Message).nullish(),
  secureLoginUrl: z.string().nullish(),
});
export type AuthorizeAnswer = z.infer<typeof AuthorizeAnswer>;

/**
 * The order's state in GET /orders/{orderNumber}: orderDetails.status (docs.riverty.com get_order), in our terms.
 * Pending is the order waiting for the customer's authentication (the only Pending Riverty documents): the payment
 * keeps waiting for the customer. Rejected, Cancelled (the customer turned back) and Expired end it.
 */
export const ORDER_STATUS = states(['Accepted', 'Cancelled', 'Expired', 'Pending', 'Rejected'], {
  Accepted: 'AUTHORIZED',
  Pending: 'CUSTOMER_ACTION',
  Rejected: 'DECLINED',
  Cancelled: 'DECLINED',
  Expired: 'DECLINED',
});

/** GET /orders/{orderNumber} (fixtures/published/order-read.json): the order, its captures and refunds. */
export const OrderAnswer = z.object({
  orderDetails: z.object({ orderNumber: z.string().min(1), status: ORDER_STATUS.schema }),
  captures: z.array(z.object({ captureNumber: z.string(), amount: z.number() })).nullish(),
  refunds: z.array(z.object({ captureNumber: z.string().nullish(), amount: z.number() })).nullish(),
});
export type OrderAnswer = z.infer<typeof OrderAnswer>;

const Amount = z.number().nonnegative();
/** POST /orders/{n}/captures (fixtures/published/capture.json, capture-full.json): the totals are not always sent. */
export const CaptureAnswer = z.object({
  captureNumber: z.string().min(1),
  capturedAmount: Amount,
  authorizedAmount: Amount,
  remainingAuthorizedAmount: Amount,
  totalCapturedAmount: Amount.nullish(),
  totalRefundedAmount: Amount.nullish(),
});

/** POST /orders/{n}/voids (fixtures/published/void.json). */
export const VoidAnswer = z.object({
  totalAuthorizedAmount: Amount,
  totalCapturedAmount: Amount,
  remainingAuthorizedAmount: Amount.nullish(),
  voidedAmount: Amount.nullish(),
  totalRefundedAmount: Amount.nullish(),
});

/** POST /orders/{n}/refunds (fixtures/published/refund.json). */
export const RefundAnswer = z.object({
  refundNumbers: z.array(z.string().min(1)).min(1),
  totalCapturedAmount: Amount,
  totalAuthorizedAmount: Amount,
  totalRefundedAmount: Amount.nullish(),
  remainingAuthorizedAmount: Amount.nullish(),
});

// ---- Notifications ----

/**
 * Riverty's webhook message (docs.riverty.com webhooks, customer_authentication_completed): Header names the event
 * (MessageName) and the merchant; Body is the event's (an order's number for order events). The timestamp is spelled
 * TransmittedTimestamp on one page and TransmittedTimeStamp on another: both are read, neither is needed.
 */
export const WebhookMessage = z.object({
  Header: z.object({
    MessageName: z.string().min(1),
    MessageId: z.string().nullish(),
    TransmittedTimestamp: z.string().nullish(),
    TransmittedTimeStamp: z.string().nullish(),
    ClientId: z.union([z.number(), z.string()]).nullish(),
    ShopId: z.string().nullish(),
    CountryCode: z.string().nullish(),
    Version: z.string().nullish(),
  }),
  Body: z.record(z.string(), z.unknown()),
});
/** The order events' Body: CustomerAuthenticationCompleted {OrderNumber, Status}, AuthorizeAccepted {OrderNumber, ...}. */
export const OrderEventBody = z.object({ OrderNumber: z.string().min(1), Status: z.string().nullish() });
