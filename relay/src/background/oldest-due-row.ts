// One query for a loop's health: when the oldest row its queue should already have worked became due
// (a message or delivery waiting past its next_attempt_at, a job whose lease ran out, a rate-limit
// counter past its expiry). Each queue has an index on its due column (with its status) but the jobs,
// whose processing ones are few (those in flight), so this is one index probe or a short scan, cheap
// enough for every /readyz.
import { sql, type Kysely } from 'kysely';
import type { Database } from '../db/schema.js';

export type DueQueue = Readonly<
  | {
      table: 'msg_messages' | 'msg_events' | 'webhook_deliveries' | 'transactions';
      /** The status of rows waiting in this queue. */
      status: string;
      /** The ISO 8601 column saying when a waiting row is due. */
      dueColumn: 'next_attempt_at' | 'lease_expires_at';
    }
  | {
      table: 'rate_limit_counters';
      /** Milliseconds since the epoch: every row is due once it passes. */
      dueColumn: 'expires_at';
    }
>;

export async function oldestDueAt(db: Kysely<Database>, queue: DueQueue, now: Date): Promise<Date | null> {
  const column = sql.ref(queue.dueColumn);
  const query =
    'status' in queue
      ? sql<{ due: string | null }>`select min(${column}) as due from ${sql.table(queue.table)} where status = ${queue.status} and ${column} <= ${now.toISOString()}`
      : sql<{ due: string | number | null }>`select min(${column}) as due from ${sql.table(queue.table)} where ${column} <= ${now.getTime()}`;
  const due = (await query.execute(db)).rows[0]?.due ?? null;
  if (due === null) return null;
  // PostgreSQL answers a bigint as text; an ISO timestamp is text on both databases.
  return 'status' in queue ? new Date(due) : new Date(Number(due));
}
