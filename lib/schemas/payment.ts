// Payments: request bodies (spec 4.1-4.3) and the Payment resource (spec 2.2-2.13).
import { z } from 'zod';
import {
  Amount,
  CaptureMethod,
  Connector,
  Country,
  Currency,
  CustomerId,
  Email,
  FreeObject,
  httpUrl,
  Key,
  Metadata,
  PaymentExperience,
  PaymentId,
  PaymentMethodType,
  PaymentStatus,
  Timestamp,
  str,
  text,
} from './common.ts';
import { MAX_LIST_OFFSET, rangesInOrder } from './list-limits.ts';
import { PaymentLinkConfig } from './payment-link.ts';
import { OrderLine, OrderLineResource } from './order-line.ts';
import { Refund } from './refund.ts';
import { PaymentDispute } from './dispute.ts';

export { OrderLine, OrderLineResource, ORDER_LINE_FIELDS } from './order-line.ts';

const opt = <T extends z.ZodType>(t: T) => t.nullish();
const n = <T extends z.ZodType>(t: T) => t.nullable();

export const Address = z.strictObject({
  address: opt(
    z.strictObject({
      city: opt(text(255)),
      country: opt(Country),
      line1: opt(text(255)),
      line2: opt(text(255)),
      line3: opt(text(255)),
      zip: opt(text(64)),
      state: opt(text(255)),
      first_name: opt(text(255)),
      last_name: opt(text(255)),
    }),
  ),
  phone: opt(z.strictObject({ number: opt(text(64)), country_code: opt(text(8)) })),
  email: opt(Email),
});

export const CustomerDetails = z.strictObject({
  id: opt(CustomerId),
  name: opt(text(255)),
  email: opt(Email),
  phone: opt(text(255)),
  phone_country_code: opt(text(8)),
  birth_date: opt(text(10)),
  gender: opt(text(10)),
  locale: opt(text(5)),
  ssn: opt(text(20)),
});

export const BrowserInfo = z.strictObject({
  color_depth: opt(z.number().int()),
  java_enabled: opt(z.boolean()),
  java_script_enabled: opt(z.boolean()),
  language: opt(str(64)),
  screen_height: opt(z.number().int()),
  screen_width: opt(z.number().int()),
  time_zone: opt(z.number().int()),
  ip_address: opt(str(64)),
  accept_header: opt(str(1024)),
  user_agent: opt(str(1024)),
  os_type: opt(str(64)),
  os_version: opt(str(64)),
  device_model: opt(str(128)),
  device_fingerprint: opt(z.strictObject({ payla: opt(str(255)), ratepay: opt(str(255)), unzer: opt(str(255)) })),
});

export const MandateData = z.strictObject({
  update_mandate_id: opt(str(255)),
  customer_acceptance: opt(
    z.strictObject({
      acceptance_type: z.enum(['online', 'offline']),
      accepted_at: opt(Timestamp),
      online: opt(z.strictObject({ ip_address: opt(str(64)), user_agent: opt(str(1024)) })),
    }),
  ),
  mandate_type: opt(
    z.strictObject({
      single_use: opt(
        z.strictObject({
          amount: Amount,
          currency: Currency,
          start_date: opt(Timestamp),
          end_date: opt(Timestamp),
          metadata: opt(Metadata),
        }),
      ),
    }),
  ),
});

export const SurchargeDetails = z.strictObject({ surcharge_amount: Amount, tax_amount: opt(Amount) });

/**
 * Spec 2.8: `pay_later` holds one sub-object named for the payment method type, empty for invoice (and, with nothing
 * else shown by the spec, for every type). Strict: BNPL takes no card, so `pay_later.card` and the like are refused.
 */
const NoData = z.strictObject({}).optional();
const PayLaterData = z
  .strictObject({
    invoice: NoData,
    installment_invoice: NoData,
    subscription_invoice: NoData,
    direct_debit: NoData,
    installment_direct_debit: NoData,
    subscription_direct_debit: NoData,
  } satisfies Record<z.infer<typeof PaymentMethodType>, typeof NoData>)
  .refine((d) => Object.keys(d).length === 1, 'must hold exactly one sub-object, named for the payment method type (e.g. {"invoice": {}})');

export const PaymentMethodData = z.strictObject({
  pay_later: PayLaterData.optional(),
  billing: opt(Address),
});

/** A connector by name (its first enabled account), or one connector account (the leading switch's shape). */
export const RoutingChoice = z.union([Connector, z.strictObject({ connector: Connector, merchant_connector_id: opt(str(64)) })]);

/** Routing algorithms (spec 2.15 names Single, Priority and VolumeSplit): on a payment, or a profile's default. */
export const Routing = z.discriminatedUnion('type', [
  z.strictObject({ type: z.literal('single'), data: RoutingChoice }),
  z.strictObject({ type: z.literal('priority'), data: z.array(RoutingChoice).min(1).max(20) }),
  z.strictObject({
    type: z.literal('volume_split'),
    data: z
      .array(z.strictObject({ connector: RoutingChoice, split: z.number().int().min(0).max(100) }))
      .min(1)
      .max(20)
      .refine((d) => d.reduce((t, x) => t + x.split, 0) === 100, 'the splits must add up to 100'),
  }),
]);

/** Capture straight between merchant and customer, or through the connector (spec 4.1 "capture type"). */
const CaptureType = z.enum(['direct', 'connector']);
const MerchantConnectorDetails = FreeObject;

/** Create fields that are kept with the payment but not acted on yet (not part of the Payment resource). */
export const REQUEST_EXTRAS = [
  'payment_link_config',
  'recurring_details',
  'skip_external_tax_calculation',
  'capture_type',
  'retry_action',
  'psd2_sca_exemption_type',
  'payment_type',
] as const;

/** Fields that create and confirm share (spec 4.2: confirm accepts the parameters of create). */
const paymentFields = {
  amount: Amount,
  currency: Currency,
  order_tax_amount: opt(Amount),
  amount_to_capture: opt(Amount),
  payment_id: opt(PaymentId),
  routing: opt(Routing),
  connector: opt(z.array(Connector).min(1)),
  capture_method: opt(CaptureMethod),
  authentication_type: opt(z.enum(['three_ds', 'no_three_ds'])),
  billing: opt(Address),
  shipping: opt(Address),
  confirm: opt(z.boolean()),
  customer: opt(CustomerDetails),
  customer_id: opt(CustomerId),
  email: opt(Email),
  name: opt(text(255)),
  phone: opt(text(255)),
  phone_country_code: opt(str(8)),
  off_session: opt(z.boolean()),
  description: opt(text(4096)),
  return_url: opt(httpUrl()),
  setup_future_usage: opt(z.enum(['off_session', 'on_session'])),
  payment_method_data: opt(PaymentMethodData),
  payment_method: opt(z.enum(['pay_later'])),
  payment_method_type: opt(PaymentMethodType),
  payment_token: opt(str(255)),
  statement_descriptor_name: opt(text(255)),
  statement_descriptor_suffix: opt(text(255)),
  order_details: opt(z.array(OrderLine).max(1000)),
  mandate_data: opt(MandateData),
  mandate_id: opt(str(255)),
  browser_info: opt(BrowserInfo),
  payment_experience: opt(PaymentExperience),
  metadata: opt(Metadata),
  merchant_order_reference_id: opt(text(255)),
  capture_on: opt(Timestamp),
  payment_link: opt(z.boolean()),
  session_expiry: opt(z.number().int().min(0).max(7_776_000)),
  business_label: opt(text(255)),
  business_country: opt(Country),
  business_sub_label: opt(text(255)),
  profile_id: opt(str(64)),
  payment_type: opt(z.enum(['normal', 'new_mandate', 'setup_mandate', 'recurring_mandate'])),
  retry_action: opt(z.enum(['manual_retry', 'requeue'])),
  allowed_payment_method_types: opt(z.array(PaymentMethodType)),
  surcharge_details: opt(SurchargeDetails),
  split_payments: opt(FreeObject),
  psd2_sca_exemption_type: opt(z.enum(['low_value', 'transaction_risk_analysis'])),
  request_incremental_authorization: opt(z.boolean()),
  // Accepted and kept with the payment, not acted on yet (ARCHITECTURE.md: accept, store).
  payment_link_config: opt(PaymentLinkConfig),
  recurring_details: opt(FreeObject),
  skip_external_tax_calculation: opt(z.boolean()),
  capture_type: opt(CaptureType),
  // Accepted for compatibility and never stored: it would hold provider credentials in clear.
  merchant_connector_details: opt(MerchantConnectorDetails),
  connector_metadata: opt(FreeObject),
  feature_metadata: opt(FreeObject),
  frm_metadata: opt(FreeObject),
};

type DescriptorFields = { statement_descriptor_name?: string | null; statement_descriptor_suffix?: string | null };

/** ARCHITECTURE.md: the name up to 22 characters with at least one letter; name and suffix up to 22 together. */
function checkDescriptors(b: DescriptorFields, ctx: z.RefinementCtx): void {
  const name = b.statement_descriptor_name;
  if (name != null && (name.length > 22 || !/[A-Za-z]/.test(name))) {
    ctx.addIssue({ code: 'custom', path: ['statement_descriptor_name'], message: 'must be at most 22 characters with at least one letter' });
  }
  const suffix = b.statement_descriptor_suffix;
  if (suffix != null && (name ?? '').length + suffix.length > 22) {
    ctx.addIssue({ code: 'custom', path: ['statement_descriptor_suffix'], message: 'name and suffix together must be at most 22 characters' });
  }
}

type CustomerIdFields = { customer?: { id?: string | null } | null; customer_id?: string | null };

/** customer.id and the deprecated customer_id name one customer. */
function checkCustomerId(b: CustomerIdFields, ctx: z.RefinementCtx): void {
  if (b.customer?.id != null && b.customer_id != null && b.customer.id !== b.customer_id) {
    ctx.addIssue({ code: 'custom', path: ['customer_id'], message: 'must equal customer.id when both are given' });
  }
}

type PayLaterFields = { payment_method_type?: string | null; payment_method_data?: { pay_later?: object } | null };

/** The pay_later sub-object is named for the payment method type: both given, they agree. */
function checkPayLaterType(b: PayLaterFields, ctx: z.RefinementCtx): void {
  const named = Object.keys(b.payment_method_data?.pay_later ?? {})[0];
  if (named && b.payment_method_type && named !== b.payment_method_type) {
    ctx.addIssue({
      code: 'custom',
      path: ['payment_method_data', 'pay_later', named],
      message: `is named for ${named}, but payment_method_type is ${b.payment_method_type}`,
    });
  }
}

/** Rules across fields shared by create, confirm and update. */
function checkShared(b: DescriptorFields & CustomerIdFields & PayLaterFields, ctx: z.RefinementCtx): void {
  checkDescriptors(b, ctx);
  checkCustomerId(b, ctx);
  checkPayLaterType(b, ctx);
}

/** Spec 2.4: the sum of the order lines' amounts equals the payment amount. */
export function orderDetailsMismatch(lines: { amount: number }[] | null | undefined, amount: number): string | null {
  if (!lines || lines.length === 0) return null;
  const sum = lines.reduce((t, l) => t + l.amount, 0);
  return sum === amount ? null : `the order lines' amounts add up to ${sum}, not to the payment amount ${amount}`;
}

export const CreatePaymentRequest = z
  .strictObject({
    ...paymentFields,
    // The customer's acceptance of the mandate at the top level, as the leading switch's clients send it with
    // confirm: true; it is kept as mandate_data.customer_acceptance (as a confirm's is).
    customer_acceptance: opt(MandateData.shape.customer_acceptance.unwrap().unwrap()),
  })
  .superRefine((b, ctx) => {
    if (b.customer_acceptance != null && b.mandate_data?.customer_acceptance != null) {
      ctx.addIssue({
        code: 'custom',
        path: ['customer_acceptance'],
        message: 'give the customer acceptance once: here or as mandate_data.customer_acceptance',
      });
    }
    if (b.amount_to_capture != null && b.amount_to_capture > b.amount) {
      ctx.addIssue({ code: 'custom', path: ['amount_to_capture'], message: 'must not exceed amount' });
    }
    const mismatch = orderDetailsMismatch(b.order_details, b.amount);
    if (mismatch) ctx.addIssue({ code: 'custom', path: ['order_details'], message: mismatch });
    checkShared(b, ctx);
  });

export const ConfirmPaymentRequest = z
  .strictObject({
    ...paymentFields,
    amount: Amount.optional(),
    currency: Currency.optional(),
    client_secret: opt(str(255)),
    customer_acceptance: opt(FreeObject),
  })
  .superRefine(checkShared);

export const CapturePaymentRequest = z
  .strictObject({
    amount_to_capture: opt(z.number().int().max(Number.MAX_SAFE_INTEGER)),
    capture_id: opt(str().length(30, 'capture_id must be exactly 30 characters')),
    capture_metadata: opt(
      z.strictObject({
        invoice_data: opt(
          z.strictObject({
            delivery_date: opt(text(64)),
            due_date: opt(text(64)),
            invoice_date: opt(text(64)),
            merchant_invoice_ref: opt(text(255)),
          }),
        ),
      }),
    ),
    metadata: opt(Metadata),
    order_details: opt(z.array(OrderLine).max(1000)),
    // Spec 4.3's further parameters, named as the leading switch names them; accepted, not acted on yet. The
    // statement descriptors (same rules as on create) are kept with the capture; no provider is sent them.
    refund_uncaptured_amount: opt(z.boolean()),
    statement_descriptor_name: opt(text(22)),
    statement_descriptor_suffix: opt(text(22)),
    statement_descriptor_prefix: opt(text(22)),
    merchant_connector_details: opt(MerchantConnectorDetails),
    capture_type: opt(CaptureType),
  })
  .superRefine(checkDescriptors);

/** POST /payments/{id} before confirmation: the create fields, all optional (confirming is a separate call). */
const { confirm: _confirm, ...updatableFields } = paymentFields;
export const UpdatePaymentRequest = z
  .strictObject({
    ...updatableFields,
    amount: Amount.optional(),
    currency: Currency.optional(),
    // Accepted as the leading switch's clients send it: false changes nothing (an update never confirms).
    confirm: opt(z.boolean().refine((v) => !v, 'an update never confirms: confirm with POST /payments/{payment_id}/confirm')),
  })
  .superRefine(checkShared);

export const CancelPaymentRequest = z.strictObject({
  amount_to_cancel: opt(z.number().int().min(1).max(Number.MAX_SAFE_INTEGER)),
  cancellation_reason: opt(text(255)),
  order_details: opt(z.array(OrderLine).max(1000)),
  merchant_connector_details: opt(MerchantConnectorDetails),
});

export const IncrementalAuthorizationRequest = z.strictObject({
  /** The new total to authorize; more than the current amount. */
  amount: Amount,
  reason: opt(text(255)),
});

/** The 3DS SDK's data for an app-based authentication (spec 4.6). */
export const SdkInformation = z.strictObject({
  sdk_app_id: str(64).min(1),
  sdk_enc_data: str(64_000).min(1),
  sdk_ephem_pub_key: z.record(Key(64), str(1024)),
  sdk_trans_id: str(64).min(1),
  sdk_reference_number: str(64).min(1),
  /** Minutes the SDK waits for the challenge; EMV 3DS says at least 05 (two digits). */
  sdk_max_timeout: z.number().int().min(5).max(99),
});

export const DEVICE_CHANNELS = ['APP', 'BRW'] as const;
export const THREE_DS_TRANS_STATUSES = ['Y', 'N', 'U', 'A', 'R', 'C', 'D', 'I'] as const;

/**
 * POST /payments/{id}/3ds/authentication (spec 4.6). The device channel and the three-value indicator are named as
 * the leading switch names them (device_channel, threeds_method_comp_ind). browser_info describes the customer's
 * browser for the BRW channel (the payment's own is used when absent).
 */
const threeDsFields = {
  sdk_information: opt(SdkInformation),
  device_channel: z.enum(DEVICE_CHANNELS),
  threeds_method_comp_ind: z.enum(['Y', 'N', 'U']),
  browser_info: opt(BrowserInfo),
};
function checkDeviceChannel(b: { device_channel: string; sdk_information?: unknown }, ctx: z.RefinementCtx): void {
  if (b.device_channel === 'APP' && !b.sdk_information)
    ctx.addIssue({ code: 'custom', path: ['sdk_information'], message: 'is required when device_channel is APP' });
  if (b.device_channel === 'BRW' && b.sdk_information) ctx.addIssue({ code: 'custom', path: ['sdk_information'], message: 'is for device_channel APP only' });
}
export const ThreeDsAuthenticationRequest = z.strictObject({ client_secret: opt(str(255)), ...threeDsFields }).superRefine(checkDeviceChannel);
/** The checkout page's 3DS authentication: the link is the permission, so no client_secret. */
export const CheckoutAuthenticationRequest = z.strictObject(threeDsFields).superRefine(checkDeviceChannel);

/** The answer of POST /payments/{id}/3ds/authentication (spec 4.6); trans_status null: no answer from the 3DS server yet. */
export const ThreeDsAuthenticationResponse = z.object({
  trans_status: z.enum(THREE_DS_TRANS_STATUSES).nullable(),
  three_ds_requestor_url: n(z.string()),
  acs_url: n(z.string()),
  challenge_request: n(z.string()),
  acs_reference_number: n(z.string()),
  acs_trans_id: n(z.string()),
  three_dsserver_trans_id: n(z.string()),
  acs_signed_content: n(z.string()),
});

/** POST /payments/{id}/approve and /reject: the decision is the path; the body is empty. */
export const ReviewDecisionRequest = z.strictObject({});

const Limit = z.coerce.number().int().min(1).max(100);

/** GET /payments/list query (the leading switch's names): newest first, cursor pagination. */
export const ListPaymentsQuery = z
  .strictObject({
    customer_id: str(64).optional(),
    starting_after: str(255).optional(),
    ending_before: str(255).optional(),
    limit: Limit.optional(),
    created: Timestamp.optional(),
    'created.lt': Timestamp.optional(),
    'created.gt': Timestamp.optional(),
    'created.lte': Timestamp.optional(),
    'created.gte': Timestamp.optional(),
  })
  .superRefine(
    rangesInOrder([
      [['created.gt'], ['created.lt']],
      [['created.gte'], ['created.lte']],
      [['created.gt'], ['created.lte']],
      [['created.gte'], ['created.lt']],
    ]),
  );

/** POST /payments/list body: filters, offset pagination. */
export const ListPaymentsFilter = z
  .strictObject({
    payment_id: opt(str(255)),
    customer_id: opt(str(64)),
    profile_id: opt(str(64)),
    status: opt(z.array(PaymentStatus).max(20)),
    connector: opt(z.array(Connector).max(20)),
    currency: opt(z.array(Currency).max(200)),
    payment_method: opt(z.array(z.literal('pay_later'))),
    payment_method_type: opt(z.array(PaymentMethodType).max(10)),
    amount_filter: opt(z.strictObject({ start_amount: opt(Amount), end_amount: opt(Amount) })),
    start_time: opt(Timestamp),
    end_time: opt(Timestamp),
    limit: opt(z.number().int().min(1).max(100)),
    offset: opt(z.number().int().min(0).max(MAX_LIST_OFFSET)),
  })
  .superRefine(
    rangesInOrder([
      [
        ['amount_filter', 'start_amount'],
        ['amount_filter', 'end_amount'],
      ],
      [['start_time'], ['end_time']],
    ]),
  );

export type CreatePaymentBody = z.infer<typeof CreatePaymentRequest>;
export type RoutingAlgorithm = z.infer<typeof Routing>;
export type IncrementalAuthorizationBody = z.infer<typeof IncrementalAuthorizationRequest>;
export type CancelPaymentBody = z.infer<typeof CancelPaymentRequest>;
export type UpdatePaymentBody = z.infer<typeof UpdatePaymentRequest>;
export type ConfirmPaymentBody = z.infer<typeof ConfirmPaymentRequest>;
export type CapturePaymentBody = z.infer<typeof CapturePaymentRequest>;
export type ThreeDsAuthenticationBody = z.infer<typeof ThreeDsAuthenticationRequest>;
export type ThreeDsAuthenticationAnswer = z.infer<typeof ThreeDsAuthenticationResponse>;

// ---------------------------------------------------------------------------------------------------------------
// Response resources

export const Attempt = z.object({
  attempt_id: z.string(),
  status: z.string(),
  amount: Amount,
  created_at: Timestamp,
  modified_at: Timestamp,
  order_tax_amount: n(Amount),
  currency: Currency,
  connector: n(Connector),
  error_message: n(z.string()),
  payment_method: n(z.string()),
  connector_transaction_id: n(z.string()),
  capture_method: n(CaptureMethod),
  authentication_type: n(z.string()),
  cancellation_reason: n(z.string()),
  mandate_id: n(z.string()),
  error_code: n(z.string()),
  payment_token: n(z.string()),
  connector_metadata: n(z.unknown()),
  payment_experience: n(z.string()),
  payment_method_type: n(z.string()),
  reference_id: n(z.string()),
  unified_code: n(z.string()),
  unified_message: n(z.string()),
  client_source: n(z.string()),
  client_version: n(z.string()),
  /** Why routing chose this attempt's connector (ARCHITECTURE.md: recorded on the attempt). */
  routing_reason: n(z.string()).optional(),
});

export const Capture = z.object({
  capture_id: z.string(),
  status: z.enum(['started', 'charged', 'pending', 'failed']),
  amount: Amount,
  connector: n(Connector),
  authorized_attempt_id: z.string(),
  capture_sequence: z.number().int(),
  currency: Currency,
  order_details: n(z.array(OrderLine)),
  connector_capture_id: n(z.string()),
  error_message: n(z.string()),
  error_code: n(z.string()),
  error_reason: n(z.string()),
  reference_id: n(z.string()),
});

export const IncrementalAuthorization = z.object({
  authorization_id: z.string(),
  amount: Amount,
  status: z.enum(['success', 'failure', 'processing']),
  previously_authorized_amount: Amount,
  error_code: n(z.string()),
  error_message: n(z.string()),
});

/** The outcome of the payment's external 3DS authentication, as the leading switch shows it. */
export const ExternalAuthenticationDetails = z.object({
  status: z.enum(['started', 'pending', 'success', 'failed']),
  authentication_flow: n(z.enum(['frictionless', 'challenge'])),
  electronic_commerce_indicator: n(z.string()),
  ds_transaction_id: n(z.string()),
  version: n(z.string()),
  error_code: n(z.string()),
  error_message: n(z.string()),
});

/**
 * What the customer must do next. redirect_to_url: open this page (a provider's checkout, a 3DS challenge).
 * three_ds_invoke: run the 3DS authentication (three_ds_data names the call); redirect_to_url is null then.
 */
export const NextAction = z.object({
  type: z.enum(['redirect_to_url', 'three_ds_invoke']),
  redirect_to_url: n(z.string()),
  three_ds_data: z.object({ three_ds_authentication_url: z.string() }).optional(),
});

export const Payment = z.object({
  payment_id: z.string(),
  merchant_id: z.string(),
  status: PaymentStatus,
  amount: Amount,
  net_amount: Amount,
  order_tax_amount: n(Amount),
  amount_capturable: Amount,
  amount_received: n(Amount),
  amount_cancelled: n(Amount),
  currency: Currency,
  payment_method: n(z.literal('pay_later')),
  payment_method_type: n(z.string()),
  payment_method_data: n(z.unknown()),
  payment_method_id: n(z.string()),
  payment_method_status: n(z.enum(['active', 'inactive', 'processing', 'awaiting_data'])),
  payment_token: n(z.string()),
  payment_experience: n(z.string()),
  attempt_count: z.number().int(),
  connector: n(Connector),
  connector_label: n(z.string()),
  merchant_connector_id: n(z.string()),
  connector_transaction_id: n(z.string()),
  connector_mandate_id: n(z.string()),
  connector_metadata: n(z.unknown()),
  client_secret: n(z.string()),
  created: Timestamp,
  updated: Timestamp,
  expires_on: n(Timestamp),
  capture_method: n(CaptureMethod),
  capture_on: n(Timestamp),
  authentication_type: n(z.enum(['three_ds', 'no_three_ds'])),
  external_3ds_authentication_attempted: n(z.boolean()),
  external_authentication_details: n(ExternalAuthenticationDetails),
  customer_id: n(z.string()),
  customer: n(z.object({ id: n(z.string()), name: n(z.string()), email: n(z.string()), phone: n(z.string()), phone_country_code: n(z.string()) })),
  email: n(z.string()),
  name: n(z.string()),
  phone: n(z.string()),
  birth_date: n(z.string()),
  ssn: n(z.string()),
  gender: n(z.string()),
  locale: n(z.string()),
  description: n(z.string()),
  return_url: n(z.string()),
  signed_checkout_token: n(z.string()),
  statement_descriptor_name: n(z.string()),
  statement_descriptor_suffix: n(z.string()),
  billing: n(z.unknown()),
  shipping: n(z.unknown()),
  order_details: n(z.array(OrderLineResource)),
  metadata: n(z.record(z.string(), z.unknown())),
  merchant_order_reference_id: n(z.string()),
  refunds: n(z.array(Refund)),
  disputes: n(z.array(PaymentDispute)),
  attempts: n(z.array(Attempt)),
  captures: n(z.array(Capture)),
  mandate_id: n(z.string()),
  mandate_data: n(z.unknown()),
  setup_future_usage: n(z.string()),
  off_session: n(z.boolean()),
  next_action: n(NextAction),
  cancellation_reason: n(z.string()),
  error_code: n(z.string()),
  error_message: n(z.string()),
  unified_code: n(z.string()),
  unified_message: n(z.string()),
  business_country: n(z.string()),
  business_label: n(z.string()),
  business_sub_label: n(z.string()),
  allowed_payment_method_types: n(z.array(z.string())),
  ephemeral_key: n(z.object({ customer_id: z.string(), created_at: z.number().int(), expires: z.number().int(), secret: z.string() })),
  manual_retry_allowed: n(z.boolean()),
  feature_metadata: n(z.unknown()),
  reference_id: n(z.string()),
  payment_link: n(z.object({ link: z.string(), payment_link_id: z.string(), secure_link: n(z.string()) })),
  profile_id: n(z.string()),
  surcharge_details: n(SurchargeDetails),
  merchant_decision: n(z.string()),
  incremental_authorization_allowed: n(z.boolean()),
  authorization_count: n(z.number().int()),
  incremental_authorizations: n(z.array(IncrementalAuthorization)),
  fingerprint: n(z.string()),
  browser_info: n(z.unknown()),
  split_payments: n(z.unknown()),
  frm_message: n(z.unknown()),
  frm_metadata: n(z.unknown()),
});

export type PaymentResource = z.infer<typeof Payment>;
export type AttemptRow = z.infer<typeof Attempt>;
export type CaptureRow = z.infer<typeof Capture>;
export const PAYMENT_FIELDS = Object.keys(Payment.shape) as (keyof PaymentResource)[];
