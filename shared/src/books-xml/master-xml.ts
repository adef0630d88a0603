// Renders a master write (any of the nine types) as a TallyPrime "All Masters" import (books-xml.md §4).
// The shape live TallyPrime was seen to take (EVIDENCE.md): the name in the NAME attribute and a
// NAME.LIST right under the object (first NAME = the name, further NAMEs = aliases), for a create, an
// alter and a delete alike; without NAME.LIST a master import fails (or, per one probe, crashes the books).
// A rename keeps the current name in the NAME attribute and sends the new one in NAME.LIST.
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
  if (type === 'unit') return renderUnit(doc, action, options);
  const nameAttribute = options.currentName ?? doc.name;
  const open = `<${tag} NAME="${escapeXmlAttribute(nameAttribute)}" ACTION="${action}">`;
  if (action === 'Delete') return `${open}<NAME.LIST>${element('NAME', nameAttribute)}</NAME.LIST></${tag}>`;
  const names = `<NAME.LIST>${[doc.name, ...doc.aliases].map((n) => element('NAME', n)).join('')}</NAME.LIST>`;
  return `${open}${names}${renderFields(type, doc)}${numberingSeries(doc)}</${tag}>`;
}

/**
 * A unit goes as an inner NAME alone, with no NAME attribute: live TallyPrime 7.0 answered NAME.LIST on a
 * unit with "BAD UNIT NAME", and crashed on a unit delete carrying the NAME attribute (EVIDENCE.md), so
 * neither a unit delete nor a rename (which needs the attribute) is rendered.
 */
function renderUnit(doc: AnyMasterWriteIn, action: MasterImportAction, options: MasterRenderOptions): string {
  if (action === 'Delete' || options.currentName !== undefined) {
    const what = action === 'Delete' ? 'deleted' : 'renamed';
    throw new MasterRenderError(`a unit cannot be ${what} over XML safely: TallyPrime was seen to crash on it`, [{ field: 'name', message: `a unit is not ${what} over XML` }]);
  }
  if (doc.aliases.length > 0) {
    // Aliases travel only in NAME.LIST, which the books refuse on a unit: refused here rather than dropped.
    throw new MasterRenderError('a unit cannot carry aliases over XML: TallyPrime refuses a NAME.LIST on a unit ("BAD UNIT NAME")', [
      { field: 'aliases', message: 'a unit takes no aliases over XML' },
    ]);
  }
  return `<UNIT ACTION="${action}">${element('NAME', doc.name)}${renderFields('unit', doc)}</UNIT>`;
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
