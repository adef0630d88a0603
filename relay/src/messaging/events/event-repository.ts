// SQL for ingested business events (a queue: pending → processed | failed) and event rules.
import type { Kysely, Selectable, Transaction } from 'kysely';
import type { DialectCapabilities } from '../../db/capabilities.js';
import type { Database, MsgEventRulesTable, MsgEventsTable } from '../../db/schema.js';
import { leaseDueRows } from '../lease-due-rows.js';

export type EventRow = Selectable<MsgEventsTable>;
export type EventRuleRow = Selectable<MsgEventRulesTable>;

export class EventRepository {
  constructor(
    readonly db: Kysely<Database>,
    private readonly capabilities: DialectCapabilities,
  ) {}

  async insert(row: EventRow, executor: Kysely<Database> | Transaction<Database> = this.db): Promise<void> {
    await executor.insertInto('msg_events').values(row).execute();
  }

  findByEventId(tenantId: string, eventId: string): Promise<EventRow | undefined> {
    return this.db.selectFrom('msg_events').selectAll().where('tenant_id', '=', tenantId).where('event_id', '=', eventId).executeTakeFirst();
  }

  async claimDue(now: string, leaseUntil: string, limit: number): Promise<EventRow[]> {
    return leaseDueRows(this.db, this.capabilities, 'msg_events', { waitingStatus: 'pending', now, leaseUntil, limit });
  }

  async finish(id: string, status: 'processed' | 'failed', result: unknown, at: string): Promise<void> {
    await this.db
      .updateTable('msg_events')
      .set({ status, result: JSON.stringify(result), processed_at: at, lease_until: null, next_attempt_at: null })
      .where('id', '=', id)
      .execute();
  }

  async defer(id: string, nextAttemptAt: string, result: unknown): Promise<void> {
    await this.db
      .updateTable('msg_events')
      .set({ next_attempt_at: nextAttemptAt, lease_until: null, result: JSON.stringify(result) })
      .where('id', '=', id)
      .execute();
  }

  async insertRule(row: EventRuleRow): Promise<void> {
    await this.db.insertInto('msg_event_rules').values(row).execute();
  }

  findRule(tenantId: string, id: string): Promise<EventRuleRow | undefined> {
    return this.db.selectFrom('msg_event_rules').selectAll().where('tenant_id', '=', tenantId).where('id', '=', id).executeTakeFirst();
  }

  listRules(tenantId: string): Promise<EventRuleRow[]> {
    return this.db.selectFrom('msg_event_rules').selectAll().where('tenant_id', '=', tenantId).orderBy('created_at').orderBy('id').execute();
  }

  activeRules(tenantId: string, eventName: string): Promise<EventRuleRow[]> {
    return this.db
      .selectFrom('msg_event_rules')
      .selectAll()
      .where('tenant_id', '=', tenantId)
      .where('event_name', '=', eventName)
      .where('is_active', '=', 1)
      .orderBy('created_at')
      .orderBy('id')
      .execute();
  }

  async updateRule(id: string, changes: Partial<Omit<EventRuleRow, 'id' | 'tenant_id' | 'created_at'>>): Promise<void> {
    await this.db.updateTable('msg_event_rules').set(changes).where('id', '=', id).execute();
  }

  async deleteRule(id: string): Promise<void> {
    await this.db.deleteFrom('msg_event_rules').where('id', '=', id).execute();
  }
}
