// Retries of one request, as a fetch: the client hands every request (its Idempotency-Key already set) to
// retryingFetch, which sends a copy of it until the answer is final or the attempts are used up. The same Request is
// copied each time, so every attempt carries the same Idempotency-Key: the service runs a POST once and replays its
// answer to the attempts after it.

/** When to try a request again, and how long to wait. */
export interface RetryPolicy {
  /** Retries after the first attempt (default 3: at most 4 attempts). 0 turns retries off. */
  retries: number;
  /** The first wait (ms), doubled after every attempt, with jitter (default 300). */
  baseDelayMs: number;
  /** No backoff wait is longer than this (ms, default 10 000). */
  maxDelayMs: number;
  /** A Retry-After longer than this (seconds, default 60) is not waited for: the answer (429 or 503) is returned. */
  maxRetryAfterS: number;
  /** Called before each wait: to log retries. */
  onRetry?: (retry: RetryEvent) => void;
}

export interface RetryEvent {
  /** The attempt that failed (1 for the first). */
  attempt: number;
  /** The wait before the next attempt (ms). */
  delayMs: number;
  /** The answer's status, or the network error. */
  reason: { status: number } | { error: unknown };
  request: Request;
}

export const DEFAULT_RETRY_POLICY: RetryPolicy = { retries: 3, baseDelayMs: 300, maxDelayMs: 10_000, maxRetryAfterS: 60 };

/** The error codes of a 409 that a retry can fix: the service's CO_01, "a request with this Idempotency-Key (or
 * another change of the same thing) is still being processed; retry later". HE_01 (the key was used with another
 * request or on another endpoint) is final. */
const RETRYABLE_CONFLICTS = new Set(['CO_01']);

/** The `error.code` of an error body `{"error": {"code", ...}}`, if it is one. */
async function errorCode(response: Response): Promise<string | undefined> {
  const body: unknown = await response
    .clone()
    .json()
    .catch(() => undefined);
  if (typeof body !== 'object' || body === null || !('error' in body)) return undefined;
  const error: unknown = body.error;
  if (typeof error !== 'object' || error === null || !('code' in error)) return undefined;
  return typeof error.code === 'string' ? error.code : undefined;
}

/** Whether an answer is worth trying again: 429, 5xx, and the 409 of a request still in flight. */
export async function isRetryable(response: Response): Promise<boolean> {
  if (response.status === 429 || response.status >= 500) return true;
  if (response.status === 409) return RETRYABLE_CONFLICTS.has((await errorCode(response)) ?? '');
  return false;
}

/** Retry-After in milliseconds (seconds or an HTTP date), or undefined when absent or unreadable. */
export function retryAfterMs(response: Response, now = Date.now()): number | undefined {
  const value = response.headers.get('retry-after')?.trim();
  if (!value) return undefined;
  if (/^\d+$/.test(value)) return Number(value) * 1000;
  const at = Date.parse(value);
  return Number.isNaN(at) ? undefined : Math.max(0, at - now);
}

/** The backoff wait after `attempt` (1-based): exponential, capped, with "equal jitter" (half fixed, half random). */
export function backoffMs(attempt: number, policy: Pick<RetryPolicy, 'baseDelayMs' | 'maxDelayMs'>, random = Math.random): number {
  const exp = Math.min(policy.maxDelayMs, policy.baseDelayMs * 2 ** (attempt - 1));
  return Math.round(exp / 2 + random() * (exp / 2));
}

const sleep = (ms: number, signal: AbortSignal) =>
  new Promise<void>((resolve, reject) => {
    if (signal.aborted) return reject(signal.reason);
    const done = () => {
      clearTimeout(timer);
      signal.removeEventListener('abort', abort);
    };
    const abort = () => {
      done();
      reject(signal.reason);
    };
    const timer = setTimeout(() => {
      done();
      resolve();
    }, ms);
    signal.addEventListener('abort', abort, { once: true });
  });

/**
 * A fetch that sends `request` through `send` until the answer is final: a network error, 429, 5xx or the 409 of a
 * request still in flight is tried again after a wait (Retry-After when the answer gives one, else the backoff), at
 * most `policy.retries` times; then the last answer is returned (or the last network error thrown). Any other answer
 * (2xx, 3xx, other 4xx) is returned at once. A request the caller aborted is not retried.
 */
export function retryingFetch(send: (request: Request) => Promise<Response>, policy: RetryPolicy): (request: Request) => Promise<Response> {
  return async (request) => {
    for (let attempt = 1; ; attempt++) {
      const last = attempt > policy.retries;
      let delayMs: number;
      let reason: RetryEvent['reason'];
      try {
        // A copy: a body is read once, and the next attempt sends it again.
        const response = await send(last ? request : request.clone());
        if (last || !(await isRetryable(response))) return response;
        const after = retryAfterMs(response);
        if (after !== undefined && after > policy.maxRetryAfterS * 1000) return response;
        delayMs = after ?? backoffMs(attempt, policy);
        reason = { status: response.status };
        // Not read: free the connection.
        await response.body?.cancel().catch(() => undefined);
      } catch (error) {
        if (last || request.signal.aborted) throw error;
        delayMs = backoffMs(attempt, policy);
        reason = { error };
      }
      policy.onRetry?.({ attempt, delayMs, reason, request });
      await sleep(delayMs, request.signal);
    }
  };
}
