// Hands queued jobs to a connector: per paired company, its oldest queued job, and only while none of
// that company's jobs is processing (strict FIFO per company, one import at a time). On PostgreSQL
// the company rows are locked with SKIP LOCKED so two relay processes never claim for one company
// at once; SQLite has one writer, so its transaction serialises claims already.
import type { Kysely, Transaction } from 'kysely';
import type { DialectCapabilities } from '../../db/capabilities.js';
import type { Database } from '../../db/schema.js';
import type { TransactionRow } from './transaction-record.js';

export type ClaimedRow = Readonly<{
  row: TransactionRow;
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

export async function claimJobs(
  db: Kysely<Database>,
  capabilities: DialectCapabilities,
  connectorId: string,
  options: { limit: number; leaseExpiresAt: string; now: string },
): Promise<ClaimedRow[]> {
  return db.transaction().execute(async (trx) => {
    const claimed: ClaimedRow[] = [];
    for (const company of await lockPairedCompanies(trx, capabilities, connectorId)) {
      if (claimed.length >= options.limit) break;
      const busy = await trx
        .selectFrom('transactions')
        .select('id')
        .where('company_id', '=', company.id)
        .where('status', '=', 'processing')
        .executeTakeFirst();
      if (busy) continue;
      const next = await trx
        .selectFrom('transactions')
        .select('id')
        .where('company_id', '=', company.id)
        .where('status', '=', 'queued')
        .orderBy('id')
        .limit(1)
        .executeTakeFirst();
      if (!next) continue;
      const row = await trx
        .updateTable('transactions')
        .set({ status: 'processing', connector_id: connectorId, lease_expires_at: options.leaseExpiresAt, updated_at: options.now })
        .where('id', '=', next.id)
        .where('status', '=', 'queued')
        .returningAll()
        .executeTakeFirst();
      if (!row) continue;
      claimed.push({
        row,
        company: { id: company.id, books_company_guid: company.books_company_guid ?? '', books_company_name: company.books_company_name ?? company.name },
      });
    }
    return claimed;
  });
}
