// Marks the endpoint failing since `now` unless it already was, and answers when its failures began.
// It always writes the row: that takes the row's lock first in the worker's recording transaction, so
// every transaction locks endpoint-then-deliveries and two of them can never deadlock.
import type { Kysely } from 'kysely';
import type { Database } from '../../../db/schema.js';

export async function markEndpointFailing(db: Kysely<Database>, id: string, now: string): Promise<string | null> {
  await db
    .updateTable('webhook_endpoints')
    .set((eb) => ({ failing_since: eb.fn.coalesce('failing_since', eb.val(now)) }))
    .where('id', '=', id)
    .execute();
  const row = await db.selectFrom('webhook_endpoints').select('failing_since').where('id', '=', id).executeTakeFirst();
  return row?.failing_since ?? null;
}
