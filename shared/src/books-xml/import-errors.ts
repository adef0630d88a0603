// Turns the books' rejection texts (LINEERRORs) into the service's stable error codes with a message a
// person can act on. The message is rebuilt from what the text means — never the raw XML, a stack or an
// internal name — and only names the customer's own masters and bills, which the caller sent us.
// Texts are those seen from TallyPrime (books-xml.md §2.3); unknown ones fall back to BOOKS_IMPORT_FAILED.
import type { ImportResponse } from './import-response.js';

export const IMPORT_ERROR_CODES = [
  'MASTER_NOT_FOUND',
  'UNBALANCED_ENTRIES',
  'VOUCHER_TYPE_NOT_FOUND',
  'BILL_NOT_OUTSTANDING',
  'GST_VALIDATION_FAILED',
  'COMPANY_NOT_OPEN',
  'VOUCHER_NOT_FOUND',
  'BOOKS_IMPORT_FAILED',
] as const;
export type ImportErrorCode = (typeof IMPORT_ERROR_CODES)[number];

export interface ImportFailure {
  error_code: ImportErrorCode;
  error_label: string;
  error_message: string;
}

export const IMPORT_ERROR_LABELS: Readonly<Record<ImportErrorCode, string>> = {
  MASTER_NOT_FOUND: 'Master not found',
  UNBALANCED_ENTRIES: 'Unbalanced entries',
  VOUCHER_TYPE_NOT_FOUND: 'Voucher type not found',
  BILL_NOT_OUTSTANDING: 'Bill not outstanding',
  GST_VALIDATION_FAILED: 'GST validation failed',
  COMPANY_NOT_OPEN: 'Company not open',
  VOUCHER_NOT_FOUND: 'Voucher not found',
  BOOKS_IMPORT_FAILED: 'Import failed',
};

type Rule = { code: ImportErrorCode; match: RegExp; message: (m: RegExpExecArray) => string };

const q = (value: string | undefined) => `"${clip(value ?? '', 120)}"`;

// Order matters: the first rule that matches wins.
const RULES: Rule[] = [
  {
    code: 'COMPANY_NOT_OPEN',
    match: /Could not set 'SVCurrentCompany' to '([^']*)'/i,
    message: (m) => `The company ${q(m[1])} is not open in the books. Open it in TallyPrime.`,
  },
  {
    code: 'COMPANY_NOT_OPEN',
    match: /No Company is (?:Open|Loaded)/i,
    message: () => 'No company is open in the books. Open the company in TallyPrime.',
  },
  {
    // A cancel or delete whose Master ID, voucher type and date name no voucher (P002 #16, EVIDENCE.md):
    // deleted meanwhile in the books, or moved to another date or type there.
    code: 'VOUCHER_NOT_FOUND',
    match: /Voucher does not exist/i,
    message: () =>
      'The books have no voucher with that identity on that date: it was deleted, or its date or voucher type was changed in TallyPrime. Nothing was changed.',
  },
  {
    code: 'VOUCHER_TYPE_NOT_FOUND',
    match: /Voucher ?Type '([^']*)' does not exist/i,
    message: (m) => `The voucher type ${q(m[1])} does not exist in the company. Use a voucher type the company has (names match exactly).`,
  },
  {
    code: 'UNBALANCED_ENTRIES',
    match: /Voucher totals do not match!?\s*(?:Dr\.?\s*([\d.,-]+))?\s*(?:Cr\.?\s*([\d.,-]+))?\s*(?:Diff:?\s*([\d.,-]+))?/i,
    message: (m) =>
      `The debits and credits of the voucher do not balance${m[1] && m[2] ? ` (debits ${m[1]}, credits ${m[2]})` : ''}. Make the debit and credit entries net to zero.`,
  },
  {
    code: 'UNBALANCED_ENTRIES',
    match: /Bill-?Allocation totals do not match/i,
    message: () => 'The bill allocations of a ledger entry do not add up to its amount. Make them total the entry amount.',
  },
  {
    code: 'BILL_NOT_OUTSTANDING',
    match: /Bill '([^']*)' is not (?:pending|outstanding)(?: for Ledger '([^']*)')?/i,
    message: (m) =>
      `The bill ${q(m[1])} is not outstanding${m[2] ? ` for ${q(m[2])}` : ''}. An "Agst Ref" allocation must name an open bill of that party.`,
  },
  {
    code: 'BILL_NOT_OUTSTANDING',
    match: /(?:Bill|Reference) '([^']*)' (?:does not exist|not found|is not pending)/i,
    message: (m) => `The bill ${q(m[1])} is not outstanding. An "Agst Ref" allocation must name an open bill of that party.`,
  },
  {
    code: 'GST_VALIDATION_FAILED',
    match: /\bGST(?:IN)?\b|\bHSN\b|Place of Supply|GST Registration/i,
    message: (m) => `The books refused the GST details: ${clip(sanitiseBooksText(m.input), 200)}. Correct the gst block; the company needs GST enabled.`,
  },
  {
    code: 'MASTER_NOT_FOUND',
    match: /(Ledger|Stock ?Item|Godown|Unit|Stock ?Group|Stock ?Category|Group|Currency|Cost ?Centre|Cost ?Category|Batch) '([^']*)' does not exist/i,
    message: (m) =>
      `The ${masterLabel(m[1])} ${q(m[2])} does not exist in the company. Create it, or correct the name: names must match exactly, including case and spaces.`,
  },
  {
    code: 'BOOKS_IMPORT_FAILED',
    match: /Voucher date is missing/i,
    message: () =>
      'The books refused the voucher date. Check it lies within the company\'s books period; TallyPrime in Educational mode only accepts the 1st, 2nd and last day of a month.',
  },
  {
    code: 'BOOKS_IMPORT_FAILED',
    match: /Date cannot be (?:below|before) /i,
    message: () => 'The voucher date is before the start of the company\'s books. Use a date within the books period.',
  },
  {
    code: 'BOOKS_IMPORT_FAILED',
    match: /No Inventory Entries in Invoice/i,
    message: () => 'The voucher type is an invoice in the books and needs inventory_entries (or use an accounting voucher type).',
  },
  {
    code: 'BOOKS_IMPORT_FAILED',
    match: /'([^']*)' already exists/i,
    message: (m) => `A master named ${q(m[1])} already exists in the company.`,
  },
  {
    code: 'BOOKS_IMPORT_FAILED',
    match: /Voucher Number Series '([^']*)' does not exist/i,
    message: (m) => `The voucher numbering series ${q(m[1])} does not exist for that voucher type.`,
  },
];

function masterLabel(raw: string | undefined): string {
  return (raw ?? 'master').replace(/\s+/g, '').replace(/([a-z])([A-Z])/g, '$1 $2').toLowerCase();
}

function clip(text: string, max: number): string {
  return text.length <= max ? text : `${text.slice(0, max - 1)}…`;
}

/** Strips markup, entity leftovers and anything that looks like a path or a stack from a books text. */
export function sanitiseBooksText(text: string): string {
  return text
    .replace(/<[^>]*>/g, ' ')
    .replace(/&[a-z]+;|&#\d+;/gi, ' ')
    .replace(/\s+at\s+\S+\s*\(.*?\)/g, ' ')
    .replace(/[A-Za-z]:\\[^\s']*/g, '[path]')
    .replace(/(?:^|\s)\/(?:[\w.-]+\/)+[\w.-]*/g, ' [path]')
    .replace(/\s+/g, ' ')
    .trim();
}

/** The first classifiable LINEERROR decides; unknown texts give BOOKS_IMPORT_FAILED with the cleaned text. */
export function classifyImportFailure(lineErrors: readonly string[]): ImportFailure {
  for (const text of lineErrors) {
    for (const rule of RULES) {
      const match = rule.match.exec(text);
      if (match) return failure(rule.code, rule.message(match));
    }
  }
  const first = lineErrors.map(sanitiseBooksText).find((t) => t !== '');
  if (first) return failure('BOOKS_IMPORT_FAILED', `The books refused the import: ${clip(first, 300)}`);
  return failure('BOOKS_IMPORT_FAILED', 'The books refused the import without giving a reason.');
}

/**
 * Failure of a whole import answer when `importSucceeded` said no: classifies its LINEERRORs, and
 * explains the cases that carry none (unknown request, an exception without a text, nothing imported).
 */
export function describeImportFailure(response: ImportResponse): ImportFailure {
  if (response.lineErrors.length > 0) return classifyImportFailure(response.lineErrors);
  if (response.style === 'unknown_request' || response.style === 'unreadable') {
    return failure('BOOKS_IMPORT_FAILED', 'The books could not read the import request.');
  }
  const c = response.counters;
  if (c && c.exceptions > 0) {
    return failure(
      'BOOKS_IMPORT_FAILED',
      'The books refused the voucher without giving a reason; a common cause is a voucher number already used on a voucher type that prevents duplicates.',
    );
  }
  if (c && c.errors > 0) return failure('BOOKS_IMPORT_FAILED', 'The books reported an error importing the object.');
  return failure('BOOKS_IMPORT_FAILED', 'The books imported nothing.');
}

function failure(code: ImportErrorCode, message: string): ImportFailure {
  return { error_code: code, error_label: IMPORT_ERROR_LABELS[code], error_message: message };
}
