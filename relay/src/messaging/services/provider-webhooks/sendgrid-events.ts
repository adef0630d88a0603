// SendGrid Event Webhook events normalised into the delivery status vocabulary:
//   processed → sent; delivered → delivered; open → opened; click → clicked;
//   bounce (type bounce = hard, blocked = soft) → bounced; dropped → failed;
//   deferred, spamreport, unsubscribe, group_* and anything new → timeline only.
// A hard bounce, a spam report and an unsubscribe also put the address on the tenant's suppression
// list; a soft bounce (type blocked) and a deferral do not.
import type { DeliveryStatus, SuppressionReason } from '@ledgerwire/shared';

export type SendGridEvent = Readonly<{
  event: string;
  sgEventId: string | null;
  sgMessageId: string | null;
  /** Our message id, from custom_args (flattened to the top level by SendGrid). */
  messageId: string | null;
  timestamp: number | null;
  raw: Record<string, unknown>;
}>;

const STATUS_BY_EVENT: Readonly<Record<string, DeliveryStatus>> = {
  processed: 'sent',
  delivered: 'delivered',
  open: 'opened',
  click: 'clicked',
  bounce: 'bounced',
  dropped: 'failed',
};

export function statusForEvent(event: string): DeliveryStatus | null {
  return STATUS_BY_EVENT[event] ?? null;
}

/** The suppression an event calls for, if any. */
export function suppressionReasonFor(event: SendGridEvent): SuppressionReason | undefined {
  switch (event.event) {
    case 'bounce':
      // SendGrid's bounce events carry type bounce (hard) or blocked (soft, a temporary refusal).
      return event.raw['type'] === 'blocked' ? undefined : 'hard_bounce';
    case 'spamreport':
      return 'spam_report';
    case 'unsubscribe':
    case 'group_unsubscribe':
      return 'unsubscribe';
    default:
      return undefined;
  }
}

/** Reads one array element; undefined when it is not an event object at all. */
export function readSendGridEvent(value: unknown): SendGridEvent | undefined {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return undefined;
  const raw = value as Record<string, unknown>;
  if (typeof raw['event'] !== 'string') return undefined;
  const text = (key: string) => (typeof raw[key] === 'string' && raw[key] !== '' ? (raw[key] as string) : null);
  const messageId = text('message_id');
  return {
    event: raw['event'],
    sgEventId: text('sg_event_id'),
    sgMessageId: text('sg_message_id'),
    messageId: messageId?.startsWith('msg_') ? messageId : null,
    timestamp: typeof raw['timestamp'] === 'number' && Number.isFinite(raw['timestamp']) ? raw['timestamp'] : null,
    raw,
  };
}

/** The X-Message-Id part of an sg_message_id (`<x-message-id>.<filter…>`). */
export function xMessageIdOf(sgMessageId: string): string {
  return sgMessageId.split('.')[0] ?? sgMessageId;
}

/** What we keep of an event on the timeline: SendGrid's fields that say what happened. */
export function eventDetail(event: SendGridEvent): Record<string, unknown> {
  const keep = ['event', 'email', 'sg_event_id', 'sg_message_id', 'type', 'reason', 'status', 'response', 'attempt', 'url', 'useragent', 'ip', 'bounce_classification'];
  return Object.fromEntries(keep.filter((key) => event.raw[key] !== undefined).map((key) => [key, event.raw[key]]));
}

export function failureText(event: SendGridEvent): string | null {
  const reason = typeof event.raw['reason'] === 'string' ? event.raw['reason'] : null;
  const status = typeof event.raw['status'] === 'string' ? event.raw['status'] : null;
  const type = typeof event.raw['type'] === 'string' ? event.raw['type'] : null;
  const parts = [`SendGrid ${event.event}${type ? ` (${type})` : ''}`, status, reason].filter(Boolean);
  return parts.join(': ');
}
