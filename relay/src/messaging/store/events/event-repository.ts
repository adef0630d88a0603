// Ingested business events (a queue: pending → processed | failed) and event rules; each method
// runs one operation of store/events/ (the claim, the lease shared with dispatch: lease-due-rows.ts).
import type { Kysely, Transaction } from 'kysely';
import type { DialectCapabilities } from '../../../db/capabilities.js';
import type { Database } from '../../../db/schema.js';
import { leaseDueRows } from '../lease-due-rows.js';
import { deferEvent } from './defer-event.js';
import { deleteEventRule } from './delete-event-rule.js';
import type { EventRow, EventRuleRow } from './event-rows.js';
import { findEventByEventId } from './find-event-by-event-id.js';
import { findEventRule } from './find-event-rule.js';
import { finishEvent } from './finish-event.js';
import { insertEventRule } from './insert-event-rule.js';
import { insertEvent } from './insert-event.js';
import { listActiveEventRules } from './list-active-event-rules.js';
import { listEventRules } from './list-event-rules.js';
import { updateEventRule } from './update-event-rule.js';

export type { EventRow, EventRuleRow } from './event-rows.js';

export class EventRepository {
  constructor(
    readonly db: Kysely<Database>,
    private readonly capabilities: DialectCapabilities,
  ) {}

  insert(row: EventRow, executor: Kysely<Database> | Transaction<Database> = this.db): Promise<void> {
    return insertEvent(executor, row);
  }

  findByEventId(tenantId: string, eventId: string): Promise<EventRow | undefined> {
    return findEventByEventId(this.db, tenantId, eventId);
  }

  async claimDue(now: string, leaseUntil: string, limit: number): Promise<EventRow[]> {
    return leaseDueRows(this.db, this.capabilities, 'msg_events', { waitingStatus: 'pending', now, leaseUntil, limit });
  }

  finish(id: string, status: 'processed' | 'failed', result: unknown, at: string): Promise<void> {
    return finishEvent(this.db, id, status, result, at);
  }

  defer(id: string, nextAttemptAt: string, result: unknown): Promise<void> {
    return deferEvent(this.db, id, nextAttemptAt, result);
  }

  insertRule(row: EventRuleRow): Promise<void> {
    return insertEventRule(this.db, row);
  }

  findRule(tenantId: string, id: string): Promise<EventRuleRow | undefined> {
    return findEventRule(this.db, tenantId, id);
  }

  listRules(tenantId: string): Promise<EventRuleRow[]> {
    return listEventRules(this.db, tenantId);
  }

  activeRules(tenantId: string, eventName: string): Promise<EventRuleRow[]> {
    return listActiveEventRules(this.db, tenantId, eventName);
  }

  updateRule(id: string, changes: Partial<Omit<EventRuleRow, 'id' | 'tenant_id' | 'created_at'>>): Promise<void> {
    return updateEventRule(this.db, id, changes);
  }

  deleteRule(id: string): Promise<void> {
    return deleteEventRule(this.db, id);
  }
}
