// What a failed transaction may tell the caller (contract, transactions rule 4): the meaningful
// rejection text only — no XML markup, stack frames, credentials or internal file paths.
import { JOB_ERROR_CODES, jobErrorLabel } from '@ledgerwire/shared';

const MAX_MESSAGE_LENGTH = 500;
const ENTITIES: Record<string, string> = { '&amp;': '&', '&lt;': '<', '&gt;': '>', '&quot;': '"', '&apos;': "'" };

export type SanitisedJobError = Readonly<{ error_code: string; error_label: string; error_message: string }>;

export function sanitiseErrorMessage(raw: string): string {
  const withoutMarkup = raw
    .replace(/<!\[CDATA\[([\s\S]*?)\]\]>/g, '$1')
    .replace(/<[^>]*>/g, ' ')
    .replace(/&(amp|lt|gt|quot|apos);/g, (entity) => ENTITIES[entity] ?? entity);
  const withoutStack = withoutMarkup
    .split(/\r?\n/)
    .filter((line) => !/^\s*at\s+.+(\(.*\)|:\d+:\d+)\s*$/.test(line))
    .join(' ');
  const redacted = withoutStack
    .replace(/\bBearer\s+\S+/gi, '[redacted]')
    .replace(/\b(?:lwk_[a-z]+_[0-9a-f]+:\S+|lw[a-z]{1,3}_[A-Za-z0-9_-]{16,})/g, '[redacted]')
    .replace(/(?:[A-Za-z]:\\|\/(?:home|usr|var|tmp|opt|srv|app|work)\/)[^\s'"]*/g, '[path]');
  const text = redacted.replace(/\s+/g, ' ').trim();
  return text.length > MAX_MESSAGE_LENGTH ? `${text.slice(0, MAX_MESSAGE_LENGTH - 1)}…` : text;
}

/** A code from the catalogue (others become BOOKS_IMPORT_FAILED), its label, and a clean message. */
export function sanitiseJobError(error: { error_code: string; error_label?: string | null; error_message: string }): SanitisedJobError {
  const code = (JOB_ERROR_CODES as readonly string[]).includes(error.error_code) ? error.error_code : 'BOOKS_IMPORT_FAILED';
  const label = error.error_label ? sanitiseErrorMessage(error.error_label).slice(0, 100) : '';
  const message = sanitiseErrorMessage(error.error_message);
  return { error_code: code, error_label: label || jobErrorLabel(code), error_message: message || jobErrorLabel(code) };
}
