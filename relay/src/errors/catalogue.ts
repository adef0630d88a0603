// The relay's one error catalogue: every error a client can see has a stable code, an HTTP status
// and a default message here. Services throw AppError(code); the error handler shapes the body for
// the API family the request belongs to. docs/errors.md documents each code (a test checks it).

export const errorCatalogue = {
  // Generic
  bad_request: { status: 400, message: 'The request is malformed' },
  validation_failed: { status: 422, message: 'The request is not valid' },
  not_found: { status: 404, message: 'Not found' },
  route_not_found: { status: 404, message: 'No such endpoint' },
  method_not_allowed: { status: 405, message: 'Method not allowed' },
  conflict: { status: 409, message: 'The request conflicts with the current state' },
  payload_too_large: { status: 413, message: 'The request body is too large' },
  unsupported_media_type: { status: 415, message: 'Content-Type must be application/json' },
  rate_limited: { status: 429, message: 'Rate limit exceeded' },
  internal_error: { status: 500, message: 'Internal server error' },
  service_unavailable: { status: 503, message: 'Service unavailable' },

  // Operator API
  operator_token_missing: { status: 401, message: 'Missing operator token: send Authorization: Bearer <RELAY_ADMIN_TOKEN>' },
  operator_token_invalid: { status: 401, message: 'Invalid operator token' },
} as const satisfies Record<string, { status: number; message: string }>;

export type ErrorCode = keyof typeof errorCatalogue;

export type ErrorDetail = Readonly<{ field?: string; message: string }>;

/** A domain error: services throw it, the one error handler turns it into an HTTP answer. */
export class AppError extends Error {
  readonly status: number;
  readonly details: readonly ErrorDetail[];
  readonly headers: Readonly<Record<string, string>>;

  constructor(
    readonly code: ErrorCode,
    options: { message?: string; details?: readonly ErrorDetail[]; headers?: Record<string, string>; cause?: unknown } = {},
  ) {
    super(options.message ?? errorCatalogue[code].message, { cause: options.cause });
    this.name = 'AppError';
    this.status = errorCatalogue[code].status;
    this.details = options.details ?? [];
    this.headers = options.headers ?? {};
  }
}
