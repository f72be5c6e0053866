// Avarda Checkout 3's partner API, as Avarda publishes it: every request we send and every answer we read, written from
// the published examples in fixtures/ (their sources: fixtures/SOURCES.md; each point: README.md's Sources table).
// Avarda's API binds request fields case-insensitively (its docs write `OrderReference`, its own demo and shop plugins
// `orderReference`); we send camelCase as the plugins do, and read answers in either case (`camelKeys`).
import { z } from 'zod';
import { states } from '../kit/outcome.ts';

/** Keys' first letter lowered, deeply: Avarda's docs print PascalCase, its API answers camelCase (the plugins read it). */
export function camelKeys(v: unknown): unknown {
  if (Array.isArray(v)) return v.map(camelKeys);
  if (v && typeof v === 'object') {
    return Object.fromEntries(Object.entries(v).map(([k, x]) => [k.charAt(0).toLowerCase() + k.slice(1), camelKeys(x)]));
  }
  return v;
}

// ---- limits (docs.avarda.com; see README.md) --------------------------------------------------------------------

/** OrderReference: "string (max length: 20 characters)" (checkout-3/order-management). */
export const ORDER_REFERENCE_MAX = 20;
/** TranId: "string (max length: 36 characters)", "a random unique ID … identifies the HTTP request" (same page). */
export const TRAN_ID_MAX = 36;
/** Item Description and Notes: "String (max. 35 characters)" (authorization-api/api-reference/items-list; the
 * Magento module cuts both at 35). */
export const ITEM_TEXT_MAX = 35;
/** Prefilled address fields (checkout-3/error-codes 126–131): name, first/last name and address1 40, city 30. */
export const ADDRESS_MAX = { name: 40, firstName: 40, lastName: 40, address1: 40, city: 30 } as const;

// ---- requests ----------------------------------------------------------------------------------------------------

export const TokenRequest = z.object({ clientId: z.string().min(1), clientSecret: z.string().min(1) });

/** An invoice row: gross `amount` per unit (VAT included), its VAT `taxAmount`, the rate as `taxCode` ("25"). */
export const Item = z.object({
  description: z.string().min(1).max(ITEM_TEXT_MAX),
  notes: z.string().max(ITEM_TEXT_MAX).optional(),
  amount: z.number(),
  taxCode: z.string().optional(),
  taxAmount: z.number().optional(),
  quantity: z.number().int().positive().optional(),
});
export type Item = z.infer<typeof Item>;

const Address = z.object({
  name: z.string().max(ADDRESS_MAX.name).optional(),
  firstName: z.string().max(ADDRESS_MAX.firstName).optional(),
  lastName: z.string().max(ADDRESS_MAX.lastName).optional(),
  address1: z.string().max(ADDRESS_MAX.address1).optional(),
  address2: z.string().optional(),
  zip: z.string().optional(),
  city: z.string().max(ADDRESS_MAX.city).optional(),
  country: z.string().length(2).optional(),
});
const Customer = z.object({
  invoicingAddress: Address.optional(),
  deliveryAddress: Address.optional(),
  userInputs: z.object({ phone: z.string().optional(), email: z.string().optional() }).optional(),
});

/** The form's languages (PrestaShop module `getLanguageById`: Danish, English, Estonian, Finnish, Norwegian, Swedish). */
export const Language = z.enum(['English', 'Swedish', 'Finnish', 'Norwegian', 'Danish', 'Estonian']);

export const InitializeRequest = z.object({
  checkoutSetup: z.object({
    mode: z.enum(['B2C', 'B2B']).optional(),
    language: Language.optional(),
    completedNotificationUrl: z.string().url().optional(),
    termsAndConditionsUrl: z.string().url().optional(),
    displayItems: z.boolean().optional(),
    enableCountrySelector: z.boolean().optional(),
    invoicingCountries: z.array(z.string().length(2)).optional(),
    deliveryCountries: z.array(z.string().length(2)).optional(),
    /** A purchase that offers recurring payments: `'checked'` (the consent box ticked), with the methods that cannot
     * recur hidden (WooCommerce plugin classes/class-aco-subscription.php `set_recurring`). */
    recurringPayments: z.literal('checked').optional(),
    hideUnsupportedRecurringPaymentMethods: z.boolean().optional(),
  }),
  items: z.array(Item).min(1),
  extraIdentifiers: z.object({ orderReference: z.string().min(1).max(ORDER_REFERENCE_MAX) }).optional(),
  b2C: Customer.optional(),
  b2B: Customer.optional(),
});
export type InitializeRequest = z.infer<typeof InitializeRequest>;

/** The activation (`…/order`) and the return (`…/return`) take the same body: the rows delivered, or returned. */
export const OrderRequest = z.object({
  orderReference: z.string().min(1).max(ORDER_REFERENCE_MAX),
  tranId: z.string().max(TRAN_ID_MAX).optional(),
  trackingCode: z.string().optional(),
  posId: z.string().max(32).optional(),
  items: z.array(Item).min(1),
});
export type OrderRequest = z.infer<typeof OrderRequest>;

/**
 * A recurring charge on the purchase the customer consented in: `POST …/{purchaseId}/authorizerecurringpayment` with
 * the recurring payment token and the rows (WooCommerce plugin class-aco-request-auth-recurring-payment.php; Checkout
 * 2's AuthorizeRecurringPayment names the same parts: token, items, OrderReference).
 */
export const RecurringRequest = z.object({
  recurringPaymentToken: z.string().min(1),
  orderReference: z.string().min(1).max(ORDER_REFERENCE_MAX),
  items: z.array(Item).min(1),
});
export type RecurringRequest = z.infer<typeof RecurringRequest>;

/** `…/refund`: money the customer no longer needs to be delivered (not yet activated), a decimal. */
export const RefundRequest = z.object({ amount: z.number().positive() });

/** `…/cancel`: the reason is "None. Must be specified." */
export const CancelRequest = z.object({ reason: z.string().min(1) });
export type CancelRequest = z.infer<typeof CancelRequest>;

// ---- answers -----------------------------------------------------------------------------------------------------

export const TokenAnswer = z.object({ token: z.string().min(1), tokenExpirationUtc: z.string().optional() });
export const InitializeAnswer = z.object({ purchaseId: z.string().min(1), jwt: z.string().min(1), expiredUtc: z.string().optional() });

/**
 * Every `step.current` (Magento module Helper/PurchaseState.php) and what it is for us: Completed the authorization;
 * the states that module calls dead (`isDead`: TimedOut, Outdated, Canceled) the end of a checkout not completed (the
 * customer left, was declined in the form, or the session expired: Avarda does not say which); those it calls waiting
 * (`isWaiting`) pending, with HandledByMerchant (the merchant's own step of the form) and Unknown; the form's steps
 * (its `isInCheckout`) still the customer's turn.
 */
export const PURCHASE = states(
  [
    'Initialized',
    'EmailZipEntry',
    'SsnEntry',
    'PhoneNumberEntry',
    'PhoneNumberEntryForKnownCustomer',
    'PersonalInfo',
    'PersonalInfoWithoutSsn',
    'WaitingForSwish',
    'RedirectedToDirectPaymentBank',
    'RedirectedToNets',
    'WaitingForBankId',
    'RedirectedToTupas',
    'Completed',
    'TimedOut',
    'Outdated',
    'Canceled',
    'HandledByMerchant',
    'AwaitingCreditApproval',
    'Unknown',
  ],
  {
    Completed: 'AUTHORIZED',
    TimedOut: 'DECLINED',
    Outdated: 'DECLINED',
    Canceled: 'DECLINED',
    WaitingForBankId: 'PENDING',
    WaitingForSwish: 'PENDING',
    AwaitingCreditApproval: 'PENDING',
    RedirectedToDirectPaymentBank: 'PENDING',
    RedirectedToNets: 'PENDING',
    RedirectedToTupas: 'PENDING',
    HandledByMerchant: 'PENDING',
    Unknown: 'PENDING',
    Initialized: 'CUSTOMER_ACTION',
    EmailZipEntry: 'CUSTOMER_ACTION',
    SsnEntry: 'CUSTOMER_ACTION',
    PhoneNumberEntry: 'CUSTOMER_ACTION',
    PhoneNumberEntryForKnownCustomer: 'CUSTOMER_ACTION',
    PersonalInfo: 'CUSTOMER_ACTION',
    PersonalInfoWithoutSsn: 'CUSTOMER_ACTION',
  },
);
export const PurchaseState = PURCHASE.schema;
export type PurchaseState = z.infer<typeof PurchaseState>;

const ModeData = z.object({ step: z.object({ current: PurchaseState }) });
export const PaymentStatus = z.object({
  purchaseId: z.string().min(1),
  mode: z.enum(['B2C', 'B2B']),
  b2C: ModeData.nullish(),
  b2B: ModeData.nullish(),
  totalPrice: z.number().optional(),
  expiredUtc: z.string().optional(),
  /** Once completed with recurring payments offered and accepted: the token to charge again (WooCommerce plugin
   * `$avarda_order['paymentMethods']['selectedPayment']['recurringPaymentToken']`). */
  paymentMethods: z.object({ selectedPayment: z.object({ recurringPaymentToken: z.string().nullish() }).nullish() }).nullish(),
});
export type PaymentStatus = z.infer<typeof PaymentStatus>;

/** The recurring charge's answer: the new purchase, to be activated like any other (the plugin reads `purchaseId`;
 * Checkout 2: "returns … new externalid … Avarda expects a purchase order for the actual delivery sent in to this new
 * externalid"). */
export const RecurringAnswer = z.object({ purchaseId: z.string().min(1) });

/** The completion callback: `{"purchaseId": "…"}`, unsigned. */
export const Callback = z.object({ purchaseId: z.string().min(1) });

/**
 * Avarda's error bodies, read after `camelKeys`: `{Errors: [{Property, ErrorCode, ErrorMessage}], StatusCode}`
 * (checkout-3/error-codes), a bare list `[{ErrorCode, ErrorMessage}]` (cancel-order), `{errorMessage}` (read by the
 * Magento module's JsonConverter), and the token endpoint's `{error_description}` (Magento AvardaClient::getToken).
 */
const ErrorEntry = z.object({ property: z.string().optional(), errorCode: z.union([z.number(), z.string()]).optional(), errorMessage: z.string() });
export const ErrorAnswer = z.union([
  z.object({ errors: z.array(ErrorEntry).min(1), statusCode: z.number().optional() }),
  z.array(ErrorEntry).min(1),
  z.object({ errorMessage: z.string().min(1), errorCode: z.union([z.number(), z.string()]).optional() }),
  z.object({ error_description: z.string().min(1), error: z.string().optional() }),
]);
export type ErrorAnswer = z.infer<typeof ErrorAnswer>;
