// /api/v1 ping, customers and companies (create, list, attach, detach, disconnect, health).
import {
  CompanyAttachIn,
  CompanyCreatedOut,
  CompanyHealthOut,
  CompanyIn,
  CompanyListOut,
  CompanyResultOut,
  CustomerCreatedOut,
  CustomerIn,
  CustomerListOut,
  PingOut,
} from '@ledgerwire/shared';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { bridgeKeyOf } from './bridge-auth.js';
import { bridgeDocs, ownedCompany } from './route-support.js';

const CompanyParams = z.object({ id: z.coerce.number().int().positive().max(2_147_483_647) });

export const tenancyRoutes: FastifyPluginAsyncZod = async (app) => {
  const bridge = app.bridge;

  app.get('/ping', { schema: { ...bridgeDocs('Check that the credential authenticates'), response: { 200: PingOut } } }, (request) => {
    const key = bridgeKeyOf(request);
    return { success: true as const, key_id: key.keyId, application_id: key.applicationId, environment: key.environment, capabilities: [...key.capabilities] };
  });

  app.get('/customers', { schema: { ...bridgeDocs('List customers'), response: { 200: CustomerListOut } } }, async (request) => {
    const customers = await bridge.customers.list(bridgeKeyOf(request).applicationId);
    return { success: true as const, customers: customers.map(({ application_id: _app, ...customer }) => customer) };
  });

  app.post('/customers', { schema: { ...bridgeDocs('Create a customer; its token is shown only here'), body: CustomerIn, response: { 200: CustomerCreatedOut } } }, async (request) => ({
    success: true as const,
    customer: await bridge.customers.create(bridgeKeyOf(request).applicationId, request.body),
  }));

  app.post(
    '/customers/:token/rotate',
    {
      // The path carries the customer token: the request log masks it (http/request-log.ts).
      schema: { ...bridgeDocs('Rotate the customer token: enrolled connectors keep working, the old token enrols no more'), params: z.object({ token: z.string().min(1) }), response: { 200: CustomerCreatedOut } },
    },
    async (request) => ({ success: true as const, customer: await bridge.customers.rotate(bridgeKeyOf(request).applicationId, request.params.token) }),
  );

  app.get('/companies', { schema: { ...bridgeDocs('List companies'), querystring: z.object({ customer_id: z.string().optional() }), response: { 200: CompanyListOut } } }, async (request) => {
    const companies = await bridge.companies.list({ applicationId: bridgeKeyOf(request).applicationId, ...(request.query.customer_id ? { customerId: request.query.customer_id } : {}) });
    return { success: true as const, companies: companies.map(({ application_id: _app, ...company }) => company) };
  });

  app.post('/companies', { schema: { ...bridgeDocs('Create a company; the answer carries company_id'), body: CompanyIn, response: { 200: CompanyCreatedOut } } }, async (request) => {
    const company = await bridge.companies.create(bridgeKeyOf(request).applicationId, request.body);
    return { success: true as const, company_id: company.company_id, company };
  });

  app.post(
    '/companies/:id/customer',
    { schema: { ...bridgeDocs('Attach the company to a customer (raises company.linked)'), params: CompanyParams, body: CompanyAttachIn, response: { 200: CompanyResultOut } } },
    async (request) => {
      const company = await ownedCompany(app, request, request.params.id);
      return { success: true as const, company: await bridge.companies.attach(company, request.body.customer_id) };
    },
  );

  app.delete(
    '/companies/:id/customer',
    { schema: { ...bridgeDocs('Detach the company from its customer (raises company.unlinked); the books stay'), params: CompanyParams, response: { 200: CompanyResultOut } } },
    async (request) => {
      const company = await ownedCompany(app, request, request.params.id);
      return { success: true as const, company: await bridge.companies.detach(company) };
    },
  );

  app.post(
    '/companies/:id/disconnect',
    { schema: { ...bridgeDocs('Sever the connector pairing; the company and its history stay'), params: CompanyParams, response: { 200: CompanyResultOut } } },
    async (request) => {
      const company = await ownedCompany(app, request, request.params.id);
      return { success: true as const, company: await bridge.companies.disconnect(company) };
    },
  );

  app.get(
    '/companies/:id/health',
    { schema: { ...bridgeDocs('Whether the connector is online, the books are running, and this company is open in them'), params: CompanyParams, response: { 200: CompanyHealthOut } } },
    async (request) => bridge.companies.health(await ownedCompany(app, request, request.params.id)),
  );
};
