// The OpenAPI 3.1 `webhooks` section: the requests the relay sends to an application's endpoints for
// write outcomes (transaction.completed, transaction.failed), with their body schema, so an integrator
// reads them at /docs beside the calls. Presence events are listed in docs/webhooks.md.
import type { FastifyDynamicSwaggerOptions } from '@fastify/swagger';
import { TransactionEventOut } from '@ledgerwire/shared';
import { z } from 'zod';

type OpenApiDocument = NonNullable<FastifyDynamicSwaggerOptions['openapi']>;
type OpenApiWebhooks = NonNullable<Extract<OpenApiDocument, { webhooks?: unknown }>['webhooks']>;

const HEADERS_NOTE =
  'Signed per Standard Webhooks: headers webhook-id (the event_id), webhook-timestamp and webhook-signature ' +
  '(HMAC-SHA256 with the endpoint secret over "{webhook-id}.{webhook-timestamp}.{body}"), plus X-Service-Delivery. ' +
  'Answer 2xx within 10 seconds; anything else is retried over about 27.5 hours. Deduplicate on event_id.';

const DESCRIPTIONS = {
  'transaction.completed': 'A write (voucher or master) was booked: data carries the transaction as GET /api/v1/transactions/{job} shows it, with its books ids.',
  'transaction.failed':
    'A write was refused by the books (or given up after its connector stayed offline): data carries the transaction with error_code, error_label and error_message. ' +
    'A CONNECTOR_OFFLINE failure is followed by transaction.completed should the connector book it later.',
} as const;

/** The `webhooks` object of the OpenAPI document. */
export function bridgeWebhooksDocument(): OpenApiWebhooks {
  const schema = z.toJSONSchema(TransactionEventOut, { io: 'output', unrepresentable: 'any' });
  delete (schema as { $schema?: unknown }).$schema;
  // The body schema is zod's JSON Schema 2020-12, which is what OpenAPI 3.1 takes; the OpenAPI typings
  // model a narrower schema object, hence the cast.
  return Object.fromEntries(
    Object.entries(DESCRIPTIONS).map(([type, description]) => [
      type,
      {
        post: {
          tags: ['bridge'],
          summary: `${type} (sent to your webhook endpoint)`,
          description: `${description} ${HEADERS_NOTE}`,
          requestBody: { required: true, content: { 'application/json': { schema } } },
          responses: { '200': { description: 'Received; any 2xx will do' } },
        },
      },
    ]),
  ) as unknown as OpenApiWebhooks;
}
