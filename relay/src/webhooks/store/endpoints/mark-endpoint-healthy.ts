// Clears the endpoint's failing mark. It always writes the row, taking its lock first (see
// mark-endpoint-failing.ts for why that order matters).
import type { Kysely } from 'kysely';
import type { Database } from '../../../db/schema.js';

export async function markEndpointHealthy(db: Kysely<Database>, id: string): Promise<void> {
  await db.updateTable('webhook_endpoints').set({ failing_since: null }).where('id', '=', id).execute();
}
