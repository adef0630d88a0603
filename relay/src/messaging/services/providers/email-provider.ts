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
  /** Files sent with the message; an inline one (contentId) is referred to by the HTML as cid:<contentId>. */
  attachments?: readonly OutgoingAttachment[];
}>;

export type OutgoingAttachment = Readonly<{
  filename: string;
  contentType: string;
  contentId: string | null;
  /** The file as base64 text, as the send carried it. */
  content: string;
}>;

export type ProviderOutcome =
  // providerMessageId is null when the provider took the message without naming it (a SendGrid 202
  // without X-Message-Id): it was sent all the same, and its events still carry our own id.
  | Readonly<{ kind: 'sent'; providerMessageId: string | null; response?: Record<string, unknown> }>
  | Readonly<{ kind: 'permanent'; error: string; response?: Record<string, unknown> }>
  | Readonly<{ kind: 'transient'; error: string; response?: Record<string, unknown>; retryAfterMs?: number }>;

export interface EmailProvider {
  readonly name: ProviderName;
  send(email: OutgoingEmail): Promise<ProviderOutcome>;
  close?(): void;
}
