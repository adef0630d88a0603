// Pairing from the connector's side: the connector lists its customer's companies and pairs one to a
// books company on its machine (or unpairs it). Only companies of the connector's own customer and
// application qualify; the live session hears the change at once.
import { AppError } from '../../errors/catalogue.js';
import type { CompanyRepository, CompanyRow } from '../../bridge/store/companies/company-repository.js';
import type { AuthenticatedConnector } from './enrolment-service.js';

export type ConnectorCompany = Readonly<{
  company_id: number;
  name: string;
  books_company_guid: string | null;
  books_company_name: string | null;
  connector_id: string | null;
}>;

function toConnectorCompany(row: CompanyRow): ConnectorCompany {
  return {
    company_id: row.id,
    name: row.name,
    books_company_guid: row.books_company_guid,
    books_company_name: row.books_company_name,
    connector_id: row.connector_id,
  };
}

export class ConnectorPairingService {
  constructor(
    private readonly deps: {
      companies: Pick<CompanyRepository, 'get' | 'list' | 'pair' | 'unpair'>;
      /** Tells the sessions of these connectors to re-read their pairings. */
      pairingsChanged(connectorId: string): Promise<void>;
      /** A company was paired with this connector (completes a connect session waiting for it). */
      paired?(connectorId: string, companyId: number): Promise<void>;
    },
  ) {}

  async listCompanies(connector: AuthenticatedConnector): Promise<ConnectorCompany[]> {
    const rows = await this.deps.companies.list({ applicationId: connector.applicationId, customerId: connector.customerId });
    return rows.map(toConnectorCompany);
  }

  async pair(
    connector: AuthenticatedConnector,
    input: { company_id: number; books_company_guid: string; books_company_name: string },
  ): Promise<ConnectorCompany> {
    const company = await this.ownCompany(connector, input.company_id);
    const previousConnector = company.connector_id;
    const paired = await this.deps.companies.pair(company.id, {
      connector_id: connector.connectorId,
      books_company_guid: input.books_company_guid,
      books_company_name: input.books_company_name,
    });
    if (!paired) throw new AppError('company_not_found');
    await this.deps.pairingsChanged(connector.connectorId);
    if (previousConnector !== null && previousConnector !== connector.connectorId) await this.deps.pairingsChanged(previousConnector);
    await this.deps.paired?.(connector.connectorId, company.id);
    return toConnectorCompany(paired);
  }

  async unpair(connector: AuthenticatedConnector, companyId: number): Promise<ConnectorCompany> {
    const company = await this.ownCompany(connector, companyId);
    if (company.connector_id !== connector.connectorId) {
      throw new AppError('pairing_invalid', { message: `Company ${companyId} is not paired with this connector` });
    }
    const unpaired = await this.deps.companies.unpair(company.id);
    if (!unpaired) throw new AppError('company_not_found');
    await this.deps.pairingsChanged(connector.connectorId);
    return toConnectorCompany(unpaired);
  }

  private async ownCompany(connector: AuthenticatedConnector, companyId: number): Promise<CompanyRow> {
    const company = await this.deps.companies.get(companyId);
    if (!company || company.customer_id !== connector.customerId || company.application_id !== connector.applicationId) {
      throw new AppError('company_forbidden', { message: `Company ${companyId} is not one of this connector's customer's companies` });
    }
    return company;
  }
}
