// Groups concurrent job inserts into one transaction (group commit, scheduled by
// relay/src/db/batch-scheduler.ts as messaging's sends are): one COMMIT (one WAL write on SQLite, one
// round trip and one flush on PostgreSQL) serves every job of a batch.
//
// Each job still gets its own answer, and only after the transaction holding it committed. When a
// batch's transaction fails, its jobs are retried one per transaction, so a job that cannot be stored
// fails alone and does not take the others with it.
import { BatchScheduler, DEFAULT_BATCH_OPTIONS, type BatchSchedulerOptions } from '../../../db/batch-scheduler.js';

export type GroupCommitOptions = BatchSchedulerOptions;
export const DEFAULT_GROUP_COMMIT: GroupCommitOptions = DEFAULT_BATCH_OPTIONS;

type Waiting<I, O> = Readonly<{ item: I; resolve: (result: O) => void; reject: (error: unknown) => void }>;

export class GroupCommit<I, O> {
  private readonly scheduler: BatchScheduler<Waiting<I, O>>;

  /** `writeBatch` answers one result per item, in order, or throws and keeps nothing. */
  constructor(
    private readonly writeBatch: (items: readonly I[]) => Promise<O[]>,
    options: GroupCommitOptions = DEFAULT_GROUP_COMMIT,
  ) {
    this.scheduler = new BatchScheduler((batch) => this.write(batch), options);
  }

  /** Resolves once the item's transaction committed; rejects when it could not be written. */
  submit(item: I): Promise<O> {
    return new Promise((resolve, reject) => this.scheduler.enqueue({ item, resolve, reject }));
  }

  /** Writes one batch and settles every item in it; never rejects. */
  private async write(batch: readonly Waiting<I, O>[]): Promise<void> {
    try {
      const results = await this.writeBatch(batch.map((waiting) => waiting.item));
      batch.forEach((waiting, index) => waiting.resolve(results[index]!));
      return;
    } catch (error) {
      if (batch.length === 1) {
        batch[0]!.reject(error);
        return;
      }
    }
    for (const waiting of batch) {
      try {
        const [result] = await this.writeBatch([waiting.item]);
        waiting.resolve(result!);
      } catch (error) {
        waiting.reject(error);
      }
    }
  }
}
