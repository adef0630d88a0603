// A pulled voucher names the job that booked it (source_job_id): the transaction of its company whose
// outcome carried the voucher's GUID. The books read a voucher's REMOTEID back as its own GUID, not
// as the key the connector sent, so this lookup is the only link; the index keeps it one probe a row.
import type { Kysely } from 'kysely';

export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema.createIndex('transactions_voucher_guid').ifNotExists().on('transactions').columns(['company_id', 'books_voucher_guid']).execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropIndex('transactions_voucher_guid').ifExists().execute();
}
