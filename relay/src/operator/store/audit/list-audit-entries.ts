// One page of the audit log, newest first and filtered. It reads one row past `limit`, so the caller
// knows whether a next page exists without a count.
import type { AuditLogQuery } from '@ledgerwire/shared';
import type { Kysely, Selectable } from 'kysely';
import type { Database } from '../../../db/schema.js';
import type { OperatorTables } from '../../../db/operator-tables.js';

export type AuditRow = Selectable<OperatorTables['operator_audit_log']>;

export async function listAuditEntries(db: Kysely<Database>, query: AuditLogQuery): Promise<AuditRow[]> {
  let select = db.selectFrom('operator_audit_log').selectAll();
  if (query.actor !== undefined) select = select.where('actor_id', '=', query.actor);
  if (query.object_type !== undefined) select = select.where('object_type', '=', query.object_type);
  if (query.object_id !== undefined) select = select.where('object_id', '=', query.object_id);
  if (query.action !== undefined) select = select.where('action', '=', query.action);
  if (query.source !== undefined) select = select.where('source', '=', query.source);
  // Stored timestamps are ISO 8601 in UTC, so text order is time order once the bound is normalised too.
  if (query.since !== undefined) select = select.where('at', '>=', new Date(query.since).toISOString());
  if (query.until !== undefined) select = select.where('at', '<', new Date(query.until).toISOString());
  if (query.before_id !== undefined) select = select.where('id', '<', query.before_id);
  return select.orderBy('id', 'desc').limit(query.limit + 1).execute();
}
