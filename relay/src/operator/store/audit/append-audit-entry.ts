// Appends one entry to the operator audit log. The log is append-only: the 0300 migration's trigger
// refuses UPDATE and DELETE, so there is no other write.
import type { Insertable, Kysely } from 'kysely';
import type { Database } from '../../../db/schema.js';
import type { OperatorTables } from '../../../db/operator-tables.js';

export type AuditInsert = Insertable<OperatorTables['operator_audit_log']>;

export async function appendAuditEntry(db: Kysely<Database>, entry: AuditInsert): Promise<void> {
  await db.insertInto('operator_audit_log').values(entry).execute();
}
