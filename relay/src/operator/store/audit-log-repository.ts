// The operator audit log. Append-only: its store (store/audit/) has an insert and a read, nothing
// else, and the 0300 migration's trigger refuses UPDATE and DELETE in the database itself.
import type { AuditEntry, AuditLogQuery } from '@ledgerwire/shared';
import { AuditEntry as AuditEntrySchema } from '@ledgerwire/shared';
import type { Kysely } from 'kysely';
import type { Database } from '../../db/schema.js';
import { appendAuditEntry, type AuditInsert } from './audit/append-audit-entry.js';
import { listAuditEntries, type AuditRow } from './audit/list-audit-entries.js';

export type { AuditInsert } from './audit/append-audit-entry.js';

export class AuditLogRepository {
  constructor(private readonly db: Kysely<Database>) {}

  append(entry: AuditInsert): Promise<void> {
    return appendAuditEntry(this.db, entry);
  }

  /** Newest first, `limit` at most, filtered; pages on with `before_id`. */
  async list(query: AuditLogQuery): Promise<{ entries: AuditEntry[]; nextBeforeId: number | null }> {
    const rows = await listAuditEntries(this.db, query);
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
