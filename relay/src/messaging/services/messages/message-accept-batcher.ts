// Groups concurrent sends into one transaction (group commit, scheduled by
// relay/src/db/batch-scheduler.ts: a lone send waits one event-loop turn, a flush at most two more
// while sends keep arriving, no timer), so one COMMIT (one WAL write on SQLite, one round trip on
// PostgreSQL) and one INSERT serve them all.
//
// Each send still gets its own answer. Sends of the same business-event id in one batch are written
// once: the others are answered as repeats of it (or share its refusal). When a batch's transaction
// fails, its messages are retried one per transaction, so a message that cannot be stored fails
// alone and does not take the others with it.
import { BatchScheduler, DEFAULT_BATCH_OPTIONS, type BatchSchedulerOptions } from '../../../db/batch-scheduler.js';
import type { AcceptOutcome, PendingMessage } from '../../store/messages/accept-message-batch.js';
import type { MessageRow } from '../../store/messages/message-repository.js';

export type AcceptResult =
  | AcceptOutcome
  /** A repeat of a message accepted in the same batch: replay that row. */
  | Readonly<{ kind: 'existing'; row: MessageRow }>;

export type AcceptBatch = (batch: readonly PendingMessage[]) => Promise<AcceptOutcome[]>;

export type MessageAcceptBatcherOptions = BatchSchedulerOptions;
export const DEFAULT_BATCHER_OPTIONS: MessageAcceptBatcherOptions = DEFAULT_BATCH_OPTIONS;

type Waiting = Readonly<{
  pending: PendingMessage;
  resolve: (result: AcceptResult) => void;
  reject: (error: unknown) => void;
}>;

export class MessageAcceptBatcher {
  private readonly scheduler: BatchScheduler<Waiting>;

  constructor(
    private readonly acceptBatch: AcceptBatch,
    options: MessageAcceptBatcherOptions = DEFAULT_BATCHER_OPTIONS,
  ) {
    this.scheduler = new BatchScheduler((batch) => this.write(batch), options);
  }

  /** Stores the message with the next batch; rejects only when it could not be accepted at all. */
  accept(pending: PendingMessage): Promise<AcceptResult> {
    return new Promise((resolve, reject) => this.scheduler.enqueue({ pending, resolve, reject }));
  }

  /** Writes one batch and settles every send in it; never rejects. */
  private async write(batch: readonly Waiting[]): Promise<void> {
    try {
      const groups = sameBusinessIdGroups(batch);
      const leaders = groups.map((group) => group[0]!.pending);
      const outcomes = await this.acceptAll(leaders);
      groups.forEach((group, index) => this.settle(group, outcomes[index]!));
    } catch (error) {
      // Only reached through a fault in this class; settled sends ignore the extra rejection.
      for (const waiting of batch) waiting.reject(error);
    }
  }

  /** The batch's outcomes, or — when its transaction fails — each message's own, one at a time. */
  private async acceptAll(leaders: readonly PendingMessage[]): Promise<(AcceptOutcome | Failure)[]> {
    try {
      return await this.acceptBatch(leaders);
    } catch (error) {
      if (leaders.length === 1) return [{ kind: 'failed', error }];
    }
    const outcomes: (AcceptOutcome | Failure)[] = [];
    for (const leader of leaders) {
      try {
        outcomes.push((await this.acceptBatch([leader]))[0]!);
      } catch (error) {
        outcomes.push({ kind: 'failed', error });
      }
    }
    return outcomes;
  }

  /** Answers a group of sends of one business-event id from the outcome of its first. */
  private settle(group: readonly Waiting[], outcome: AcceptOutcome | Failure): void {
    const [leader, ...followers] = group as [Waiting, ...Waiting[]];
    switch (outcome.kind) {
      case 'stored':
        leader.resolve(outcome);
        for (const follower of followers) follower.resolve({ kind: 'existing', row: leader.pending.row });
        return;
      case 'duplicate':
      case 'refused':
        // Refused: the others would have met the same full window an instant later.
        for (const waiting of group) waiting.resolve(outcome);
        return;
      case 'failed':
        leader.reject(outcome.error);
        // The others may differ from it (another body is a 409 or a message of its own), so each
        // gets its own attempt with a later batch.
        this.scheduler.requeueFirst(followers);
        return;
    }
  }
}

type Failure = Readonly<{ kind: 'failed'; error: unknown }>;

/**
 * The batch's sends grouped by (tenant, business-event id), first arrival first in each group, the
 * groups sorted by that key (the lock order acceptMessageBatch relies on).
 */
function sameBusinessIdGroups(batch: readonly Waiting[]): Waiting[][] {
  const groups = new Map<string, Waiting[]>();
  for (const waiting of batch) {
    const key = `${waiting.pending.row.tenant_id}\u0000${waiting.pending.row.business_event_id}`;
    const group = groups.get(key);
    if (group) group.push(waiting);
    else groups.set(key, [waiting]);
  }
  return [...groups.entries()].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)).map(([, group]) => group);
}
