// Company rows: lookups, settings, the customer link and the connector pairing. The gateway calls
// findPairedCompanies (findPairedCompaniesOf for many connectors) / pair / unpair (the shape it
// relies on is in gateway/gateway-ports.ts).
import type { CompanyOut } from '@ledgerwire/shared';
import type { Kysely, Selectable } from 'kysely';
import type { ReusableQuery } from '../../../db/reusable-query.js';
import type { Database } from '../../../db/schema.js';
import type { CompaniesTable } from '../../../db/bridge-tables.js';
import { systemClock, type Clock } from '../bridge-ids.js';
import { findCompanyById } from './find-company-by-id.js';
import { insertCompany } from './insert-company.js';
import { listCompanies } from './list-companies.js';
import { listPairedCompaniesOfConnectors } from './list-paired-companies-of-connectors.js';
import { pairCompany } from './pair-company.js';
import { pairedCompaniesOfConnectorQuery, type PairedCompanyColumns } from './paired-companies-of-connector-query.js';
import { updateCompany } from './update-company.js';

export type CompanyRow = Selectable<CompaniesTable>;

export type PairedCompany = Readonly<{
  company_id: number;
  books_company_guid: string;
  books_company_name: string;
  application_id: string;
}>;

export function companyOut(row: CompanyRow): CompanyOut {
  return {
    company_id: row.id,
    name: row.name,
    customer_id: row.customer_id,
    paired: row.connector_id !== null && row.books_company_guid !== null,
    connector_id: row.connector_id,
    books_company_guid: row.books_company_guid,
    books_company_name: row.books_company_name,
    pull_masters: row.pull_masters === 1,
    reports: { stock: row.report_stock === 1, gst: row.report_gst === 1 },
    created_at: row.created_at,
    updated_at: row.updated_at,
  };
}

function pairedCompany(row: PairedCompanyColumns): PairedCompany {
  return {
    company_id: row.id,
    books_company_guid: row.books_company_guid ?? '',
    books_company_name: row.books_company_name ?? row.name,
    application_id: row.application_id,
  };
}

export class CompanyRepository {
  private readonly db: Kysely<Database>;
  private readonly clock: Clock;
  /** Told after every change this repository makes to company rows (caches of them start over). */
  private readonly onChange: () => void;
  /** Every connector's hello reads it: built once by its store file and kept here, so every execution reuses it. */
  private readonly pairedWith: ReusableQuery<{ connectorId: string }, PairedCompanyColumns>;

  constructor(deps: { db: Kysely<Database>; clock?: Clock; onChange?: () => void }) {
    this.db = deps.db;
    this.clock = deps.clock ?? systemClock;
    this.onChange = deps.onChange ?? (() => undefined);
    this.pairedWith = pairedCompaniesOfConnectorQuery(deps.db);
  }

  /** Runs a change and then tells onChange, whether or not the change succeeded (it may have half-happened). */
  private async changing<T>(change: () => Promise<T>): Promise<T> {
    try {
      return await change();
    } finally {
      this.onChange();
    }
  }

  get(companyId: number): Promise<CompanyRow | undefined> {
    return findCompanyById(this.db, companyId);
  }

  list(filter: { applicationId?: string; customerId?: string; connectorId?: string }): Promise<CompanyRow[]> {
    return listCompanies(this.db, filter);
  }

  async insert(values: { application_id: string; name: string; customer_id: string | null }): Promise<CompanyRow> {
    const now = this.clock().toISOString();
    return this.changing(() => insertCompany(this.db, values, now));
  }

  async update(companyId: number, values: Partial<Omit<CompanyRow, 'id' | 'created_at' | 'updated_at'>>): Promise<CompanyRow | undefined> {
    return this.changing(() => updateCompany(this.db, companyId, values, this.clock().toISOString()));
  }

  /** Companies whose jobs and sync batches go through this connector. */
  async findPairedCompanies(connectorId: string): Promise<PairedCompany[]> {
    const { rows } = await this.pairedWith.execute(this.db, { connectorId });
    return rows.map(pairedCompany);
  }

  /**
   * findPairedCompanies for many connectors in one statement (the gateway's periodic pass over every
   * session); a connector without pairings has no entry.
   */
  async findPairedCompaniesOf(connectorIds: readonly string[]): Promise<Map<string, PairedCompany[]>> {
    const paired = new Map<string, PairedCompany[]>();
    if (connectorIds.length === 0) return paired;
    const rows = await listPairedCompaniesOfConnectors(this.db, connectorIds);
    for (const row of rows) {
      if (row.connector_id === null) continue;
      const list = paired.get(row.connector_id) ?? [];
      list.push(pairedCompany(row));
      paired.set(row.connector_id, list);
    }
    return paired;
  }

  /** Pairs the company with a connector and a books company; a books company is paired once per connector. */
  async pair(companyId: number, pairing: { connector_id: string; books_company_guid: string; books_company_name?: string | null }): Promise<CompanyRow | undefined> {
    const now = this.clock().toISOString();
    return this.changing(() => pairCompany(this.db, companyId, pairing, now));
  }

  unpair(companyId: number): Promise<CompanyRow | undefined> {
    return this.update(companyId, { connector_id: null, books_company_guid: null, books_company_name: null, paired_at: null });
  }
}
