// Operator API for messaging tenants and their API keys: /admin/v1/tenants…
import {
  SuppressionDeleteOut,
  SuppressionListOut,
  TenantApiKeyCreateIn,
  TenantApiKeyCreatedOut,
  TenantApiKeyListOut,
  TenantApiKeyRevokedOut,
  TenantCreateIn,
  TenantEnvelopeOut,
  TenantListOut,
  TenantUpdateIn,
} from '@ledgerwire/shared';
import { z } from 'zod';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';

const tenantParams = z.object({ id: z.string().min(1).max(60) });
const security = [{ operatorToken: [] }];
const tags = ['operator'];

export const tenantAdminRoutes: FastifyPluginAsyncZod = async (app) => {
  const messaging = app.messaging;
  const tenants = messaging.tenants;
  app.post(
    '/tenants',
    { schema: { tags, security, summary: 'Create a messaging tenant', body: TenantCreateIn, response: { 201: TenantEnvelopeOut } } },
    async (request, reply) => reply.code(201).send({ success: true as const, tenant: await tenants.create(request.body) }),
  );
  app.get('/tenants', { schema: { tags, security, summary: 'List messaging tenants', response: { 200: TenantListOut } } }, async () => ({
    success: true as const,
    tenants: await tenants.list(),
  }));
  app.get(
    '/tenants/:id',
    { schema: { tags, security, summary: 'A messaging tenant', params: tenantParams, response: { 200: TenantEnvelopeOut } } },
    async (request) => ({ success: true as const, tenant: await tenants.get(request.params.id) }),
  );
  app.patch(
    '/tenants/:id',
    {
      schema: {
        tags,
        security,
        summary: 'Change a tenant: name, status (active | suspended), limits (null resets one to the default), provider_order',
        params: tenantParams,
        body: TenantUpdateIn,
        response: { 200: TenantEnvelopeOut },
      },
    },
    async (request) => ({ success: true as const, tenant: await tenants.update(request.params.id, request.body) }),
  );

  app.post(
    '/tenants/:id/api-keys',
    {
      schema: {
        tags,
        security,
        summary: 'Issue an API key, live or test (the whole key is shown only in this answer)',
        params: tenantParams,
        body: TenantApiKeyCreateIn.nullish(),
        response: { 201: TenantApiKeyCreatedOut },
      },
    },
    async (request, reply) => reply.code(201).send({ success: true as const, ...(await tenants.createApiKey(request.params.id, request.body?.mode ?? 'live')) }),
  );
  app.get(
    '/tenants/:id/api-keys',
    { schema: { tags, security, summary: 'A tenant’s API keys (prefixes only)', params: tenantParams, response: { 200: TenantApiKeyListOut } } },
    async (request) => ({ success: true as const, api_keys: await tenants.listApiKeys(request.params.id) }),
  );
  app.get(
    '/tenants/:id/suppressions',
    { schema: { tags, security, summary: 'A tenant’s suppression list (hard bounces, spam reports, unsubscribes)', params: tenantParams, response: { 200: SuppressionListOut.extend({ success: z.literal(true) }) } } },
    async (request) => {
      await tenants.get(request.params.id);
      return { success: true as const, ...(await messaging.suppressions.list(request.params.id)) };
    },
  );
  app.delete(
    '/tenants/:id/suppressions/:email',
    {
      schema: {
        tags,
        security,
        summary: 'Removes an address from a tenant’s suppression list (support): sends to it reach a provider again',
        params: tenantParams.extend({ email: z.string().min(3).max(320) }),
        response: { 200: SuppressionDeleteOut.extend({ success: z.literal(true) }) },
      },
    },
    async (request) => {
      await tenants.get(request.params.id);
      return { success: true as const, ...(await messaging.suppressions.remove(request.params.id, request.params.email)) };
    },
  );
  app.delete(
    '/tenants/:id/api-keys/:prefix',
    {
      schema: {
        tags,
        security,
        summary: 'Revoke an API key',
        params: tenantParams.extend({ prefix: z.string().min(1).max(40) }),
        response: { 200: TenantApiKeyRevokedOut },
      },
    },
    async (request) => ({ success: true as const, api_key: await tenants.revokeApiKey(request.params.id, request.params.prefix) }),
  );
};
