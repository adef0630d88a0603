// The dispatch claim, served to tenants in turn: a tenant with a backlog of a hundred thousand
// messages takes one share of a pass, and another tenant's new message takes the next share, so a
// backlog delays a newcomer by at most one pass instead of by the whole backlog.
//
// In one transaction: find the tenants with queued messages (a skip through the index on
// status, tenant_id, next_attempt_at: one probe per tenant, whatever the backlog), start after the
// last tenant the previous pass reached, take up to an equal share of each one's oldest due messages, fill
// what is left of the pass oldest first, and lease them all. SKIP LOCKED where the database has it,
// so relays sharing PostgreSQL never claim the same message.
import { sql, type Kysely } from 'kysely';
import type { DialectCapabilities } from '../../../db/capabilities.js';
import type { Database } from '../../../db/schema.js';
import type { MessageRow } from './message-rows.js';

export type DueClaim = Readonly<{ now: string; leaseUntil: string; limit: number; startAfterTenant: string | null }>;

/** The leased messages, and the last tenant this pass reached (the next pass starts after it). */
export type ClaimedMessages = Readonly<{ rows: MessageRow[]; lastTenant: string | null }>;

export async function claimDueMessages(db: Kysely<Database>, capabilities: DialectCapabilities, claim: DueClaim): Promise<ClaimedMessages> {
  return db.transaction().execute(async (tx) => {
    const tenants = rotate(await tenantsWithQueuedMessages(tx), claim.startAfterTenant).slice(0, claim.limit);
    const lastTenant = tenants.at(-1) ?? null;
    if (tenants.length === 0) return { rows: [], lastTenant };
    const share = Math.max(1, Math.floor(claim.limit / tenants.length));
    const ids: string[] = [];
    for (const tenantId of tenants) {
      const due = await dueIds(tx, capabilities, claim.now, share, (qb) => qb.where('tenant_id', '=', tenantId));
      ids.push(...due);
    }
    const left = claim.limit - ids.length;
    if (left > 0) {
      const taken = ids.slice();
      ids.push(...(await dueIds(tx, capabilities, claim.now, left, (qb) => (taken.length === 0 ? qb : qb.where('id', 'not in', taken)))));
    }
    if (ids.length === 0) return { rows: [], lastTenant };
    const rows = await tx.updateTable('msg_messages').set({ lease_until: claim.leaseUntil }).where('id', 'in', ids).returningAll().execute();
    // Tenants in the order they were served, each one's messages oldest first.
    const order = new Map(ids.map((id, index) => [id, index]));
    return { rows: rows.sort((a, b) => order.get(a.id)! - order.get(b.id)!), lastTenant };
  });
}

type DueQuery = ReturnType<typeof dueQuery>;

function dueQuery(db: Kysely<Database>, now: string) {
  return db
    .selectFrom('msg_messages')
    .select('id')
    .where('status', '=', 'queued')
    .where('next_attempt_at', '<=', now)
    .where((eb) => eb.or([eb('lease_until', 'is', null), eb('lease_until', '<', now)]));
}

async function dueIds(db: Kysely<Database>, capabilities: DialectCapabilities, now: string, limit: number, narrow: (qb: DueQuery) => DueQuery): Promise<string[]> {
  const rows = await narrow(dueQuery(db, now))
    .orderBy('next_attempt_at')
    .limit(limit)
    .$if(capabilities.skipLocked, (qb) => qb.forUpdate().skipLocked())
    .execute();
  return rows.map((row) => row.id);
}

/** Distinct tenants with queued messages, by a recursive skip through the index (a loose index scan). */
async function tenantsWithQueuedMessages(db: Kysely<Database>): Promise<string[]> {
  const result = await sql<{ tenant_id: string }>`
    WITH RECURSIVE tenants(tenant_id) AS (
      SELECT MIN(tenant_id) FROM msg_messages WHERE status = 'queued'
      UNION ALL
      SELECT (SELECT MIN(m.tenant_id) FROM msg_messages m WHERE m.status = 'queued' AND m.tenant_id > tenants.tenant_id)
      FROM tenants WHERE tenants.tenant_id IS NOT NULL
    )
    SELECT tenant_id FROM tenants WHERE tenant_id IS NOT NULL`.execute(db);
  return result.rows.map((row) => row.tenant_id);
}

/** The tenants starting after the last one the previous pass reached, so every tenant gets its turn. */
function rotate(tenants: string[], startAfter: string | null): string[] {
  if (startAfter === null) return tenants;
  const next = tenants.findIndex((tenant) => tenant > startAfter);
  return next <= 0 ? tenants : [...tenants.slice(next), ...tenants.slice(0, next)];
}
