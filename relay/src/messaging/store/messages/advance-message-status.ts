// Moves a message's status forward only: the update applies when the new rank is higher than the
// current one, so a late or repeated event never takes a message back. Returns whether it applied.
import type { DeliveryStatus } from '@ledgerwire/shared';
import type { Executor, MessageRow } from './message-rows.js';
import { STATUS_RANK } from './status-ranks.js';

export type StatusExtra = Partial<Pick<MessageRow, 'provider' | 'provider_message_id' | 'error' | 'attempts' | 'next_attempt_at' | 'lease_until'>>;

export async function advanceMessageStatus(db: Executor, id: string, status: DeliveryStatus, at: string, extra: StatusExtra = {}): Promise<boolean> {
  const rank = STATUS_RANK[status];
  const result = await db
    .updateTable('msg_messages')
    .set({ ...extra, status, status_rank: rank, updated_at: at })
    .where('id', '=', id)
    .where('status_rank', '<', rank)
    .executeTakeFirst();
  return Number(result.numUpdatedRows) > 0;
}
