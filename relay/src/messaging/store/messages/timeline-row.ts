// A timeline entry as the callers give it and as its row is stored, shared by the operations that
// add entries one at a time and several at once, so both write the same row.
import type { DeliveryStatus } from '@ledgerwire/shared';
import { newId } from '../../../foundation/messaging-ids.js';

export type TimelineEntry = Readonly<{
  type: string;
  status?: DeliveryStatus | null;
  provider?: string | null;
  providerEventId?: string | null;
  detail?: Record<string, unknown> | null;
  occurredAt: string;
}>;

export function timelineRow(messageId: string, entry: TimelineEntry, recordedAt: string) {
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
