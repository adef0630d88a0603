// Operator API for the accounting bridge (/admin/v1, operator token): applications and their keys,
// customers, companies (settings, pairing), connectors, and transactions with their rendered XML.
import {
  ApiKeyCreatedOut,
  ApiKeyIn,
  ApiKeyListOut,
  ApiKeyOut,
  ApplicationIn,
  ApplicationListOut,
  ApplicationOut,
  CompanyPairIn,
  CompanyResultOut,
  CompanySettingsIn,
  ConnectorListOut,
  OperatorCompanyListOut,
  OperatorCustomerListOut,
  OperatorTransactionDetailOut,
  OperatorTransactionListOut,
  OperatorTransactionListQuery,
} from '@ledgerwire/shared';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { requireOperator } from '../../operator/admin/operator-auth.js';

const docs = (summary: string) => ({ tags: ['operator'], summary, security: [{ operatorToken: [] }] });
const CompanyParams = z.object({ id: z.coerce.number().int().positive().max(2_147_483_647) });

export const bridgeOperatorRoutes: FastifyPluginAsyncZod = async (app) => {
  app.addHook('onRequest', requireOperator(app.operators.token));
  const bridge = app.bridge;

  app.post('/applications', { schema: { ...docs('Create a bridge application'), body: ApplicationIn, response: { 201: ApplicationOut } } }, async (request, reply) => {
    reply.code(201);
    return { success: true as const, application: await bridge.applications.createApplication(request.body) };
  });

  app.get('/applications', { schema: { ...docs('List bridge applications'), response: { 200: ApplicationListOut } } }, async () => ({
    success: true as const,
    applications: await bridge.applications.listApplications(),
  }));

  app.post(
    '/applications/:id/keys',
    { schema: { ...docs('Create an API key; the secret and credential are shown only here'), params: z.object({ id: z.string().min(1) }), body: ApiKeyIn, response: { 201: ApiKeyCreatedOut } } },
    async (request, reply) => {
      reply.code(201);
      return { success: true as const, ...(await bridge.applications.createKey(request.params.id, request.body)) };
    },
  );

  app.get('/applications/:id/keys', { schema: { ...docs('List an application’s API keys (never their secrets)'), params: z.object({ id: z.string().min(1) }), response: { 200: ApiKeyListOut } } }, async (request) => ({
    success: true as const,
    keys: await bridge.applications.listKeys(request.params.id),
  }));

  app.delete('/keys/:key_id', { schema: { ...docs('Revoke an API key at once'), params: z.object({ key_id: z.string().min(1) }), response: { 200: ApiKeyOut } } }, async (request) => ({
    success: true as const,
    key: await bridge.applications.revokeKey(request.params.key_id),
  }));

  app.get('/customers', { schema: { ...docs('List customers'), querystring: z.object({ application_id: z.string().optional() }), response: { 200: OperatorCustomerListOut } } }, async (request) => ({
    success: true as const,
    customers: await bridge.customers.list(request.query.application_id),
  }));

  app.get(
    '/companies',
    {
      schema: {
        ...docs('List companies'),
        querystring: z.object({ application_id: z.string().optional(), customer_id: z.string().optional(), connector_id: z.string().optional() }),
        response: { 200: OperatorCompanyListOut },
      },
    },
    async (request) => {
      const { application_id, customer_id, connector_id } = request.query;
      const companies = await bridge.companies.list({
        ...(application_id ? { applicationId: application_id } : {}),
        ...(customer_id ? { customerId: customer_id } : {}),
        ...(connector_id ? { connectorId: connector_id } : {}),
      });
      return { success: true as const, companies };
    },
  );

  app.patch(
    '/companies/:id',
    { schema: { ...docs('Company settings: masters pull and reports'), params: CompanyParams, body: CompanySettingsIn, response: { 200: CompanyResultOut } } },
    async (request) => ({ success: true as const, company: await bridge.companies.updateSettings(request.params.id, request.body) }),
  );

  app.post(
    '/companies/:id/pair',
    { schema: { ...docs('Pair a company with a connector and a books company (support)'), params: CompanyParams, body: CompanyPairIn, response: { 200: CompanyResultOut } } },
    async (request) => ({ success: true as const, company: await bridge.companies.pair(request.params.id, request.body) }),
  );

  app.get('/connectors', { schema: { ...docs('List connectors'), querystring: z.object({ application_id: z.string().optional() }), response: { 200: ConnectorListOut } } }, async (request) => {
    const directory = bridge.connectors;
    const connectors = request.query.application_id ? await directory.listForApplication(request.query.application_id) : await directory.listAll();
    return { success: true as const, connectors: connectors.map((c) => ({ ...c, open_companies: [...c.open_companies] })) };
  });

  app.get('/transactions', { schema: { ...docs('List transactions'), querystring: OperatorTransactionListQuery, response: { 200: OperatorTransactionListOut } } }, async (request) => {
    const { application_id, company_id, status, job_type, limit, offset } = request.query;
    return {
      success: true as const,
      ...(await bridge.transactions.operatorList({
        ...(application_id ? { application_id } : {}),
        ...(company_id !== undefined ? { company_id } : {}),
        ...(status ? { status } : {}),
        ...(job_type ? { job_type } : {}),
        limit,
        offset,
      })),
    };
  });

  app.get(
    '/transactions/:id',
    { schema: { ...docs('One transaction with the submitted document and the XML rendered for the books'), params: z.object({ id: z.string().min(1) }), response: { 200: OperatorTransactionDetailOut } } },
    async (request) => ({ success: true as const, transaction: await bridge.transactions.operatorGet(request.params.id) }),
  );
};
