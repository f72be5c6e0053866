// Zaver's shapes, written from Zaver's own material (README.md here, section Sources; the examples are in fixtures/):
// the official PHP SDK krokedil/zaver-php-sdk v3.0.0 (src/Object/*.php, src/Config/*.php) and the WooCommerce plugin
// zaver-io/zaver-woocommerce-plugin 2.1.2 that uses it. One API generation throughout: Payment Link API v2
// (/payments/link/v2) and Refund API v1 (/refund/v1), the calls both of them make; the Checkout API v1
// (/payments/checkout/v1, older Magento and OXID plugins) is not used.
// Amounts are JSON numbers in major units ("in the format 100 or the format 100.00").
import { z } from 'zod';

/** src/Config/PaymentStatus.php. */
export const PAYMENT_STATUSES = ['CREATED', 'PENDING_CONFIRMATION', 'PENDING_MERCHANT_CAPTURE', 'SETTLED', 'CANCELLED', 'ERROR'] as const;
/** src/Config/RefundStatus.php. */
export const REFUND_STATUSES = ['PENDING_MERCHANT_APPROVAL', 'PENDING_EXECUTION', 'EXECUTED', 'CANCELLED'] as const;
/** src/Config/ItemType.php. */
export const ITEM_TYPES = ['PHYSICAL', 'DIGITAL', 'SERVICE', 'SHIPPING', 'FEE', 'DISCOUNT'] as const;
/** src/Object/MerchantCustomizationOptions.php CAPTURE_METHODS ("If not set, defaults to immediate"). */
export const CAPTURE_METHODS = ['immediate', 'deferred'] as const;

const Amount = z.number().nonnegative();
const Metadata = z.record(z.string(), z.unknown());

// ---- Requests (what we send) ----

/** src/Object/LineItem.php: `id` is set by Zaver at creation (sent back only to capture that line). */
export const LineItem = z.object({
  name: z.string().min(1),
  quantity: z.number().int().positive(),
  unitPrice: Amount,
  totalAmount: Amount,
  taxRatePercent: z.number().min(0).max(100),
  taxAmount: Amount.optional(),
  description: z.string().optional(),
  itemType: z.enum(ITEM_TYPES).optional(),
  merchantReference: z.string().optional(),
  quantityUnit: z.string().optional(),
  lineItemMetadata: Metadata.optional(),
});
export type LineItem = z.infer<typeof LineItem>;

/** src/Object/Address.php; for market DE streetName and houseNumber instead of addressLine1. */
export const Address = z.object({
  name: z.string().optional(),
  addressLine1: z.string().optional(),
  addressLine2: z.string().optional(),
  streetName: z.string().optional(),
  houseNumber: z.string().optional(),
  city: z.string().optional(),
  postalCode: z.string().optional(),
  country: z.string().length(2).optional(),
});
export type Address = z.infer<typeof Address>;

/** src/Object/PayerData.php ("Mandatory for Germany (market DE)": PaymentCreationRequest::setPayerData). */
export const PayerData = z.object({
  email: z.string().optional(),
  phoneNumber: z.string().optional(),
  givenName: z.string().optional(),
  familyName: z.string().optional(),
  dateOfBirth: z
    .string()
    .regex(/^\d{4}-\d{2}-\d{2}$/)
    .optional(),
  billingAddress: Address.optional(),
  shippingAddress: Address.optional(),
});

/** src/Object/PaymentCreationRequest.php (title, amount, currency, market required). */
export const PaymentCreationRequest = z.object({
  merchantPaymentReference: z.string().optional(),
  title: z.string().min(1),
  description: z.string().optional(),
  amount: Amount,
  currency: z.string().length(3),
  market: z.string().length(2),
  language: z.string().optional(),
  merchantUrls: z.object({ callbackUrl: z.string().optional(), successUrl: z.string().optional(), cancelUrl: z.string().optional() }),
  lineItems: z.array(LineItem).optional(),
  payerData: PayerData.optional(),
  /** v2's name; `merchantMetadata` is deprecated since SDK 2.0.0. */
  paymentMetadata: Metadata.optional(),
  /** "All values are strings". */
  merchantCustomizations: z
    .object({ captureMethod: z.enum(CAPTURE_METHODS) })
    .partial()
    .optional(),
  idempotencyKey: z.string().optional(),
});
export type PaymentCreationRequest = z.infer<typeof PaymentCreationRequest>;

/** src/Object/PaymentCaptureRequest.php. */
export const PaymentCaptureRequest = z.object({
  amount: Amount,
  currency: z.string().length(3),
  lineItems: z.array(LineItem.extend({ id: z.string() })).optional(),
  captureMetadata: Metadata.optional(),
  captureIdempotencyKey: z.string().optional(),
});
export type PaymentCaptureRequest = z.infer<typeof PaymentCaptureRequest>;

/** src/Object/RefundCreationRequest.php (paymentId, invoiceReference, refundAmount required). */
export const RefundCreationRequest = z.object({
  paymentId: z.string().min(1),
  invoiceReference: z.string().min(1),
  refundAmount: Amount,
  refundTaxAmount: Amount.optional(),
  refundTaxRatePercent: z.number().min(0).max(100).optional(),
  description: z.string().optional(),
  /** "Must be unique: no two Refunds may use the same reference." */
  merchantReference: z.string().optional(),
  merchantMetadata: Metadata.optional(),
  merchantUrls: z.object({ callbackUrl: z.string() }).optional(),
});
export type RefundCreationRequest = z.infer<typeof RefundCreationRequest>;

// ---- Answers (what Zaver sends: the answers to our calls and the callbacks) ----

/**
 * src/Object/PaymentStatusResponse.php: what the create, read, capture and cancel answer (Checkout.php: each returns
 * a PaymentStatusResponse) and what a payment callback carries. No capture id: v2's capture answers the payment.
 */
export const PaymentStatusResponse = z.object({
  paymentId: z.string().min(1),
  paymentStatus: z.enum(PAYMENT_STATUSES),
  amount: Amount,
  currency: z.string(),
  capturedAmount: Amount.nullish(),
  refundedAmount: Amount.nullish(),
  token: z.string().nullish(),
  paymentLink: z.string().nullish(),
  validUntil: z.string().nullish(),
  captureBefore: z.string().nullish(),
  merchantPaymentReference: z.string().nullish(),
  paymentMetadata: Metadata.nullish(),
  allowedPaymentOperations: z.object({ canCapture: z.boolean(), canRefund: z.boolean(), canCancel: z.boolean() }).partial().nullish(),
});
export type PaymentStatusResponse = z.infer<typeof PaymentStatusResponse>;

/** src/Object/RefundResponse.php: what the refund calls answer and what a refund callback carries. */
export const RefundResponse = z.object({
  refundId: z.string().min(1),
  paymentId: z.string().min(1),
  refundAmount: Amount,
  currency: z.string(),
  status: z.enum(REFUND_STATUSES),
  invoiceReference: z.string().nullish(),
  merchantReference: z.string().nullish(),
  description: z.string().nullish(),
  /** "When the refund was last updated" (ISO 8601). */
  lastEvent: z.string().nullish(),
});
export type RefundResponse = z.infer<typeof RefundResponse>;

/** src/Utils/Client.php, Error.php: a 4xx answers {"errors": [{errorCode, errorMessage, docs}]}. */
export const ErrorResponse = z.object({
  errors: z.array(z.object({ errorCode: z.string().min(1), errorMessage: z.string(), docs: z.string().nullish() })).min(1),
});
export type ErrorResponse = z.infer<typeof ErrorResponse>;
