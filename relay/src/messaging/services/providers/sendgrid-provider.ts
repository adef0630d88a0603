// SendGrid v3 Mail Send (POST {base}/v3/mail/send). The body follows SendGrid's documentation: one
// personalization with the recipient, from, subject, content (text/plain before text/html) and
// custom_args carrying our message_id (SendGrid flattens it into every Event Webhook event) and the
// attachments (base64 content, filename, type, disposition, content_id for inline ones). SendGrid's
// published schema wants at least one character in every content value and in the subject, so an
// empty text or HTML part is left out (the send path refuses a message with neither). 202 is success,
// with or without X-Message-Id: the message was taken, and sending it again through another provider
// would deliver it twice. 400 and 413 reject the message; 429, 5xx, network errors and 401/403/404
// (our key or account) are transient, so failover and retries handle them.
import type { MessagingConfig } from '../../../config/load-config.js';
import type { EmailProvider, OutgoingEmail, ProviderOutcome } from './email-provider.js';

type Address = { email: string; name?: string };

/** Splits `Name <addr@host>` into SendGrid's {email, name}. */
export function parseAddress(value: string): Address {
  const match = /^\s*"?([^"<]*?)"?\s*<([^>]+)>\s*$/.exec(value);
  if (!match) return { email: value.trim() };
  const name = match[1]?.trim();
  return name ? { email: match[2]!.trim(), name } : { email: match[2]!.trim() };
}

export function sendGridMailBody(email: OutgoingEmail) {
  const content = [
    ...(email.text === null || email.text === '' ? [] : [{ type: 'text/plain', value: email.text }]),
    ...(email.html === '' ? [] : [{ type: 'text/html', value: email.html }]),
  ];
  return {
    personalizations: [{ to: [parseAddress(email.to)], custom_args: { message_id: email.messageId, tenant_id: email.tenantId } }],
    from: parseAddress(email.from),
    subject: email.subject,
    content,
    ...(email.attachments && email.attachments.length > 0
      ? {
          attachments: email.attachments.map((a) => ({
            content: a.content,
            filename: a.filename,
            type: a.contentType,
            disposition: a.contentId === null ? 'attachment' : 'inline',
            ...(a.contentId === null ? {} : { content_id: a.contentId }),
          })),
        }
      : {}),
  };
}

export class SendGridProvider implements EmailProvider {
  readonly name = 'sendgrid' as const;

  constructor(
    private readonly settings: MessagingConfig['sendgrid'] & { apiKey: string },
    private readonly timeoutMs: number,
  ) {}

  async send(email: OutgoingEmail): Promise<ProviderOutcome> {
    // Stored before the send path refused empty messages: SendGrid would answer 400 anyway.
    if (email.html === '' && !email.text) return { kind: 'permanent', error: 'The message has no content: its html and text parts are empty' };
    let response: Response;
    try {
      response = await fetch(`${this.settings.baseUrl}/v3/mail/send`, {
        method: 'POST',
        headers: { authorization: `Bearer ${this.settings.apiKey}`, 'content-type': 'application/json' },
        body: JSON.stringify(sendGridMailBody(email)),
        signal: AbortSignal.timeout(this.timeoutMs),
      });
    } catch (error) {
      return { kind: 'transient', error: `SendGrid unreachable: ${error instanceof Error ? error.message : String(error)}` };
    }
    const text = await response.text().catch(() => '');
    const detail = { status: response.status, body: parseBody(text) };
    if (response.status === 202 || response.status === 200) {
      return { kind: 'sent', providerMessageId: response.headers.get('x-message-id') || null, response: detail };
    }
    const message = `SendGrid ${response.status}: ${describeErrors(detail.body) ?? response.statusText}`;
    if (response.status === 400 || response.status === 413) return { kind: 'permanent', error: message, response: detail };
    if (response.status === 429) {
      const reset = Number(response.headers.get('x-ratelimit-reset'));
      const retryAfterMs = Number.isFinite(reset) && reset > 0 ? Math.max(0, reset * 1000 - Date.now()) : undefined;
      return { kind: 'transient', error: message, response: detail, ...(retryAfterMs === undefined ? {} : { retryAfterMs }) };
    }
    return { kind: 'transient', error: message, response: detail };
  }
}

function parseBody(text: string): unknown {
  if (text === '') return null;
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return text.slice(0, 2000);
  }
}

/** SendGrid's error body: {"errors":[{"message","field","help"}]}. */
function describeErrors(body: unknown): string | undefined {
  const errors = (body as { errors?: { message?: unknown; field?: unknown }[] } | null)?.errors;
  if (!Array.isArray(errors) || errors.length === 0) return undefined;
  return errors.map((e) => (typeof e.field === 'string' && e.field ? `${e.field}: ${String(e.message)}` : String(e.message))).join('; ');
}
