// What a connector hands the runtime to send (ProviderRequest) and what it gets back to read (ProviderResponse), and
// the one signal a connector may give back besides an outcome: the provider is not available now (retry later). The
// runtime's sender (workers/provider-http.ts: timeout, trace headers, retry rule) imports them from here, so a
// connector never imports the runtime.

/** The provider cannot answer now (timeout, 5xx, 409 still processing, a documented "locked, try again"): retried. */
export class ProviderUnavailable extends Error {}

export interface ProviderRequest {
  method: 'GET' | 'POST' | 'PATCH' | 'PUT' | 'DELETE';
  path: string;
  /** A JSON body. */
  body?: unknown;
  /** A form body (application/x-www-form-urlencoded), e.g. an OAuth2 token request; instead of `body`. */
  form?: Record<string, string>;
  idempotencyKey?: string;
  headers?: Record<string, string>;
  /** Another host of the provider's (e.g. its OAuth server), instead of the connector's base URL. */
  baseUrl?: string;
  /** 'text': the provider answers plain text (e.g. PAYONE's key=value lines); the response's body is that string. */
  answer?: 'json' | 'text';
}

export interface ProviderResponse {
  status: number;
  /** The answer's body, unread: a connector reads it with kit/answer.ts readAnswer and its zod schema. */
  body: unknown;
  /** The answer's headers, names lowercased (e.g. the Location of an asynchronous task). */
  headers?: Record<string, string>;
}
