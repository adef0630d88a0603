// The attempts of several deliveries in one read, grouped by delivery in attempt order (a page of
// deliveries shows its attempts without a query per row).
import type { Kysely } from 'kysely';
import type { Database } from '../../../db/schema.js';
import type { AttemptRow } from '../webhook-records.js';

export async function listDeliveryAttempts(db: Kysely<Database>, deliveryIds: readonly string[]): Promise<Map<string, AttemptRow[]>> {
  const byDelivery = new Map<string, AttemptRow[]>();
  if (deliveryIds.length === 0) return byDelivery;
  const rows = await db
    .selectFrom('webhook_attempts')
    .selectAll()
    .where('delivery_id', 'in', [...deliveryIds])
    .orderBy('attempt_number')
    .execute();
  for (const row of rows) {
    const list = byDelivery.get(row.delivery_id) ?? [];
    list.push(row);
    byDelivery.set(row.delivery_id, list);
  }
  return byDelivery;
}
