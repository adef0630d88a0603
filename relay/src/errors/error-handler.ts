// The one error handler and not-found handler. Each API family has its own error body:
//   messaging (/api/…)            {"error": "..."}; validation 422 {"message", "errors": {field: [...]}}
//   bridge (/api/v1/…), operator  {"success": false, "error": {"code", "message", "details"}}
// Anything that is not an AppError or a known client error becomes a bare 500, logged with context.
import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { hasZodFastifySchemaValidationErrors } from 'fastify-type-provider-zod';
import { AppError, errorCatalogue, type ErrorDetail } from './catalogue.js';

declare module 'fastify' {
  interface FastifyRequest {
    /** Problems a hook found before schema validation (a malformed company_id): listed first when validation fails too. */
    problemsBeforeValidation?: readonly ErrorDetail[];
  }
}

export type ApiFamily = 'messaging' | 'envelope';

export function apiFamilyOf(url: string): ApiFamily {
  const pathname = url.split('?')[0] ?? '';
  if (pathname.startsWith('/api/v1/') || pathname === '/api/v1') return 'envelope';
  if (pathname.startsWith('/api/')) return 'messaging';
  return 'envelope';
}

export function sendError(request: FastifyRequest, reply: FastifyReply, error: AppError): FastifyReply {
  for (const [name, value] of Object.entries(error.headers)) reply.header(name, value);
  reply.code(error.status);
  return reply.send(errorBody(apiFamilyOf(request.url), error));
}

/** The error body of an API family (also written by hand where there is no reply: see http/request-edge.ts). */
export function errorBody(family: ApiFamily, error: AppError): object {
  if (family === 'messaging') {
    if (error.code === 'validation_failed') return messagingValidationBody(error.details);
    return { ...error.extra, error: error.message };
  }
  return { success: false, error: { code: error.code, message: error.message, details: error.details } };
}

/** The framework-default validation shape the messaging contract names (Laravel's). */
function messagingValidationBody(details: readonly ErrorDetail[]) {
  const errors: Record<string, string[]> = {};
  for (const d of details) (errors[d.field ?? 'body'] ??= []).push(d.message);
  const first = details[0]?.message ?? errorCatalogue.validation_failed.message;
  const more = details.length > 1 ? ` (and ${details.length - 1} more error${details.length > 2 ? 's' : ''})` : '';
  return { message: `${first}${more}`, errors };
}

function describeValidation(error: FastifyError, request: FastifyRequest): ErrorDetail[] {
  if (hasZodFastifySchemaValidationErrors(error)) {
    const input = validatedInput(request, error.validationContext);
    return error.validation.map((v) => {
      const segments: string[] = String(v.instancePath).split('/').slice(1).filter((segment: string) => segment !== '');
      const field = segments.join('.') || undefined;
      const absent = v.keyword === 'invalid_type' && valueAt(input, segments) === undefined;
      const said = absent ? requiredMessage(v.message) : (v.message ?? 'is invalid');
      if (!field) return { message: absent ? `The request ${error.validationContext ?? 'body'} is required: send a JSON object` : said };
      return { field, message: `The ${field} field ${lowerFirst(said)}` };
    });
  }
  return [{ message: error.message }];
}

/** What the schema that failed was checking: the body, the query, the path parameters or the headers. */
function validatedInput(request: FastifyRequest, context: string | undefined): unknown {
  switch (context) {
    case 'querystring': return request.query;
    case 'params': return request.params;
    case 'headers': return request.headers;
    default: return request.body;
  }
}

function valueAt(input: unknown, segments: readonly string[]): unknown {
  let value = input;
  for (const segment of segments) {
    if (value === null || typeof value !== 'object' || !Object.hasOwn(value, segment)) return undefined;
    value = (value as Record<string, unknown>)[segment];
  }
  return value;
}

/**
 * A field left out is "required", whatever type the schema wanted: "must be a string" reads as if
 * something had been sent. A schema's hint is kept ("is required and must be true (debit) or false
 * (credit)"); zod's own default text ("Invalid input: expected string, received undefined") is not.
 */
function requiredMessage(schemaMessage: string | undefined): string {
  if (schemaMessage === undefined || schemaMessage.startsWith('Invalid input')) return 'is required';
  if (schemaMessage.startsWith('is required')) return schemaMessage;
  return schemaMessage.startsWith('must ') ? `is required and ${schemaMessage}` : `is required: ${schemaMessage}`;
}

/** The first problem in words, and how many more the details list: a reader need not open them to start. */
function summariseDetails(details: readonly ErrorDetail[]): string {
  const first = details[0]?.message;
  if (!first) return 'The request is malformed';
  const more = details.length - 1;
  return more === 0 ? first : `${first} (and ${more} more ${more === 1 ? 'problem' : 'problems'}, listed in details)`;
}

function lowerFirst(text: string): string {
  return text.charAt(0).toLowerCase() + text.slice(1);
}

function toAppError(error: FastifyError, request: FastifyRequest): AppError | undefined {
  if (error instanceof AppError) return error;
  if (error.validation) {
    // Messaging answers validation with 422 (its contract); the envelope APIs call a body that
    // does not match its schema "malformed" (400), as the bridge contract's error table does.
    const details = [...(request.problemsBeforeValidation ?? []), ...describeValidation(error, request)];
    if (apiFamilyOf(request.url) === 'messaging') return new AppError('validation_failed', { details });
    return new AppError('bad_request', { message: summariseDetails(details), details });
  }
  switch (error.code) {
    case 'FST_ERR_CTP_EMPTY_JSON_BODY':
    case 'FST_ERR_CTP_INVALID_JSON_BODY':
    case 'FST_ERR_CTP_INVALID_CONTENT_LENGTH':
      return new AppError('bad_request', { message: `The request body is not valid JSON: ${error.message}` });
    case 'FST_ERR_CTP_BODY_TOO_LARGE':
      return new AppError('payload_too_large');
    case 'FST_ERR_CTP_INVALID_MEDIA_TYPE':
      return new AppError('unsupported_media_type');
  }
  if (error instanceof SyntaxError) return new AppError('bad_request', { message: 'The request body is not valid JSON' });
  if (typeof error.statusCode === 'number' && error.statusCode >= 400 && error.statusCode < 500) {
    return new AppError(error.statusCode === 404 ? 'not_found' : 'bad_request', { message: error.message });
  }
  return undefined;
}

/** Any error in the catalogue's body: a known one as it is (logged when it is the relay's fault), else a logged 500. */
function answerError(error: FastifyError, request: FastifyRequest, reply: FastifyReply): FastifyReply {
  const known = toAppError(error, request);
  if (known) {
    if (known.status >= 500) request.log.error({ err: error }, 'request failed');
    return sendError(request, reply, known);
  }
  request.log.error({ err: error, url: request.url, method: request.method }, 'unhandled error');
  return sendError(request, reply, new AppError('internal_error'));
}

/**
 * The longest path parameter the router matches. Every id the API hands out or accepts in a path is at
 * most 200 characters (a caller's own transaction_id); the routes' schemas hold the exact limit of each
 * and name the parameter when it is passed. This bound only stops the router from working on absurd
 * segments; find-my-way measures a parameter after percent-decoding, as the schemas do.
 */
export const MAX_PATH_PARAM_LENGTH = 500;

/**
 * Errors the router raises before any route (and so before the error handler) runs: Fastify's
 * `frameworkErrors` option. Without it they answer in Fastify's own body (414 FST_ERR_MAX_PARAM_LENGTH,
 * 400 FST_ERR_BAD_URL) instead of the API family's.
 */
export function routerErrorHandler(error: FastifyError, request: FastifyRequest, reply: FastifyReply): FastifyReply {
  reply.header('x-request-id', request.id);
  switch (error.code) {
    case 'FST_ERR_MAX_PARAM_LENGTH':
      return sendError(request, reply, new AppError('bad_request', {
        message: `A path parameter is longer than ${MAX_PATH_PARAM_LENGTH} characters; no id of this API is that long`,
      }));
    case 'FST_ERR_BAD_URL':
      return sendError(request, reply, new AppError('bad_request', { message: 'The path is not a valid URL: it holds a malformed percent-encoding' }));
  }
  return answerError(error, request, reply);
}

export function registerErrorHandling(app: FastifyInstance): void {
  app.setErrorHandler(answerError);
  app.setNotFoundHandler((request, reply) =>
    sendError(request, reply, new AppError('route_not_found', { message: `No endpoint ${request.method} ${request.url.split('?')[0]}` })),
  );
}
