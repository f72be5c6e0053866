// The error body of every refusal: {"error": {"type", "code", "message", "param"?}}, with the leading switch's
// codes (see docs/decisions.md for which code answers which refusal).
export type ErrorType = 'invalid_request' | 'api' | 'connector';

export class ApiError extends Error {
  readonly status: number;
  readonly code: string;
  readonly type: ErrorType;
  readonly param?: string;
  readonly headers?: Record<string, string>;
  constructor(status: number, code: string, message: string, param?: string, type: ErrorType = status >= 500 ? 'api' : 'invalid_request') {
    super(message);
    this.status = status;
    this.code = code;
    this.type = type;
    this.param = param;
  }
  toBody() {
    return { error: { type: this.type, code: this.code, message: this.message, ...(this.param ? { param: this.param } : {}) } };
  }
}

/** The value, or 404 HE_02 naming what was looked for: unknown and another merchant's look the same. */
export function found<T>(value: T | null | undefined, what: string, param?: string): T {
  if (value === null || value === undefined) throw errors.notFound(what, param);
  return value;
}

export const errors = {
  /** `wants`: the kind of key the route takes, named with the header so the caller learns what to send. */
  unauthorized: (wants = 'a valid API key') =>
    new ApiError(401, 'IR_01', `API key not provided or invalid API key used: this route wants ${wants} in the api-key header`),
  forbidden: (message = 'Access forbidden, invalid API key used for this endpoint') => new ApiError(403, 'IR_22', message),
  routeNotFound: () => new ApiError(404, 'IR_02', 'Unrecognized request URL'),
  missing: (param: string) => new ApiError(400, 'IR_04', `Missing required param: ${param}`, param),
  invalid: (param: string, message: string) => new ApiError(400, 'IR_05', `Invalid value for ${param}: ${message}`, param),
  unknownField: (param: string) => new ApiError(400, 'IR_07', `Unknown field: ${param}`, param),
  amountExceeds: (param: string, message: string) => new ApiError(400, 'IR_06', message, param),
  unexpectedState: (message: string) => new ApiError(400, 'IR_14', message),
  notAllowed: (message: string) => new ApiError(400, 'IR_16', message),
  clientSecretMissing: () => new ApiError(400, 'IR_08', 'client_secret was not provided', 'client_secret'),
  clientSecretExpired: () => new ApiError(400, 'IR_08', 'The client_secret has expired', 'client_secret'),
  clientSecretMismatch: () =>
    new ApiError(400, 'IR_09', 'The client_secret provided does not match the client_secret associated with the payment', 'client_secret'),
  duplicate: (message: string, param?: string) => new ApiError(409, 'HE_01', message, param),
  /** Another request is changing the same thing now: retry (not a duplicate, which a retry never fixes). */
  busy: (message: string) => new ApiError(409, 'CO_01', message),
  /** `param`: the field or path parameter that named it (payment_id, mandate_id, ...), when there is one. */
  notFound: (what: string, param?: string) => new ApiError(404, 'HE_02', `${what} does not exist in our records`, param),
  /** The request itself could not be read (not HTTP, not JSON, too deep, an encoding or Expect we do not take, too slow). */
  unreadable: (message: string, status = 400, param?: string) => new ApiError(status, 'RQ_01', message, param),
  /** The request is larger than we read (body 413; URL or headers 431). */
  tooLarge: (message: string, status = 413) => new ApiError(status, 'RQ_02', message),
  bodyTooLarge: () => errors.tooLarge('Request body is too large'),
  badJson: () => errors.unreadable('Request body is not valid JSON', 400, 'body'),
  tooDeep: (max: number) => errors.unreadable(`Request body nests deeper than ${max} levels`, 400, 'body'),
  /** A provider's notification without a valid signature (the leading switch's WE_01). */
  webhookAuthentication: (message = 'Notification signature missing or invalid') => new ApiError(401, 'WE_01', message),
  internal: () => new ApiError(500, 'HE_00', 'Something went wrong'),
  /** Over a rate limit (per address, per key or per checkout payment); Retry-After in whole seconds. */
  rateLimited: (retryAfterS: number) =>
    Object.assign(new ApiError(429, 'RL_01', 'Too many requests; retry after the time in Retry-After'), {
      headers: { 'retry-after': String(Math.max(1, Math.ceil(retryAfterS))) },
    }),
  /** A service the request needs is down: retry later (HE_00 is only the unexpected failure, 500). */
  unavailable: (message = 'A service the request needs is unavailable; retry later') => new ApiError(503, 'SU_01', message),
};
