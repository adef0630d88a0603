// A delivery by id, scoped to its owner unless the operator asks (owner undefined), so an owner never
// sees another's deliveries.
import type { Kysely } from 'kysely';
import type { Database } from '../../../db/schema.js';
import type { DeliveryRow, WebhookOwner } from '../webhook-records.js';

export async function findDelivery(db: Kysely<Database>, id: string, owner: WebhookOwner | undefined): Promise<DeliveryRow | undefined> {
  let query = db.selectFrom('webhook_deliveries').selectAll().where('id', '=', id);
  if (owner) query = query.where('owner_kind', '=', owner.kind).where('owner_id', '=', owner.id);
  return query.executeTakeFirst();
}
