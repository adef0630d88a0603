// What every email delivery adapter implements, and how its outcome is classified: `sent`, a
// `permanent` rejection of this message (no other provider would accept it either), or a
// `transient` failure (provider down, throttled, misconfigured) that failover and retries handle.
import type { ProviderName } from '@ledgerwire/shared';

export type OutgoingEmail = Readonly<{
  messageId: string;
  tenantId: string;
  from: string;
  to: string;
  subject: string;
  html: string;
  text: string | null;
}>;

export type ProviderOutcome =
  | Readonly<{ kind: 'sent'; providerMessageId: string; response?: Record<string, unknown> }>
  | Readonly<{ kind: 'permanent'; error: string; response?: Record<string, unknown> }>
  | Readonly<{ kind: 'transient'; error: string; response?: Record<string, unknown>; retryAfterMs?: number }>;

export interface EmailProvider {
  readonly name: ProviderName;
  send(email: OutgoingEmail): Promise<ProviderOutcome>;
  close?(): void;
}
