// Svea's requests and answers as zod schemas, written from Svea's own published examples (fixtures/, SOURCES.md names
// each) and field tables (github.com/sveawebpay/php-checkout README.md §11 and §13, the .NET SDK's models in
// github.com/sveawebpay/svea-sdk-dotnet). The README's Sources table traces every field we send or read.
// Answers are parsed, never cast: an answer these do not fit is an unknown outcome (the worker syncs later).
import { z } from 'zod';

/** Svea's ids: integers in every example (OrderId, Id, DeliveryId), but the credit's CreditId is a string ("1783"). */
const Id = z.union([z.number().int(), z.string().min(1)]).transform(String);
const Actions = z
  .array(z.string())
  .nullish()
  .transform((a) => a ?? []);

// ---- requests (php-checkout README §3, §11.1-11.4, §13.3, §13.5, §13.9, §13.15.5) ----

/** An order row as the Checkout API takes it (§11.3) and Payment Admin's newCreditOrderRow (§13.15.5): amounts in
 * minor units, Quantity and VatPercent ×100 (2 pcs -> 200, 25 % -> 2500). ArticleNumber: ≤ 1000 at checkout, ≤ 256 in
 * Payment Admin (§13.15.5, .NET NewOrderRow): we keep to 256 so a row is valid on both. */
export const OrderRowRequest = z.object({
  articleNumber: z.string().max(256).optional(),
  name: z.string().min(1).max(40),
  /** 1-9 digits. */
  quantity: z.number().int().min(1).max(999_999_999),
  /** Including VAT; 1-13 digits, may be negative. */
  unitPrice: z.number().int().min(-9_999_999_999_999).max(9_999_999_999_999),
  vatPercent: z.number().int().min(0).max(10_000),
  unit: z.string().max(4).optional(),
});
export type OrderRowRequest = z.infer<typeof OrderRowRequest>;

/** §11.4: EmailAddress ≤ 50 characters; PhoneNumber 1-18 digits with "+", "-" and spaces; IsCompany "true"/"false". */
export const PresetValue = z.object({
  typeName: z.enum(['NationalId', 'EmailAddress', 'PhoneNumber', 'PostalCode', 'IsCompany']),
  value: z.string().min(1),
  isReadOnly: z.boolean(),
});
export const PHONE = /^[+\- 0-9]*$/;

/** §3 and §11.1: every URI 1-500 characters; pushUri carries `{checkout.order.uri}`, which Svea fills with the order id. */
const Uri = z.url().max(500);
export const CreateOrderRequest = z.object({
  countryCode: z.string().length(2),
  currency: z.string().length(3),
  /** §11.9. */
  locale: z.enum(['sv-SE', 'nn-NO', 'fi-FI', 'da-DK', 'de-DE', 'en-US']),
  /** At most 32 characters, unique per order: a second create with it answers the existing order. */
  clientOrderNumber: z.string().min(1).max(32),
  cart: z.object({ items: z.array(OrderRowRequest).min(1) }),
  merchantSettings: z.object({ termsUri: Uri, checkoutUri: Uri, confirmationUri: Uri, pushUri: Uri.refine((u) => u.includes('{checkout.order.uri}')) }),
  presetValues: z.array(PresetValue).optional(),
  /** No length in any source (UNVERIFIED); ours is the payment id (30 characters). */
  merchantData: z.string().optional(),
  /** §3: "if set to true the order will be a recurring order" (a merchant account with the feature enabled); its
   * RecurringToken is set once the order is Final (§9). */
  recurring: z.boolean().optional(),
});
export type CreateOrderRequest = z.infer<typeof CreateOrderRequest>;

/**
 * A recurring order on a token (php-checkout README §6, src/Implementation/CreateTokenOrder.php `POST
 * /api/tokens/{token}/orders`; docs.payments.svea.com checkout/recurring-orders/creating-recurring-order): currency,
 * clientOrderNumber (≤ 32, unique per order), merchantSettings (pushUri required by php-checkout's
 * ValidateCreateTokenOrderData), cart (its total above 0). No customer step: the token stands for the customer and the
 * payment method of the first order.
 */
export const TokenOrderRequest = z.object({
  currency: z.string().length(3),
  clientOrderNumber: z.string().min(1).max(32),
  merchantSettings: z.object({ pushUri: Uri.refine((u) => u.includes('{checkout.order.uri}')), checkoutUri: Uri.optional() }),
  cart: z.object({ items: z.array(OrderRowRequest).min(1) }),
});
export type TokenOrderRequest = z.infer<typeof TokenOrderRequest>;
/** PATCH /api/tokens/{token} (UpdateToken.php; docs cancel-recurring-order): `{"status": "Cancelled"}`. */
export const UpdateTokenRequest = z.object({ status: z.literal('Cancelled') });

/** §13.3: every row id to deliver ([] = everything); a partial quantity of a row (×100) in rowDeliveryOptions. */
export const DeliverRequest = z.object({
  orderRowIds: z.array(z.number().int()),
  rowDeliveryOptions: z.array(z.object({ orderRowId: z.number().int(), quantity: z.number().int().min(1) })).optional(),
});
/** §13.4 (src/Implementation/Admin/DeliverOrderWithLowerAmount.php): the amount delivered, minor units. */
export const DeliverLowerRequest = z.object({ deliveredAmount: z.number().int().min(1) });
/** §13.5. */
export const CancelRequest = z.object({ isCancelled: z.literal(true) });
/** §13.9: a credit of a new row on a delivery. */
export const CreditNewRowRequest = z.object({ newCreditOrderRow: OrderRowRequest });

// ---- answers ----

/** §11.8: Created, Final (the only one that guarantees payment), Cancelled (abandoned, by default after 48 h). */
export const CheckoutOrderStatus = z.enum(['Created', 'Final', 'Cancelled']);
/** The checkout order (Checkout API): the create answer and GET /api/orders/{id} (DataSample Checkout*Response). */
export const CheckoutOrder = z.object({
  OrderId: Id,
  Status: CheckoutOrderStatus,
  ClientOrderNumber: z.string().nullish(),
  Currency: z.string(),
  CountryCode: z.string().nullish(),
  /** HTML and script to embed (§11.5); the iframe's address is its data-sco-sveacheckout-iframeSrc. */
  Gui: z.object({ Layout: z.string().nullish(), Snippet: z.string() }).nullish(),
  /** Set once Final (§11.10): INVOICE, PAYMENTPLAN, ACCOUNTCREDIT, SVEACARDPAY, SWISH, TRUSTLY, ZEROSUM, DB... */
  PaymentType: z.string().nullish(),
  SveaWillBuyOrder: z.boolean().nullish(),
  MerchantData: z.string().nullish(),
  /** §9: whether the order is recurring, and its token for later orders ("Only available when the order is FINAL"). */
  Recurring: z.boolean().nullish(),
  RecurringToken: z.string().nullish(),
});
export type CheckoutOrder = z.infer<typeof CheckoutOrder>;

/** A Payment Admin order row (§13.15.5; DataSample Admin*). */
export const AdminRow = z.object({
  OrderRowId: z.number().int(),
  Name: z.string().nullish(),
  Quantity: z.number().int(),
  UnitPrice: z.number().int(),
  VatPercent: z.number().int().nullish(),
  IsCancelled: z
    .boolean()
    .nullish()
    .transform((b) => b ?? false),
  Actions,
});
export type AdminRow = z.infer<typeof AdminRow>;
/** §13.15.3: Amount (negative in DataSample AdminOrderRowsCredited), rows, actions; no id. */
export const AdminCredit = z.object({ Amount: z.number().int(), OrderRows: z.array(AdminRow).nullish(), Actions });
/** §13.15.2; Status ("Sent") and DueDate in DataSample. */
export const AdminDelivery = z.object({
  Id,
  InvoiceId: z.number().int().nullish(),
  DeliveryAmount: z.number().int(),
  CreditedAmount: z
    .number()
    .int()
    .nullish()
    .transform((n) => n ?? 0),
  Credits: z
    .array(AdminCredit)
    .nullish()
    .transform((c) => c ?? []),
  OrderRows: z
    .array(AdminRow)
    .nullish()
    .transform((r) => r ?? []),
  Actions,
  Status: z.string().nullish(),
});
export type AdminDelivery = z.infer<typeof AdminDelivery>;
/** §13.15.7 lists Open, Delivered, Cancelled, Failed; the .NET SDK's OrderStatus and the Magento module's
 * GetOrderInfoResponse also have Processing. */
export const AdminOrderStatus = z.enum(['Open', 'Delivered', 'Cancelled', 'Failed', 'Processing']);
/** The Payment Admin order (§13.15.1; DataSample AdminGetOrder). Its PaymentType is spelled "Invoice" here, INVOICE
 * in the checkout order. Action names as Svea sends them: CanDeliverOrder, CanDeliverPartially, CanCancelOrder,
 * CanCancelAmount... (DataSample; .NET OrderActionType; Magento GetOrderInfoResponse), not the README's
 * "CanDeliverOrderPartially". */
export const AdminOrder = z.object({
  Id,
  Currency: z.string(),
  MerchantOrderId: z.string().nullish(),
  OrderStatus: AdminOrderStatus,
  PaymentType: z.string().nullish(),
  OrderAmount: z.number().int(),
  CancelledAmount: z
    .number()
    .int()
    .nullish()
    .transform((n) => n ?? 0),
  OrderRows: z
    .array(AdminRow)
    .nullish()
    .transform((r) => r ?? []),
  Deliveries: z
    .array(AdminDelivery)
    .nullish()
    .transform((d) => d ?? []),
  Actions,
});
export type AdminOrder = z.infer<typeof AdminOrder>;
export const DELIVERABLE = ['CanDeliverOrder', 'CanDeliverPartially'] as const;

/** GET /api/v1/queue/{id} (§13.15.4; .NET Task: Id, Status, ResourceUri). Seen: InProgress while running, Completed
 * (with ResourceUri) when done; Svea answers a finished task 303 with the Location of what it made. */
export const Task = z.object({ Id, Status: z.string(), ResourceUri: z.string().nullish() });
export type Task = z.infer<typeof Task>;
/** What a finished credit task leads to (.NET CreditResponseObject; DataSample CreditResponse). */
export const Credit = z.object({ CreditId: Id });

/** An error body: {Code, Message, Errors[{Code, Field, ErrorMessage}]} (.NET ErrorResponse; php-checkout
 * ResponseHandler, which also reads a `resultCode`/`errorMessage` pair and an `ErrorMessage` header). */
export const SveaError = z.object({
  Code: z.union([z.number(), z.string()]).nullish(),
  Message: z.string().nullish(),
  Errors: z.array(z.object({ Code: z.union([z.number(), z.string()]).nullish(), Field: z.string().nullish(), ErrorMessage: z.string().nullish() })).nullish(),
  resultCode: z.union([z.number(), z.string()]).nullish(),
  errorMessage: z.string().nullish(),
});

/** A callback event (docs.payments.svea.com/docs/manage-order/callbacks/callback_events). */
export const CallbackEvent = z.object({
  EventName: z.string().min(1),
  CheckoutOrderId: Id,
  IsPending: z.boolean().nullish(),
  DeliveryId: Id.nullish(),
  CreditId: Id.nullish(),
  CorrelationId: z.string().nullish(),
  TimestampUtc: z.string().nullish(),
});
