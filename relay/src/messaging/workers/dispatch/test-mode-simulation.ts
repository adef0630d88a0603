// Test mode: a message sent with a tenant's test key goes to the outbox only, never to a real
// provider, and the provider events a real send would bring are simulated — by recipient — in the
// commit that records it sent, so an integrator can exercise its status webhooks and suppression
// handling end to end without mailing anyone:
//   delivered@simulator.ledgerwire.test   → delivered
//   bounced@simulator.ledgerwire.test     → bounced (a hard bounce: the address is also suppressed)
//   complained@simulator.ledgerwire.test  → delivered, then a spam report (the address is suppressed)
// Any other address stays sent, as a real provider leaves it until its events arrive.
import type { DeliveryStatus, ProviderName, SuppressionReason } from '@ledgerwire/shared';

export const TEST_MODE_PROVIDERS: readonly ProviderName[] = Object.freeze(['outbox']);

export const SIMULATOR_DOMAIN = 'simulator.ledgerwire.test';

export type SimulatedEvent = Readonly<{
  /** The event as a provider would name it, kept on the timeline. */
  event: 'delivered' | 'bounce' | 'spamreport';
  /** The status it moves the message to, if any. */
  status: DeliveryStatus | null;
  suppression?: SuppressionReason;
  error?: string;
}>;

/** The events a test message to `to` simulates after it is sent; none for an ordinary address. */
export function simulatedEvents(to: string): SimulatedEvent[] {
  const [local, domain] = to.toLowerCase().split('@');
  if (domain !== SIMULATOR_DOMAIN) return [];
  switch (local) {
    case 'delivered':
      return [{ event: 'delivered', status: 'delivered' }];
    case 'bounced':
      return [{ event: 'bounce', status: 'bounced', suppression: 'hard_bounce', error: 'Simulated hard bounce (test mode): 550 5.1.1 the mailbox does not exist' }];
    case 'complained':
      return [
        { event: 'delivered', status: 'delivered' },
        { event: 'spamreport', status: null, suppression: 'spam_report' },
      ];
    default:
      return [];
  }
}
