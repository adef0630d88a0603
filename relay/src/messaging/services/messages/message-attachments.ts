// A send's attachments checked and measured before anything is stored: valid base64 (standard
// alphabet, padded; line breaks allowed, as MIME writes it), a file type mail systems accept, a plain
// MIME type, and at most ATTACHMENT_LIMITS.maxBytesPerMessage decoded bytes in all. The size is worked
// out from the text, so no attachment is decoded (and no copy of it made) on the way in. Every refusal
// is a 422 naming the attachment and what to change.
import {
  ATTACHMENT_LIMITS,
  REFUSED_ATTACHMENT_EXTENSIONS,
  type MessageAttachmentIn,
  type MessageAttachmentOut,
} from '@ledgerwire/shared';
import { hash } from 'node:crypto';
import { AppError, type ErrorDetail } from '../../../errors/catalogue.js';
import type { CheckedAttachment } from '../../store/messages/checked-attachment.js';

export type { CheckedAttachment };

/** A character class, not groups: a regex with a repeated group overflows the stack on megabytes. */
const BASE64 = /^[A-Za-z0-9+/]*={0,2}$/;
const LINE_BREAKS = /\r?\n/g;
/** type/subtype with RFC 6838's name characters, nothing after (no parameters, no header injection). */
const MIME_TYPE = /^[A-Za-z0-9][A-Za-z0-9!#$&^_.+-]{0,126}\/[A-Za-z0-9][A-Za-z0-9!#$&^_.+-]{0,126}$/;
/** A content id is written into a MIME header: no angle brackets, spaces or control characters. */
const CONTENT_ID = /^[\x21-\x3b\x3d\x3f-\x7e]+$/;
const REFUSED = new Set<string>(REFUSED_ATTACHMENT_EXTENSIONS);
const MEGABYTES = (ATTACHMENT_LIMITS.maxBytesPerMessage / (1024 * 1024)).toFixed(0);

/** The checked attachments, or a 422 listing every problem found. */
export function checkAttachments(attachments: readonly MessageAttachmentIn[] | undefined): CheckedAttachment[] {
  if (!attachments || attachments.length === 0) return [];
  const problems: ErrorDetail[] = [];
  const checked: CheckedAttachment[] = [];
  let total = 0;
  attachments.forEach((attachment, index) => {
    const field = (name: string) => `attachments.${index}.${name}`;
    const extension = /\.([^.]+)$/.exec(attachment.filename.trim())?.[1]?.toLowerCase();
    if (extension !== undefined && REFUSED.has(extension)) {
      problems.push({ field: field('filename'), message: `The attachments.${index}.filename field names a .${extension} file, a type mail systems refuse: send a link to it instead.` });
    }
    // eslint-disable-next-line no-control-regex -- control characters are what it looks for
    if (/[\u0000-\u001f\u007f]/.test(attachment.filename)) {
      problems.push({ field: field('filename'), message: `The attachments.${index}.filename field must not contain line breaks or control characters.` });
    }
    if (!MIME_TYPE.test(attachment.content_type)) {
      problems.push({ field: field('content_type'), message: `The attachments.${index}.content_type field must be a MIME type such as application/pdf.` });
    }
    if (attachment.content_id !== undefined && !CONTENT_ID.test(attachment.content_id)) {
      problems.push({ field: field('content_id'), message: `The attachments.${index}.content_id field must be printable ASCII without spaces or angle brackets (the HTML refers to it as cid:<content_id>).` });
    }
    const content = attachment.content.includes('\n') ? attachment.content.replace(LINE_BREAKS, '') : attachment.content;
    if (content.length % 4 !== 0 || !BASE64.test(content)) {
      problems.push({ field: field('content'), message: `The attachments.${index}.content field must be base64 (standard alphabet, padded with =).` });
      return;
    }
    const size = (content.length / 4) * 3 - (content.endsWith('==') ? 2 : content.endsWith('=') ? 1 : 0);
    total += size;
    checked.push({ filename: attachment.filename, content_type: attachment.content_type.toLowerCase(), content_id: attachment.content_id ?? null, size, content });
  });
  if (total > ATTACHMENT_LIMITS.maxBytesPerMessage) {
    problems.push({
      field: 'attachments',
      message: `The attachments field holds ${total} bytes once decoded; a message may attach at most ${MEGABYTES} MB (${ATTACHMENT_LIMITS.maxBytesPerMessage} bytes): send large files as links.`,
    });
  }
  if (problems.length > 0) throw new AppError('validation_failed', { details: problems });
  return checked;
}

/**
 * What the idempotency fingerprint holds of the attachments: each one's name, type, content id and the
 * SHA-256 of its bytes' text, so a repeat with another file is a 409 without hashing the text twice
 * into the canonical JSON.
 */
export function attachmentFingerprint(attachments: readonly CheckedAttachment[]): unknown[] {
  return attachments.map((a) => ({ filename: a.filename, content_type: a.content_type, content_id: a.content_id, sha256: hash('sha256', a.content, 'hex') }));
}

export function totalBytes(attachments: readonly CheckedAttachment[]): number {
  return attachments.reduce((sum, a) => sum + a.size, 0);
}

export function attachmentOut(row: { filename: string; content_type: string; content_id: string | null; size: number }): MessageAttachmentOut {
  return { filename: row.filename, content_type: row.content_type, content_id: row.content_id, size: Number(row.size) };
}
