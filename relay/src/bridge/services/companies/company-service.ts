// Companies under an application: create, the customer link (attach/detach raise company.linked /
// company.unlinked), disconnecting the connector pairing, health, and the operator's settings and
// pairing. The link and the pairing change; the company and its history stay.
import { booksCompanyOpen, isConnectionProblem, type CompanyHealthOut, type CompanyIn, type CompanyOut, type CompanyPairIn, type CompanySettingsIn } from '@ledgerwire/shared';
import { AppError } from '../../../errors/catalogue.js';
import type { CustomerService } from '../customers/customer-service.js';
import { deriveWaitingReason } from '../jobs/waiting-reason.js';
import { companyOut, type CompanyRepository, type CompanyRow } from '../../store/companies/company-repository.js';
import type { ConnectorDirectory } from './connector-directory.js';

export type BridgeEventPublisher = Readonly<{
  publish(owner: { kind: 'application'; id: string }, event: { type: string; data: Record<string, unknown> }): Promise<unknown>;
  /** Wakes the delivery worker for events queued in a bridge transaction (job outcomes). */
  notifyQueued?(): void;
}>;

type Logger = Readonly<{ error(object: unknown, message: string): void }>;

export type OperatorCompany = CompanyOut & { application_id: string };

function operatorCompany(row: CompanyRow): OperatorCompany {
  return { ...companyOut(row), application_id: row.application_id };
}

export class CompanyService {
  private readonly companies: CompanyRepository;
  private readonly customers: CustomerService;
  private readonly connectors: () => ConnectorDirectory | undefined;
  private readonly events: () => BridgeEventPublisher | undefined;
  private readonly log: Logger;
  private readonly paired: ((connectorId: string, companyId: number) => Promise<void>) | undefined;

  constructor(deps: {
    companies: CompanyRepository;
    customers: CustomerService;
    /** Late-bound: the gateway's repository and the webhook service are built beside the bridge. */
    connectors: () => ConnectorDirectory | undefined;
    events: () => BridgeEventPublisher | undefined;
    /** A company was paired with a connector by support (completes a connect session waiting for it). */
    paired?: (connectorId: string, companyId: number) => Promise<void>;
    log: Logger;
  }) {
    this.paired = deps.paired;
    this.companies = deps.companies;
    this.customers = deps.customers;
    this.connectors = deps.connectors;
    this.events = deps.events;
    this.log = deps.log;
  }

  async list(filter: { applicationId?: string; customerId?: string; connectorId?: string }): Promise<(CompanyOut & { application_id: string })[]> {
    const rows = await this.companies.list(filter);
    return rows.map(operatorCompany);
  }

  async create(applicationId: string, input: CompanyIn): Promise<CompanyOut> {
    if (input.customer_id !== undefined) await this.customers.get(applicationId, input.customer_id);
    const row = await this.companies.insert({ application_id: applicationId, name: input.name, customer_id: input.customer_id ?? null });
    if (row.customer_id !== null) await this.announce(row, 'company.linked', row.customer_id);
    return companyOut(row);
  }

  async attach(company: CompanyRow, customerId: string): Promise<CompanyOut> {
    await this.customers.get(company.application_id, customerId);
    if (company.customer_id === customerId) return companyOut(company);
    if (company.customer_id !== null) {
      throw new AppError('company_already_attached', { message: `Company ${company.id} is attached to customer ${company.customer_id}: detach it first` });
    }
    const row = await this.companies.update(company.id, { customer_id: customerId });
    if (!row) throw new AppError('company_not_found');
    await this.announce(row, 'company.linked', customerId);
    return companyOut(row);
  }

  /** Removes the link; detaching an unattached company changes nothing and raises no event. */
  async detach(company: CompanyRow): Promise<CompanyOut> {
    if (company.customer_id === null) return companyOut(company);
    const row = await this.companies.update(company.id, { customer_id: null });
    if (!row) throw new AppError('company_not_found');
    await this.announce(row, 'company.unlinked', company.customer_id);
    return companyOut(row);
  }

  async disconnect(company: CompanyRow): Promise<CompanyOut> {
    const row = await this.companies.unpair(company.id);
    if (!row) throw new AppError('company_not_found');
    return companyOut(row);
  }

  async health(company: CompanyRow): Promise<CompanyHealthOut> {
    const paired = company.connector_id !== null && company.books_company_guid !== null;
    const connector = paired && company.connector_id !== null ? await this.connectors()?.get(company.connector_id) : undefined;
    const online = connector?.online ?? false;
    const running = online && (connector?.books_running ?? false);
    // The same decision and words as a waiting transaction's reason: what would hold a write back now.
    const blocked = deriveWaitingReason({
      status: 'queued',
      paired: paired && connector !== undefined,
      books_company_guid: company.books_company_guid,
      books_company_name: company.books_company_name,
      connector,
      jobs_ahead: 0,
    });
    const attention = blocked && isConnectionProblem(blocked.code) ? { ...blocked, code: blocked.code } : null;
    return {
      success: true,
      company_id: company.id,
      paired,
      connector: {
        id: connector?.id ?? null,
        online,
        machine: connector?.machine_name ?? null,
        version: connector?.version ?? null,
        last_seen_at: connector?.last_seen_at ?? null,
      },
      books: {
        running,
        company_open: running && booksCompanyOpen(connector?.open_companies ?? [], company.books_company_guid ?? ''),
        last_checked_at: connector?.last_seen_at ?? null,
      },
      attention: attention?.code ?? null,
      user_message: attention?.user_message ?? null,
      fix_by: attention?.fix_by ?? null,
    };
  }

  async operatorGet(companyId: number): Promise<CompanyRow> {
    const row = await this.companies.get(companyId);
    if (!row) throw new AppError('company_not_found', { message: `No company ${companyId}` });
    return row;
  }

  /** Support's view of one company, in any application. */
  async operatorFind(companyId: number): Promise<OperatorCompany> {
    return operatorCompany(await this.operatorGet(companyId));
  }

  /** Support's attach / detach / disconnect (operator API, admin CLI): the company by id; same rules and webhook events as the API's. */
  async operatorAttach(companyId: number, customerId: string): Promise<OperatorCompany> {
    const company = await this.operatorGet(companyId);
    return { ...(await this.attach(company, customerId)), application_id: company.application_id };
  }

  async operatorDetach(companyId: number): Promise<OperatorCompany> {
    const company = await this.operatorGet(companyId);
    return { ...(await this.detach(company)), application_id: company.application_id };
  }

  async operatorDisconnect(companyId: number): Promise<OperatorCompany> {
    const company = await this.operatorGet(companyId);
    return { ...(await this.disconnect(company)), application_id: company.application_id };
  }

  async updateSettings(companyId: number, settings: CompanySettingsIn): Promise<CompanyOut> {
    const current = await this.operatorGet(companyId);
    const row = await this.companies.update(companyId, {
      pull_masters: settings.pull_masters === undefined ? current.pull_masters : Number(settings.pull_masters),
      report_stock: settings.reports?.stock === undefined ? current.report_stock : Number(settings.reports.stock),
      report_gst: settings.reports?.gst === undefined ? current.report_gst : Number(settings.reports.gst),
    });
    if (!row) throw new AppError('company_not_found');
    return companyOut(row);
  }

  /** Support pairs a company with a connector of the same application and one of the books companies it reported. */
  async pair(companyId: number, input: CompanyPairIn): Promise<CompanyOut> {
    const company = await this.operatorGet(companyId);
    const directory = this.connectors();
    if (!directory) throw new AppError('service_unavailable', { message: 'The connector gateway is not running in this relay' });
    const connector = await directory.get(input.connector_id);
    if (!connector) throw new AppError('connector_not_found', { message: `No connector ${input.connector_id}` });
    if (connector.application_id !== company.application_id) {
      throw new AppError('pairing_invalid', { message: 'The connector belongs to another application' });
    }
    if (company.customer_id !== null && connector.customer_id !== company.customer_id) {
      throw new AppError('pairing_invalid', { message: 'The connector was enrolled by another customer than the company’s' });
    }
    const reported = connector.open_companies.find((open) => open.guid === input.books_company_guid);
    const row = await this.companies.pair(companyId, {
      connector_id: connector.id,
      books_company_guid: input.books_company_guid,
      books_company_name: input.books_company_name ?? reported?.name ?? company.books_company_name ?? company.name,
    });
    if (!row) throw new AppError('company_not_found');
    await this.paired?.(connector.id, companyId);
    return companyOut(row);
  }

  /** Webhook events describe a change already committed; a failure to queue one must not undo it. */
  private async announce(row: CompanyRow, type: 'company.linked' | 'company.unlinked', customerId: string): Promise<void> {
    const data = { company_id: row.id, company_name: row.name, customer_id: customerId, occurred_at: row.updated_at };
    try {
      await this.events()?.publish({ kind: 'application', id: row.application_id }, { type, data });
    } catch (error) {
      this.log.error({ err: error, type, company_id: row.id }, 'could not publish the company webhook event');
    }
  }
}
