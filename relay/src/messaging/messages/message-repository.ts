// SQL for messages and their timeline: reads, the dispatch claim (a lease, with SKIP LOCKED where
// the database has it) and rank-gated status moves. New messages go in through
// message-batch-insert.ts, a batch at a time.
import type { Kysely, Transaction } from 'kysely';
import type { DeliveryStatus } from '@ledgerwire/shared';
import type { DialectCapabilities } from '../../db/capabilities.js';
import type { Database } from '../../db/schema.js';
import { newId } from '../../foundation/messaging-ids.js';
import { STATUS_RANK } from './status-ranks.js';
import { claimDueMessages, type ClaimedMessages, type DueClaim } from './claim-due-messages.js';
import { advanceStatuses, scheduleRetries, type RetrySchedule, type StatusMove } from './message-status-batch.js';

import type { Executor, MessageRow, TimelineRow } from './message-rows.js';

export type { Executor, MessageRow, TimelineRow } from './message-rows.js';

export type TimelineEntry = Readonly<{
  type: string;
  status?: DeliveryStatus | null;
  provider?: string | null;
  providerEventId?: string | null;
  detail?: Record<string, unknown> | null;
  occurredAt: string;
}>;

export class MessageRepository {
  constructor(
    readonly db: Kysely<Database>,
    private readonly capabilities: DialectCapabilities,
  ) {}

  findByBusinessId(tenantId: string, businessEventId: string): Promise<MessageRow | undefined> {
    return this.db
      .selectFrom('msg_messages')
      .selectAll()
      .where('tenant_id', '=', tenantId)
      .where('business_event_id', '=', businessEventId)
      .executeTakeFirst();
  }

  find(id: string): Promise<MessageRow | undefined> {
    return this.db.selectFrom('msg_messages').selectAll().where('id', '=', id).executeTakeFirst();
  }

  findByProviderMessageId(provider: string, providerMessageId: string): Promise<MessageRow | undefined> {
    return this.db
      .selectFrom('msg_messages')
      .selectAll()
      .where('provider', '=', provider)
      .where('provider_message_id', '=', providerMessageId)
      .executeTakeFirst();
  }

  timeline(messageId: string): Promise<TimelineRow[]> {
    return this.db
      .selectFrom('msg_message_events')
      .selectAll()
      .where('message_id', '=', messageId)
      .orderBy('recorded_at')
      .orderBy('occurred_at')
      .execute();
  }

  /**
   * Adds a timeline entry and returns its id. With a provider event id, a repeat of the same event
   * is ignored (unique index); returns undefined then.
   */
  async addTimeline(messageId: string, entry: TimelineEntry, recordedAt: string, executor: Executor = this.db): Promise<string | undefined> {
    const inserted = await executor
      .insertInto('msg_message_events')
      .values(timelineRow(messageId, entry, recordedAt))
      .onConflict((oc) => oc.columns(['provider', 'provider_event_id']).doNothing())
      .returning('id')
      .executeTakeFirst();
    return inserted?.id;
  }

  /** Several timeline entries in one statement (a dispatch pass's attempts, recorded together). */
  async addTimelineEntries(entries: readonly { messageId: string; entry: TimelineEntry }[], recordedAt: string, executor: Executor = this.db): Promise<void> {
    if (entries.length === 0) return;
    await executor
      .insertInto('msg_message_events')
      .values(entries.map(({ messageId, entry }) => timelineRow(messageId, entry, recordedAt)))
      .execute();
  }

  async retypeTimeline(entryId: string, type: string, executor: Executor = this.db): Promise<void> {
    await executor.updateTable('msg_message_events').set({ type }).where('id', '=', entryId).execute();
  }

  /** A message's attachments without their bytes (what the read model shows), in order. */
  attachmentsOf(messageId: string): Promise<{ filename: string; content_type: string; content_id: string | null; size: number }[]> {
    return this.db
      .selectFrom('msg_attachments')
      .select(['filename', 'content_type', 'content_id', 'size'])
      .where('message_id', '=', messageId)
      .orderBy('position')
      .execute();
  }

  /** A message's attachments with their bytes, for dispatch; a removed content comes back null. */
  attachmentsToSend(messageId: string): Promise<{ filename: string; content_type: string; content_id: string | null; content: string | null }[]> {
    return this.db
      .selectFrom('msg_attachments')
      .select(['filename', 'content_type', 'content_id', 'content'])
      .where('message_id', '=', messageId)
      .orderBy('position')
      .execute();
  }

  /** Removes the bytes of final messages' attachments; their name, type and size stay. */
  async dropAttachmentContent(messageIds: readonly string[], executor: Executor = this.db): Promise<void> {
    if (messageIds.length === 0) return;
    await executor.updateTable('msg_attachments').set({ content: null }).where('message_id', 'in', messageIds).where('content', 'is not', null).execute();
  }

  /** Leases due messages, tenants served in turn (claim-due-messages.ts). */
  claimDue(claim: DueClaim): Promise<ClaimedMessages> {
    return claimDueMessages(this.db, this.capabilities, claim);
  }

  /** Runs `work` in one transaction: a dispatch pass records all its outcomes in one commit. */
  inTransaction<T>(work: (tx: Transaction<Database>) => Promise<T>): Promise<T> {
    return this.db.transaction().execute(work);
  }

  /**
   * Moves the status forward only: the update applies when the new rank is higher than the current
   * one. Returns whether it applied.
   */
  async advanceStatus(
    id: string,
    status: DeliveryStatus,
    at: string,
    extra: Partial<Pick<MessageRow, 'provider' | 'provider_message_id' | 'error' | 'attempts' | 'next_attempt_at' | 'lease_until'>> = {},
    executor: Executor = this.db,
  ): Promise<boolean> {
    const rank = STATUS_RANK[status];
    const result = await executor
      .updateTable('msg_messages')
      .set({ ...extra, status, status_rank: rank, updated_at: at })
      .where('id', '=', id)
      .where('status_rank', '<', rank)
      .executeTakeFirst();
    return Number(result.numUpdatedRows) > 0;
  }

  /** advanceStatus for many messages in one statement (a dispatch claim's outcomes); returns the ids that moved. */
  advanceStatuses(status: DeliveryStatus, at: string, moves: readonly StatusMove[], executor: Executor = this.db): Promise<Set<string>> {
    return advanceStatuses(executor, status, at, moves);
  }

  /** scheduleRetry for many messages in one statement. */
  scheduleRetries(retries: readonly RetrySchedule[], at: string, executor: Executor = this.db): Promise<void> {
    return scheduleRetries(executor, at, retries);
  }
}

function timelineRow(messageId: string, entry: TimelineEntry, recordedAt: string) {
  return {
    id: newId('mev'),
    message_id: messageId,
    type: entry.type,
    status: entry.status ?? null,
    provider: entry.provider ?? null,
    provider_event_id: entry.providerEventId ?? null,
    detail: entry.detail ? JSON.stringify(entry.detail) : null,
    occurred_at: entry.occurredAt,
    recorded_at: recordedAt,
  };
}
