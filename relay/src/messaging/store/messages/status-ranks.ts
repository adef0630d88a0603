// Status ranks: a message's status only ever moves to a higher rank, so provider events that arrive
// out of order (SendGrid batches per server) never move it backwards. bounced and failed share the
// top rank: both are terminal and neither replaces the other.
import type { DeliveryStatus } from '@ledgerwire/shared';

export const STATUS_RANK: Readonly<Record<DeliveryStatus, number>> = Object.freeze({
  queued: 0,
  sent: 1,
  delivered: 2,
  opened: 3,
  clicked: 4,
  bounced: 5,
  failed: 5,
});

export function isTerminal(status: DeliveryStatus): boolean {
  return status === 'bounced' || status === 'failed';
}
