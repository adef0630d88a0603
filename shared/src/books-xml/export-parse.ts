// Reads export answers of the books: the envelope (STATUS, LINEERRORs), the objects of a collection or
// a report's TALLYMESSAGEs, the company list and GUID lists. Masters and vouchers have their own modules
// (export-parse-masters.ts, export-parse-vouchers.ts). Everything is cleaned of `&#4;` markers and
// control characters first, then validated against the shared schemas.
import { BooksCompany } from '../bridge/pulled-books-objects.js';
import { classifyImportFailure } from './import-errors.js';
import type { ImportFailure } from './import-errors.js';
import { attributeOf, childOf, listOf, parseBooksXml, textOf } from './xml-text.js';
import type { XmlNode } from './xml-text.js';

/** The books answered an export with a failure (STATUS 0, a LINEERROR, or not an export at all). */
export class BooksExportError extends Error {
  readonly failure: ImportFailure;
  constructor(readonly lineErrors: string[], fallback: string) {
    const failure = lineErrors.length > 0 ? classifyImportFailure(lineErrors) : null;
    super(failure?.error_message ?? fallback);
    this.name = 'BooksExportError';
    this.failure = failure ?? { error_code: 'BOOKS_IMPORT_FAILED', error_label: 'Export failed', error_message: fallback };
  }
}

export interface ExportAnswer {
  /** HEADER/STATUS (1 ok); null for report answers without a header. */
  status: number | null;
  /** Object elements under DATA/COLLECTION and DATA/TALLYMESSAGE (or an import's REQUESTDATA/TALLYMESSAGE). */
  objects(tag: string): XmlNode[];
}

/** Parses an export answer, throwing BooksExportError when the books reported a failure. */
export function readExportAnswer(xml: string): ExportAnswer {
  let root: XmlNode;
  try {
    root = parseBooksXml(xml);
  } catch (error) {
    throw new BooksExportError([], `The books' answer is not readable XML (${(error as Error).message.slice(0, 120)})`);
  }
  if (root.RESPONSE !== undefined) {
    throw new BooksExportError([], `The books did not accept the export request: ${textOf(root.RESPONSE).trim().slice(0, 120)}`);
  }
  const envelope = childOf(root, 'ENVELOPE');
  if (!envelope) {
    if (typeof root.ENVELOPE === 'string') return { status: null, objects: () => [] }; // `<ENVELOPE></ENVELOPE>`: nothing
    throw new BooksExportError([], 'The books answered without an ENVELOPE');
  }
  const statusText = textOf(childOf(envelope, 'HEADER')?.STATUS).trim();
  const status = statusText === '' ? null : Number(statusText);
  const data = childOf(childOf(envelope, 'BODY'), 'DATA');
  const lineErrors = [...listOf(data, 'LINEERROR'), ...listOf(envelope, 'LINEERROR')].map((e) => textOf(e).trim());
  const bareErrors = [data?.LINEERROR, envelope.LINEERROR]
    .flat()
    .filter((e): e is string => typeof e === 'string')
    .map((e) => e.trim());
  const errors = [...lineErrors, ...bareErrors].filter((e) => e !== '');
  if (status === 0 || errors.length > 0) throw new BooksExportError(errors, 'The books refused the export');
  // An import request reads the same way, so support can inspect what a job sent and tests can round-trip.
  const imported = childOf(childOf(childOf(envelope, 'BODY'), 'IMPORTDATA'), 'REQUESTDATA') ?? childOf(childOf(envelope, 'BODY'), 'DATA');
  const holders = [...listOf(data, 'COLLECTION'), ...listOf(data, 'TALLYMESSAGE'), ...(imported === data ? [] : listOf(imported, 'TALLYMESSAGE'))];
  return { status, objects: (tag) => holders.flatMap((holder) => listOf(holder, tag)) };
}

/** Trimmed text of a typed value (numbers have a leading space: `<ALTERID TYPE="Number"> 1</ALTERID>`). */
export function typedText(node: XmlNode | undefined, tag: string): string {
  return textOf(node?.[tag]).trim();
}

/** Companies of a Company collection (company list or probe). */
export function parseCompanyList(xml: string): BooksCompany[] {
  return readExportAnswer(xml)
    .objects('COMPANY')
    .map((company) =>
      BooksCompany.parse({
        name: textOf(company.NAME) || attributeOf(company, 'NAME'),
        guid: typedText(company, 'GUID'),
        alt_mst_id: typedText(company, 'ALTMSTID'),
        alt_vch_id: typedText(company, 'ALTVCHID'),
        books_from: typedText(company, 'BOOKSFROM'),
        starting_from: typedText(company, 'STARTINGFROM'),
        ending_at: typedText(company, 'ENDINGAT'),
        last_voucher_date: typedText(company, 'LASTVOUCHERDATE'),
      }),
    );
}

export interface BooksGuidEntry {
  guid: string;
  alter_id: string;
  /** Master name or voucher date (YYYYMMDD), whichever the list carries. */
  name: string;
  date: string;
}

/** GUID lists (masterGuidsRequest / voucherGuidsRequest) for the deletion diff. */
export function parseGuidList(xml: string, tag: string): BooksGuidEntry[] {
  return readExportAnswer(xml)
    .objects(tag)
    .map((object) => ({
      guid: typedText(object, 'GUID'),
      alter_id: typedText(object, 'ALTERID'),
      name: attributeOf(object, 'NAME'),
      date: typedText(object, 'DATE'),
    }))
    .filter((entry) => entry.guid !== '');
}
