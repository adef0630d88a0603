// A transaction's submitted document and rendered XML move to a row of their own, written once at
// acceptance. The transactions row is the queue entry, updated at every hand-out and outcome; SQLite
// rewrites a whole row on each update, so keeping the kilobytes of a voucher out of it makes those
// updates several times cheaper (and the lists of transactions no longer read them).
import { sql, type Kysely } from 'kysely';

export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('transaction_documents')
    .addColumn('transaction_id', 'integer', (c) => c.primaryKey().references('transactions.id').onDelete('cascade'))
    .addColumn('document', 'text', (c) => c.notNull())
    .addColumn('xml', 'text', (c) => c.notNull())
    .addColumn('xml_company_name', 'varchar(400)', (c) => c.notNull())
    .execute();
  await sql`insert into transaction_documents (transaction_id, document, xml, xml_company_name)
            select id, document, xml, xml_company_name from transactions`.execute(db);
  for (const column of ['document', 'xml', 'xml_company_name']) await db.schema.alterTable('transactions').dropColumn(column).execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('transactions').addColumn('document', 'text', (c) => c.notNull().defaultTo('{}')).execute();
  await db.schema.alterTable('transactions').addColumn('xml', 'text', (c) => c.notNull().defaultTo('')).execute();
  await db.schema.alterTable('transactions').addColumn('xml_company_name', 'varchar(400)', (c) => c.notNull().defaultTo('')).execute();
  await sql`update transactions set
              document = (select d.document from transaction_documents d where d.transaction_id = transactions.id),
              xml = (select d.xml from transaction_documents d where d.transaction_id = transactions.id),
              xml_company_name = (select d.xml_company_name from transaction_documents d where d.transaction_id = transactions.id)`.execute(db);
  await db.schema.dropTable('transaction_documents').execute();
}
