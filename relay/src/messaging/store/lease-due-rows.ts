// Leases due rows of a messaging work table (messages to dispatch, events to process) to one worker:
// rows in the waiting status whose next attempt is due and whose lease is free or lapsed, oldest
// first; SKIP LOCKED where the dialect has it, so two relay processes never lease the same row.
import type { Kysely, Selectable } from 'kysely';
import type { DialectCapabilities } from '../../db/capabilities.js';
import type { Database } from '../../db/schema.js';

type LeasedTable = 'msg_messages' | 'msg_events';

/** The columns the lease works on, shared by every leased table. */
type LeaseColumns = { id: string; status: string; next_attempt_at: string | null; lease_until: string | null };

export async function leaseDueRows<T extends LeasedTable>(
  db: Kysely<Database>,
  capabilities: DialectCapabilities,
  table: T,
  claim: { waitingStatus: string; now: string; leaseUntil: string; limit: number },
): Promise<Selectable<Database[T]>[]> {
  // Kysely cannot type a query over a table chosen by a type parameter; the lease needs only the
  // columns both tables share, so it is written against those and the full rows are returned.
  const leasable = db as unknown as Kysely<Record<LeasedTable, LeaseColumns>>;
  const rows = await leasable.transaction().execute(async (tx) => {
    const due = await tx
      .selectFrom(table as LeasedTable)
      .select('id')
      .where('status', '=', claim.waitingStatus)
      .where('next_attempt_at', '<=', claim.now)
      .where((eb) => eb.or([eb('lease_until', 'is', null), eb('lease_until', '<', claim.now)]))
      .orderBy('next_attempt_at')
      .limit(claim.limit)
      .$if(capabilities.skipLocked, (qb) => qb.forUpdate().skipLocked())
      .execute();
    if (due.length === 0) return [];
    return tx
      .updateTable(table as LeasedTable)
      .set({ lease_until: claim.leaseUntil })
      .where('id', 'in', due.map((d) => d.id))
      .returningAll()
      .execute();
  });
  return rows as unknown as Selectable<Database[T]>[];
}
