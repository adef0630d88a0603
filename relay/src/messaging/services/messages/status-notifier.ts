// Tells the tenant about status changes through the relay's one webhook engine
// (relay/src/webhooks): message.sent|delivered|opened|clicked|bounced|failed. Two ways in:
//   notify             after the status change has committed; a publishing error is logged, never
//                      undoes the change (provider webhooks, one change at a time);
//   queueInTransaction inside the transaction that makes the changes (a dispatch claim's), through the
//                      webhook outbox: the events commit with the changes or not at all, with one
//                      endpoint lookup for the whole claim; announceQueued() after the commit sends them.
import type { Kysely } from 'kysely';
import type { DeliveryStatus } from '@ledgerwire/shared';
import type { FastifyBaseLogger } from 'fastify';
import type { Database } from '../../../db/schema.js';
import { queueEventsInTransaction } from '../../../webhooks/services/webhook-outbox.js';

/** The part of the webhook service messaging uses. */
export type WebhookPublisher = Readonly<{
  publish(owner: { kind: 'tenant'; id: string }, event: { type: string; data: Record<string, unknown> }): Promise<unknown>;
  /** Wakes the delivery worker for events queued in another transaction that has committed. */
  notifyQueued(): void;
}>;

export type StatusChange = Readonly<{
  tenantId: string;
  messageId: string;
  status: DeliveryStatus;
  transactionId: string;
  provider: string | null;
  occurredAt: string;
  detail?: Record<string, unknown>;
  /** The message's metadata and tags as stored (JSON text or null), echoed in every status webhook. */
  metadata: string | null;
  tags: string | null;
}>;

export class StatusNotifier {
  constructor(
    private readonly publisher: () => WebhookPublisher | undefined,
    private readonly log: FastifyBaseLogger,
  ) {}

  async notify(change: StatusChange): Promise<void> {
    if (change.status === 'queued') return;
    const webhooks = this.publisher();
    if (!webhooks) return;
    try {
      await webhooks.publish({ kind: 'tenant', id: change.tenantId }, statusEvent(change));
    } catch (error) {
      this.log.error({ err: error, message_id: change.messageId, status: change.status }, 'publishing a message status webhook failed');
    }
  }

  /** Queues the changes' events in `trx`, the transaction making the changes; returns the deliveries queued. */
  async queueInTransaction(trx: Kysely<Database>, changes: readonly StatusChange[]): Promise<number> {
    // Without a webhook engine (the admin CLI's messaging) nothing is published, as with notify.
    if (!this.publisher()) return 0;
    const events = changes
      .filter((change) => change.status !== 'queued')
      .map((change) => ({ owner: { kind: 'tenant' as const, id: change.tenantId }, ...statusEvent(change) }));
    // The webhook engine's clock, as its own publish uses: its delivery worker compares next_attempt_at with it.
    return queueEventsInTransaction(trx, events, new Date().toISOString());
  }

  /** After the transaction that queued events has committed: send them now rather than on the worker's next pass. */
  announceQueued(): void {
    this.publisher()?.notifyQueued();
  }
}

function statusEvent(change: StatusChange): { type: string; data: Record<string, unknown> } {
  return {
    type: `message.${change.status}`,
    data: {
      message_id: change.messageId,
      status: change.status,
      transaction_id: change.transactionId,
      provider: change.provider,
      occurred_at: change.occurredAt,
      metadata: change.metadata === null ? {} : (JSON.parse(change.metadata) as Record<string, string>),
      tags: change.tags === null ? [] : (JSON.parse(change.tags) as string[]),
      ...(change.detail ? { detail: change.detail } : {}),
    },
  };
}
