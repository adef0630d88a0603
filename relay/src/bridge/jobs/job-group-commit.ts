// Groups concurrent job inserts into one transaction (group commit), as the messaging API groups its
// sends: the jobs waiting when the event loop comes round — their requests arrived in the same turn,
// or while the previous batch was being written — are inserted together, so one COMMIT (one WAL
// write on SQLite, one round trip and one flush on PostgreSQL) serves them all. A lone write waits
// one event-loop turn; while writes keep arriving a flush waits up to `maxWaitTurns` more. No timer.
//
// Each job still gets its own answer, and only after the transaction holding it committed. When a
// batch's transaction fails, its jobs are retried one per transaction, so a job that cannot be stored
// fails alone and does not take the others with it.

export type GroupCommitOptions = Readonly<{
  /** Items per transaction at most (bounds the statement's parameter count). */
  maxBatch: number;
  /** Batches written at the same time (SQLite's single connection runs them one after another). */
  maxInFlight: number;
  /** Extra event-loop turns a flush may wait while items keep arriving. */
  maxWaitTurns: number;
}>;

/** 64 jobs × the transactions row's columns stay far below both databases' parameter limits. */
export const DEFAULT_GROUP_COMMIT: GroupCommitOptions = Object.freeze({ maxBatch: 64, maxInFlight: 4, maxWaitTurns: 2 });

type Waiting<I, O> = Readonly<{ item: I; resolve: (result: O) => void; reject: (error: unknown) => void }>;

export class GroupCommit<I, O> {
  private queue: Waiting<I, O>[] = [];
  private flushScheduled = false;
  private inFlight = 0;

  /** `writeBatch` answers one result per item, in order, or throws and keeps nothing. */
  constructor(
    private readonly writeBatch: (items: readonly I[]) => Promise<O[]>,
    private readonly options: GroupCommitOptions = DEFAULT_GROUP_COMMIT,
  ) {}

  /** Resolves once the item's transaction committed; rejects when it could not be written. */
  submit(item: I): Promise<O> {
    return new Promise((resolve, reject) => {
      this.queue.push({ item, resolve, reject });
      this.scheduleFlush();
    });
  }

  private scheduleFlush(): void {
    if (this.flushScheduled || this.queue.length === 0 || this.inFlight >= this.options.maxInFlight) return;
    this.flushScheduled = true;
    this.flushWhenSettled(this.queue.length, this.options.maxWaitTurns);
  }

  /** setImmediate, not a microtask: the requests already read in this turn reach the queue first. */
  private flushWhenSettled(seen: number, turnsLeft: number): void {
    setImmediate(() => {
      const growing = this.queue.length > seen && this.queue.length < this.options.maxBatch;
      if (growing && turnsLeft > 0) {
        this.flushWhenSettled(this.queue.length, turnsLeft - 1);
        return;
      }
      this.flushScheduled = false;
      this.flush();
    });
  }

  private flush(): void {
    while (this.queue.length > 0 && this.inFlight < this.options.maxInFlight) {
      const batch = this.queue.splice(0, this.options.maxBatch);
      this.inFlight += 1;
      void this.write(batch).finally(() => {
        this.inFlight -= 1;
        this.scheduleFlush();
      });
    }
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
