// Hands queued jobs to a connector session: per paired company, its oldest queued jobs in order, and only
// while no other session holds any of that company's jobs (strict FIFO per company). The session that
// holds a company's earlier jobs may be handed its next ones: it runs them in the order received, so the
// books never sit idle between one run and the next. A claim without a session (tests, tools) waits until
// the company has nothing processing. A run of consecutive jobs goes out together so the connector can
// import them in one request, in order, and split the outcome. On PostgreSQL
// the company rows are locked with SKIP LOCKED so two relay processes never claim for one company
// at once; SQLite has one writer, so its transaction serialises claims already.
import type { Kysely, Transaction } from 'kysely';
import type { DialectCapabilities } from '../../db/capabilities.js';
import type { Database } from '../../db/schema.js';
import type { TransactionDocumentRow, TransactionRow } from './transaction-record.js';

/** What a claim reads of each job: enough to hand it out (the document only when the XML is re-rendered). */
const CLAIMED_COLUMNS = [
  'id',
  'job_id',
  'company_id',
  'job_type',
  'event_type',
  'target_voucher_guid',
  'retry_count',
] as const satisfies readonly (keyof TransactionRow)[];

export type ClaimedRow = Readonly<{
  row: Pick<TransactionRow, (typeof CLAIMED_COLUMNS)[number]> & Pick<TransactionDocumentRow, 'xml' | 'xml_company_name'>;
  company: { id: number; books_company_guid: string; books_company_name: string };
}>;

async function lockPairedCompanies(trx: Transaction<Database>, capabilities: DialectCapabilities, connectorId: string) {
  const query = trx
    .selectFrom('companies')
    .select(['id', 'books_company_guid', 'books_company_name', 'name'])
    .where('connector_id', '=', connectorId)
    .where('books_company_guid', 'is not', null)
    .orderBy('id');
  return capabilities.skipLocked ? query.forUpdate().skipLocked().execute() : query.execute();
}

/** A processing job of the company that this session does not hold (any, when there is no session). */
function heldElsewhere(trx: Transaction<Database>, companyId: number, sessionId: string | undefined) {
  const processing = trx.selectFrom('transactions').select('id').where('company_id', '=', companyId).where('status', '=', 'processing');
  const query = sessionId === undefined ? processing : processing.where((eb) => eb.or([eb('lease_session', 'is', null), eb('lease_session', '!=', sessionId)]));
  return query.executeTakeFirst();
}

export async function claimJobs(
  db: Kysely<Database>,
  capabilities: DialectCapabilities,
  connectorId: string,
  options: { limit: number; leaseExpiresAt: string; now: string; sessionId?: string | undefined },
): Promise<ClaimedRow[]> {
  return db.transaction().execute(async (trx) => {
    const claimed: ClaimedRow[] = [];
    for (const company of await lockPairedCompanies(trx, capabilities, connectorId)) {
      if (claimed.length >= options.limit) break;
      if (await heldElsewhere(trx, company.id, options.sessionId)) continue;
      const next = await trx
        .selectFrom('transactions')
        .select('id')
        .where('company_id', '=', company.id)
        .where('status', '=', 'queued')
        .orderBy('id')
        .limit(options.limit - claimed.length)
        .execute();
      const rows = next.length === 0 ? [] : await trx
        .updateTable('transactions')
        .set({
          status: 'processing',
          connector_id: connectorId,
          lease_expires_at: options.leaseExpiresAt,
          lease_session: options.sessionId ?? null,
          updated_at: options.now,
        })
        .where('id', 'in', next.map((n) => n.id))
        .where('status', '=', 'queued')
        .returning(CLAIMED_COLUMNS)
        .execute();
      const target = { id: company.id, books_company_guid: company.books_company_guid ?? '', books_company_name: company.books_company_name ?? company.name };
      const documents = rows.length === 0 ? [] : await trx
        .selectFrom('transaction_documents')
        .select(['transaction_id', 'xml', 'xml_company_name'])
        .where('transaction_id', 'in', rows.map((row) => row.id))
        .execute();
      const byId = new Map(documents.map((d) => [d.transaction_id, d]));
      // RETURNING does not promise an order; the connector must receive the company's jobs oldest first.
      for (const row of rows.sort((a, b) => a.id - b.id)) {
        const document = byId.get(row.id);
        claimed.push({ row: { ...row, xml: document?.xml ?? '', xml_company_name: document?.xml_company_name ?? '' }, company: target });
      }
    }
    return claimed;
  });
}
