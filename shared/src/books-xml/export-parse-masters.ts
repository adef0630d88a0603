// Masters exported by the books → PulledMaster objects that follow the contract's value rules: values
// verbatim strings (Yes/No as the books write them), `aliases` always a list, names never trimmed,
// a Yes/No field the books leave empty → "No", a voucher type's numbering method read from its numbering series, and its
// reserved name resolved up the PARENT chain to the built-in type it derives from.
import type { MasterType, NumberingSeries } from '../bridge/master-document.js';
import { PULLED_MASTER_FIELD_NAMES } from '../bridge/master-document.js';
import { PulledMaster } from '../bridge/pulled-books-objects.js';
import { resolveReservedName } from '../bridge/voucher-kind.js';
import { readExportAnswer, typedText } from './export-parse.js';
import { LOGICAL_FIELDS, MASTER_ELEMENT, MASTER_FIELD_TAGS } from './master-tags.js';
import { attributeOf, listOf, textOf } from './xml-text.js';
import type { XmlNode } from './xml-text.js';

/** Voucher type name → its own reserved name ('' for a custom type) and its parent type. */
export type VoucherTypeIndex = ReadonlyMap<string, { reservedName: string; parent: string }>;

export interface MasterParseOptions {
  /** Voucher types known from earlier pulls, to resolve custom types whose parent is not in this answer. */
  knownVoucherTypes?: VoucherTypeIndex | undefined;
}

const TYPED = new Set(['Logical', 'Number', 'Amount', 'Quantity', 'Rate', 'Date']);

/** A field value: names verbatim, typed values (numbers, logicals, amounts) without their padding. */
function fieldValue(object: XmlNode, tag: string, field: string): string {
  const raw = object[tag];
  const node = Array.isArray(raw) ? raw[0] : raw;
  const text = textOf(node);
  const type = attributeOf(node, 'TYPE');
  return TYPED.has(type) || LOGICAL_FIELDS.has(field) ? text.trim() : text;
}

/** Names in LANGUAGENAME.LIST (the books' export) or a NAME.LIST right under the object (the import shape). */
function namesOf(object: XmlNode): string[] {
  const lists = [...listOf(object, 'LANGUAGENAME.LIST').flatMap((language) => listOf(language, 'NAME.LIST')), ...listOf(object, 'NAME.LIST')];
  return lists.flatMap((list) => {
    const names = list.NAME;
    return (Array.isArray(names) ? names : names === undefined ? [] : [names]).map((n) => textOf(n));
  });
}

function identity(object: XmlNode): { name: string; aliases: string[] } {
  const listed = namesOf(object).filter((n) => n !== '');
  const name = attributeOf(object, 'NAME') || textOf(object.NAME) || listed[0] || '';
  const aliases = listed.filter((n, i) => n !== name && listed.indexOf(n) === i);
  return { name, aliases };
}

function lastOf(object: XmlNode, list: string, tag: string): string {
  const values = listOf(object, list).map((entry) => textOf(entry[tag])).filter((v) => v !== '');
  return values[values.length - 1] ?? '';
}

function numberingSeries(object: XmlNode): NumberingSeries[] {
  const series = listOf(object, 'VOUCHERNUMBERSERIES.LIST').filter((s) => textOf(s.NAME).trim() !== '' || textOf(s.NUMBERINGMETHOD) !== '');
  return series.map((s) => {
    const name = textOf(s.NAME);
    const flagged = typedText(s, 'ISDEFAULT');
    return {
      name,
      numbering_method: typedText(s, 'NUMBERINGMETHOD'),
      numbering_sub_method: typedText(s, 'NUMBERINGSUBMETHOD') || 'Default',
      prevent_duplicates: typedText(s, 'PREVENTDUPLICATES') || 'No',
      is_default: flagged || (name === 'Default' || series.length === 1 ? 'Yes' : 'No'),
    };
  });
}

function voucherTypeFields(object: XmlNode, fields: Record<string, string | NumberingSeries[]>, reservedName: string): void {
  const series = numberingSeries(object);
  const preferred = series.find((s) => s.is_default === 'Yes') ?? series[0];
  fields.reserved_name = reservedName;
  fields.numbering_method = preferred?.numbering_method ?? typedText(object, 'NUMBERINGMETHOD');
  fields.numbering_sub_method = preferred?.numbering_sub_method ?? (fields.numbering_method === '' ? '' : 'Default');
  fields.numbering_series = series;
}

function fieldsOf(type: MasterType, object: XmlNode, reservedName: string): Record<string, string | NumberingSeries[]> {
  const tags = MASTER_FIELD_TAGS[type];
  const fields: Record<string, string | NumberingSeries[]> = {};
  for (const field of PULLED_MASTER_FIELD_NAMES[type]) {
    const tag = tags[field];
    fields[field] = tag === undefined ? '' : fieldValue(object, tag, field);
  }
  // Booleans are Yes or No (value rules 1 and 4): one the books leave empty is No.
  for (const field of Object.keys(fields)) if (LOGICAL_FIELDS.has(field) && fields[field] === '') fields[field] = 'No';
  if (type === 'ledger') {
    if (fields.gstin === '') fields.gstin = lastOf(object, 'LEDGSTREGDETAILS.LIST', 'GSTIN');
    if (fields.gst_registration_type === '') fields.gst_registration_type = lastOf(object, 'LEDGSTREGDETAILS.LIST', 'GSTREGISTRATIONTYPE');
  }
  if (type === 'voucher_type') voucherTypeFields(object, fields, reservedName);
  return fields;
}

/** Builds the index used to resolve reserved names, from voucher type objects or pulled masters. */
export function voucherTypeIndex(masters: readonly PulledMaster[]): Map<string, { reservedName: string; parent: string }> {
  return new Map(
    masters
      .filter((m) => m.master_type === 'voucher_type')
      .map((m) => [m.name, { reservedName: ownReservedName(m), parent: String(m.fields.parent ?? '') }]),
  );
}

function ownReservedName(master: PulledMaster): string {
  // A pulled voucher type's reserved_name is already resolved; for a built-in it equals its own.
  return String(master.fields.reserved_name ?? '');
}

/** Parses a master collection answer of one type. */
export function parseMasterExport(type: MasterType, xml: string, options: MasterParseOptions = {}): PulledMaster[] {
  const objects = readExportAnswer(xml).objects(MASTER_ELEMENT[type]);
  const index = new Map(options.knownVoucherTypes ?? []);
  if (type === 'voucher_type') {
    for (const object of objects) {
      const reserved = attributeOf(object, 'RESERVEDNAME') || typedText(object, 'RESERVEDNAME');
      index.set(identity(object).name, { reservedName: reserved, parent: textOf(object.PARENT) });
    }
  }
  return objects.map((object) => {
    const { name, aliases } = identity(object);
    const reservedName = type === 'voucher_type' ? resolveReservedName(name, index) : '';
    return PulledMaster.parse({
      master_type: type,
      guid: typedText(object, 'GUID'),
      master_id: typedText(object, 'MASTERID'),
      alter_id: typedText(object, 'ALTERID'),
      name,
      aliases,
      fields: fieldsOf(type, object, reservedName),
    });
  });
}
