// Builds the RFC 5322 message for an email: headers, MIME multipart/alternative, encodings. The
// common case is written directly (plain-mime-message.ts); the rest with nodemailer's stream
// transport (MailComposer under the hood). Used by the outbox; SMTP sends the same shape.
import nodemailer from 'nodemailer';
import type { OutgoingEmail } from './email-provider.js';
import { composePlainRfc5322 } from './plain-mime-message.js';

const composer = nodemailer.createTransport({ streamTransport: true, buffer: true, newline: 'windows' });

/** The Message-ID header value we give each message: our id at the sender's domain. */
export function rfcMessageId(email: OutgoingEmail): string {
  const domain = /@([^>\s]+)>?\s*$/.exec(email.from)?.[1] ?? 'ledgerwire.localhost';
  return `<${email.messageId}@${domain}>`;
}

export function mailOptions(email: OutgoingEmail) {
  return {
    from: email.from,
    to: email.to,
    subject: email.subject,
    ...(email.html === '' ? {} : { html: email.html }),
    ...(email.text === null || email.text === '' ? {} : { text: email.text }),
    messageId: rfcMessageId(email),
    headers: { 'X-Ledgerwire-Message-Id': email.messageId },
    ...(email.attachments && email.attachments.length > 0
      ? {
          attachments: email.attachments.map((a) => ({
            filename: a.filename,
            content: a.content,
            encoding: 'base64',
            contentType: a.contentType,
            // An inline part (cid) goes into multipart/related with the HTML; nodemailer arranges the tree.
            ...(a.contentId === null ? { contentDisposition: 'attachment' as const } : { cid: a.contentId, contentDisposition: 'inline' as const }),
          })),
        }
      : {}),
  };
}

export async function composeRfc5322(email: OutgoingEmail): Promise<Buffer> {
  // Attachments need MIME's full tree (mixed, related, base64 parts): nodemailer builds it.
  if (email.attachments && email.attachments.length > 0) return composeWithNodemailer(email);
  const plain = composePlainRfc5322(email, rfcMessageId(email), new Date());
  if (plain !== undefined) return plain;
  return composeWithNodemailer(email);
}

/** nodemailer's composition, for any message (the plain path's tests compare against it). */
export async function composeWithNodemailer(email: OutgoingEmail): Promise<Buffer> {
  const info = await composer.sendMail(mailOptions(email));
  return info.message as Buffer;
}
