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
export function found<T>(value: T | null | undefined, what: string): T {
  if (value === null || value === undefined) throw errors.notFound(what);
  return value;
}

export const errors = {
  unauthorized: () => new ApiError(401, 'IR_01', 'API key not provided or invalid API key used'),
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
  busy: (message: string) => new ApiError(409, 'HE_01', message),
  notFound: (what: string) => new ApiError(404, 'HE_02', `${what} does not exist in our records`),
  bodyTooLarge: () => new ApiError(413, 'IR_05', 'Request body is too large'),
  badJson: () => new ApiError(400, 'IR_06', 'Request body is not valid JSON'),
  tooDeep: (max: number) => new ApiError(400, 'IR_06', `Request body nests deeper than ${max} levels`, 'body'),
  internal: () => new ApiError(500, 'HE_00', 'Something went wrong'),
  /** Over a rate limit (per address, per key or per checkout payment); Retry-After in whole seconds. */
  rateLimited: (retryAfterS: number) =>
    Object.assign(new ApiError(429, 'RL_01', 'Too many requests; retry after the time in Retry-After'), {
      headers: { 'retry-after': String(Math.max(1, Math.ceil(retryAfterS))) },
    }),
  unavailable: (message = 'A service the request needs is unavailable; retry later') => new ApiError(503, 'HE_00', message),
};
