// Codes of asynchronous job failures: what a failed transaction carries in `error_code`, with the
// short `error_label` shown in compact displays. Synchronous API errors live in the relay's catalogue.
import { z } from 'zod';

export const JOB_ERROR_LABELS = {
  BOOKS_IMPORT_FAILED: 'Import failed',
  MASTER_NOT_FOUND: 'Master not found',
  UNBALANCED_ENTRIES: 'Entries do not balance',
  VOUCHER_TYPE_NOT_FOUND: 'Voucher type not found',
  VOUCHER_TYPE_MISMATCH: 'Voucher type of another kind',
  BILL_NOT_OUTSTANDING: 'Bill not outstanding',
  GST_VALIDATION_FAILED: 'GST validation failed',
  DUPLICATE_VOUCHER_NUMBER: 'Duplicate voucher number',
  MASTER_ALREADY_EXISTS: 'Master already exists',
  COMPANY_NOT_OPEN: 'Company not open',
  VOUCHER_NOT_FOUND: 'Voucher not found',
  BOOKS_NOT_RUNNING: 'Books not running',
  CONNECTOR_OFFLINE: 'Connector offline',
} as const;

export const JOB_ERROR_CODES = Object.keys(JOB_ERROR_LABELS) as [keyof typeof JOB_ERROR_LABELS, ...(keyof typeof JOB_ERROR_LABELS)[]];
export const JobErrorCode = z.enum(JOB_ERROR_CODES);
export type JobErrorCode = z.infer<typeof JobErrorCode>;

/** The label for a code; codes outside the catalogue are reported as BOOKS_IMPORT_FAILED's. */
export function jobErrorLabel(code: string): string {
  return (JOB_ERROR_LABELS as Record<string, string>)[code] ?? JOB_ERROR_LABELS.BOOKS_IMPORT_FAILED;
}
