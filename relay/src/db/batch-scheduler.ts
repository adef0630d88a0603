// The scheduling half of group commit, shared by the writes that group concurrent inserts into one
// transaction (messaging's sends, the bridge's jobs): items waiting when the event loop comes round —
// their requests arrived in the same turn, or while the previous batch was being written — are handed
// to `writeBatch` together, so one COMMIT serves them all. A lone item waits one event-loop turn;
// while items keep arriving a flush waits up to `maxWaitTurns` more. No timer. What a batch means
// (its answers, retries one by one) belongs to the caller's `writeBatch`, which never rejects.

export type BatchSchedulerOptions = Readonly<{
  /** Items per transaction at most (bounds the statement's parameter count). */
  maxBatch: number;
  /** Batches written at the same time (SQLite's single connection runs them one after another). */
  maxInFlight: number;
  /** Extra event-loop turns a flush may wait while items keep arriving (each one makes the batch larger). */
  maxWaitTurns: number;
}>;

/** 64 items × a row's columns stay far below both databases' parameter limits. */
export const DEFAULT_BATCH_OPTIONS: BatchSchedulerOptions = Object.freeze({ maxBatch: 64, maxInFlight: 4, maxWaitTurns: 2 });

export class BatchScheduler<W> {
  private queue: W[] = [];
  private flushScheduled = false;
  private inFlight = 0;

  constructor(
    private readonly writeBatch: (batch: readonly W[]) => Promise<void>,
    private readonly options: BatchSchedulerOptions = DEFAULT_BATCH_OPTIONS,
  ) {}

  enqueue(item: W): void {
    this.queue.push(item);
    this.scheduleFlush();
  }

  /** Puts items back at the head of the queue, for a later batch of their own. */
  requeueFirst(items: readonly W[]): void {
    if (items.length === 0) return;
    this.queue.unshift(...items);
    this.scheduleFlush();
  }

  private scheduleFlush(): void {
    if (this.flushScheduled || this.queue.length === 0 || this.inFlight >= this.options.maxInFlight) return;
    this.flushScheduled = true;
    this.flushWhenSettled(this.queue.length, this.options.maxWaitTurns);
  }

  /**
   * Flushes on the next event-loop turn (setImmediate, not a microtask: the requests already read in
   * this turn reach the queue first) — unless the queue grew during that turn, a sign that more items
   * are arriving, in which case it waits another turn, at most `turnsLeft` more.
   */
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
      void this.writeBatch(batch).finally(() => {
        this.inFlight -= 1;
        this.scheduleFlush();
      });
    }
  }
}
