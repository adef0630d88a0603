// An integrator's own company in the sandbox: a new company (with TallyPrime's reserved objects) whose
// masters, opening balances and opening bills — and vouchers, if the file carries any — come from a
// TallyPrime XML file: an Import envelope (legacy `Import Data` or VERSION 1), a masters export
// (`List of Accounts` / Day Book TALLYMESSAGEs) or a collection export (DATA/COLLECTION). Objects go in
// through the import rules; masters are retried until no more go in, since an export lists a group's
// children before the group when their names sort first. Built-in objects (RESERVEDNAME set) already exist.
import { importMaster } from '../import/master-import.js';
import { importVoucher } from '../import/voucher-import.js';
import type { BooksStore } from '../state/books-store.js';
import type { CompanyBooks } from '../state/company-books.js';
import { isMasterType } from '../state/records.js';
import { nameKey } from '../tally-format.js';
import { attr, MalformedXmlError, parseXml, type XNode } from '../xml/xml-tree.js';
import { createCompany } from './reserved-objects.js';

export interface CompanyLoadIn {
  /** The company's name; else SVCURRENTCOMPANY (or REMOTECMPNAME) in the file. */
  name?: string;
  xml: string;
  booksFrom?: string;
  periodFrom?: string;
  periodTo?: string;
  stateName?: string;
  gstEnabled?: boolean;
  inventoryEnabled?: boolean;
  /** Make it the active company (default true). */
  active?: boolean;
}

export interface CompanyLoadOut {
  guid: string;
  name: string;
  masters: number;
  vouchers: number;
  refused: { tag: string; name: string; error: string }[];
}

/** Bad input: answered 400 by the control API, a clear message on the command line. */
export class CompanyLoadError extends Error {}

/** The company is loaded already (a restart on the same data keeps it as booked). */
export class CompanyAlreadyLoaded extends CompanyLoadError {}

function walk(n: XNode, visit: (n: XNode) => boolean): void {
  if (visit(n)) for (const c of n.children) walk(c, visit);
}

/** Objects of every TALLYMESSAGE and DATA/COLLECTION in the file, in document order. */
function objectsOf(root: XNode): XNode[] {
  const out: XNode[] = [];
  walk(root, (n) => {
    const tag = n.tag.toUpperCase();
    if (tag === 'TALLYMESSAGE' || tag === 'COLLECTION') {
      out.push(...n.children);
      return false;
    }
    return !isMasterType(tag) && tag !== 'VOUCHER';
  });
  return out;
}

function nameInFile(root: XNode): string | undefined {
  let found: string | undefined;
  walk(root, (n) => {
    const tag = n.tag.toUpperCase();
    if (found === undefined && (tag === 'SVCURRENTCOMPANY' || tag === 'REMOTECMPNAME') && n.text.trim() !== '') found = n.text.trim();
    return found === undefined;
  });
  return found;
}

function date(value: string | undefined, field: string): string | undefined {
  if (value === undefined) return undefined;
  if (!/^\d{8}$/.test(value)) throw new CompanyLoadError(`${field} must be a date as YYYYMMDD`);
  return value;
}

/** The financial year (1-Apr … 31-Mar) holding today. */
function currentFinancialYear(): { from: string; to: string } {
  const now = new Date();
  const year = now.getUTCMonth() >= 3 ? now.getUTCFullYear() : now.getUTCFullYear() - 1;
  return { from: `${year}0401`, to: `${year + 1}0331` };
}

export function loadCompany(store: BooksStore, input: CompanyLoadIn): CompanyLoadOut {
  let root: XNode;
  try {
    root = parseXml(input.xml);
  } catch (error) {
    if (error instanceof MalformedXmlError) throw new CompanyLoadError(`xml is not well-formed XML: ${error.message}`);
    throw error;
  }
  const name = (input.name ?? nameInFile(root) ?? '').trim();
  if (name === '') throw new CompanyLoadError('name is required (the file names no company)');
  if (store.all().some((c) => nameKey(c.record.name) === nameKey(name))) throw new CompanyAlreadyLoaded(`a company named '${name}' is already loaded`);
  const year = currentFinancialYear();
  const periodFrom = date(input.periodFrom, 'periodFrom') ?? year.from;
  const spec = {
    name,
    booksFrom: date(input.booksFrom, 'booksFrom') ?? periodFrom,
    periodFrom,
    periodTo: date(input.periodTo, 'periodTo') ?? year.to,
    stateName: input.stateName ?? '',
    gstEnabled: input.gstEnabled ?? false,
    inventoryEnabled: input.inventoryEnabled ?? true,
  };
  if (spec.periodTo < spec.periodFrom || spec.booksFrom > spec.periodFrom) throw new CompanyLoadError('dates must run booksFrom ≤ periodFrom ≤ periodTo');
  const objects = objectsOf(root);
  return store.transaction(() => {
    const books = createCompany(store, spec);
    const out: CompanyLoadOut = { guid: books.record.guid, name, masters: 0, vouchers: 0, refused: [] };
    importMasters(books, objects.filter((o) => isMasterType(o.tag.toUpperCase()) && !(attr(o, 'RESERVEDNAME') ?? '').trim()), out);
    for (const voucher of objects.filter((o) => o.tag.toUpperCase() === 'VOUCHER')) {
      const outcome = importVoucher(books, voucher);
      if (outcome.counter === 'created' || outcome.counter === 'altered') out.vouchers += 1;
      else out.refused.push({ tag: 'VOUCHER', name: attr(voucher, 'VCHTYPE') ?? '', error: outcome.lineError ?? outcome.counter ?? 'refused' });
    }
    if (input.active !== false) store.setActive(books);
    return out;
  });
}

function importMasters(books: CompanyBooks, masters: XNode[], out: CompanyLoadOut): void {
  let pending = masters;
  for (;;) {
    const failed: { element: XNode; error: string }[] = [];
    for (const element of pending) {
      const outcome = importMaster(books, element.tag.toUpperCase() as Parameters<typeof importMaster>[1], element, 'alter');
      if (outcome.counter === 'created' || outcome.counter === 'altered') out.masters += 1;
      else failed.push({ element, error: outcome.lineError ?? outcome.counter ?? 'refused' });
    }
    if (failed.length === 0 || failed.length === pending.length) {
      for (const f of failed) out.refused.push({ tag: f.element.tag.toUpperCase(), name: attr(f.element, 'NAME') ?? '', error: f.error });
      return;
    }
    pending = failed.map((f) => f.element);
  }
}
