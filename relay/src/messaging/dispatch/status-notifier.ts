// Tells the tenant about status changes through the relay's one webhook engine
// (relay/src/webhooks): message.sent|delivered|opened|clicked|bounced|failed. Publishing happens after
// the status change is committed; a publishing error is logged, never undoes the change.
import type { DeliveryStatus } from '@ledgerwire/shared';
import type { FastifyBaseLogger } from 'fastify';

/** The part of the webhook service messaging uses. */
export type WebhookPublisher = Readonly<{
  publish(owner: { kind: 'tenant'; id: string }, event: { type: string; data: Record<string, unknown> }): Promise<unknown>;
}>;

export type StatusChange = Readonly<{
  tenantId: string;
  messageId: string;
  status: DeliveryStatus;
  transactionId: string;
  provider: string | null;
  occurredAt: string;
  detail?: Record<string, unknown>;
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
      await webhooks.publish(
        { kind: 'tenant', id: change.tenantId },
        {
          type: `message.${change.status}`,
          data: {
            message_id: change.messageId,
            status: change.status,
            transaction_id: change.transactionId,
            provider: change.provider,
            occurred_at: change.occurredAt,
            ...(change.detail ? { detail: change.detail } : {}),
          },
        },
      );
    } catch (error) {
      this.log.error({ err: error, message_id: change.messageId, status: change.status }, 'publishing a message status webhook failed');
    }
  }
}
