// Reads the books' answer to an import, in both envelope styles (books-xml.md §2.1): the bare legacy
// <RESPONSE> of counters, and the VERSION-1 ENVELOPE/HEADER/STATUS + BODY/DATA/IMPORTRESULT. Success is
// judged by the strict rule of §2.2, because every weaker rule has been seen to lie: the intended counter
// moved AND ERRORS=0 AND EXCEPTIONS=0 AND no LINEERROR AND the counters were there at all.
import { childOf, parseBooksXml, textOf } from './xml-text.js';
import type { XmlNode } from './xml-text.js';

export const IMPORT_COUNTERS = [
  'CREATED', 'ALTERED', 'DELETED', 'LASTVCHID', 'LASTMID', 'COMBINED', 'IGNORED', 'ERRORS', 'CANCELLED', 'EXCEPTIONS',
] as const;
export type ImportCounterName = (typeof IMPORT_COUNTERS)[number];

export interface ImportCounters {
  created: number;
  altered: number;
  deleted: number;
  lastVchId: number;
  lastMid: number;
  combined: number;
  ignored: number;
  errors: number;
  cancelled: number;
  exceptions: number;
}

export interface ImportResponse {
  style: 'legacy' | 'envelope' | 'unknown_request' | 'unreadable';
  /** null when the answer carried no counters (unknown request, unreadable answer). */
  counters: ImportCounters | null;
  /** LINEERROR texts, in document order. */
  lineErrors: string[];
  /** HEADER/STATUS of an envelope answer (1 = ok, 0 = failed); null for the legacy shape. */
  status: number | null;
  /** The answer's text when it was not XML with counters (e.g. "Unknown Request, cannot be processed"). */
  rawText: string | null;
}

const COUNTER_KEYS: Readonly<Record<ImportCounterName, keyof ImportCounters>> = {
  CREATED: 'created',
  ALTERED: 'altered',
  DELETED: 'deleted',
  LASTVCHID: 'lastVchId',
  LASTMID: 'lastMid',
  COMBINED: 'combined',
  IGNORED: 'ignored',
  ERRORS: 'errors',
  CANCELLED: 'cancelled',
  EXCEPTIONS: 'exceptions',
};

function readCounters(node: XmlNode | undefined): ImportCounters | null {
  if (!node || !IMPORT_COUNTERS.some((name) => node[name] !== undefined)) return null;
  const counters = {} as ImportCounters;
  for (const name of IMPORT_COUNTERS) {
    const value = Number.parseInt(textOf(node[name]).trim(), 10);
    counters[COUNTER_KEYS[name]] = Number.isFinite(value) ? value : 0;
  }
  return counters;
}

function lineErrorsOf(...nodes: (XmlNode | undefined)[]): string[] {
  return nodes.flatMap((node) => (node ? asArray(node.LINEERROR).map((e) => textOf(e).trim()).filter((e) => e !== '') : []));
}

function asArray(value: unknown): unknown[] {
  if (value === undefined) return [];
  return Array.isArray(value) ? value : [value];
}

/** Parses an import answer; never throws (an unreadable answer comes back as style `unreadable`). */
export function parseImportResponse(xml: string): ImportResponse {
  let root: XmlNode;
  try {
    root = parseBooksXml(xml);
  } catch {
    return { style: 'unreadable', counters: null, lineErrors: [], status: null, rawText: xml.slice(0, 500) };
  }
  const response = root.RESPONSE;
  if (response !== undefined) {
    const node = typeof response === 'object' && response !== null ? (response as XmlNode) : undefined;
    const counters = readCounters(node);
    if (counters) return { style: 'legacy', counters, lineErrors: lineErrorsOf(node), status: null, rawText: null };
    const text = textOf(response).trim();
    return { style: 'unknown_request', counters: null, lineErrors: lineErrorsOf(node), status: null, rawText: text };
  }
  const envelope = childOf(root, 'ENVELOPE');
  if (envelope) {
    const header = childOf(envelope, 'HEADER');
    const data = childOf(childOf(envelope, 'BODY'), 'DATA');
    const result = childOf(data, 'IMPORTRESULT');
    const statusText = textOf(header?.STATUS).trim();
    return {
      style: 'envelope',
      counters: readCounters(result),
      lineErrors: lineErrorsOf(data, result),
      status: statusText === '' ? null : Number(statusText),
      rawText: null,
    };
  }
  return { style: 'unreadable', counters: null, lineErrors: [], status: null, rawText: xml.slice(0, 500) };
}

/** What the import was meant to do, to know which counter must have moved. */
export type ImportIntent = 'create' | 'alter' | 'upsert' | 'delete' | 'cancel';

/**
 * The strict success rule. `expected` objects must be accounted for by the intended counter(s):
 * `upsert` (a create with a REMOTEID that may already exist) accepts CREATED or ALTERED; a cancel moves
 * ALTERED (CANCELLED was seen not to move).
 */
export function importSucceeded(response: ImportResponse, intent: ImportIntent, expected = 1): boolean {
  const c = response.counters;
  if (!c || response.lineErrors.length > 0 || c.errors !== 0 || c.exceptions !== 0) return false;
  if (response.status === 0) return false;
  switch (intent) {
    case 'create':
      return c.created >= expected;
    case 'alter':
    case 'cancel':
      return c.altered >= expected;
    case 'upsert':
      return c.created + c.altered >= expected;
    case 'delete':
      return c.deleted >= expected;
  }
}

/** Short English summary of the counters, for logs (never for end users). */
export function summariseImportResponse(response: ImportResponse): string {
  const c = response.counters;
  if (!c) return `${response.style}${response.rawText ? `: ${response.rawText.slice(0, 120)}` : ''}`;
  const parts = `created=${c.created} altered=${c.altered} deleted=${c.deleted} errors=${c.errors} exceptions=${c.exceptions}`;
  return response.lineErrors.length > 0 ? `${parts} lineErrors=${response.lineErrors.length}` : parts;
}

/**
 * GUID of an object the books created, from the company GUID and its MASTERID (LASTVCHID of a voucher
 * import): TallyPrime forms it as `<company GUID>-<MASTERID as 8 hex digits>`.
 */
export function booksGuidFor(companyGuid: string, masterId: number): string {
  if (!Number.isSafeInteger(masterId) || masterId <= 0) throw new Error(`not a master id: ${masterId}`);
  return `${companyGuid}-${masterId.toString(16).padStart(8, '0')}`;
}

/** The MASTERID inside a GUID the books formed from the company GUID (see booksGuidFor); null for any other. */
export function masterIdInBooksGuid(companyGuid: string, guid: string): number | null {
  const prefix = `${companyGuid}-`;
  const hex = guid.startsWith(prefix) ? guid.slice(prefix.length) : '';
  return /^[0-9a-f]{8}$/i.test(hex) ? parseInt(hex, 16) || null : null;
}
