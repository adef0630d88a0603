// OpenAPI 3 generated from the routes' zod schemas: the document at /docs/json, the UI at /docs.
import swagger from '@fastify/swagger';
import swaggerUi from '@fastify/swagger-ui';
import type { FastifyInstance } from 'fastify';
import { jsonSchemaTransform, jsonSchemaTransformObject } from 'fastify-type-provider-zod';
import { RELAY_VERSION } from '../version.js';
import { addRequestBodyExamples } from './openapi-examples.js';
import { bridgeWebhooksDocument } from '../webhooks/services/webhook-openapi.js';

export async function registerOpenApi(app: FastifyInstance, publicUrl: string): Promise<void> {
  await app.register(swagger, {
    openapi: {
      openapi: '3.1.0',
      info: {
        title: 'Ledgerwire relay',
        version: RELAY_VERSION,
        description:
          'Two APIs: the accounting bridge (`/api/v1`) and the transactional messaging service (`/api`), ' +
          'plus the operator API (`/admin/v1`) that provisions applications and their keys, tenants, templates and webhooks. ' +
          'Every request body below carries a working example; the voucher and master examples name the ledgers, items ' +
          'and voucher types of the books emulator\'s demo company (`npm run emulator`).',
      },
      servers: [{ url: publicUrl }],
      webhooks: bridgeWebhooksDocument(),
      tags: [
        { name: 'messaging', description: 'Transactional messaging (`/api`)' },
        { name: 'bridge', description: 'Accounting bridge (`/api/v1`)' },
        { name: 'operator', description: 'Operator API (`/admin/v1`), Bearer RELAY_ADMIN_TOKEN' },
        { name: 'probes', description: 'Liveness and readiness' },
      ],
      components: {
        securitySchemes: {
          operatorToken: { type: 'http', scheme: 'bearer', description: 'RELAY_ADMIN_TOKEN' },
          messagingApiKey: { type: 'http', scheme: 'bearer', description: 'Tenant API key' },
          bridgeCredential: { type: 'http', scheme: 'bearer', description: '{key_id}:{secret}' },
          connectorCredential: { type: 'http', scheme: 'bearer', description: 'The connector credential from enrolment: {connector_id}:{secret}' },
        },
      },
    },
    transform: jsonSchemaTransform,
    transformObject: (input) => addRequestBodyExamples(jsonSchemaTransformObject(input)),
  });
  await app.register(swaggerUi, { routePrefix: '/docs' });
}
