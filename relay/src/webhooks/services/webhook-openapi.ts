// The OpenAPI 3.1 `webhooks` section: the requests the relay sends to an application's endpoints for
// write outcomes (transaction.completed, transaction.failed) and the end of a connect link
// (connect_session.completed), with their body schema, so an integrator reads them at /docs beside the
// calls. Presence events are listed in docs/webhooks.md.
import type { FastifyDynamicSwaggerOptions } from '@fastify/swagger';
import { ConnectSessionCompletedEventOut, TransactionEventOut } from '@ledgerwire/shared';
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

const CONNECT_SESSION_COMPLETED =
  'A connect link did its work: the connector enrolled with its setup code is paired with its company (on the hosted page, in the connector, or by support). ' +
  'Raised once per session; GET /api/v1/connect-sessions/{id} then reads completed.';

function bodySchema(wire: z.ZodType): unknown {
  const schema = z.toJSONSchema(wire, { io: 'output', unrepresentable: 'any' });
  delete (schema as { $schema?: unknown }).$schema;
  return schema;
}

/** The `webhooks` object of the OpenAPI document. */
export function bridgeWebhooksDocument(): OpenApiWebhooks {
  // The body schema is zod's JSON Schema 2020-12, which is what OpenAPI 3.1 takes; the OpenAPI typings
  // model a narrower schema object, hence the cast.
  const transactionSchema = bodySchema(TransactionEventOut);
  const entries: [string, string, unknown][] = [
    ...Object.entries(DESCRIPTIONS).map(([type, description]): [string, string, unknown] => [type, description, transactionSchema]),
    ['connect_session.completed', CONNECT_SESSION_COMPLETED, bodySchema(ConnectSessionCompletedEventOut)],
  ];
  return Object.fromEntries(
    entries.map(([type, description, schema]) => [
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
