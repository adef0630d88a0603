// A tenant's latest refused sends, newest first (ties by id), for support's view in the console.
import type { Kysely } from 'kysely';
import type { Database, MsgRefusedSendsTable } from '../../../db/schema.js';

export function listRefusedSends(db: Kysely<Database>, tenantId: string, limit: number): Promise<MsgRefusedSendsTable[]> {
  return db.selectFrom('msg_refused_sends').selectAll().where('tenant_id', '=', tenantId).orderBy('refused_at', 'desc').orderBy('id', 'desc').limit(limit).execute();
}
