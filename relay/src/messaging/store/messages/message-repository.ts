// Messages and their timeline: reads, the dispatch claim (a lease, with SKIP LOCKED where the
// database has it) and rank-gated status moves; each method runs one operation of store/messages/
// (the claim: claim-due-messages.ts). New messages go in through message-batch-insert.ts, a batch
// at a time.
import type { Kysely, Transaction } from 'kysely';
import type { DeliveryStatus } from '@ledgerwire/shared';
import type { DialectCapabilities } from '../../../db/capabilities.js';
import type { Database } from '../../../db/schema.js';
import { addTimelineEntries } from './add-timeline-entries.js';
import { addTimelineEntry } from './add-timeline-entry.js';
import { advanceMessageStatus } from './advance-message-status.js';
import { dropAttachmentContent } from './drop-attachment-content.js';
import { findMessageByBusinessId } from './find-message-by-business-id.js';
import { findMessageByProviderMessageId } from './find-message-by-provider-message-id.js';
import { findMessage } from './find-message.js';
import { listAttachmentsToSend } from './list-attachments-to-send.js';
import { listMessageAttachments } from './list-message-attachments.js';
import { listMessageTimeline } from './list-message-timeline.js';
import { retypeTimelineEntry } from './retype-timeline-entry.js';
import { runInTransaction } from './run-in-transaction.js';
import type { TimelineEntry } from './timeline-row.js';
import { claimDueMessages, type ClaimedMessages, type DueClaim } from './claim-due-messages.js';
import { advanceStatuses, scheduleRetries, type RetrySchedule, type StatusMove } from './message-status-batch.js';

import type { Executor, MessageRow, TimelineRow } from './message-rows.js';

export type { Executor, MessageRow, TimelineRow } from './message-rows.js';
export type { TimelineEntry } from './timeline-row.js';

export class MessageRepository {
  constructor(
    readonly db: Kysely<Database>,
    private readonly capabilities: DialectCapabilities,
  ) {}

  findByBusinessId(tenantId: string, businessEventId: string): Promise<MessageRow | undefined> {
    return findMessageByBusinessId(this.db, tenantId, businessEventId);
  }

  find(id: string): Promise<MessageRow | undefined> {
    return findMessage(this.db, id);
  }

  findByProviderMessageId(provider: string, providerMessageId: string): Promise<MessageRow | undefined> {
    return findMessageByProviderMessageId(this.db, provider, providerMessageId);
  }

  timeline(messageId: string): Promise<TimelineRow[]> {
    return listMessageTimeline(this.db, messageId);
  }

  /**
   * Adds a timeline entry and returns its id. With a provider event id, a repeat of the same event
   * is ignored (unique index); returns undefined then.
   */
  addTimeline(messageId: string, entry: TimelineEntry, recordedAt: string, executor: Executor = this.db): Promise<string | undefined> {
    return addTimelineEntry(executor, messageId, entry, recordedAt);
  }

  /** Several timeline entries in one statement (a dispatch pass's attempts, recorded together). */
  addTimelineEntries(entries: readonly { messageId: string; entry: TimelineEntry }[], recordedAt: string, executor: Executor = this.db): Promise<void> {
    return addTimelineEntries(executor, entries, recordedAt);
  }

  retypeTimeline(entryId: string, type: string, executor: Executor = this.db): Promise<void> {
    return retypeTimelineEntry(executor, entryId, type);
  }

  /** A message's attachments without their bytes (what the read model shows), in order. */
  attachmentsOf(messageId: string): Promise<{ filename: string; content_type: string; content_id: string | null; size: number }[]> {
    return listMessageAttachments(this.db, messageId);
  }

  /** A message's attachments with their bytes, for dispatch; a removed content comes back null. */
  attachmentsToSend(messageId: string): Promise<{ filename: string; content_type: string; content_id: string | null; content: string | null }[]> {
    return listAttachmentsToSend(this.db, messageId);
  }

  /** Removes the bytes of final messages' attachments; their name, type and size stay. */
  dropAttachmentContent(messageIds: readonly string[], executor: Executor = this.db): Promise<void> {
    return dropAttachmentContent(executor, messageIds);
  }

  /** Leases due messages, tenants served in turn (claim-due-messages.ts). */
  claimDue(claim: DueClaim): Promise<ClaimedMessages> {
    return claimDueMessages(this.db, this.capabilities, claim);
  }

  /** Runs `work` in one transaction: a dispatch pass records all its outcomes in one commit. */
  inTransaction<T>(work: (tx: Transaction<Database>) => Promise<T>): Promise<T> {
    return runInTransaction(this.db, work);
  }

  /**
   * Moves the status forward only: the update applies when the new rank is higher than the current
   * one. Returns whether it applied.
   */
  advanceStatus(
    id: string,
    status: DeliveryStatus,
    at: string,
    extra: Partial<Pick<MessageRow, 'provider' | 'provider_message_id' | 'error' | 'attempts' | 'next_attempt_at' | 'lease_until'>> = {},
    executor: Executor = this.db,
  ): Promise<boolean> {
    return advanceMessageStatus(executor, id, status, at, extra);
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
