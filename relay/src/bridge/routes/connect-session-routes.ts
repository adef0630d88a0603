// /api/v1/connect-sessions: create a connect link for a customer, read its progress, list a
// customer's, cancel one. The url and setup code appear only in the answer of create.
import { ConnectSessionCreatedOut, ConnectSessionIn, ConnectSessionListOut, ConnectSessionResultOut } from '@ledgerwire/shared';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { bridgeKeyOf } from './bridge-auth.js';
import { bridgeDocs } from './route-support.js';

const SessionParams = z.object({ id: z.string().min(1).max(100) });

export const connectSessionRoutes: FastifyPluginAsyncZod = async (app) => {
  const sessions = app.bridge.connectSessions;

  app.post(
    '/connect-sessions',
    {
      schema: {
        ...bridgeDocs('Create a connect link for a customer: a hosted page and a setup code that take the end user to a connected company'),
        body: ConnectSessionIn,
        response: { 200: ConnectSessionCreatedOut },
      },
    },
    async (request) => ({ success: true as const, connect_session: await sessions.create(bridgeKeyOf(request).applicationId, request.body) }),
  );

  app.get(
    '/connect-sessions',
    {
      schema: {
        ...bridgeDocs("List a customer's connect sessions, newest first (at most 100)"),
        querystring: z.object({ customer_id: z.string({ error: 'is required' }).min(1, 'is required').max(100) }),
        response: { 200: ConnectSessionListOut },
      },
    },
    async (request) => ({ success: true as const, connect_sessions: await sessions.list(bridgeKeyOf(request).applicationId, request.query.customer_id) }),
  );

  app.get(
    '/connect-sessions/:id',
    { schema: { ...bridgeDocs('A connect session and its progress: pending, connector_enrolled, books_found, completed, expired or cancelled'), params: SessionParams, response: { 200: ConnectSessionResultOut } } },
    async (request) => ({ success: true as const, connect_session: await sessions.get(bridgeKeyOf(request).applicationId, request.params.id) }),
  );

  app.post(
    '/connect-sessions/:id/cancel',
    { schema: { ...bridgeDocs('Cancel a connect session: its link and setup code stop working at once'), params: SessionParams, response: { 200: ConnectSessionResultOut } } },
    async (request) => ({ success: true as const, connect_session: await sessions.cancel(bridgeKeyOf(request).applicationId, request.params.id) }),
  );
};
