// One page of an endpoint's deliveries, newest first, with the total the page is out of.
import type { Kysely } from 'kysely';
import type { Database } from '../../../db/schema.js';
import type { DeliveryRow } from '../webhook-records.js';

export async function listEndpointDeliveries(
  db: Kysely<Database>,
  endpointId: string,
  page: { limit: number; offset: number },
): Promise<{ total: number; rows: DeliveryRow[] }> {
  const counted = await db
    .selectFrom('webhook_deliveries')
    .select((eb) => eb.fn.countAll<number>().as('total'))
    .where('endpoint_id', '=', endpointId)
    .executeTakeFirstOrThrow();
  const rows = await db
    .selectFrom('webhook_deliveries')
    .selectAll()
    .where('endpoint_id', '=', endpointId)
    .orderBy('created_at', 'desc')
    .orderBy('id', 'desc')
    .limit(page.limit)
    .offset(page.offset)
    .execute();
  return { total: Number(counted.total), rows };
}
