// Read-only operator queries the console needs and no other operator API answers: messages of a
// tenant searched by status or recipient (with one message's timeline), template draft previews and
// sample data fitted to a draft's variables, pulled-data counts per company, and any tenant's or
// application's webhook endpoints with their delivery history.
// Mounted under /admin/v1/console behind the operator token. Reads only; changes go through the
// owning area's own operator routes.
import {
  ConsoleMessageDetailOut,
  ConsoleMessageSearchOut,
  ConsoleMessageSearchQuery,
  ConsolePulledCountsOut,
  ConsolePulledCountsQuery,
  ConsoleRefusedSendsOut,
  ConsoleTemplateDraftIn,
  ConsoleTemplateDraftPreviewIn,
  ConsoleTemplateDraftPreviewOut,
  ConsoleTemplateSampleOut,
  ConsoleWebhookDeliveriesOut,
  ConsoleWebhookDeliveriesQuery,
  ConsoleWebhookListOut,
  ConsoleWebhookOwnerQuery,
} from '@ledgerwire/shared';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { requireOperator } from '../../operator/admin/operator-auth.js';
import { MessageQueryService } from '../../messaging/services/messages/message-query-service.js';
import { MessageRepository } from '../../messaging/store/messages/message-repository.js';
import { TemplateRenderer } from '../../messaging/services/templates/template-renderer.js';
import { missingVariables, sampleDataFor, templateVariables } from '../../messaging/services/templates/template-variables.js';
import { ConsoleQueries } from '../store/console-queries.js';

const docs = (summary: string) => ({ tags: ['console'], summary, security: [{ operatorToken: [] }] });
const TenantParams = z.object({ id: z.string().min(1).max(100) });

export const consoleQueryRoutes: FastifyPluginAsyncZod = async (app) => {
  app.addHook('onRequest', requireOperator(app.operators.token));
  const { db, capabilities } = app.database;
  const queries = new ConsoleQueries(db);
  const messages = new MessageQueryService(new MessageRepository(db, capabilities));
  const webhooks = app.webhooks.service;
  // Its own renderer: drafts typed in the editor must not crowd the send path's compiled-template cache.
  const draftRenderer = new TemplateRenderer();

  app.get(
    '/tenants/:id/messages',
    { schema: { ...docs('Search a tenant’s messages by status or recipient, newest first'), params: TenantParams, querystring: ConsoleMessageSearchQuery, response: { 200: ConsoleMessageSearchOut } } },
    async (request) => ({ success: true as const, ...(await queries.searchMessages(request.params.id, request.query)) }),
  );

  app.get(
    '/tenants/:id/refused-sends',
    { schema: { ...docs('Sends refused after authentication (invalid template, empty render, bad attachment, reused transaction_id), newest first, kept 7 days'), params: TenantParams, response: { 200: ConsoleRefusedSendsOut } } },
    async (request) => {
      await queries.assertTenantExists(request.params.id);
      const rows = await app.messaging.refusedSends.list(request.params.id, 200);
      return {
        success: true as const,
        refused_sends: rows.map((row) => ({
          id: row.id,
          code: row.code,
          status: Number(row.status),
          reason: row.reason,
          event_key: row.event_key,
          channel: row.channel,
          to: row.to_address,
          transaction_id: row.transaction_id,
          refused_at: row.refused_at,
        })),
      };
    },
  );

  app.get(
    '/tenants/:id/messages/:message_id',
    {
      schema: {
        ...docs('One message of a tenant with its status, timestamps and timeline'),
        params: TenantParams.extend({ message_id: z.string().min(1).max(100) }),
        response: { 200: ConsoleMessageDetailOut },
      },
    },
    async (request) => ({ success: true as const, message: await messages.get(request.params.id, request.params.message_id) }),
  );

  /** Checks each part compiles (a 422 naming the part otherwise) and returns the sources that exist. */
  const compiledSources = (draft: ConsoleTemplateDraftIn): string[] => {
    draftRenderer.assertCompiles(draft.subject, 'subject');
    draftRenderer.assertCompiles(draft.html, 'html');
    if (draft.text) draftRenderer.assertCompiles(draft.text, 'text');
    return [draft.subject, draft.html, ...(draft.text ? [draft.text] : [])];
  };

  app.post(
    '/tenants/:id/template-previews',
    {
      schema: {
        ...docs('Render a template draft with sample data, without saving it (changes nothing); names the variables the data lacks'),
        params: TenantParams,
        body: ConsoleTemplateDraftPreviewIn,
        response: { 200: ConsoleTemplateDraftPreviewOut },
      },
    },
    async (request) => {
      await queries.assertTenantExists(request.params.id);
      const { subject, html, text, data } = request.body;
      const variables = templateVariables(compiledSources(request.body));
      return {
        success: true as const,
        ...draftRenderer.render({ subject, html, text: text ?? null }, data),
        missing_variables: missingVariables(variables, data),
      };
    },
  );

  app.post(
    '/tenants/:id/template-samples',
    {
      schema: {
        ...docs('The variables a template draft uses and sample data that fits them (read from the Handlebars syntax)'),
        params: TenantParams,
        body: ConsoleTemplateDraftIn,
        response: { 200: ConsoleTemplateSampleOut },
      },
    },
    async (request) => {
      await queries.assertTenantExists(request.params.id);
      const variables = templateVariables(compiledSources(request.body));
      return { success: true as const, variables, sample_data: sampleDataFor(variables) };
    },
  );

  app.get(
    '/pulled-data',
    { schema: { ...docs('Vouchers and masters pulled from the books, counted per company'), querystring: ConsolePulledCountsQuery, response: { 200: ConsolePulledCountsOut } } },
    async (request) => ({ success: true as const, companies: await queries.pulledCounts(request.query.application_id) }),
  );

  app.get(
    '/webhooks',
    { schema: { ...docs('A tenant’s or an application’s webhook endpoints (never their secrets)'), querystring: ConsoleWebhookOwnerQuery, response: { 200: ConsoleWebhookListOut } } },
    async (request) => {
      const { owner_kind, owner_id } = request.query;
      return { success: true as const, webhooks: [...(await webhooks.listEndpoints({ kind: owner_kind, id: owner_id }))] };
    },
  );

  app.get(
    '/webhooks/:endpoint_id/deliveries',
    {
      schema: {
        ...docs('Delivery history of one webhook endpoint, newest first, with every attempt'),
        params: z.object({ endpoint_id: z.string().min(1).max(100) }),
        querystring: ConsoleWebhookDeliveriesQuery,
        response: { 200: ConsoleWebhookDeliveriesOut },
      },
    },
    async (request) => {
      const { owner_kind, owner_id, limit, offset } = request.query;
      const page = await webhooks.listDeliveries({ kind: owner_kind, id: owner_id }, request.params.endpoint_id, { limit, offset });
      return { success: true as const, total: page.total, deliveries: [...page.deliveries] };
    },
  );
};
