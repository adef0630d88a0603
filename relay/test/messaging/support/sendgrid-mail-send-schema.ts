// SendGrid v3 Mail Send request body (POST /v3/mail/send), written from SendGrid's documentation of
// the endpoint, for the fields the relay sends: personalizations (1–1000, each with 1+ `to`), `from`,
// `subject` (1+ characters), `content` (each value 1+ characters), `custom_args` (string values) and
// `attachments` — each with base64 `content` and `filename` required, `type` optional, `disposition`
// `attachment` (the default) or `inline`, and `content_id` required when the disposition is inline.
import { z } from 'zod';

const EmailObject = z.object({ email: z.email(), name: z.string().optional() }).strict();

const Attachment = z
  .object({
    content: z.string().min(1).regex(/^[A-Za-z0-9+/]+={0,2}$/, 'base64'),
    type: z.string().min(1).optional(),
    filename: z.string().min(1),
    disposition: z.enum(['inline', 'attachment']).optional(),
    content_id: z.string().min(1).optional(),
  })
  .strict()
  .refine((a) => a.disposition !== 'inline' || a.content_id !== undefined, 'content_id is required when disposition is inline');

export const SendGridMailSendRequest = z
  .object({
    personalizations: z
      .array(
        z
          .object({
            to: z.array(EmailObject).min(1).max(1000),
            subject: z.string().min(1).optional(),
            custom_args: z.record(z.string(), z.string()).optional(),
          })
          .strict(),
      )
      .min(1)
      .max(1000),
    from: EmailObject,
    subject: z.string().min(1).optional(),
    content: z.array(z.object({ type: z.string().min(1), value: z.string().min(1) }).strict()).min(1),
    attachments: z.array(Attachment).optional(),
    custom_args: z.record(z.string(), z.string()).optional(),
  })
  .strict();
