// SQL for webhook endpoints. Deleted endpoints stay as rows (their deliveries keep pointing at them
// for the history) but lose their secrets and are invisible to owners.
//
// Why the signing secret is stored in clear, unlike every other secret the relay keeps as SHA-256:
// an HMAC signature is computed from the key itself, so the relay must be able to read the key back
// each time it signs a request; a hash would make signing impossible. To compensate, the secret never
// leaves this table except in the answers of create and rotate-secret, is never logged, and is wiped
// when the endpoint is deleted.
import type { Insertable, Kysely, Updateable } from 'kysely';
import type { Database, WebhookEndpointsTable } from '../db/schema.js';
import type { EndpointRow, WebhookOwner } from './webhook-records.js';
import { parseEventList } from './webhook-records.js';

export class WebhookEndpointRepository {
  constructor(private readonly db: Kysely<Database>) {}

  async insert(row: Insertable<WebhookEndpointsTable>): Promise<void> {
    await this.db.insertInto('webhook_endpoints').values(row).execute();
  }

  /** The owner's live endpoint, or undefined when absent, deleted or someone else's. */
  async find(owner: WebhookOwner, id: string): Promise<EndpointRow | undefined> {
    return this.db
      .selectFrom('webhook_endpoints')
      .selectAll()
      .where('id', '=', id)
      .where('owner_kind', '=', owner.kind)
      .where('owner_id', '=', owner.id)
      .where('deleted_at', 'is', null)
      .executeTakeFirst();
  }

  /** Any endpoint by id, deleted or not (the delivery worker decides what a deleted one means). */
  async findById(id: string): Promise<EndpointRow | undefined> {
    return this.db.selectFrom('webhook_endpoints').selectAll().where('id', '=', id).executeTakeFirst();
  }

  async list(owner: WebhookOwner): Promise<EndpointRow[]> {
    return this.db
      .selectFrom('webhook_endpoints')
      .selectAll()
      .where('owner_kind', '=', owner.kind)
      .where('owner_id', '=', owner.id)
      .where('deleted_at', 'is', null)
      .orderBy('created_at')
      .orderBy('id')
      .execute();
  }

  /** Enabled endpoints of the owner whose filter includes `type`. */
  async listSubscribed(owner: WebhookOwner, type: string): Promise<EndpointRow[]> {
    const rows = await this.db
      .selectFrom('webhook_endpoints')
      .selectAll()
      .where('owner_kind', '=', owner.kind)
      .where('owner_id', '=', owner.id)
      .where('deleted_at', 'is', null)
      .where('enabled', '=', 1)
      .orderBy('created_at')
      .execute();
    // The filter is a short JSON list; matching in SQL would need dialect-specific JSON functions.
    return rows.filter((row) => parseEventList(row.events).includes(type));
  }

  async update(id: string, changes: Updateable<WebhookEndpointsTable>): Promise<void> {
    await this.db.updateTable('webhook_endpoints').set(changes).where('id', '=', id).execute();
  }

  // markFailing and markHealthy always write the endpoint row, even when nothing changes: that takes the
  // row's lock first thing in the worker's recording transaction, so every transaction touching an
  // endpoint's deliveries locks endpoint-then-deliveries and two of them can never deadlock.

  /** Marks the endpoint failing since `now` unless it already was; returns when its failures began. */
  async markFailing(id: string, now: string): Promise<string | null> {
    await this.db
      .updateTable('webhook_endpoints')
      .set((eb) => ({ failing_since: eb.fn.coalesce('failing_since', eb.val(now)) }))
      .where('id', '=', id)
      .execute();
    const row = await this.db.selectFrom('webhook_endpoints').select('failing_since').where('id', '=', id).executeTakeFirst();
    return row?.failing_since ?? null;
  }

  async markHealthy(id: string): Promise<void> {
    await this.db.updateTable('webhook_endpoints').set({ failing_since: null }).where('id', '=', id).execute();
  }

  /** Disables a still-enabled endpoint; false when it was already disabled or deleted (someone else did it). */
  async disable(id: string, reason: string, now: string): Promise<boolean> {
    const result = await this.db
      .updateTable('webhook_endpoints')
      .set({ enabled: 0, disabled_reason: reason, updated_at: now })
      .where('id', '=', id)
      .where('enabled', '=', 1)
      .where('deleted_at', 'is', null)
      .executeTakeFirst();
    return Number(result.numUpdatedRows) > 0;
  }
}
