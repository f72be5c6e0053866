// HTTP to a provider: a timeout, the trace context in the headers, a client span, and one rule for what is worth
// retrying (timeouts, network errors, 5xx, 409 "still processing", 429) versus an answer to map.
import { withSpan, injectContext, SpanKind } from '../lib/telemetry.ts';
import { config } from '../lib/config.ts';
import { record, secondsSince } from '../lib/metrics.ts';
import { ProviderUnavailable, type ProviderRequest, type ProviderResponse } from './connectors/kit/http.ts';

export { ProviderUnavailable };

/** A 429: the provider's rate limit, with its Retry-After in ms when it sent one. */
export class ProviderRateLimited extends ProviderUnavailable {
  readonly retryAfterMs: number | null;
  constructor(message: string, retryAfterMs: number | null) {
    super(message);
    this.retryAfterMs = retryAfterMs;
  }
}

/** One provider call, timed: bnpl.provider.call.duration by connector, method, status and failure (no path, no id). */
export async function providerCall(baseUrl: string, req: ProviderRequest, connector: string): Promise<ProviderResponse> {
  const start = process.hrtime.bigint();
  const attrs: { status?: number; error?: string } = {};
  try {
    return await timedCall(baseUrl, req, connector, attrs);
  } catch (err) {
    attrs.error ??= err instanceof ProviderRateLimited ? 'rate_limited' : err instanceof ProviderUnavailable ? 'unavailable' : 'error';
    throw err;
  } finally {
    record(
      'providerCallDuration',
      { 'bnpl.connector': connector, 'http.request.method': req.method, 'http.response.status_code': attrs.status, 'error.type': attrs.error },
      secondsSince(start),
    );
  }
}

async function timedCall(baseUrl: string, req: ProviderRequest, connector: string, attrs: { status?: number; error?: string }): Promise<ProviderResponse> {
  return withSpan(
    `${connector} ${req.method} ${req.path.replace(/\/[A-Za-z0-9_-]{16,}/g, '/{id}')}`,
    {
      kind: SpanKind.CLIENT,
      attributes: { 'http.request.method': req.method, 'bnpl.connector': connector },
    },
    async (span) => {
      const contentType = req.form ? 'application/x-www-form-urlencoded' : 'application/json';
      const headers: Record<string, string> = { 'content-type': contentType, accept: 'application/json', ...req.headers, ...injectContext() };
      if (req.idempotencyKey) headers['idempotency-key'] = req.idempotencyKey;
      const payload = req.form ? new URLSearchParams(req.form).toString() : req.body === undefined ? undefined : JSON.stringify(req.body);
      let res: Response;
      try {
        res = await fetch((req.baseUrl ?? baseUrl) + req.path, {
          method: req.method,
          headers,
          body: payload,
          signal: AbortSignal.timeout(config.providerTimeoutMs),
        });
      } catch (err) {
        attrs.error = (err as Error).name === 'TimeoutError' ? 'timeout' : 'network';
        throw new ProviderUnavailable(`${connector}: ${(err as Error).name === 'TimeoutError' ? 'timed out' : (err as Error).message}`);
      }
      attrs.status = res.status;
      span.setAttribute('http.response.status_code', res.status);
      const text = await res.text();
      if (res.status === 429) {
        const seconds = Number(res.headers.get('retry-after'));
        throw new ProviderRateLimited(`${connector}: HTTP 429`, Number.isFinite(seconds) && seconds > 0 ? seconds * 1000 : null);
      }
      if (res.status >= 500 || res.status === 409 || res.status === 429) {
        throw new ProviderUnavailable(`${connector}: HTTP ${res.status}`);
      }
      const answered = { status: res.status, headers: Object.fromEntries(res.headers) };
      if (req.answer === 'text') return { ...answered, body: text };
      let body: unknown = null;
      try {
        body = text ? JSON.parse(text) : null;
      } catch {
        throw new ProviderUnavailable(`${connector}: answer is not JSON (HTTP ${res.status})`);
      }
      return { ...answered, body };
    },
  );
}
