// The authorisation chain of the bridge contract (rules 2–3): key → application → customer → company.
// A company-scoped call names the company by `company_id` (query) or `X-Service-Company` (header);
// every link must hold, else 403 — another application's company, a company not attached to one of
// the application's customers, or a books GUID sent in place of the service's integer id (contract
// rule 3). A value that is neither an integer nor a GUID (company_id=abc) is a malformed request: 400.
import type { Kysely } from 'kysely';
import type { Database } from '../../../db/schema.js';
import { AppError } from '../../../errors/catalogue.js';
import { ShortLivedCache } from '../../../foundation/short-lived-cache.js';
import type { AuthenticatedKey } from '../applications/application-service.js';
import type { CompanyRow } from '../../store/companies/company-repository.js';
import { findCompanyById } from '../../store/companies/find-company-by-id.js';
import { findCompanyWithCustomerApplication, type CompanyWithCustomerApplication } from '../../store/companies/find-company-with-customer-application.js';

const COMPANY_ID = /^[1-9][0-9]{0,9}$/;
/** Any run of digits: an integer id, perhaps not one of ours (0, or past the 32-bit keys) — then 403. */
const DIGITS = /^[0-9]+$/;
/** A books GUID (a company's, or a voucher's with its "-0000000a" tail): the contract's 403 case. */
const BOOKS_GUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}(-[0-9a-f]{1,8})?$/i;
/** Company ids are 32-bit integer keys on both databases. */
const MAX_COMPANY_ID = 2_147_483_647;

/**
 * What is wrong with the company a request names, before any database read: missing (400, when the
 * route needs one), not an integer (400), a books GUID or an integer that cannot be a company id (403).
 * Undefined when it is a well-formed company id.
 */
export function companyIdProblem(raw: string | undefined, required: boolean): AppError | undefined {
  if (raw === undefined || raw === '') return required ? new AppError('company_required') : undefined;
  if (BOOKS_GUID.test(raw)) {
    return new AppError('company_forbidden', {
      message: 'company_id must be the service’s integer company id; a books company GUID is not accepted (use the company_id POST /api/v1/companies answered)',
      details: [{ field: 'company_id', message: 'a books GUID, not a service company id' }],
    });
  }
  if (!DIGITS.test(raw)) {
    return new AppError('company_id_invalid', {
      message: `company_id must be the service’s integer company id, e.g. company_id=42; "${raw.slice(0, 60)}" is not an integer`,
      details: [{ field: 'company_id', message: 'must be a positive integer' }],
    });
  }
  if (!COMPANY_ID.test(raw) || Number(raw) > MAX_COMPANY_ID) {
    return new AppError('company_forbidden', { message: `Company ${raw.slice(0, 60)} does not belong to this key’s application` });
  }
  return undefined;
}

/** The company id a request names: query and header must agree when both are sent. */
export function requestedCompanyId(query: unknown, headers: Readonly<Record<string, string | string[] | undefined>>): string | undefined {
  const fromQuery = (query as Record<string, unknown> | undefined)?.['company_id'];
  const fromHeader = headers['x-service-company'];
  const values = [fromQuery, fromHeader].flat().filter((v): v is string => typeof v === 'string');
  const distinct = [...new Set(values)];
  if (distinct.length > 1) throw new AppError('company_required', { message: 'Name one company: company_id and X-Service-Company differ' });
  return distinct[0];
}

type ScopedRow = CompanyWithCustomerApplication;

/**
 * How long another relay process may keep resolving a company through a link changed elsewhere (a
 * detach, a disconnect, a pairing), as long as an API key revoked elsewhere stays accepted. Changes
 * made through this process's company repository clear the cache at once (see forget).
 */
export const COMPANY_SCOPE_CACHE_TTL_MS = 2_000;

export class CompanyScope {
  private readonly db: Kysely<Database>;
  /** Company id → its row and its customer's application, frozen; checked against each key on every call. */
  private readonly cache: ShortLivedCache<Readonly<ScopedRow>>;

  constructor(deps: { db: Kysely<Database>; now?: () => number }) {
    this.db = deps.db;
    this.cache = new ShortLivedCache(COMPANY_SCOPE_CACHE_TTL_MS, deps.now ?? Date.now);
  }

  /** Drops every cached company: called after each change to company rows made in this process. */
  forget(): void {
    this.cache.clear();
  }

  /** The company when every link of the chain holds for this key. */
  async resolve(key: AuthenticatedKey, raw: string | undefined): Promise<CompanyRow> {
    const problem = companyIdProblem(raw, true);
    if (problem || raw === undefined) throw problem ?? new AppError('company_required');
    const row = await this.scopedRow(Number(raw));
    if (!row || row.application_id !== key.applicationId) {
      throw new AppError('company_forbidden', { message: `Company ${raw} does not belong to this key’s application` });
    }
    if (row.customer_id === null || row.customer_application_id !== key.applicationId) {
      throw new AppError('company_forbidden', { message: `Company ${raw} is not attached to a customer of this application` });
    }
    const { customer_application_id: _linked, ...company } = row;
    return company;
  }

  /** The company's row with its customer's application; concurrent misses share one read. */
  private scopedRow(companyId: number): Promise<Readonly<ScopedRow> | undefined> {
    return this.cache.getOrLoad(String(companyId), async () => {
      const row = await findCompanyWithCustomerApplication(this.db, companyId);
      return row ? Object.freeze(row) : undefined;
    });
  }

  /** A company addressed by path (attach, detach, disconnect, health): it must belong to the application. */
  async owned(key: AuthenticatedKey, companyId: number): Promise<CompanyRow> {
    const row = await findCompanyById(this.db, companyId);
    if (!row || row.application_id !== key.applicationId) {
      throw new AppError('company_forbidden', { message: `Company ${companyId} does not belong to this key’s application` });
    }
    return row;
  }
}
