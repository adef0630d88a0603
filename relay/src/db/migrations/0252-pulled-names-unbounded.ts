// Names and numbers read out of the books are stored as the books have them, however long. Bounded
// varchar columns refused a longer one on PostgreSQL (SQLite does not enforce lengths): with a pulled
// object, the whole sync batch, on every pass — the company's sync stood still from that object on;
// with a books company's name, the pairing (a 500). On PostgreSQL varchar → text needs no table
// rewrite; on SQLite the declared length was never enforced.
import { SqliteAdapter, type Kysely } from 'kysely';

const COLUMNS = {
  pulled_vouchers: { voucher_type: 200, voucher_number: 200, party_ledger: 400 },
  pulled_masters: { name: 400, parent: 400, reserved_name: 200 },
  companies: { books_company_name: 400 },
} as const;

export async function up(db: Kysely<unknown>): Promise<void> {
  if (db.getExecutor().adapter instanceof SqliteAdapter) return;
  for (const [table, columns] of Object.entries(COLUMNS)) {
    for (const column of Object.keys(columns)) {
      await db.schema.alterTable(table).alterColumn(column, (c) => c.setDataType('text')).execute();
    }
  }
}

export async function down(db: Kysely<unknown>): Promise<void> {
  if (db.getExecutor().adapter instanceof SqliteAdapter) return;
  for (const [table, columns] of Object.entries(COLUMNS)) {
    for (const [column, length] of Object.entries(columns)) {
      await db.schema.alterTable(table).alterColumn(column, (c) => c.setDataType(`varchar(${length})`)).execute();
    }
  }
}
