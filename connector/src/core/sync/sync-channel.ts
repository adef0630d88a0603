// Sends sync batches to the relay and waits for each one's sync.ack: a cursor only moves once the
// relay has stored the batch. A batch the relay did not confirm (link dropped, error, silence) fails
// the pass; the next pass starts again from the last confirmed cursor, and the relay's upserts make
// the repeat harmless.
import { randomUUID } from 'node:crypto';
import { CONNECTOR_PROTOCOL_VERSION, type ClientMessage, type ProtocolErrorMessage, type SyncAckMessage, type SyncBatchMessage } from '@ledgerwire/shared';

export type OutgoingBatch = Omit<SyncBatchMessage, 'type' | 'v' | 'batch_id'>;

export class SyncNotConfirmedError extends Error {}

type Pending = { resolve: (ack: SyncAckMessage) => void; reject: (error: Error) => void; timer: NodeJS.Timeout };

export class SyncChannel {
  private readonly pending = new Map<string, Pending>();

  constructor(
    private readonly send: (message: ClientMessage) => boolean,
    private readonly ackTimeoutMs = 120_000,
  ) {}

  /** Sends a batch; resolves with the relay's confirmation. */
  deliver(batch: OutgoingBatch): Promise<SyncAckMessage> {
    const batchId = `sb_${randomUUID()}`;
    return new Promise<SyncAckMessage>((resolve, reject) => {
      const timer = setTimeout(() => this.settle(batchId, new SyncNotConfirmedError('the relay did not confirm a sync batch in time')), this.ackTimeoutMs);
      timer.unref();
      this.pending.set(batchId, { resolve, reject, timer });
      const message = { type: 'sync.batch', v: CONNECTOR_PROTOCOL_VERSION, batch_id: batchId, ...batch } as SyncBatchMessage;
      if (!this.send(message)) this.settle(batchId, new SyncNotConfirmedError('the relay is not connected'));
    });
  }

  handleAck(ack: SyncAckMessage): void {
    const entry = this.pending.get(ack.batch_id);
    if (!entry) return;
    this.pending.delete(ack.batch_id);
    clearTimeout(entry.timer);
    entry.resolve(ack);
  }

  handleError(error: ProtocolErrorMessage): void {
    if (error.ref && this.pending.has(error.ref)) this.settle(error.ref, new SyncNotConfirmedError(`the relay refused a sync batch: ${error.message}`));
  }

  /** The link dropped: nothing in flight will be confirmed. */
  linkDown(): void {
    this.abandon('the relay connection dropped during the sync');
  }

  /**
   * The connector is stopping: it waits for no confirmation. What was in flight may still be stored
   * by the relay; the cursor did not move, so the next pass sends it again and the upsert is harmless.
   */
  stop(): void {
    this.abandon('the connector is stopping');
  }

  private abandon(reason: string): void {
    for (const id of [...this.pending.keys()]) this.settle(id, new SyncNotConfirmedError(reason));
  }

  private settle(batchId: string, error: Error): void {
    const entry = this.pending.get(batchId);
    if (!entry) return;
    this.pending.delete(batchId);
    clearTimeout(entry.timer);
    entry.reject(error);
  }
}
