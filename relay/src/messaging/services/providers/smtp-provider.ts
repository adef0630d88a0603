// Delivery over SMTP with nodemailer (pooled connections). The server's reply code decides the
// outcome: 5xx rejects the message for good, except authentication failures (530/534/535/538), which
// are the relay's misconfiguration and, like 4xx, connection and certificate errors, lead to failover
// and retries. TLS: STARTTLS is required, used when offered, or never used (SMTP_STARTTLS); a server
// with a private or self-signed certificate is trusted through its CA file, never by turning
// certificate checks off.
import fs from 'node:fs';
import nodemailer from 'nodemailer';
import type { Transporter } from 'nodemailer';
import type { SmtpSettings } from '../../../config/load-config.js';
import type { EmailProvider, OutgoingEmail, ProviderOutcome } from './email-provider.js';
import { mailOptions } from './mime-message.js';

const AUTH_FAILURE_CODES = new Set([530, 534, 535, 538]);
// nodemailer's codes for a session that never reached the message (TLS policy, login, connection):
// whatever reply code came with them, they say nothing against this message.
const SESSION_FAILURES = new Set(['ETLS', 'EAUTH', 'ECONNECTION', 'ESOCKET', 'ETIMEDOUT', 'EDNS', 'EPROTOCOL']);

export class SmtpProvider implements EmailProvider {
  readonly name = 'smtp' as const;
  private readonly transport: Transporter;

  constructor(settings: Readonly<SmtpSettings>, timeoutMs: number) {
    this.transport = nodemailer.createTransport({
      host: settings.host,
      port: settings.port,
      secure: settings.secure,
      requireTLS: settings.starttls === 'require',
      ignoreTLS: settings.starttls === 'off',
      tls: tlsOptions(settings),
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

function tlsOptions(settings: Readonly<SmtpSettings>): { ca?: Buffer; servername?: string } {
  let ca: Buffer | undefined;
  if (settings.caFile !== undefined) {
    try {
      ca = fs.readFileSync(settings.caFile);
    } catch (error) {
      const reason = (error as NodeJS.ErrnoException).code ?? String(error);
      throw new Error(`SMTP_CA_FILE ${settings.caFile} cannot be read (${reason})`);
    }
  }
  return { ...(ca === undefined ? {} : { ca }), ...(settings.tlsServername === undefined ? {} : { servername: settings.tlsServername }) };
}

function classify(error: unknown): ProviderOutcome {
  const failure = error as { message?: string; responseCode?: number; response?: string; code?: string };
  const response = { code: failure.code ?? null, response_code: failure.responseCode ?? null, response: failure.response ?? null };
  const reply = failure.response ?? failure.message ?? String(error);
  // STARTTLS required but refused or not offered: say so, the bare reply ("500 command not recognized") does not.
  const text = failure.code === 'ETLS' ? `STARTTLS is required (SMTP_STARTTLS=require) but the server did not start TLS: ${reply}` : reply;
  const code = failure.responseCode;
  const sessionFailure = failure.code !== undefined && SESSION_FAILURES.has(failure.code);
  if (code !== undefined && code >= 500 && !AUTH_FAILURE_CODES.has(code) && !sessionFailure) {
    return { kind: 'permanent', error: `SMTP ${code}: ${text}`, response };
  }
  return { kind: 'transient', error: code === undefined ? `SMTP connection failed: ${text}` : `SMTP ${code}: ${text}`, response };
}
