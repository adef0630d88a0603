// Reading transactions: one by public job id or the caller's own id, a company's list, the jobs a
// connector handled, and the operator's support views (with the rendered XML).
import type { TransactionRecordOut } from '@ledgerwire/shared';
import type { Kysely } from 'kysely';
import type { Database } from '../../../db/schema.js';
import { AppError } from '../../../errors/catalogue.js';
import type { ConnectorDirectory, ConnectorRecord } from '../companies/connector-directory.js';
import { parseJson } from '../../store/bridge-ids.js';
import { withPulledBooksIds } from '../../store/jobs/pulled-books-ids.js';
import { transactionRecord, type TransactionRow } from '../../store/jobs/transaction-record.js';
import { waitingReasonsOf } from './waiting-reason.js';
import { findApplicationTransactionByJobId } from '../../store/jobs/find-application-transaction-by-job-id.js';
import { findApplicationTransactionsByClientId } from '../../store/jobs/find-application-transactions-by-client-id.js';
import { findTransactionByJobId } from '../../store/jobs/find-transaction-by-job-id.js';
import { findTransactionDocument } from '../../store/jobs/find-transaction-document.js';
import { listCompanyTransactions } from '../../store/jobs/list-company-transactions.js';
import { listConnectorTransactions } from '../../store/jobs/list-connector-transactions.js';
import { listOperatorTransactions } from '../../store/jobs/list-operator-transactions.js';

export type TransactionFilter = Readonly<{
  status?: TransactionRow['status'];
  job_type?: TransactionRow['job_type'];
  master_type?: string;
  limit: number;
  offset: number;
}>;

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

export class TransactionService {
  private readonly db: Kysely<Database>;
  private readonly connectors: () => ConnectorDirectory | undefined;

  constructor(deps: { db: Kysely<Database>; connectors: () => ConnectorDirectory | undefined }) {
    this.db = deps.db;
    this.connectors = deps.connectors;
  }

  /** `job` is the public job id or the caller's own transaction id; companyId narrows the search. */
  async get(applicationId: string, job: string, scope: { companyId?: number | undefined; masterType?: string } = {}): Promise<TransactionRecordOut> {
    const byJobId = UUID.test(job) ? await findApplicationTransactionByJobId(this.db, applicationId, job.toLowerCase(), scope) : undefined;
    if (byJobId) return this.record(byJobId);
    const byOwnId = await findApplicationTransactionsByClientId(this.db, applicationId, job, scope);
    if (byOwnId.length > 1) throw new AppError('transaction_ambiguous');
    const row = byOwnId[0];
    if (!row) throw new AppError('transaction_not_found', { message: `No transaction ${job} among this application’s companies` });
    return this.record(row);
  }

  async list(companyId: number, filter: TransactionFilter): Promise<{ total: number; transactions: TransactionRecordOut[] }> {
    const { total, rows } = await listCompanyTransactions(this.db, companyId, filter);
    return { total, transactions: await this.records(rows) };
  }

  /** Jobs handed to the application's connector named by machine name (or connector id), newest first. */
  async connectorJobs(applicationId: string, machine: string, limit: number): Promise<{ connector: ConnectorRecord; jobs: TransactionRecordOut[] }> {
    const connectors = (await this.connectors()?.listForApplication(applicationId)) ?? [];
    const matching = connectors.filter((c) => c.id === machine || c.machine_name === machine);
    const connector = [...matching].sort((a, b) => (b.last_seen_at ?? '').localeCompare(a.last_seen_at ?? ''))[0];
    if (!connector) throw new AppError('connector_not_found', { message: `No connector named ${machine} under this application` });
    const rows = await listConnectorTransactions(this.db, applicationId, matching.map((c) => c.id), limit);
    return { connector, jobs: await this.records(rows) };
  }

  async operatorList(filter: TransactionFilter & { application_id?: string; company_id?: number }) {
    const { total, rows } = await listOperatorTransactions(this.db, filter);
    const records = await this.records(rows);
    return { total, transactions: records.map((record, index) => ({ ...record, application_id: rows[index]?.application_id ?? '' })) };
  }

  /**
   * Status records of a page of rows, with the books ids the sync has pulled since and why each
   * unfinished one waits: one lookup of each for the whole page, never one a row.
   */
  private async records(rows: readonly TransactionRow[]): Promise<TransactionRecordOut[]> {
    const [filled, waiting] = await Promise.all([withPulledBooksIds(this.db, rows), waitingReasonsOf(this.db, rows)]);
    return filled.map((row) => transactionRecord(row, waiting.get(row.id) ?? null));
  }

  private async record(row: TransactionRow): Promise<TransactionRecordOut> {
    return (await this.records([row]))[0] as TransactionRecordOut;
  }

  /** Support's view: the record with the submitted document and the XML rendered for the books. */
  async operatorGet(job: string) {
    const row = await findTransactionByJobId(this.db, job.toLowerCase());
    if (!row) throw new AppError('transaction_not_found', { message: `No transaction ${job}` });
    const submitted = await findTransactionDocument(this.db, row.id);
    return {
      ...(await this.record(row)),
      application_id: row.application_id,
      connector_id: row.connector_id,
      lease_expires_at: row.lease_expires_at,
      document: parseJson<unknown>(submitted?.document ?? 'null', null),
      xml: submitted?.xml ?? '',
    };
  }
}
