// The OpenAPI document (served at /openapi.json, rendered at /docs), generated from the same zod schemas that
// validate requests: zod is the single source. Every request and response body is a named component schema
// (components.schemas, referenced by $ref); every operation has an operationId (the leading switch's names where it
// has the operation), a tag, its security (admin key, merchant secret key, publishable key, or none) and every
// status it can answer, each refusal with the shared error body. `redocly lint` passes it (gateway/openapi.test.ts,
// redocly.yaml).
import { z } from 'zod';
import { config } from '../lib/config.ts';
import { Currency, Country, Connector, PaymentStatus, CaptureMethod, PaymentMethodType } from '../lib/schemas/common.ts';
import {
  Address,
  CancelPaymentRequest,
  CapturePaymentRequest,
  ConfirmPaymentRequest,
  CreatePaymentRequest,
  CustomerDetails,
  IncrementalAuthorizationRequest,
  ListPaymentsFilter,
  ListPaymentsQuery,
  NextAction,
  PAYMENT_FIELDS,
  Payment,
  ReviewDecisionRequest,
  ThreeDsAuthenticationRequest,
  ThreeDsAuthenticationResponse,
  UpdatePaymentRequest,
} from '../lib/schemas/payment.ts';
import { PaymentLink, RetrievePaymentLinkRequest } from '../lib/schemas/payment-link.ts';
import { OrderLine } from '../lib/schemas/order-line.ts';
import { CreateRefundRequest, ListRefundsFilter, Refund, UpdateRefundRequest } from '../lib/schemas/refund.ts';
import {
  CreateCustomerRequest,
  CreateEphemeralKeyRequest,
  Customer,
  CustomerDeleted,
  EphemeralKey,
  ListCustomersQuery,
  UpdateCustomerRequest,
} from '../lib/schemas/customer.ts';
import { Dispute, ListDisputesQuery } from '../lib/schemas/dispute.ts';
import {
  ApiKey,
  ApiKeyCreated,
  ApiKeyRevoked,
  BusinessProfile,
  ConnectorAccount,
  ConnectorAccountDeleted,
  CreateApiKeyRequest,
  CreateConnectorAccountRequest,
  CreateMerchantAccountRequest,
  CreateProfileRequest,
  MerchantAccount,
  MerchantAccountDeleted,
  UpdateApiKeyRequest,
  UpdateConnectorAccountRequest,
  UpdateMerchantAccountRequest,
  UpdateProfileRequest,
} from '../lib/schemas/merchant.ts';
import { CustomerPaymentMethod, MandateResource, MandateRevoked } from '../lib/schemas/mandate.ts';
import { EventAttempts, EventList, ListEventsQuery, RetryEventResponse, WebhookDelivery } from '../lib/schemas/event.ts';
import { SERVER_TIMING_METRICS } from './server-timing.ts';

/** The error body of every refusal (lib/errors.ts). */
export const ErrorBody = z.object({
  error: z.object({
    type: z.enum(['invalid_request', 'api', 'connector']),
    code: z.string(),
    message: z.string(),
    param: z.string().optional(),
  }),
});

const PaymentList = z.object({ size: z.number().int(), data: z.array(Payment) });
const PaymentListWithCount = z.object({ count: z.number().int(), total_count: z.number().int(), data: z.array(Payment) });
const RefundList = z.object({ count: z.number().int(), total_count: z.number().int(), data: z.array(Refund) });
const FeatureMatrix = z.object({
  connector_count: z.number().int(),
  connectors: z.array(
    z.looseObject({
      name: z.string(),
      display_name: z.string(),
    }),
  ),
});
const WebhookReceived = z.object({ received: z.literal(true) });
const ProviderNotification = z.record(z.string(), z.unknown()).describe("The provider's own notification body");

/** The named component schemas: request bodies, resources, and the types they share. */
export const COMPONENT_SCHEMAS = {
  Error: ErrorBody,
  Currency,
  Country,
  Connector,
  PaymentStatus,
  CaptureMethod,
  PaymentMethodType,
  Address,
  CustomerDetails,
  OrderLine,
  NextAction,
  CreatePaymentRequest,
  UpdatePaymentRequest,
  ConfirmPaymentRequest,
  CapturePaymentRequest,
  CancelPaymentRequest,
  IncrementalAuthorizationRequest,
  ReviewDecisionRequest,
  ThreeDsAuthenticationRequest,
  ThreeDsAuthenticationResponse,
  ListPaymentsFilter,
  Payment,
  PaymentList,
  PaymentListWithCount,
  CreateRefundRequest,
  UpdateRefundRequest,
  ListRefundsFilter,
  Refund,
  RefundList,
  CreateCustomerRequest,
  UpdateCustomerRequest,
  Customer,
  CustomerList: z.array(Customer),
  CustomerDeleted,
  CreateEphemeralKeyRequest,
  EphemeralKey,
  Mandate: MandateResource,
  MandateList: z.array(MandateResource),
  MandateRevoked,
  CustomerPaymentMethod,
  CustomerPaymentMethodList: z.object({ customer_payment_methods: z.array(CustomerPaymentMethod) }),
  Dispute,
  DisputeList: z.array(Dispute),
  EventList,
  EventAttempts,
  WebhookDelivery,
  RetryEventResponse,
  PaymentLink,
  CreateMerchantAccountRequest,
  UpdateMerchantAccountRequest,
  MerchantAccount,
  MerchantAccountDeleted,
  CreateApiKeyRequest,
  UpdateApiKeyRequest,
  ApiKey,
  ApiKeyCreated,
  ApiKeyList: z.array(ApiKey),
  ApiKeyRevoked,
  CreateProfileRequest,
  UpdateProfileRequest,
  BusinessProfile,
  BusinessProfileList: z.array(BusinessProfile),
  CreateConnectorAccountRequest,
  UpdateConnectorAccountRequest,
  ConnectorAccount,
  ConnectorAccountList: z.array(ConnectorAccount),
  ConnectorAccountDeleted,
  FeatureMatrix,
  ProviderNotification,
  WebhookReceived,
} satisfies Record<string, z.ZodType>;
type ComponentName = keyof typeof COMPONENT_SCHEMAS;

type Json = Record<string, unknown>;

/**
 * JSON Schema -> what OpenAPI tools read well: no `$schema`/`$id` per component, and a union with an empty schema
 * (zod's `unknown().nullable()`: any value) written as the empty schema it is.
 */
function tidy(node: unknown): unknown {
  if (Array.isArray(node)) return node.map(tidy);
  if (!node || typeof node !== 'object') return node;
  const out: Json = {};
  for (const [k, v] of Object.entries(node as Json)) {
    if (k === '$schema' || k === '$id') continue;
    out[k] = tidy(v);
  }
  for (const key of ['anyOf', 'oneOf'] as const) {
    const list = out[key] as Json[] | undefined;
    if (list?.some((s) => Object.keys(s).length === 0)) delete out[key];
  }
  return out;
}

/** components.schemas, from the zod schemas: a schema named here is a $ref wherever another one uses it. */
function componentSchemas(): Record<string, Json> {
  const registry = z.registry<{ id: string }>();
  for (const [id, schema] of Object.entries(COMPONENT_SCHEMAS) as [string, z.ZodType][]) registry.add(schema, { id });
  const { schemas } = z.toJSONSchema(registry, { io: 'input', unrepresentable: 'any', uri: (id) => `#/components/schemas/${id}` });
  return tidy(schemas) as Record<string, Json>;
}

const ref = (name: ComponentName) => ({ $ref: `#/components/schemas/${name}` });

/** A JSON body of a named schema, with examples (each checked against the zod schema in gateway/openapi.test.ts). */
function body(name: ComponentName, examples?: Record<string, { summary: string; value: unknown }>) {
  return { content: { 'application/json': { schema: ref(name), ...(examples ? { examples } : {}) } } };
}

// ---------------------------------------------------------------------------------------------------------------
// Examples

const PAY_ID = 'pay_Hq2nWkz1xLm5RcT0aVbYe3uFdQ';
const MERCHANT_ID = 'merchant_1764211200';
const CREATED = '2026-11-27T09:00:00.000Z';

/** A Payment answer: every field, the ones a fresh BNPL payment has set. */
export const PAYMENT_EXAMPLE = {
  ...Object.fromEntries(PAYMENT_FIELDS.map((k) => [k, null])),
  payment_id: PAY_ID,
  merchant_id: MERCHANT_ID,
  status: 'requires_customer_action',
  amount: 6540,
  net_amount: 6540,
  amount_capturable: 6540,
  amount_received: null,
  currency: 'EUR',
  payment_method: 'pay_later',
  payment_method_type: 'invoice',
  attempt_count: 1,
  connector: 'service_test',
  client_secret: `${PAY_ID}_secret_V1xq9RkL2mTz8NbC4hWy`,
  created: CREATED,
  updated: CREATED,
  capture_method: 'automatic',
  customer_id: 'cus_1001',
  description: 'Order 1001',
  return_url: 'https://shop.example/orders/1001/done',
  next_action: { type: 'redirect_to_url', redirect_to_url: 'https://provider.example/checkout/abc' },
  profile_id: 'pro_6Xb9cQ2rT5vN8mK1',
};

/** Examples of answers, by schema (each checked against the zod schema in gateway/openapi.test.ts). */
export const RESPONSE_EXAMPLES: Partial<Record<ComponentName, unknown>> = {
  Payment: PAYMENT_EXAMPLE,
  Refund: {
    refund_id: 'ref_Kp3sV8nQ1wXz6Tb9Lm2cRy5uHd',
    payment_id: PAY_ID,
    amount: 1000,
    currency: 'EUR',
    status: 'succeeded',
    connector: 'service_test',
    reason: 'Returned item',
    metadata: null,
    error_message: null,
    error_code: null,
    unified_code: null,
    unified_message: null,
    created_at: CREATED,
    updated_at: CREATED,
    profile_id: 'pro_6Xb9cQ2rT5vN8mK1',
    merchant_connector_id: 'mca_4Tz8Qw1Rn6Vb3Lk9',
    split_refunds: null,
    order_details: null,
    capture_id: null,
  },
  Customer: {
    customer_id: 'cus_1001',
    name: 'Jane Doe',
    email: 'jane@example.com',
    phone: null,
    phone_country_code: null,
    description: null,
    address: null,
    metadata: null,
    created_at: CREATED,
  },
  MerchantAccount: {
    merchant_id: MERCHANT_ID,
    merchant_name: 'Example Shop',
    publishable_key: 'pk_snd_3f9a1c7e5b2d4f6a8c0e1b3d5f7a9c2e',
    metadata: null,
    manual_review: null,
    default_profile: 'pro_6Xb9cQ2rT5vN8mK1',
    created: CREATED,
    updated: CREATED,
  },
  ApiKeyCreated: {
    key_id: 'dev_8Rm2Kx5Tq9Wz3Lp7',
    merchant_id: MERCHANT_ID,
    name: 'Production server',
    description: null,
    prefix: 'snd_4d7e1a9c',
    created: CREATED,
    expiration: 'never',
    revoked: false,
    api_key: 'snd_4d7e1a9c0b3f6e2d8a5c7b1e9f0a3d6c2b8e5f1a7d4c0b9e3f6a2d8c5b1e7f0a4',
  },
};

export const ERROR_EXAMPLES = {
  400: {
    error: { type: 'invalid_request', code: 'IR_05', message: 'Invalid value for currency: currency codes are upper case (e.g. EUR)', param: 'currency' },
  },
  401: { error: { type: 'invalid_request', code: 'IR_01', message: 'API key not provided or invalid API key used' } },
  403: { error: { type: 'invalid_request', code: 'IR_22', message: 'This endpoint needs the secret key; the publishable key cannot call it' } },
  404: { error: { type: 'invalid_request', code: 'HE_02', message: 'Payment does not exist in our records' } },
  409: { error: { type: 'invalid_request', code: 'HE_01', message: 'This Idempotency-Key was used with a different request', param: 'Idempotency-Key' } },
  429: { error: { type: 'invalid_request', code: 'RL_01', message: 'Too many requests; retry after the time in Retry-After' } },
  503: { error: { type: 'api', code: 'HE_00', message: 'A service the request needs is unavailable; retry later' } },
} as const;

export const REQUEST_EXAMPLES: Partial<Record<ComponentName, Record<string, { summary: string; value: unknown }>>> = {
  CreatePaymentRequest: {
    create: {
      summary: 'Create, to confirm later',
      value: { amount: 6540, currency: 'EUR', customer_id: 'cus_1001', description: 'Order 1001', return_url: 'https://shop.example/orders/1001/done' },
    },
    create_and_confirm: {
      summary: 'Create and confirm in one call',
      value: {
        amount: 6540,
        currency: 'EUR',
        confirm: true,
        capture_method: 'manual',
        payment_method: 'pay_later',
        payment_method_type: 'invoice',
        return_url: 'https://shop.example/orders/1001/done',
      },
    },
  },
  ConfirmPaymentRequest: {
    confirm: { summary: 'Confirm with a BNPL invoice', value: { payment_method: 'pay_later', payment_method_type: 'invoice' } },
  },
  CapturePaymentRequest: { partial: { summary: 'Capture part of the authorized amount', value: { amount_to_capture: 4000 } } },
  CancelPaymentRequest: { cancel: { summary: 'Cancel with a reason', value: { cancellation_reason: 'requested_by_customer' } } },
  IncrementalAuthorizationRequest: { raise: { summary: 'Raise the authorized total to 80.00', value: { amount: 8000 } } },
  CreateRefundRequest: { partial: { summary: 'Refund 10.00 of a payment', value: { payment_id: PAY_ID, amount: 1000, reason: 'Returned item' } } },
  CreateCustomerRequest: {
    create: { summary: 'A customer with an email', value: { customer_id: 'cus_1001', name: 'Jane Doe', email: 'jane@example.com' } },
  },
  CreateMerchantAccountRequest: { create: { summary: 'A merchant account', value: { merchant_id: MERCHANT_ID, merchant_name: 'Example Shop' } } },
  CreateApiKeyRequest: { create: { summary: 'A key that never expires', value: { name: 'Production server', expiration: 'never' } } },
  CreateConnectorAccountRequest: {
    create: {
      summary: "The sandbox provider's account",
      value: { connector_name: 'service_test', connector_account_details: { auth_type: 'HeaderKey', api_key: 'sk_sandbox_service_test' } },
    },
  },
  CreateProfileRequest: {
    create: {
      summary: 'A profile with its webhook URL',
      value: { profile_name: 'eu_shop', webhook_details: { webhook_url: 'https://shop.example/webhooks' } },
    },
  },
};

// ---------------------------------------------------------------------------------------------------------------
// Operations

type Access = 'admin' | 'merchant' | 'client' | 'admin or merchant' | 'public' | 'signed';

const SECURITY: Record<Access, Record<string, string[]>[]> = {
  admin: [{ admin_api_key: [] }],
  merchant: [{ api_key: [] }],
  client: [{ api_key: [] }, { publishable_key: [] }],
  'admin or merchant': [{ admin_api_key: [] }, { api_key: [] }],
  public: [],
  signed: [],
};

const UNAUTHORIZED: Record<Access, string> = {
  admin: 'No api-key header, or not the admin key: this operation wants the admin key (ADMIN_API_KEY) in the api-key header',
  merchant: "No api-key header, or an unknown, revoked or expired key: this operation wants the merchant's secret key in the api-key header",
  client:
    "No api-key header, or an unknown, revoked or expired key: this operation wants the merchant's secret key, or its publishable key with the payment's client_secret, in the api-key header",
  'admin or merchant': "No api-key header, or an unknown key: this operation wants the admin key or the merchant's own secret key in the api-key header",
  public: '',
  signed: "The provider's signature is missing or invalid; nothing was recorded",
};

const errorResponse = (description: string, status: keyof typeof ERROR_EXAMPLES) => ({
  description,
  ...(status === 429 ? { headers: { 'Retry-After': { $ref: '#/components/headers/RetryAfter' } } } : {}),
  content: { 'application/json': { schema: ref('Error'), example: ERROR_EXAMPLES[status] } },
});

interface Op {
  id: string;
  tag: string;
  summary: string;
  description?: string;
  access: Access;
  params?: Json[];
  request?: ComponentName;
  /** The success answer: a named schema, or a description only. */
  ok: ComponentName | { description: string };
  okDescription?: string;
  /** The publishable key's refusal (403) where an operation the publishable key may call has one. */
  forbidden?: string;
  /** Further success answers (e.g. 202). */
  more?: Record<number, Json>;
  /** Statuses beyond those the access and method give: 404 (a resource named in the path or body), 409, 503. */
  notFound?: string;
  conflict?: string;
  unavailable?: boolean;
  /** Whether the request is read as JSON (bodies and query strings can be refused: 400). */
  validates?: boolean;
}

const IDEMPOTENCY = { $ref: '#/components/parameters/IdempotencyKey' };

/** Payment and refund operations answer with Server-Timing (gateway/server-timing.ts, issue 24). */
const answersServerTiming = (path: string) => /^\/(payments|refunds)(\/|$)/.test(path);
const SERVER_TIMING = { 'Server-Timing': { $ref: '#/components/headers/ServerTiming' } };

function operation(method: string, op: Op, timed = false) {
  const responses: Record<string, unknown> = {};
  if (typeof op.ok === 'string') {
    const ok = body(op.ok);
    const example = RESPONSE_EXAMPLES[op.ok];
    if (example) Object.assign(ok.content['application/json'], { example });
    responses[200] = { description: op.okDescription ?? op.summary, ...ok };
  } else responses[200] = op.ok;
  if (timed) responses[200] = { ...(responses[200] as object), headers: SERVER_TIMING };
  Object.assign(responses, op.more ?? {});
  const admitsIdempotencyKey = method === 'post' && op.access !== 'public' && op.access !== 'signed' && op.access !== 'admin or merchant';
  if (op.validates !== false)
    responses[400] = errorResponse(
      'Invalid request: the body, the query or a header is refused (param names the field), or the operation is not allowed now',
      400,
    );
  if (op.access !== 'public') responses[401] = errorResponse(UNAUTHORIZED[op.access], 401);
  if (op.access === 'merchant' || op.access === 'admin or merchant')
    responses[403] = errorResponse('The publishable key cannot call this operation: use the secret key (server-side)', 403);
  if (op.access === 'client' && op.forbidden) responses[403] = errorResponse(op.forbidden, 403);
  if (op.notFound) responses[404] = errorResponse(op.notFound, 404);
  const conflicts = [
    op.conflict,
    admitsIdempotencyKey ? 'the Idempotency-Key was used with another request or endpoint, or its first request is still running' : null,
  ].filter(Boolean);
  if (conflicts.length) responses[409] = errorResponse(`Conflict: ${conflicts.join('; or ')}`, 409);
  responses[429] = errorResponse('Over a rate limit (per client address, per API key, or per checkout payment): retry after Retry-After seconds', 429);
  if (op.unavailable)
    responses[503] = errorResponse('payment-state (the service that records every change) is unavailable; nothing was started, retry later', 503);
  const requestExamples = op.request ? REQUEST_EXAMPLES[op.request] : undefined;
  return {
    operationId: op.id,
    tags: [op.tag],
    summary: op.summary,
    ...(op.description ? { description: op.description } : {}),
    security: SECURITY[op.access],
    ...(op.params?.length || admitsIdempotencyKey ? { parameters: [...(op.params ?? []), ...(admitsIdempotencyKey ? [IDEMPOTENCY] : [])] } : {}),
    // Required only where an absent body is refused (validate() reads no body as {}).
    ...(op.request
      ? { requestBody: { required: !(COMPONENT_SCHEMAS[op.request] as z.ZodType).safeParse({}).success, ...body(op.request, requestExamples) } }
      : {}),
    responses,
  };
}

const pathParam = (name: string, description: string) => ({ name, in: 'path', required: true, description, schema: { type: 'string' } });
const P = {
  payment: pathParam('payment_id', 'The payment id (pay_ and 26 characters)'),
  refund: pathParam('refund_id', 'The refund id'),
  customer: pathParam('customer_id', 'The customer id'),
  mandate: pathParam('mandate_id', 'The mandate id'),
  dispute: pathParam('dispute_id', 'The dispute id'),
  merchant: pathParam('merchant_id', 'The merchant account id'),
  event: pathParam('event_id', 'The event id'),
  key: pathParam('key_id', 'The API key id'),
  profile: pathParam('profile_id', 'The business profile id'),
  mca: pathParam('merchant_connector_id', 'The merchant connector account id'),
  link: pathParam('payment_link_id', 'The payment link id'),
};

/** A zod query schema's fields as query parameters. */
const queryParams = (schema: z.ZodType) =>
  Object.entries((tidy(z.toJSONSchema(schema, { io: 'input', unrepresentable: 'any' })) as { properties: Record<string, Json> }).properties).map(
    ([name, s]) => ({ name, in: 'query', required: false, schema: s, ...(typeof s.description === 'string' ? { description: s.description } : {}) }),
  );

const notFound = {
  payment: "No such payment for this merchant (unknown, or another merchant's): param names the id",
  refund: 'No such refund for this merchant',
  customer: 'No such customer for this merchant (param customer_id)',
  mandate: 'No such mandate for this merchant (param mandate_id)',
  dispute: 'No such dispute for this merchant',
  merchant: 'No such merchant account',
  key: 'No such merchant account or API key',
  profile: 'No such merchant account or business profile',
  mca: 'No such merchant account or connector account',
  event: "No such merchant account (or not the caller's own) or event",
};

const payOp = (id: string, path: string, summary: string, request: ComponentName, access: Access = 'merchant', description?: string): [string, string, Op] => [
  `/payments/{payment_id}/${path}`,
  'post',
  {
    id,
    tag: 'Payments',
    summary,
    description,
    access,
    params: [P.payment],
    request,
    ok: 'Payment',
    notFound: notFound.payment,
    conflict: 'the payment is being changed by another request',
    unavailable: true,
  },
];

const OPERATIONS: [string, string, Op][] = [
  // Payments
  [
    '/payments',
    'post',
    {
      id: 'createPayment',
      tag: 'Payments',
      summary: 'Create a payment',
      description:
        'Creates a payment; with `confirm: true` confirms it in the same call and answers when the provider has (or the wait ends: the payment is then `processing`). Amounts are in minor units.',
      access: 'merchant',
      request: 'CreatePaymentRequest',
      ok: 'Payment',
      notFound: 'A mandate or saved payment method named in the body (param mandate_id or payment_token) does not exist for this merchant',
      conflict: 'payment_id exists with another body',
      unavailable: true,
    },
  ],
  [
    '/payments/list',
    'get',
    {
      id: 'listPayments',
      tag: 'Payments',
      summary: 'List payments, newest first (cursor pagination)',
      access: 'merchant',
      params: queryParams(ListPaymentsQuery),
      ok: 'PaymentList',
    },
  ],
  [
    '/payments/list',
    'post',
    {
      id: 'listPaymentsWithFilters',
      tag: 'Payments',
      summary: 'List payments with filters (offset pagination)',
      access: 'merchant',
      request: 'ListPaymentsFilter',
      ok: 'PaymentListWithCount',
    },
  ],
  [
    '/payments/{payment_id}',
    'get',
    {
      id: 'retrievePayment',
      tag: 'Payments',
      summary: 'Retrieve a payment',
      description:
        "With the secret key: the whole payment. With the publishable key and `client_secret`: the fields the customer's browser needs. `force_sync=true` asks the provider now about operations in flight.",
      access: 'client',
      params: [
        P.payment,
        { name: 'force_sync', in: 'query', required: false, schema: { type: 'string', enum: ['true', 'false'] } },
        { name: 'client_secret', in: 'query', required: false, description: 'With the publishable key only', schema: { type: 'string' } },
      ],
      ok: 'Payment',
      notFound: notFound.payment,
    },
  ],
  [
    '/payments/{payment_id}',
    'post',
    {
      id: 'updatePayment',
      tag: 'Payments',
      summary: 'Update a payment before it is confirmed',
      access: 'merchant',
      params: [P.payment],
      request: 'UpdatePaymentRequest',
      ok: 'Payment',
      notFound: notFound.payment,
      conflict: 'the payment is being changed by another request',
      unavailable: true,
    },
  ],
  [
    '/payments/{payment_id}/confirm',
    'post',
    {
      id: 'confirmPayment',
      tag: 'Payments',
      summary: 'Confirm a payment',
      description: "From the merchant's server (secret key) or the customer's browser (publishable key and `client_secret`, the customer's fields only).",
      access: 'client',
      params: [P.payment],
      request: 'ConfirmPaymentRequest',
      ok: 'Payment',
      forbidden: "The publishable key sent a field only the merchant's secret key may set",
      notFound: notFound.payment,
      conflict: 'the payment is being changed by another request',
      unavailable: true,
    },
  ],
  payOp('capturePayment', 'capture', 'Capture an authorized payment (in full or in part)', 'CapturePaymentRequest'),
  payOp('cancelPayment', 'cancel', 'Cancel a payment', 'CancelPaymentRequest'),
  payOp('incrementAuthorization', 'incremental_authorization', 'Raise the authorized amount (amount = the new total)', 'IncrementalAuthorizationRequest'),
  payOp('approvePayment', 'approve', 'Approve a payment held in our manual review', 'ReviewDecisionRequest'),
  payOp('rejectPayment', 'reject', 'Reject a payment held in our manual review (voided, then failed)', 'ReviewDecisionRequest'),
  [
    '/payments/{payment_id}/3ds/authentication',
    'post',
    {
      id: 'externalAuthenticatePayment',
      tag: 'Payments',
      summary: 'Run the external 3DS authentication',
      description:
        "From the customer's device (publishable key and `client_secret`) or the merchant's server (secret key). The payment goes on to the provider on Y or A.",
      access: 'client',
      params: [P.payment],
      request: 'ThreeDsAuthenticationRequest',
      ok: 'ThreeDsAuthenticationResponse',
      notFound: notFound.payment,
      conflict: 'the payment is being changed by another request',
      unavailable: true,
    },
  ],
  // Refunds
  [
    '/refunds',
    'post',
    {
      id: 'createRefund',
      tag: 'Refunds',
      summary: 'Create a refund',
      description: "A provider's decline is a failed refund (200, status failed), not an error.",
      access: 'merchant',
      request: 'CreateRefundRequest',
      ok: 'Refund',
      notFound: notFound.payment,
      conflict: 'refund_id exists with another body; or the payment is being changed by another request',
      unavailable: true,
    },
  ],
  [
    '/refunds/list',
    'post',
    { id: 'listRefunds', tag: 'Refunds', summary: 'List refunds, newest first', access: 'merchant', request: 'ListRefundsFilter', ok: 'RefundList' },
  ],
  [
    '/refunds/{refund_id}',
    'get',
    {
      id: 'retrieveRefund',
      tag: 'Refunds',
      summary: 'Retrieve a refund (force_sync=true asks the provider now)',
      access: 'merchant',
      params: [P.refund, { name: 'force_sync', in: 'query', required: false, schema: { type: 'string', enum: ['true', 'false'] } }],
      ok: 'Refund',
      notFound: notFound.refund,
    },
  ],
  [
    '/refunds/{refund_id}',
    'post',
    {
      id: 'updateRefund',
      tag: 'Refunds',
      summary: "Update a refund's reason and metadata",
      access: 'merchant',
      params: [P.refund],
      request: 'UpdateRefundRequest',
      ok: 'Refund',
      notFound: notFound.refund,
      unavailable: true,
    },
  ],
  // Disputes
  [
    '/disputes/list',
    'get',
    {
      id: 'listDisputes',
      tag: 'Disputes',
      summary: 'List disputes, newest received first',
      description: 'Enum filters take comma-separated lists; received_time is when we received the dispute.',
      access: 'merchant',
      params: queryParams(ListDisputesQuery),
      ok: 'DisputeList',
    },
  ],
  [
    '/disputes/{dispute_id}',
    'get',
    {
      id: 'retrieveDispute',
      tag: 'Disputes',
      summary: 'Retrieve a dispute',
      access: 'merchant',
      params: [P.dispute],
      ok: 'Dispute',
      notFound: notFound.dispute,
    },
  ],
  // Customers
  [
    '/ephemeral_keys',
    'post',
    {
      id: 'createEphemeralKey',
      tag: 'Customers',
      summary: "Create an ephemeral key for one of the merchant's customers (its secret is answered once)",
      access: 'merchant',
      request: 'CreateEphemeralKeyRequest',
      ok: 'EphemeralKey',
      notFound: notFound.customer,
    },
  ],
  [
    '/customers',
    'post',
    {
      id: 'createCustomer',
      tag: 'Customers',
      summary: 'Create a customer',
      access: 'merchant',
      request: 'CreateCustomerRequest',
      ok: 'Customer',
      conflict: 'customer_id taken',
    },
  ],
  [
    '/customers/list',
    'get',
    {
      id: 'listCustomers',
      tag: 'Customers',
      summary: 'List customers, newest first (offset pagination)',
      access: 'merchant',
      params: queryParams(ListCustomersQuery),
      ok: 'CustomerList',
    },
  ],
  [
    '/customers/{customer_id}',
    'get',
    {
      id: 'retrieveCustomer',
      tag: 'Customers',
      summary: 'Retrieve a customer',
      access: 'merchant',
      params: [P.customer],
      ok: 'Customer',
      notFound: notFound.customer,
    },
  ],
  [
    '/customers/{customer_id}',
    'post',
    {
      id: 'updateCustomer',
      tag: 'Customers',
      summary: 'Update a customer (fields left out are kept)',
      access: 'merchant',
      params: [P.customer],
      request: 'UpdateCustomerRequest',
      ok: 'Customer',
      notFound: notFound.customer,
    },
  ],
  [
    '/customers/{customer_id}',
    'delete',
    {
      id: 'deleteCustomer',
      tag: 'Customers',
      summary: 'Delete a customer',
      description: "Payments keep their copy; the customer's active mandates are revoked and its saved payment methods deleted.",
      access: 'merchant',
      params: [P.customer],
      ok: 'CustomerDeleted',
      notFound: notFound.customer,
    },
  ],
  // Mandates and saved payment methods
  [
    '/customers/{customer_id}/mandates',
    'get',
    {
      id: 'listCustomerMandates',
      tag: 'Mandates',
      summary: "List a customer's mandates, newest first",
      description: 'status expired once past a single_use end_date.',
      access: 'merchant',
      params: [P.customer],
      ok: 'MandateList',
      notFound: notFound.customer,
    },
  ],
  [
    '/customers/{customer_id}/payment_methods',
    'get',
    {
      id: 'listCustomerPaymentMethods',
      tag: 'Payment methods',
      summary: "List a customer's saved payment methods, newest first (no sensitive data)",
      access: 'merchant',
      params: [P.customer],
      ok: 'CustomerPaymentMethodList',
      notFound: notFound.customer,
    },
  ],
  [
    '/mandates/{mandate_id}',
    'get',
    {
      id: 'retrieveMandate',
      tag: 'Mandates',
      summary: 'Retrieve a mandate',
      access: 'merchant',
      params: [P.mandate],
      ok: 'Mandate',
      notFound: notFound.mandate,
    },
  ],
  [
    '/mandates/revoke/{mandate_id}',
    'post',
    {
      id: 'revokeMandate',
      tag: 'Mandates',
      summary: 'Revoke a mandate (no body)',
      description:
        'active -> revoked, with a mandate_revoked event; a revoked mandate answers revoked again; an expired one is refused (400, param mandate_id).',
      access: 'merchant',
      params: [P.mandate],
      ok: 'MandateRevoked',
      notFound: notFound.mandate,
    },
  ],
  // Payment links
  [
    '/payment_link/{payment_link_id}',
    'get',
    {
      id: 'retrievePaymentLink',
      tag: 'Payment links',
      summary: 'Retrieve a payment link',
      description: 'With the publishable key, `client_secret` is required (in the query string; the body the spec shows is read too).',
      access: 'client',
      params: [P.link, ...queryParams(RetrievePaymentLinkRequest)],
      ok: 'PaymentLink',
      notFound: 'No such payment link for this merchant',
    },
  ],
  // Events
  [
    '/events/{merchant_id}',
    'get',
    {
      id: 'listEvents',
      tag: 'Events',
      summary: "List a merchant's events, newest first",
      description: 'event_types comma-separated; created_after and created_before inclusive.',
      access: 'admin or merchant',
      params: [P.merchant, ...queryParams(ListEventsQuery)],
      ok: 'EventList',
      notFound: notFound.merchant,
    },
  ],
  [
    '/events/{merchant_id}/{event_id}/attempts',
    'get',
    {
      id: 'listEventDeliveryAttempts',
      tag: 'Events',
      summary: "An event's delivery attempts, oldest first",
      access: 'admin or merchant',
      params: [P.merchant, P.event],
      ok: 'EventAttempts',
      notFound: notFound.event,
    },
  ],
  [
    '/events/{merchant_id}/{event_id}/retry',
    'post',
    {
      id: 'retryEventDelivery',
      tag: 'Events',
      summary: 'Deliver an event again now',
      description: 'One attempt beside the schedule; answers when the attempt is made (202 with attempt null if it is still running).',
      access: 'admin or merchant',
      params: [P.merchant, P.event],
      ok: 'RetryEventResponse',
      okDescription: 'The event and the attempt',
      more: { 202: { description: 'The attempt is still running (attempt null)', ...body('RetryEventResponse') } },
      notFound: notFound.event,
    },
  ],
  // Merchant accounts
  [
    '/accounts',
    'post',
    {
      id: 'createMerchantAccount',
      tag: 'Merchant accounts',
      summary: 'Create a merchant account',
      access: 'admin',
      request: 'CreateMerchantAccountRequest',
      ok: 'MerchantAccount',
      conflict: 'merchant_id taken (now or by a deleted account)',
    },
  ],
  [
    '/accounts/{merchant_id}',
    'get',
    {
      id: 'retrieveMerchantAccount',
      tag: 'Merchant accounts',
      summary: 'Retrieve a merchant account',
      access: 'admin',
      params: [P.merchant],
      ok: 'MerchantAccount',
      notFound: notFound.merchant,
    },
  ],
  [
    '/accounts/{merchant_id}',
    'post',
    {
      id: 'updateMerchantAccount',
      tag: 'Merchant accounts',
      summary: 'Update a merchant account',
      access: 'admin',
      params: [P.merchant],
      request: 'UpdateMerchantAccountRequest',
      ok: 'MerchantAccount',
      notFound: notFound.merchant,
    },
  ],
  [
    '/accounts/{merchant_id}',
    'delete',
    {
      id: 'deleteMerchantAccount',
      tag: 'Merchant accounts',
      summary: 'Delete a merchant account: its keys stop at once',
      access: 'admin',
      params: [P.merchant],
      ok: 'MerchantAccountDeleted',
      notFound: notFound.merchant,
    },
  ],
  // API keys
  [
    '/api_keys/{merchant_id}',
    'post',
    {
      id: 'createApiKey',
      tag: 'API keys',
      summary: 'Create an API key (the key is answered once)',
      access: 'admin',
      params: [P.merchant],
      request: 'CreateApiKeyRequest',
      ok: 'ApiKeyCreated',
      notFound: notFound.merchant,
    },
  ],
  [
    '/api_keys/{merchant_id}/list',
    'get',
    {
      id: 'listApiKeys',
      tag: 'API keys',
      summary: 'List API keys (never the key itself)',
      access: 'admin',
      params: [P.merchant],
      ok: 'ApiKeyList',
      notFound: notFound.merchant,
    },
  ],
  [
    '/api_keys/{merchant_id}/{key_id}',
    'get',
    {
      id: 'retrieveApiKey',
      tag: 'API keys',
      summary: 'Retrieve an API key',
      access: 'admin',
      params: [P.merchant, P.key],
      ok: 'ApiKey',
      notFound: notFound.key,
    },
  ],
  [
    '/api_keys/{merchant_id}/{key_id}',
    'post',
    {
      id: 'updateApiKey',
      tag: 'API keys',
      summary: 'Update name, description, expiration',
      access: 'admin',
      params: [P.merchant, P.key],
      request: 'UpdateApiKeyRequest',
      ok: 'ApiKey',
      notFound: notFound.key,
    },
  ],
  [
    '/api_keys/{merchant_id}/{key_id}',
    'delete',
    {
      id: 'revokeApiKey',
      tag: 'API keys',
      summary: 'Revoke an API key at once',
      access: 'admin',
      params: [P.merchant, P.key],
      ok: 'ApiKeyRevoked',
      notFound: notFound.key,
    },
  ],
  // Business profiles
  [
    '/account/{merchant_id}/business_profile',
    'post',
    {
      id: 'createBusinessProfile',
      tag: 'Business profiles',
      summary: 'Create a business profile',
      access: 'admin',
      params: [P.merchant],
      request: 'CreateProfileRequest',
      ok: 'BusinessProfile',
      notFound: notFound.merchant,
      conflict: 'profile_name taken',
    },
  ],
  [
    '/account/{merchant_id}/business_profile',
    'get',
    {
      id: 'listBusinessProfiles',
      tag: 'Business profiles',
      summary: 'List business profiles',
      access: 'admin',
      params: [P.merchant],
      ok: 'BusinessProfileList',
      notFound: notFound.merchant,
    },
  ],
  [
    '/account/{merchant_id}/business_profile/{profile_id}',
    'get',
    {
      id: 'retrieveBusinessProfile',
      tag: 'Business profiles',
      summary: 'Retrieve a business profile',
      access: 'admin',
      params: [P.merchant, P.profile],
      ok: 'BusinessProfile',
      notFound: notFound.profile,
    },
  ],
  [
    '/account/{merchant_id}/business_profile/{profile_id}',
    'post',
    {
      id: 'updateBusinessProfile',
      tag: 'Business profiles',
      summary: 'Update a business profile, its webhook and default routing',
      access: 'admin',
      params: [P.merchant, P.profile],
      request: 'UpdateProfileRequest',
      ok: 'BusinessProfile',
      notFound: notFound.profile,
      conflict: 'profile_name taken',
    },
  ],
  // Connector accounts
  [
    '/account/{merchant_id}/connectors',
    'post',
    {
      id: 'createConnectorAccount',
      tag: 'Connector accounts',
      summary: 'Create a merchant connector account',
      description:
        "Credentials are stored encrypted and answered masked. connector_verification says how far the connector was traced to the provider's published material, and for a preview what to confirm with the provider before going live.",
      access: 'admin',
      params: [P.merchant],
      request: 'CreateConnectorAccountRequest',
      ok: 'ConnectorAccount',
      notFound: notFound.merchant,
    },
  ],
  [
    '/account/{merchant_id}/connectors',
    'get',
    {
      id: 'listConnectorAccounts',
      tag: 'Connector accounts',
      summary: 'List connector accounts',
      access: 'admin',
      params: [P.merchant],
      ok: 'ConnectorAccountList',
      notFound: notFound.merchant,
    },
  ],
  [
    '/account/{merchant_id}/connectors/{merchant_connector_id}',
    'get',
    {
      id: 'retrieveConnectorAccount',
      tag: 'Connector accounts',
      summary: 'Retrieve a connector account',
      access: 'admin',
      params: [P.merchant, P.mca],
      ok: 'ConnectorAccount',
      notFound: notFound.mca,
    },
  ],
  [
    '/account/{merchant_id}/connectors/{merchant_connector_id}',
    'post',
    {
      id: 'updateConnectorAccount',
      tag: 'Connector accounts',
      summary: 'Update a connector account',
      access: 'admin',
      params: [P.merchant, P.mca],
      request: 'UpdateConnectorAccountRequest',
      ok: 'ConnectorAccount',
      notFound: notFound.mca,
    },
  ],
  [
    '/account/{merchant_id}/connectors/{merchant_connector_id}',
    'delete',
    {
      id: 'deleteConnectorAccount',
      tag: 'Connector accounts',
      summary: 'Delete a connector account',
      access: 'admin',
      params: [P.merchant, P.mca],
      ok: 'ConnectorAccountDeleted',
      notFound: notFound.mca,
    },
  ],
  [
    '/account/{merchant_id}/connectors/{merchant_connector_id}/webhook_secret/rotate',
    'post',
    {
      id: 'rotateConnectorWebhookSecret',
      tag: 'Connector accounts',
      summary: 'Rotate the notification secret',
      description:
        'A new generated notification secret (service_test), answered once in connector_webhook_details.merchant_secret; the previous one is accepted for WEBHOOK_SECRET_GRACE_MS. A connector whose provider issues the secret is refused (400): give the new one in an update.',
      access: 'admin',
      params: [P.merchant, P.mca],
      ok: 'ConnectorAccount',
      notFound: notFound.mca,
    },
  ],
  // Webhooks (the providers')
  [
    '/webhooks/{merchant_id}/{merchant_connector_id}',
    'post',
    {
      id: 'receiveProviderWebhook',
      tag: 'Webhooks',
      summary: "Receive a provider's notification",
      description:
        "Called by the provider, without an api-key: signed by the provider (service_test: x-webhook-signature-512, hex HMAC-SHA512 of the raw body with the account's connector_webhook_details.merchant_secret). A repeat, and an object we do not know, are answered 200 too.",
      access: 'signed',
      params: [
        P.merchant,
        P.mca,
        {
          name: 'x-webhook-signature-512',
          in: 'header',
          required: false,
          schema: { type: 'string' },
          description: "service_test's signature header (each connector names its own)",
        },
      ],
      request: 'ProviderNotification',
      ok: 'WebhookReceived',
      okDescription: 'Recorded',
      notFound: 'Unknown merchant or connector account, or a connector without notifications',
    },
  ],
  // Feature matrix
  [
    '/feature_matrix',
    'get',
    {
      id: 'getFeatureMatrix',
      tag: 'Feature matrix',
      summary: 'What each connector can do',
      description:
        'Flows, capture methods, countries, currencies, customer types, required fields (per capture method: due at confirm, due at each capture), auth type, mandates, verification {verified, unverified, level: verified | partial | preview | own}; sandbox_account_details in sandbox mode.',
      access: 'public',
      ok: 'FeatureMatrix',
      validates: true,
    },
  ],
];

const TAGS: [string, string][] = [
  ['Payments', 'Create, confirm, capture, cancel and read payments.'],
  ['Refunds', 'Refunds of captured payments.'],
  ['Disputes', 'Disputes, as the providers report them (read only).'],
  ['Customers', "The merchant's customers."],
  ['Mandates', "A customer's mandates for recurring and off-session payments."],
  ['Payment methods', "A customer's saved payment methods."],
  ['Payment links', 'Links to our checkout page.'],
  ['Events', 'Webhook events sent to the merchant, their delivery attempts, and manual retries.'],
  ['Merchant accounts', 'Merchant accounts (admin key).'],
  ['API keys', "A merchant's secret keys (admin key)."],
  ['Business profiles', "A merchant's lines of business: return URL, webhook URL and signing key, default routing (admin key)."],
  ['Connector accounts', "A merchant's accounts at the BNPL providers (admin key)."],
  ['Webhooks', "The providers' notifications to us (signed by the provider, no api-key)."],
  ['Feature matrix', 'What each connector can do (public).'],
];

export function openApiDocument() {
  const paths: Record<string, Record<string, unknown>> = {};
  for (const [path, method, op] of OPERATIONS) (paths[path] ??= {})[method] = operation(method, op, answersServerTiming(path));
  // Where customers and merchants reach this gateway (PUBLIC_BASE_URL; http://localhost:PORT when unset).
  const server = { url: config.publicBaseUrl, description: 'This gateway (PUBLIC_BASE_URL)' };
  return {
    openapi: '3.1.0',
    info: {
      title: 'BNPL payment switch',
      version: '0.1.0',
      description:
        'One API in front of Buy Now, Pay Later providers, shaped like the leading open-source payment switch\'s. Amounts are in minor units. Every refusal answers `{"error": {"type", "code", "message", "param"}}`, param naming the field.',
    },
    servers: [server],
    tags: TAGS.map(([name, description]) => ({ name, description })),
    security: SECURITY.merchant,
    paths,
    // What we send to the merchant's webhook URL (docs: README "Merchant webhooks").
    webhooks: {
      event: {
        post: {
          operationId: 'receiveWebhookEvent',
          tags: ['Events'],
          summary: "An event, delivered to the profile's webhook URL",
          description:
            'Signed as Standard Webhooks: headers webhook-id (the event_id), webhook-timestamp and webhook-signature (v1, HMAC-SHA256 with the profile\'s payment_response_hash_key over "id.timestamp.body"). Retried with backoff until a 2xx; process each event_id once.',
          security: [],
          requestBody: { required: true, ...body('WebhookDelivery') },
          responses: { '200': { description: 'Received: any 2xx stops the retries.' } },
        },
      },
    },
    components: {
      securitySchemes: {
        api_key: { type: 'apiKey', in: 'header', name: 'api-key', description: "A merchant's secret key (server-side only)." },
        admin_api_key: {
          type: 'apiKey',
          in: 'header',
          name: 'api-key',
          description: 'The admin key (ADMIN_API_KEY): merchant accounts, API keys, profiles, connector accounts.',
        },
        publishable_key: {
          type: 'apiKey',
          in: 'header',
          name: 'api-key',
          description:
            "The merchant's publishable key (pk_...), from the customer's browser, with the payment's client_secret: retrieve, confirm, 3DS, payment link.",
        },
      },
      parameters: {
        IdempotencyKey: {
          name: 'Idempotency-Key',
          in: 'header',
          required: false,
          description:
            'The same key with the same request within 24 h replays the first successful answer (with `idempotent-replayed: true`); with another request or on another endpoint: 409.',
          schema: { type: 'string', minLength: 1, maxLength: 255 },
        },
      },
      headers: {
        RetryAfter: { description: 'Seconds to wait before retrying', schema: { type: 'integer', minimum: 1 } },
        ServerTiming: {
          description: `Where the request's time went, in milliseconds (W3C Server Timing: \`name;dur=ms;desc="..."\`, comma-separated): ${Object.entries(
            SERVER_TIMING_METRICS,
          )
            .map(([name, desc]) => `\`${name}\` (${desc})`)
            .join('; ')}. An operation that ran at the provider carries all but \`store\`; an answer from storage only carries \`total\` and \`store\`.`,
          schema: { type: 'string' },
          example:
            'total;dur=61.2;desc="...", payment-state;dur=4.1;desc="...", queue;dur=1.3;desc="...", provider;dur=38.5;desc="...", overhead;dur=22.7;desc="..."',
        },
      },
      schemas: componentSchemas(),
    },
  };
}

/** The operations documented, as "METHOD /path" with Express parameters (for the test that every route is documented). */
export const DOCUMENTED_ROUTES = OPERATIONS.map(([path, method]) => `${method.toUpperCase()} ${path.replace(/\{(\w+)\}/g, ':$1')}`);
