// The OpenAPI document, generated from the same zod schemas that validate requests.
import { z } from 'zod';
import {
  CancelPaymentRequest,
  CapturePaymentRequest,
  ConfirmPaymentRequest,
  CreatePaymentRequest,
  IncrementalAuthorizationRequest,
  ListPaymentsFilter,
  ListPaymentsQuery,
  Payment,
  ReviewDecisionRequest,
  ThreeDsAuthenticationRequest,
  ThreeDsAuthenticationResponse,
  UpdatePaymentRequest,
} from '../lib/schemas/payment.ts';
import { PaymentLink, RetrievePaymentLinkRequest } from '../lib/schemas/payment-link.ts';
import { CreateRefundRequest, ListRefundsFilter, Refund, UpdateRefundRequest } from '../lib/schemas/refund.ts';
import { CreateCustomerRequest, Customer, CustomerDeleted, ListCustomersQuery, UpdateCustomerRequest } from '../lib/schemas/customer.ts';
import { Dispute, ListDisputesQuery } from '../lib/schemas/dispute.ts';
import {
  CreateApiKeyRequest,
  CreateConnectorAccountRequest,
  CreateMerchantAccountRequest,
  CreateProfileRequest,
  UpdateApiKeyRequest,
  UpdateConnectorAccountRequest,
  UpdateMerchantAccountRequest,
  UpdateProfileRequest,
} from '../lib/schemas/merchant.ts';
import { CustomerPaymentMethod, MandateResource, MandateRevoked } from '../lib/schemas/mandate.ts';
import { EventAttempts, EventList, ListEventsQuery, RetryEventResponse } from '../lib/schemas/event.ts';

const json = (schema: z.ZodType) => ({ content: { 'application/json': { schema: z.toJSONSchema(schema, { io: 'input', unrepresentable: 'any' }) } } });
const ErrorBody = z.object({ error: z.object({ type: z.string(), code: z.string(), message: z.string(), param: z.string().optional() }) });

const pathParam = (name: string) => ({ name, in: 'path', required: true, schema: { type: 'string' } });
const mid = pathParam('merchant_id');
const ok = (description: string) => ({
  200: { description },
  400: { description: 'Invalid request', ...json(ErrorBody) },
  404: { description: 'Not found', ...json(ErrorBody) },
});

export function openApiDocument() {
  const paymentOut = {
    200: { description: 'Payment', ...json(Payment) },
    400: { description: 'Invalid request', ...json(ErrorBody) },
    404: { description: 'Not found', ...json(ErrorBody) },
  };
  const idParam = [{ name: 'payment_id', in: 'path', required: true, schema: { type: 'string' } }];
  return {
    openapi: '3.1.0',
    info: { title: 'BNPL payment service', version: '0.1.0' },
    components: { securitySchemes: { api_key: { type: 'apiKey', in: 'header', name: 'api-key' } } },
    security: [{ api_key: [] }],
    paths: {
      '/payments': { post: { summary: 'Create a payment', requestBody: json(CreatePaymentRequest), responses: paymentOut } },
      '/payments/{payment_id}': {
        get: { summary: 'Retrieve a payment', parameters: idParam, responses: paymentOut },
        post: { summary: 'Update a payment before it is confirmed', parameters: idParam, requestBody: json(UpdatePaymentRequest), responses: paymentOut },
      },
      '/payments/{payment_id}/confirm': {
        post: { summary: 'Confirm a payment', parameters: idParam, requestBody: json(ConfirmPaymentRequest), responses: paymentOut },
      },
      '/payments/{payment_id}/capture': {
        post: { summary: 'Capture a payment', parameters: idParam, requestBody: json(CapturePaymentRequest), responses: paymentOut },
      },
      '/payments/{payment_id}/cancel': {
        post: { summary: 'Cancel a payment', parameters: idParam, requestBody: json(CancelPaymentRequest), responses: paymentOut },
      },
      '/payments/{payment_id}/incremental_authorization': {
        post: {
          summary: 'Raise the authorized amount (amount = new total)',
          parameters: idParam,
          requestBody: json(IncrementalAuthorizationRequest),
          responses: paymentOut,
        },
      },
      '/payments/{payment_id}/approve': {
        post: { summary: 'Approve a payment held in our manual review', parameters: idParam, requestBody: json(ReviewDecisionRequest), responses: paymentOut },
      },
      '/payments/{payment_id}/reject': {
        post: {
          summary: 'Reject a payment held in our manual review (voided, then failed)',
          parameters: idParam,
          requestBody: json(ReviewDecisionRequest),
          responses: paymentOut,
        },
      },
      '/payments/{payment_id}/3ds/authentication': {
        post: {
          summary: 'Run the external 3DS authentication (publishable key + client_secret, or the secret key)',
          parameters: idParam,
          requestBody: json(ThreeDsAuthenticationRequest),
          responses: {
            200: { description: 'Authentication', ...json(ThreeDsAuthenticationResponse) },
            400: { description: 'Invalid request', ...json(ErrorBody) },
            404: { description: 'Not found', ...json(ErrorBody) },
          },
        },
      },
      '/feature_matrix': {
        get: {
          summary:
            "What each connector can do (public): flows, capture methods, countries, currencies, customer types, required fields (and per capture method: due at confirm, due at each capture), auth type, verification {verified, unverified, level: verified | partial | preview | own} (the points traced to the provider's own material, and those UNVERIFIED); sandbox_account_details in sandbox mode",
          security: [],
          responses: { 200: { description: '{connector_count, connectors}' } },
        },
      },
      '/refunds': {
        post: {
          summary: 'Create a refund (a provider decline is a failed refund, not an error)',
          requestBody: json(CreateRefundRequest),
          responses: {
            ...ok('Refund'),
            200: { description: 'Refund', ...json(Refund) },
            409: { description: 'refund_id exists with another body', ...json(ErrorBody) },
          },
        },
      },
      '/refunds/list': {
        post: {
          summary: 'List refunds, newest first',
          requestBody: json(ListRefundsFilter),
          responses: { ...ok('{count, total_count, data}'), 200: { description: '{count, total_count, data: Refund[]}' } },
        },
      },
      '/refunds/{refund_id}': {
        get: {
          summary: 'Retrieve a refund (force_sync=true asks the provider now)',
          parameters: [pathParam('refund_id'), { name: 'force_sync', in: 'query', required: false, schema: { type: 'string', enum: ['true', 'false'] } }],
          responses: { ...ok('Refund'), 200: { description: 'Refund', ...json(Refund) } },
        },
        post: {
          summary: "Update a refund's reason and metadata",
          parameters: [pathParam('refund_id')],
          requestBody: json(UpdateRefundRequest),
          responses: { ...ok('Refund'), 200: { description: 'Refund', ...json(Refund) } },
        },
      },
      '/payment_link/{payment_link_id}': {
        get: {
          summary: 'Retrieve a payment link',
          parameters: [{ name: 'payment_link_id', in: 'path', required: true, schema: { type: 'string' } }],
          requestBody: json(RetrievePaymentLinkRequest),
          responses: { 200: { description: 'Payment link', ...json(PaymentLink) }, 404: { description: 'Not found', ...json(ErrorBody) } },
        },
      },
      '/payments/list': {
        get: {
          summary: 'List payments, newest first (cursor pagination)',
          parameters: Object.entries((z.toJSONSchema(ListPaymentsQuery, { io: 'input' }) as { properties: Record<string, object> }).properties).map(
            ([name, schema]) => ({ name, in: 'query', required: false, schema }),
          ),
          responses: { 200: { description: '{size, data}' } },
        },
        post: {
          summary: 'List payments with filters (offset pagination)',
          requestBody: json(ListPaymentsFilter),
          responses: { 200: { description: '{count, total_count, data}' } },
        },
      },
      '/customers': {
        post: {
          summary: 'Create a customer (secret key)',
          requestBody: json(CreateCustomerRequest),
          responses: {
            200: { description: 'Customer', ...json(Customer) },
            400: { description: 'Invalid request', ...json(ErrorBody) },
            409: { description: 'customer_id taken', ...json(ErrorBody) },
          },
        },
      },
      '/customers/list': {
        get: {
          summary: 'List customers, newest first (offset pagination)',
          parameters: Object.entries((z.toJSONSchema(ListCustomersQuery, { io: 'input' }) as { properties: Record<string, object> }).properties).map(
            ([name, schema]) => ({ name, in: 'query', required: false, schema }),
          ),
          responses: { 200: { description: 'Customers', ...json(z.array(Customer)) } },
        },
      },
      '/customers/{customer_id}': {
        get: {
          summary: 'Retrieve a customer',
          parameters: [{ name: 'customer_id', in: 'path', required: true, schema: { type: 'string' } }],
          responses: { 200: { description: 'Customer', ...json(Customer) }, 404: { description: 'Not found', ...json(ErrorBody) } },
        },
        post: {
          summary: 'Update a customer (fields left out are kept)',
          parameters: [{ name: 'customer_id', in: 'path', required: true, schema: { type: 'string' } }],
          requestBody: json(UpdateCustomerRequest),
          responses: {
            200: { description: 'Customer', ...json(Customer) },
            400: { description: 'Invalid request', ...json(ErrorBody) },
            404: { description: 'Not found', ...json(ErrorBody) },
          },
        },
        delete: {
          summary: 'Delete a customer (payments keep their copy)',
          parameters: [{ name: 'customer_id', in: 'path', required: true, schema: { type: 'string' } }],
          responses: { 200: { description: 'Deleted', ...json(CustomerDeleted) }, 404: { description: 'Not found', ...json(ErrorBody) } },
        },
      },
      '/customers/{customer_id}/mandates': {
        get: {
          summary: "List a customer's mandates, newest first (secret key; status expired once past a single_use end_date)",
          parameters: [pathParam('customer_id')],
          responses: {
            200: { description: 'Mandates', ...json(z.array(MandateResource)) },
            404: { description: 'Not found (param customer_id)', ...json(ErrorBody) },
          },
        },
      },
      '/customers/{customer_id}/payment_methods': {
        get: {
          summary: "List a customer's saved payment methods, newest first (secret key; no sensitive data)",
          parameters: [pathParam('customer_id')],
          responses: {
            200: { description: 'Saved payment methods', ...json(z.object({ customer_payment_methods: z.array(CustomerPaymentMethod) })) },
            404: { description: 'Not found (param customer_id)', ...json(ErrorBody) },
          },
        },
      },
      '/mandates/{mandate_id}': {
        get: {
          summary: 'Retrieve a mandate (secret key)',
          parameters: [pathParam('mandate_id')],
          responses: { 200: { description: 'Mandate', ...json(MandateResource) }, 404: { description: 'Not found (param mandate_id)', ...json(ErrorBody) } },
        },
      },
      '/mandates/revoke/{mandate_id}': {
        post: {
          summary: 'Revoke a mandate (secret key; no body): active -> revoked with a mandate_revoked event; revoked already answers revoked again',
          parameters: [pathParam('mandate_id')],
          responses: {
            200: { description: 'Revoked', ...json(MandateRevoked) },
            400: { description: 'An expired mandate cannot be revoked (param mandate_id)', ...json(ErrorBody) },
            404: { description: 'Not found (param mandate_id)', ...json(ErrorBody) },
          },
        },
      },
      '/disputes/list': {
        get: {
          summary: 'List disputes, newest received first (enum filters take comma-separated lists; received_time is when we received the dispute)',
          parameters: Object.entries((z.toJSONSchema(ListDisputesQuery, { io: 'input' }) as { properties: Record<string, object> }).properties).map(
            ([name, schema]) => ({ name, in: 'query', required: false, schema }),
          ),
          responses: { 200: { description: 'Disputes', ...json(z.array(Dispute)) }, 400: { description: 'Invalid request', ...json(ErrorBody) } },
        },
      },
      '/disputes/{dispute_id}': {
        get: {
          summary: 'Retrieve a dispute',
          parameters: [pathParam('dispute_id')],
          responses: { 200: { description: 'Dispute', ...json(Dispute) }, 404: { description: 'Not found', ...json(ErrorBody) } },
        },
      },
      '/events/{merchant_id}': {
        get: {
          summary:
            "List a merchant's events, newest first (admin key, or the merchant's own secret key); event_types comma-separated; created_after/created_before inclusive",
          parameters: [
            mid,
            ...Object.entries((z.toJSONSchema(ListEventsQuery, { io: 'input' }) as { properties: Record<string, object> }).properties).map(
              ([name, schema]) => ({ name, in: 'query', required: false, schema }),
            ),
          ],
          responses: {
            ...ok('Events'),
            200: { description: '{count, total_count, data}', ...json(EventList) },
            401: { description: 'No or bad key', ...json(ErrorBody) },
            403: { description: 'Publishable key', ...json(ErrorBody) },
          },
        },
      },
      '/events/{merchant_id}/{event_id}/attempts': {
        get: {
          summary: "An event's delivery attempts, oldest first: request, response status and body excerpt, error, timing",
          parameters: [mid, pathParam('event_id')],
          responses: { ...ok('Attempts'), 200: { description: 'Attempts', ...json(EventAttempts) } },
        },
      },
      '/events/{merchant_id}/{event_id}/retry': {
        post: {
          summary:
            'Deliver the event again now (one attempt beside the schedule); answers when the attempt is made (202 with attempt null if it is still running)',
          parameters: [mid, pathParam('event_id')],
          responses: {
            ...ok('Retried'),
            200: { description: 'The event and the attempt', ...json(RetryEventResponse) },
            202: { description: 'Attempt still running', ...json(RetryEventResponse) },
          },
        },
      },
      '/accounts': {
        post: {
          summary: 'Create a merchant account (admin key)',
          requestBody: json(CreateMerchantAccountRequest),
          responses: { 200: { description: 'Merchant account' } },
        },
      },
      '/accounts/{merchant_id}': {
        get: { summary: 'Retrieve a merchant account (admin key)', parameters: [mid], responses: ok('Merchant account') },
        post: {
          summary: 'Update a merchant account (admin key)',
          parameters: [mid],
          requestBody: json(UpdateMerchantAccountRequest),
          responses: ok('Merchant account'),
        },
        delete: { summary: 'Delete a merchant account: its keys stop at once (admin key)', parameters: [mid], responses: ok('{merchant_id, deleted}') },
      },
      '/api_keys/{merchant_id}': {
        post: { summary: 'Create an API key (admin key)', parameters: [mid], requestBody: json(CreateApiKeyRequest), responses: ok('API key, shown once') },
      },
      '/api_keys/{merchant_id}/list': { get: { summary: 'List API keys, never the secret (admin key)', parameters: [mid], responses: ok('API keys') } },
      '/api_keys/{merchant_id}/{key_id}': {
        get: { summary: 'Retrieve an API key (admin key)', parameters: [mid, pathParam('key_id')], responses: ok('API key') },
        post: {
          summary: 'Update name, description, expiration (admin key)',
          parameters: [mid, pathParam('key_id')],
          requestBody: json(UpdateApiKeyRequest),
          responses: ok('API key'),
        },
        delete: { summary: 'Revoke an API key at once (admin key)', parameters: [mid, pathParam('key_id')], responses: ok('{merchant_id, key_id, revoked}') },
      },
      '/account/{merchant_id}/business_profile': {
        post: {
          summary: 'Create a business profile (admin key)',
          parameters: [mid],
          requestBody: json(CreateProfileRequest),
          responses: ok('Business profile'),
        },
        get: { summary: 'List business profiles (admin key)', parameters: [mid], responses: ok('Business profiles') },
      },
      '/account/{merchant_id}/business_profile/{profile_id}': {
        get: { summary: 'Retrieve a business profile (admin key)', parameters: [mid, pathParam('profile_id')], responses: ok('Business profile') },
        post: {
          summary: 'Update a business profile, its webhook and default routing (admin key)',
          parameters: [mid, pathParam('profile_id')],
          requestBody: json(UpdateProfileRequest),
          responses: ok('Business profile'),
        },
      },
      '/account/{merchant_id}/connectors': {
        post: {
          summary: 'Create a merchant connector account; credentials stored encrypted (admin key)',
          parameters: [mid],
          requestBody: json(CreateConnectorAccountRequest),
          responses: ok(
            "Connector account, credentials masked; connector_verification {level: verified | partial | preview | own, verified, unverified, go_live_checklist}: how far the connector was traced to the provider's published material, and for a preview what to confirm with the provider before going live",
          ),
        },
        get: { summary: 'List connector accounts (admin key)', parameters: [mid], responses: ok('Connector accounts') },
      },
      '/account/{merchant_id}/connectors/{merchant_connector_id}': {
        get: { summary: 'Retrieve a connector account (admin key)', parameters: [mid, pathParam('merchant_connector_id')], responses: ok('Connector account') },
        post: {
          summary: 'Update a connector account (admin key)',
          parameters: [mid, pathParam('merchant_connector_id')],
          requestBody: json(UpdateConnectorAccountRequest),
          responses: ok('Connector account'),
        },
        delete: {
          summary: 'Delete a connector account (admin key)',
          parameters: [mid, pathParam('merchant_connector_id')],
          responses: ok('{merchant_id, merchant_connector_id, deleted}'),
        },
      },
      '/account/{merchant_id}/connectors/{merchant_connector_id}/webhook_secret/rotate': {
        post: {
          summary: 'A new generated notification secret (service_test), answered once; the previous one is accepted for WEBHOOK_SECRET_GRACE_MS (admin key)',
          parameters: [mid, pathParam('merchant_connector_id')],
          responses: ok('Connector account, the new secret in connector_webhook_details.merchant_secret'),
        },
      },
      '/webhooks/{merchant_id}/{merchant_connector_id}': {
        post: {
          summary:
            "A provider's notification (no api-key: signed by the provider; service_test: x-webhook-signature-512, hex HMAC-SHA512 of the raw body with the account's connector_webhook_details.merchant_secret)",
          security: [],
          parameters: [
            mid,
            pathParam('merchant_connector_id'),
            {
              name: 'x-webhook-signature-512',
              in: 'header',
              required: false,
              schema: { type: 'string' },
              description: "service_test's signature header (each connector names its own)",
            },
          ],
          requestBody: { content: { 'application/json': { schema: { type: 'object', description: "The provider's own notification body" } } } },
          responses: {
            200: {
              description: 'Recorded (also for a repeat, and for objects we do not know): {"received": true}',
              ...json(z.object({ received: z.literal(true) })),
            },
            401: { description: 'Signature missing or invalid; nothing recorded', ...json(ErrorBody) },
            404: { description: 'Unknown merchant or connector account, or a connector without notifications', ...json(ErrorBody) },
            429: {
              description: 'More than PROVIDER_NOTIFICATIONS_PER_SECOND notifications for this connector account in a second (Retry-After)',
              ...json(ErrorBody),
            },
          },
        },
      },
    },
  };
}
