// Operator API (/admin/v1, operator token) for support's bridge tasks: rotate a customer's token by
// customer id (the new token is shown only in the answer), attach / detach a company to a customer,
// disconnect a company from its connector, read one application or company, and list a customer's
// connect sessions or cancel one. The same service
// methods as /api/v1, so the rules and the company.linked / company.unlinked webhooks are the same.
import { ApplicationOut, ConnectSessionListOut, ConnectSessionResultOut, OperatorCompanyAttachIn, OperatorCompanyOut, OperatorCustomerTokenOut } from '@ledgerwire/shared';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { requireOperator } from '../../operator/admin/operator-auth.js';

const docs = (summary: string) => ({ tags: ['operator'], summary, security: [{ operatorToken: [] }] });
const CompanyParams = z.object({ id: z.coerce.number().int().positive().max(2_147_483_647) });
const IdParams = z.object({ id: z.string().trim().min(1).max(200) });

export const bridgeSupportRoutes: FastifyPluginAsyncZod = async (app) => {
  app.addHook('onRequest', requireOperator(app.operators.token));
  const bridge = app.bridge;

  app.get('/applications/:id', { schema: { ...docs('One bridge application'), params: IdParams, response: { 200: ApplicationOut } } }, async (request) => ({
    success: true as const,
    application: await bridge.applications.getApplication(request.params.id),
  }));

  app.post(
    '/customers/:id/rotate-token',
    {
      schema: {
        ...docs('Rotate a customer’s token by customer id: the new token is shown only here; the old one enrols no more; enrolled connectors keep working'),
        params: IdParams,
        response: { 200: OperatorCustomerTokenOut },
      },
    },
    async (request) => ({ success: true as const, customer: await bridge.customers.rotateById(request.params.id) }),
  );

  app.get(
    '/customers/:id/connect-sessions',
    { schema: { ...docs('A customer’s connect sessions (connect links), newest first (at most 100)'), params: IdParams, response: { 200: ConnectSessionListOut } } },
    async (request) => ({ success: true as const, connect_sessions: await bridge.connectSessions.operatorList(request.params.id) }),
  );

  app.post(
    '/connect-sessions/:id/cancel',
    { schema: { ...docs('Cancel a connect session: its link and setup code stop working at once'), params: IdParams, response: { 200: ConnectSessionResultOut } } },
    async (request) => ({ success: true as const, connect_session: await bridge.connectSessions.operatorCancel(request.params.id) }),
  );

  app.get('/companies/:id', { schema: { ...docs('One company, with its application'), params: CompanyParams, response: { 200: OperatorCompanyOut } } }, async (request) => ({
    success: true as const,
    company: await bridge.companies.operatorFind(request.params.id),
  }));

  app.post(
    '/companies/:id/customer',
    {
      schema: { ...docs('Attach the company to a customer of its application (raises company.linked)'), params: CompanyParams, body: OperatorCompanyAttachIn, response: { 200: OperatorCompanyOut } },
    },
    async (request) => ({ success: true as const, company: await bridge.companies.operatorAttach(request.params.id, request.body.customer_id) }),
  );

  app.delete(
    '/companies/:id/customer',
    { schema: { ...docs('Detach the company from its customer (raises company.unlinked); the books and the pairing stay'), params: CompanyParams, response: { 200: OperatorCompanyOut } } },
    async (request) => ({ success: true as const, company: await bridge.companies.operatorDetach(request.params.id) }),
  );

  app.post(
    '/companies/:id/disconnect',
    {
      schema: {
        ...docs('Sever the connector pairing: jobs for the company wait in the queue until it is paired again; the company and its history stay'),
        params: CompanyParams,
        response: { 200: OperatorCompanyOut },
      },
    },
    async (request) => ({ success: true as const, company: await bridge.companies.operatorDisconnect(request.params.id) }),
  );
};
