// Hands queued jobs to a connector session: per paired company, its oldest queued jobs in order, and only
// while no other session holds any of that company's jobs (strict FIFO per company). The session that
// holds a company's earlier jobs may be handed its next ones: it runs them in the order received, so the
// books never sit idle between one run and the next. A claim without a session (tests, tools) waits until
// the company has nothing processing. A company the connector reports not open in the books is passed
// over: its jobs wait in the queue, as they do while the books are stopped, rather than fail at the
// books. A run of consecutive jobs goes out together so the connector can
// import them in one request, in order, and split the outcome. On PostgreSQL
// the company rows are locked with SKIP LOCKED so two relay processes never claim for one company
// at once; SQLite has one writer, so its transaction serialises claims already.
import { sql, type Kysely, type Transaction } from 'kysely';
import type { DialectCapabilities } from '../../../db/capabilities.js';
import type { Database } from '../../../db/schema.js';
import type { TransactionDocumentRow, TransactionRow } from './transaction-record.js';

// Written as SQL rather than with the query builder: a claim runs for every run of results, and
// building and compiling its statements through the builder cost more than the database running them.

type ClaimedColumns = Pick<TransactionRow, 'id' | 'job_id' | 'company_id' | 'job_type' | 'event_type' | 'target_voucher_guid' | 'retry_count'>;

export type ClaimedRow = Readonly<{
  row: ClaimedColumns & Pick<TransactionDocumentRow, 'xml' | 'xml_company_name'>;
  company: { id: number; books_company_guid: string; books_company_name: string };
}>;

type PairedCompany = { id: number; books_company_guid: string | null; books_company_name: string | null; name: string };

async function lockPairedCompanies(trx: Transaction<Database>, capabilities: DialectCapabilities, connectorId: string): Promise<PairedCompany[]> {
  const lock = capabilities.skipLocked ? sql` for update skip locked` : sql``;
  const { rows } = await sql<PairedCompany>`
    select id, books_company_guid, books_company_name, name from companies
    where connector_id = ${connectorId} and books_company_guid is not null
    order by id${lock}`.execute(trx);
  return rows;
}

/** Whether a processing job of the company is held by another session (by any, when there is no session). */
async function heldElsewhere(trx: Transaction<Database>, companyId: number, sessionId: string | undefined): Promise<boolean> {
  const other = sessionId === undefined ? sql`` : sql` and (lease_session is null or lease_session <> ${sessionId})`;
  const { rows } = await sql`
    select 1 as held from transactions
    where company_id = ${companyId} and status = 'processing'${other}
    limit 1`.execute(trx);
  return rows.length > 0;
}

/** Leases the company's oldest queued jobs, up to `limit`, in one statement. */
async function leaseOldestQueued(
  trx: Transaction<Database>,
  companyId: number,
  connectorId: string,
  limit: number,
  options: { leaseExpiresAt: string; now: string; sessionId?: string | undefined },
): Promise<ClaimedColumns[]> {
  const { rows } = await sql<ClaimedColumns>`
    update transactions set status = 'processing', connector_id = ${connectorId}, lease_expires_at = ${options.leaseExpiresAt},
      lease_session = ${options.sessionId ?? null}, updated_at = ${options.now}
    where id in (select id from transactions where company_id = ${companyId} and status = 'queued' order by id limit ${limit})
      and status = 'queued'
    returning id, job_id, company_id, job_type, event_type, target_voucher_guid, retry_count`.execute(trx);
  return rows;
}

async function documentsOf(trx: Transaction<Database>, ids: readonly number[]) {
  const { rows } = await sql<Pick<TransactionDocumentRow, 'transaction_id' | 'xml' | 'xml_company_name'>>`
    select transaction_id, xml, xml_company_name from transaction_documents
    where transaction_id in (${sql.join(ids)})`.execute(trx);
  return new Map(rows.map((d) => [d.transaction_id, d]));
}

export type ClaimOptions = {
  limit: number;
  leaseExpiresAt: string;
  now: string;
  sessionId?: string | undefined;
  /** Whether the books company (by GUID) is open in the books; its jobs wait in the queue while it is not. */
  companyOpen?: ((booksCompanyGuid: string) => boolean) | undefined;
};

export async function claimJobs(
  db: Kysely<Database>,
  capabilities: DialectCapabilities,
  connectorId: string,
  options: ClaimOptions,
): Promise<ClaimedRow[]> {
  return db.transaction().execute(async (trx) => {
    const claimed: ClaimedRow[] = [];
    for (const company of await lockPairedCompanies(trx, capabilities, connectorId)) {
      if (claimed.length >= options.limit) break;
      if (options.companyOpen && !options.companyOpen(company.books_company_guid ?? '')) continue;
      if (await heldElsewhere(trx, company.id, options.sessionId)) continue;
      const rows = await leaseOldestQueued(trx, company.id, connectorId, options.limit - claimed.length, options);
      if (rows.length === 0) continue;
      const target = { id: company.id, books_company_guid: company.books_company_guid ?? '', books_company_name: company.books_company_name ?? company.name };
      const documents = await documentsOf(trx, rows.map((row) => row.id));
      // RETURNING does not promise an order; the connector must receive the company's jobs oldest first.
      for (const row of rows.sort((a, b) => a.id - b.id)) {
        const document = documents.get(row.id);
        claimed.push({ row: { ...row, xml: document?.xml ?? '', xml_company_name: document?.xml_company_name ?? '' }, company: target });
      }
    }
    return claimed;
  });
}
