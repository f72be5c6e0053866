// @bnpl/client: a typed client of the payment service's REST API. The paths, parameters, bodies and answers are the
// types openapi-typescript generates from the service's OpenAPI document (schema.d.ts, `npm run client:gen`); requests
// go through openapi-fetch. On top: the api-key header, an Idempotency-Key on every POST, and retries (retry.ts).
// A package of its own: it imports nothing from the service's code (scripts/import-rules.ts checks it).
import createClient, { type Client, type Middleware } from 'openapi-fetch';
import { DEFAULT_RETRY_POLICY, type RetryPolicy, retryingFetch } from './retry.ts';
import type { components, operations, paths } from './schema.d.ts';

export type { components, operations, paths };
export type { RetryEvent, RetryPolicy } from './retry.ts';
export {
  verifyWebhook,
  WebhookVerificationError,
  type VerifyWebhookOptions,
  type WebhookEvent,
  type WebhookHeaders,
  type WebhookProblem,
} from './webhooks.ts';

export interface PaymentClientOptions {
  /** Where the service answers, e.g. `https://pay.example.com` (no trailing path). */
  baseUrl: string;
  /** The merchant's secret key (server-side), or the publishable key with a payment's client_secret (browser). */
  apiKey: string;
  /** Retries after the first attempt (default 3), or the whole policy; 0 turns retries off. */
  retries?: number | Partial<RetryPolicy>;
  /** The fetch to send with (default globalThis.fetch). */
  fetch?: (request: Request) => Promise<Response>;
}

export type PaymentClient = Client<paths>;

const IDEMPOTENCY_KEY = 'Idempotency-Key';

/** Sets the api-key, and on a POST the caller's Idempotency-Key or a new random one, once per call (before retries). */
function authAndIdempotency(apiKey: string): Middleware {
  return {
    onRequest({ request }) {
      request.headers.set('api-key', apiKey);
      if (request.method === 'POST' && !request.headers.has(IDEMPOTENCY_KEY)) request.headers.set(IDEMPOTENCY_KEY, crypto.randomUUID());
      return request;
    },
  };
}

/** A refusal or failure of the service, with its error body `{"error": {"type", "code", "message", "param"}}`. */
export class PaymentApiError extends Error {
  readonly status: number;
  readonly code: string | undefined;
  /** The field the refusal names, when there is one. */
  readonly param: string | undefined;
  readonly body: unknown;
  constructor(status: number, body: unknown) {
    const error = typeof body === 'object' && body !== null && 'error' in body && typeof body.error === 'object' && body.error !== null ? body.error : {};
    const text = (key: string) => (key in error ? String(Reflect.get(error, key)) : undefined);
    super(`${status}${text('code') ? ` ${text('code')}` : ''}: ${text('message') ?? 'no error body'}`);
    this.name = 'PaymentApiError';
    this.status = status;
    this.code = text('code');
    this.param = text('param');
    this.body = body;
  }
}

/** The data of a call's answer, or a PaymentApiError: `const payment = await unwrap(client.POST('/payments', { body }))`. */
export async function unwrap<T>(call: Promise<{ data?: T; error?: unknown; response: Response }>): Promise<T> {
  const { data, error, response } = await call;
  if (response.ok && data !== undefined) return data;
  throw new PaymentApiError(response.status, error);
}

/**
 * A typed client: `client.POST('/payments', { body })`, `client.GET('/payments/{payment_id}', { params: { path } })`
 * answer `{ data }` or `{ error }` (the service's error body), with `response`. Pass your own Idempotency-Key as
 * `params: { header: { 'Idempotency-Key': key } }` to make a POST safe to repeat across your own restarts too.
 */
export function createPaymentClient(options: PaymentClientOptions): PaymentClient {
  const policy: RetryPolicy = {
    ...DEFAULT_RETRY_POLICY,
    ...(typeof options.retries === 'number' ? { retries: options.retries } : options.retries),
  };
  const send = options.fetch ?? ((request: Request) => globalThis.fetch(request));
  const client = createClient<paths>({ baseUrl: options.baseUrl, fetch: retryingFetch(send, policy) });
  client.use(authAndIdempotency(options.apiKey));
  return client;
}
