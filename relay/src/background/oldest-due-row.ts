// One query for a loop's health: when the oldest row its queue should already have worked became due
// (a message or delivery waiting past its next_attempt_at, a job whose lease ran out). Each queue has an
// index on (status, due column) but the jobs, whose processing ones are few (those in flight), so this is
// one index probe or a short scan, cheap enough for every /readyz.
import { sql, type Kysely } from 'kysely';
import type { Database } from '../db/schema.js';

export type DueQueue = Readonly<{
  table: 'msg_messages' | 'msg_events' | 'webhook_deliveries' | 'transactions';
  /** The status of rows waiting in this queue. */
  status: string;
  /** The ISO 8601 column saying when a waiting row is due. */
  dueColumn: 'next_attempt_at' | 'lease_expires_at';
}>;

export async function oldestDueAt(db: Kysely<Database>, queue: DueQueue, now: Date): Promise<Date | null> {
  const result = await sql<{ due: string | null }>`select min(${sql.ref(queue.dueColumn)}) as due from ${sql.table(queue.table)}
    where status = ${queue.status} and ${sql.ref(queue.dueColumn)} <= ${now.toISOString()}`.execute(db);
  const due = result.rows[0]?.due ?? null;
  return due === null ? null : new Date(due);
}
