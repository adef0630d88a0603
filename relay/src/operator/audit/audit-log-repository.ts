// SQL for the operator audit log. Append-only: this file has an insert and reads, nothing else, and
// the 0300 migration's trigger refuses UPDATE and DELETE in the database itself.
import type { AuditEntry, AuditLogQuery } from '@ledgerwire/shared';
import { AuditEntry as AuditEntrySchema } from '@ledgerwire/shared';
import type { Insertable, Kysely, Selectable } from 'kysely';
import type { Database } from '../../db/schema.js';
import type { OperatorTables } from '../../db/operator-tables.js';

type AuditRow = Selectable<OperatorTables['operator_audit_log']>;
export type AuditInsert = Insertable<OperatorTables['operator_audit_log']>;

export class AuditLogRepository {
  constructor(private readonly db: Kysely<Database>) {}

  async append(entry: AuditInsert): Promise<void> {
    await this.db.insertInto('operator_audit_log').values(entry).execute();
  }

  /** Newest first, `limit` at most, filtered; pages on with `before_id`. */
  async list(query: AuditLogQuery): Promise<{ entries: AuditEntry[]; nextBeforeId: number | null }> {
    let select = this.db.selectFrom('operator_audit_log').selectAll();
    if (query.actor !== undefined) select = select.where('actor_id', '=', query.actor);
    if (query.object_type !== undefined) select = select.where('object_type', '=', query.object_type);
    if (query.object_id !== undefined) select = select.where('object_id', '=', query.object_id);
    if (query.action !== undefined) select = select.where('action', '=', query.action);
    // Stored timestamps are ISO 8601 in UTC, so text order is time order once the bound is normalised too.
    if (query.since !== undefined) select = select.where('at', '>=', new Date(query.since).toISOString());
    if (query.until !== undefined) select = select.where('at', '<', new Date(query.until).toISOString());
    if (query.before_id !== undefined) select = select.where('id', '<', query.before_id);
    const rows = await select.orderBy('id', 'desc').limit(query.limit + 1).execute();
    const page = rows.slice(0, query.limit);
    const last = page.at(-1);
    return { entries: page.map(toEntry), nextBeforeId: rows.length > query.limit && last !== undefined ? Number(last.id) : null };
  }
}

function toEntry(row: AuditRow): AuditEntry {
  return AuditEntrySchema.parse({
    ...row,
    id: Number(row.id),
    outcome: outcomeOf(row.status),
    details: JSON.parse(row.details) as unknown,
  });
}

export function outcomeOf(status: number): AuditEntry['outcome'] {
  if (status < 400) return 'succeeded';
  return status === 401 || status === 403 ? 'refused' : 'failed';
}
