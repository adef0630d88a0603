// The tenant-facing messaging API under /api: send, message status, event ingestion. Every route is
// behind the tenant API key (and its burst limit).
import {
  IngestEventIn,
  IngestEventOut,
  InvalidTemplateOut,
  MessageListOut,
  MessageListQuery,
  MessageOut,
  MessagingErrorOut,
  MessagingValidationErrorOut,
  SendBatchIn,
  SendBatchOut,
  SendMessageIn,
  SendMessageOut,
  SuppressionDeleteOut,
  SuppressionListOut,
} from '@ledgerwire/shared';
import { z } from 'zod';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { requireTenant, tenantOf } from './api-key-auth.js';
import { errorBody } from '../../errors/error-handler.js';
import { attachmentBodyOptions } from './attachment-bodies.js';

const errors = {
  401: MessagingErrorOut.describe('Missing API Key / Invalid API Key'),
  403: MessagingErrorOut.describe('Tenant inactive'),
  429: MessagingErrorOut.describe('Rate limit exceeded / Too many requests in the last minute / Daily quota exceeded'),
};

export const messagingRoutes: FastifyPluginAsyncZod = async (app) => {
  const messaging = app.messaging;
  app.decorateRequest('messagingTenant', null);
  app.addHook('onRequest', requireTenant(messaging));

  app.post(
    '/api/messages/send',
    {
      ...attachmentBodyOptions(messaging.acceptMemory, 'send'),
      schema: {
        tags: ['messaging'],
        summary: 'Send a message rendered from a template (idempotent on {transaction_id}_{action})',
        security: [{ messagingApiKey: [] }],
        body: SendMessageIn,
        response: {
          200: SendMessageOut,
          ...errors,
          409: MessagingErrorOut.describe('transaction_id reused with a different body'),
          413: MessagingErrorOut.describe('The body is larger than a send with 10 MB of attachments can be'),
          422: z
            .union([MessagingValidationErrorOut, InvalidTemplateOut, MessagingErrorOut])
            .describe('Validation failure, or {"error":"Invalid template","event_key":…,"channel":…}'),
          500: MessagingErrorOut.describe('Dispatch failed: retry with the same transaction_id'),
        },
      },
    },
    (request) => messaging.sender.send(tenantOf(request), request.body),
  );

  app.post(
    '/api/messages/batch',
    {
      ...attachmentBodyOptions(messaging.acceptMemory, 'batch'),
      schema: {
        tags: ['messaging'],
        summary: 'Up to 100 sends in one request; each result is what that send alone would have got, in order',
        security: [{ messagingApiKey: [] }],
        body: SendBatchIn,
        response: {
          200: SendBatchOut,
          ...errors,
          413: MessagingErrorOut.describe('The body is larger than a batch may be'),
          422: MessagingValidationErrorOut.describe('No messages array, or more than 100 items: nothing was sent'),
        },
      },
    },
    async (request) => {
      const results = await messaging.batchSender.sendAll(tenantOf(request), request.body.messages);
      for (const result of results) if ('error' in result && result.error.status >= 500) request.log.error({ err: result.error.cause ?? result.error }, 'a batch item could not be accepted');
      return {
        results: results.map((result) =>
          'sent' in result ? result.sent : { status_code: result.error.status, ...(errorBody('messaging', result.error) as Record<string, unknown>) },
        ),
      };
    },
  );

  app.get(
    '/api/messages',
    {
      schema: {
        tags: ['messaging'],
        summary: 'Your messages, oldest first, filtered by status, tag, to and since, a page at a time (next_cursor)',
        security: [{ messagingApiKey: [] }],
        querystring: MessageListQuery,
        response: { 200: MessageListOut, ...errors, 422: MessagingValidationErrorOut },
      },
    },
    (request) => messaging.messageList.list(tenantOf(request).id, request.query),
  );

  app.get(
    '/api/messages/:message_id',
    {
      schema: {
        tags: ['messaging'],
        summary: 'A message’s status, provider, timestamps and event timeline',
        security: [{ messagingApiKey: [] }],
        params: z.object({ message_id: z.string().min(1).max(100) }),
        response: { 200: MessageOut, ...errors, 404: MessagingErrorOut },
      },
    },
    (request) => messaging.messages.get(tenantOf(request).id, request.params.message_id),
  );

  app.get(
    '/api/suppressions',
    {
      schema: {
        tags: ['messaging'],
        summary: 'Addresses sends to which end failed (reason suppressed): hard bounces, spam reports, unsubscribes',
        security: [{ messagingApiKey: [] }],
        response: { 200: SuppressionListOut, ...errors },
      },
    },
    (request) => messaging.suppressions.list(tenantOf(request).id),
  );

  app.delete(
    '/api/suppressions/:email',
    {
      schema: {
        tags: ['messaging'],
        summary: 'Removes an address from the suppression list: sends to it reach a provider again',
        security: [{ messagingApiKey: [] }],
        params: z.object({ email: z.string().min(3).max(320) }),
        response: { 200: SuppressionDeleteOut, ...errors, 404: MessagingErrorOut },
      },
    },
    (request) => messaging.suppressions.remove(tenantOf(request).id, request.params.email),
  );

  app.post(
    '/api/events',
    {
      schema: {
        tags: ['messaging'],
        summary: 'Ingest a business event (processed asynchronously by event rules)',
        security: [{ messagingApiKey: [] }],
        body: IngestEventIn,
        response: {
          200: IngestEventOut.describe('{"status":"duplicate"}: this event_id was already accepted'),
          202: IngestEventOut.describe('{"status":"accepted"}'),
          ...errors,
          422: MessagingValidationErrorOut,
        },
      },
    },
    async (request, reply) => {
      const result = await messaging.events.ingest(tenantOf(request), request.body);
      return reply.code(result.status === 'accepted' ? 202 : 200).send(result);
    },
  );
};
