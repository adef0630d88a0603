// Delivery over SMTP with nodemailer (pooled connections). The server's reply code decides the
// outcome: 5xx rejects the message for good, except authentication failures (530/534/535/538), which
// are the relay's misconfiguration and, like 4xx and connection errors, lead to failover and retries.
import nodemailer from 'nodemailer';
import type { Transporter } from 'nodemailer';
import type { MessagingConfig } from '../../config/load-config.js';
import type { EmailProvider, OutgoingEmail, ProviderOutcome } from './email-provider.js';
import { mailOptions } from './mime-message.js';

const AUTH_FAILURE_CODES = new Set([530, 534, 535, 538]);

export class SmtpProvider implements EmailProvider {
  readonly name = 'smtp' as const;
  private readonly transport: Transporter;

  constructor(settings: NonNullable<MessagingConfig['smtp']>, timeoutMs: number) {
    this.transport = nodemailer.createTransport({
      host: settings.host,
      port: settings.port,
      secure: settings.secure,
      pool: true,
      maxConnections: 5,
      connectionTimeout: timeoutMs,
      greetingTimeout: timeoutMs,
      socketTimeout: timeoutMs,
      ...(settings.user ? { auth: { user: settings.user, pass: settings.pass ?? '' } } : {}),
    });
  }

  async send(email: OutgoingEmail): Promise<ProviderOutcome> {
    try {
      const info = await this.transport.sendMail(mailOptions(email));
      const response = { response: info.response, accepted: info.accepted, rejected: info.rejected };
      if (info.rejected.length > 0 && info.accepted.length === 0) {
        return { kind: 'permanent', error: `SMTP server rejected the recipient: ${info.response}`, response };
      }
      return { kind: 'sent', providerMessageId: info.messageId, response };
    } catch (error) {
      return classify(error);
    }
  }

  close(): void {
    this.transport.close();
  }
}

function classify(error: unknown): ProviderOutcome {
  const failure = error as { message?: string; responseCode?: number; response?: string; code?: string };
  const response = { code: failure.code ?? null, response_code: failure.responseCode ?? null, response: failure.response ?? null };
  const text = failure.response ?? failure.message ?? String(error);
  const code = failure.responseCode;
  if (code !== undefined && code >= 500 && !AUTH_FAILURE_CODES.has(code)) {
    return { kind: 'permanent', error: `SMTP ${code}: ${text}`, response };
  }
  return { kind: 'transient', error: code === undefined ? `SMTP connection failed: ${text}` : `SMTP ${code}: ${text}`, response };
}
