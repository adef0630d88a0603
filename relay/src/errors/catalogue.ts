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
  request_timeout: { status: 408, message: 'The request was not received in time' },
  request_headers_too_large: { status: 431, message: 'The request line and headers are larger than the relay accepts (16 KiB)' },
  invalid_characters: { status: 400, message: 'The request holds a NUL character or ill-formed Unicode, which cannot be stored' },
  nesting_too_deep: { status: 400, message: 'The body nests arrays and objects too deep' },
  too_many_items: { status: 400, message: 'An array or object of the body has too many elements' },
  string_too_long: { status: 400, message: 'A string of the body is too long' },
  internal_error: { status: 500, message: 'Internal server error' },
  service_unavailable: { status: 503, message: 'Service unavailable' },

  // Operator API
  operator_token_missing: { status: 401, message: 'Missing operator token: send Authorization: Bearer <your operator token, or RELAY_ADMIN_TOKEN>' },
  operator_token_invalid: { status: 401, message: 'Invalid operator token: unknown, revoked or rotated' },
  operator_role_insufficient: { status: 403, message: 'Your operator role may not do this' },
  operator_account_not_found: { status: 404, message: 'No such operator account' },
  operator_account_revoked: { status: 409, message: 'The operator account is revoked: create a new one' },

  // Webhooks (relay/src/webhooks)
  webhook_url_invalid: { status: 422, message: 'The webhook URL must be an HTTPS URL that resolves to a public address' },
  webhook_events_invalid: { status: 422, message: 'The webhook event types are not valid for this API' },
  webhook_endpoint_disabled: { status: 409, message: 'The webhook endpoint is disabled: enable it first' },

  // Accounting bridge (relay/src/bridge)
  bridge_credential_missing: { status: 401, message: 'Missing credential: send Authorization: Bearer <key_id>:<secret>' },
  bridge_credential_invalid: { status: 401, message: 'The credential is malformed, unknown or revoked' },
  company_required: { status: 400, message: 'This call needs the company: pass company_id or the X-Service-Company header' },
  company_id_invalid: { status: 400, message: 'company_id must be the service’s integer company id' },
  company_forbidden: { status: 403, message: 'This key may not act for that company' },
  application_not_found: { status: 404, message: 'No such application' },
  api_key_not_found: { status: 404, message: 'No such API key' },
  customer_not_found: { status: 404, message: 'No such customer' },
  company_not_found: { status: 404, message: 'No such company' },
  company_already_attached: { status: 409, message: 'The company is attached to another customer: detach it first' },
  connector_not_found: { status: 404, message: 'No such connector' },
  pairing_invalid: { status: 422, message: 'The connector cannot be paired with this company' },
  transaction_not_found: { status: 404, message: 'No such transaction' },
  transaction_ambiguous: { status: 409, message: 'Several of your companies have a transaction with this id: pass company_id' },
  pulled_voucher_not_found: { status: 404, message: 'No such pulled voucher' },
  voucher_not_found: { status: 404, message: 'No voucher of this company has that books_voucher_guid (or write transaction_id)' },
  unbalanced_entries: { status: 422, message: 'The voucher\'s debits and credits do not net to zero: the books would refuse it' },

  // Messaging (relay/src/messaging); the messaging API answers {"error": message}
  api_key_missing: { status: 401, message: 'Missing API Key' },
  api_key_invalid: { status: 401, message: 'Invalid API Key' },
  tenant_inactive: { status: 403, message: 'Tenant inactive' },
  invalid_signature: { status: 403, message: 'Invalid signature' },
  org_id_mismatch: { status: 403, message: 'org_id does not belong to this tenant' },
  unknown_provider: { status: 404, message: 'Unknown provider' },
  message_not_found: { status: 404, message: 'Message not found' },
  tenant_not_found: { status: 404, message: 'Tenant not found' },
  template_not_found: { status: 404, message: 'Template not found' },
  suppression_not_found: { status: 404, message: 'This address is not on your suppression list' },
  event_rule_not_found: { status: 404, message: 'Event rule not found' },
  idempotency_conflict: {
    status: 409,
    message: 'This transaction_id and action were already used for a different message: use a new transaction_id or resend the same body',
  },
  org_id_taken: { status: 409, message: 'Another tenant already has this org_id' },
  template_active_conflict: { status: 409, message: 'The tenant already has an active template for this event_key and channel: deactivate it first' },
  invalid_template: { status: 422, message: 'Invalid template' },
  template_syntax_invalid: { status: 422, message: 'The template does not compile' },
  template_content_empty: { status: 422, message: 'A template needs an html or a text part with something in it: both are empty' },
  message_content_empty: {
    status: 422,
    message: "The message has no content: the template's html and text parts are both empty with this data (check the template's variables against data)",
  },
  message_subject_empty: { status: 422, message: 'The subject is empty with this data: every email needs one (check the subject\'s variables against data)' },
  provider_not_configured: { status: 422, message: 'A provider in provider_order is not configured on this relay' },
  burst_limit_exceeded: { status: 429, message: 'Rate limit exceeded' },
  sustained_limit_exceeded: { status: 429, message: 'Too many requests in the last minute' },
  daily_quota_exceeded: { status: 429, message: 'Daily quota exceeded' },
  dispatch_failed: { status: 500, message: 'Dispatch failed' },

  // Connector gateway (relay/src/gateway)
  enrolment_token_invalid: { status: 401, message: 'The enrolment token is unknown or was rotated: ask for the customer\'s current token' },
  connector_credential_missing: { status: 401, message: 'Missing connector credential: send Authorization: Bearer <connector credential>' },
  connector_credential_invalid: { status: 401, message: 'The connector credential is malformed, unknown or was replaced by a new enrolment' },
  connect_session_not_found: { status: 404, message: 'No such connect session' },
  connect_session_invalid: { status: 422, message: 'The connect session cannot be created for this company' },
  connect_session_closed: { status: 409, message: 'The connect session is completed, cancelled or expired: create a new one' },
  setup_code_invalid: {
    status: 401,
    message: 'This code was not accepted: check it was typed as given (a setup code looks like K7QP-M3XD). A setup code works once and only until its link expires; if it was used or has expired, ask your software provider for a new link',
  },
  setup_code_attempts_exceeded: { status: 429, message: 'Too many codes were tried from this network: wait for the time given in Retry-After, then type the code again' },
  connect_link_invalid: { status: 404, message: 'This connect link is not known: check it was copied whole, or ask your software provider for a new one' },
  connect_step_not_ready: { status: 409, message: 'That step cannot be taken yet' },
  connector_upgrade_required: { status: 426, message: 'This endpoint speaks WebSocket only: send an Upgrade: websocket request' },
} as const satisfies Record<string, { status: number; message: string }>;

export type ErrorCode = keyof typeof errorCatalogue;

export type ErrorDetail = Readonly<{ field?: string; message: string }>;

/** A domain error: services throw it, the one error handler turns it into an HTTP answer. */
export class AppError extends Error {
  readonly status: number;
  readonly details: readonly ErrorDetail[];
  readonly headers: Readonly<Record<string, string>>;
  /** Fields added beside `error` in the messaging body (e.g. which event_key and channel had no template). */
  readonly extra: Readonly<Record<string, string>>;

  constructor(
    readonly code: ErrorCode,
    options: { message?: string; details?: readonly ErrorDetail[]; headers?: Record<string, string>; extra?: Record<string, string>; cause?: unknown } = {},
  ) {
    super(options.message ?? errorCatalogue[code].message, { cause: options.cause });
    this.name = 'AppError';
    this.status = errorCatalogue[code].status;
    this.details = options.details ?? [];
    this.headers = options.headers ?? {};
    this.extra = options.extra ?? {};
  }
}
