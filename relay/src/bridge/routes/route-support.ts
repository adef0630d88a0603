// Small helpers the bridge route files share: OpenAPI tags, the caller's key, its scoped company.
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { bridgeKeyOf } from './bridge-auth.js';
import { requestedCompanyId } from '../services/companies/company-scope.js';
import type { CompanyRow } from '../store/companies/company-repository.js';

declare module 'fastify' {
  interface FastifyContextConfig {
    /** `required`: the route acts for one company (query company_id or X-Service-Company header). */
    companyScope?: 'required';
  }
}

/** Route config of a company-scoped route: a missing or malformed company is then reported with the body's problems. */
export const COMPANY_REQUIRED = { companyScope: 'required' } as const;

const COMPANY_NOTE = 'Company: query `company_id` or header `X-Service-Company` (the service’s integer id).';

export function bridgeDocs(summary: string, options: { companyScoped?: boolean } = {}) {
  return {
    tags: ['bridge'],
    summary,
    ...(options.companyScoped ? { description: COMPANY_NOTE } : {}),
    security: [{ bridgeCredential: [] }],
  };
}

/** The company the request names, after every link of the authorisation chain held. */
export function scopedCompany(app: FastifyInstance, request: FastifyRequest): Promise<CompanyRow> {
  return app.bridge.companyScope.resolve(bridgeKeyOf(request), requestedCompanyId(request.query, request.headers));
}

/** A company addressed by path: it must belong to the key's application. */
export function ownedCompany(app: FastifyInstance, request: FastifyRequest, companyId: number): Promise<CompanyRow> {
  return app.bridge.companyScope.owned(bridgeKeyOf(request), companyId);
}
