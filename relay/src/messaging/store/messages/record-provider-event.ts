// Records one provider event in one transaction: its timeline entry (a repeat of the same event id
// changes nothing), the suppression it causes, and the rank-gated status move — an event out of
// order stays on the timeline retyped status_ignored. So a retried webhook never applies twice.
import type { DeliveryStatus } from '@ledgerwire/shared';
import type { Kysely } from 'kysely';
import type { Database } from '../../../db/schema.js';
import { addSuppression } from '../suppressions/add-suppression.js';
import type { SuppressionRow } from '../suppressions/suppression-rows.js';
import { addTimelineEntry } from './add-timeline-entry.js';
import { advanceMessageStatus, type StatusExtra } from './advance-message-status.js';
import { retypeTimelineEntry } from './retype-timeline-entry.js';
import type { TimelineEntry } from './timeline-row.js';

export type ProviderEventRecord = Readonly<{
  messageId: string;
  entry: TimelineEntry;
  recordedAt: string;
  /** The address this event suppresses, if it does. */
  suppression: SuppressionRow | undefined;
  /** The status the event moves the message to; null for an event that only goes on the timeline. */
  status: DeliveryStatus | null;
  extra: StatusExtra;
}>;

/** duplicate: seen before, nothing written; recorded: on the timeline only; ignored: out of order; moved: the status moved. */
export type ProviderEventOutcome = 'duplicate' | 'recorded' | 'ignored' | 'moved';

export function recordProviderEvent(db: Kysely<Database>, record: ProviderEventRecord): Promise<ProviderEventOutcome> {
  return db.transaction().execute(async (tx): Promise<ProviderEventOutcome> => {
    const entryId = await addTimelineEntry(tx, record.messageId, record.entry, record.recordedAt);
    if (entryId === undefined) return 'duplicate';
    // With the event, in its transaction: the next dispatch of a send to this address fails it.
    if (record.suppression) await addSuppression(tx, record.suppression);
    if (record.status === null) return 'recorded';
    if (!(await advanceMessageStatus(tx, record.messageId, record.status, record.recordedAt, record.extra))) {
      await retypeTimelineEntry(tx, entryId, 'status_ignored');
      return 'ignored';
    }
    return 'moved';
  });
}
