// A dispatch pass's status moves in one statement per 200 messages rather than one per message (at
// dispatch rates the per-statement cost was most of the pass's record transaction): each message
// moves to `status` only when that ranks higher than its current one, with its own extra columns.
import type { DeliveryStatus } from '@ledgerwire/shared';
import type { Executor } from './message-rows.js';
import { STATUS_RANK } from './status-ranks.js';
import { perRow, ROWS_PER_STATEMENT, type BatchColumn, type StatusMoveColumns } from './per-row-value.js';

export type { StatusMoveColumns } from './per-row-value.js';
export type StatusMove = Readonly<{ id: string; set: StatusMoveColumns }>;

/** Returns the ids that moved. */
export async function advanceMessageStatuses(executor: Executor, status: DeliveryStatus, at: string, moves: readonly StatusMove[]): Promise<Set<string>> {
  const rank = STATUS_RANK[status];
  const moved = new Set<string>();
  for (let start = 0; start < moves.length; start += ROWS_PER_STATEMENT) {
    const chunk = moves.slice(start, start + ROWS_PER_STATEMENT);
    const columns = [...new Set(chunk.flatMap((move) => Object.keys(move.set) as BatchColumn[]))];
    const values = Object.fromEntries(columns.map((column) => [column, perRow(column, chunk.map((move) => ({ id: move.id, value: move.set[column] })))]));
    const rows = await executor
      .updateTable('msg_messages')
      .set({ ...values, status, status_rank: rank, updated_at: at })
      .where('id', 'in', chunk.map((move) => move.id))
      .where('status_rank', '<', rank)
      .returning('id')
      .execute();
    for (const row of rows) moved.add(row.id);
  }
  return moved;
}
