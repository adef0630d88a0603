// Renders a master write (any of the nine types) as a TallyPrime "All Masters" import (books-xml.md §4).
// The name goes in the NAME attribute, an inner <NAME> and LANGUAGENAME.LIST (first NAME = the name,
// further NAMEs = aliases): the books fail a master import without the inner name.
import type { z } from 'zod';
import { masterWriteSchemaFor } from '../bridge/master-document.js';
import type { AnyMasterWriteIn, MasterType } from '../bridge/master-document.js';
import { wrapImportRequest } from './import-envelope.js';
import { MASTER_ELEMENT, MASTER_FIELD_TAGS } from './master-tags.js';
import { booksAmount, booksNumber, element, escapeXmlAttribute } from './xml-text.js';

export type MasterImportAction = 'Create' | 'Alter' | 'Delete';

export interface MasterRenderOptions {
  /** Create (an existing master of that name is altered by the books), Alter or Delete. */
  action?: MasterImportAction | undefined;
  /** For a rename: the master's current name; the document's `name` becomes the new one. */
  currentName?: string | undefined;
}

export interface MasterImportOptions extends MasterRenderOptions {
  companyName: string;
}

export type MasterDocumentInput<T extends MasterType> = z.input<ReturnType<typeof masterWriteSchemaFor<T>>>;

export class MasterRenderError extends Error {
  constructor(
    message: string,
    readonly issues: { field: string; message: string }[],
  ) {
    super(message);
    this.name = 'MasterRenderError';
  }
}

export function renderMasterImport<T extends MasterType>(type: T, document: MasterDocumentInput<T>, options: MasterImportOptions): string {
  return wrapImportRequest('All Masters', options.companyName, [renderMasterElement(type, document, options)]);
}

/** Several masters (any types) in one import request, e.g. a group and the ledgers under it. */
export function renderMasterImportBatch(
  companyName: string,
  masters: readonly { type: MasterType; document: unknown; options?: MasterRenderOptions }[],
): string {
  return wrapImportRequest(
    'All Masters',
    companyName,
    masters.map((m) => renderMasterElement(m.type, m.document as MasterDocumentInput<MasterType>, m.options ?? {})),
  );
}

export function renderMasterElement<T extends MasterType>(type: T, input: MasterDocumentInput<T>, options: MasterRenderOptions): string {
  const parsed = masterWriteSchemaFor(type).safeParse(input);
  if (!parsed.success) {
    const issues = parsed.error.issues.map((i) => ({ field: i.path.map(String).join('.'), message: i.message }));
    throw new MasterRenderError(`${type} document is invalid: ${issues.map((i) => `${i.field} ${i.message}`).join('; ')}`, issues);
  }
  const doc = parsed.data as AnyMasterWriteIn;
  const tag = MASTER_ELEMENT[type];
  const action = options.action ?? 'Create';
  const nameAttribute = options.currentName ?? doc.name;
  const open = `<${tag} NAME="${escapeXmlAttribute(nameAttribute)}" ACTION="${action}">`;
  if (action === 'Delete') return `${open}${element('NAME', nameAttribute)}</${tag}>`;
  const names = [doc.name, ...doc.aliases].map((n) => element('NAME', n)).join('');
  const languageNames = `<LANGUAGENAME.LIST><NAME.LIST TYPE="String">${names}</NAME.LIST><LANGUAGEID> 1033</LANGUAGEID></LANGUAGENAME.LIST>`;
  return `${open}${element('NAME', doc.name)}${renderFields(type, doc)}${numberingSeries(doc)}${languageNames}</${tag}>`;
}

// TallyPrime keeps a voucher type's real numbering in its series (the top-level NUMBERINGMETHOD reads
// "None" on live data), so the method is written into the Default series as well.
function numberingSeries(doc: AnyMasterWriteIn): string {
  if (!('numbering_method' in doc) || (doc.numbering_method === undefined && doc.prevent_duplicates === undefined)) return '';
  return (
    '<VOUCHERNUMBERSERIES.LIST>' +
    element('NAME', 'Default') +
    (doc.numbering_method === undefined ? '' : element('NUMBERINGMETHOD', doc.numbering_method)) +
    (doc.prevent_duplicates === undefined ? '' : element('PREVENTDUPLICATES', doc.prevent_duplicates)) +
    element('ISDEFAULT', 'Yes') +
    '</VOUCHERNUMBERSERIES.LIST>'
  );
}

function renderFields(type: MasterType, doc: AnyMasterWriteIn): string {
  const tags = MASTER_FIELD_TAGS[type];
  const values = doc as unknown as Record<string, unknown>;
  return Object.entries(tags)
    .map(([field, tag]) => {
      const value = values[field];
      if (value === undefined) return '';
      return element(tag, fieldText(type, field, value, doc));
    })
    .join('');
}

function fieldText(type: MasterType, field: string, value: unknown, doc: AnyMasterWriteIn): string {
  if (typeof value === 'string') {
    if (field === 'gst_applicable') return value === 'Yes' ? 'Applicable' : value === 'No' ? 'Not Applicable' : value;
    return value;
  }
  if (typeof value !== 'number') return String(value);
  if (type === 'ledger' && field === 'opening_balance') return booksSigned(value);
  if (type === 'stock_item' && field === 'opening_balance') {
    const unit = 'base_units' in doc && doc.base_units !== undefined ? ` ${doc.base_units}` : '';
    return ` ${booksNumber(value)}${unit}`;
  }
  // Stock values are debits, which the books write negative.
  if (type === 'stock_item' && field === 'opening_value') return booksSigned(-value);
  if (field === 'decimal_places') return String(value);
  return booksNumber(value);
}

/** A signed amount written exactly (the schema keeps it to whole paise below AMOUNT_LIMIT). */
function booksSigned(value: number): string {
  return booksAmount(Math.abs(value), value < 0);
}
