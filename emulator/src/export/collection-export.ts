// Collection exports with inline TDL, the way the connector and tally-database-loader send them:
// COLLECTION with TYPE, FETCH/NATIVEMETHOD, FILTER(S) naming SYSTEM Formulae, COMPUTE, CHILDOF/BELONGSTO.
// Vouchers are limited to the period (SVFROMDATE/SVTODATE, else the company's loaded period); an
// unknown SVCURRENTCOMPANY gives zero rows with STATUS 1, as captured, except for the Company collection,
// which lists every loaded company whatever SVCURRENTCOMPANY names. Built-in collections (`List of
// Ledgers`, `List of Groups`) answer without a TYPE, their ISMODIFY="Yes" definition adding FETCHes.
// TDL TallyPrime rejects behind a modal dialog (an unknown TYPE, a collection or formula with no
// definition) or crashes on ($$InDateRange) is not answered (BooksSilence); TDL the emulator does not
// support is answered with STATUS 0 and a LINEERROR saying so.
import type { BooksStore } from '../state/books-store.js';
import type { CompanyBooks } from '../state/company-books.js';
import { isMasterType, type MasterType } from '../state/records.js';
import { parentName } from '../state/master-facts.js';
import { silences } from '../books-silence.js';
import { messages } from '../rules/messages.js';
import { BUILT_IN_VOUCHER_TYPES } from '../seeds/reserved-objects.js';
import { voucherTypeChain } from '../state/master-facts.js';
import { nameKey, parseTallyDate, stripSystemMark } from '../tally-format.js';
import { attr, children, node, path, textOf, type XNode } from '../xml/xml-tree.js';
import { CMPINFO_TAGS, failureEnvelope, successEnvelope } from './envelope.js';
import { ExportContext } from './export-context.js';
import { companyObject, masterObject, voucherObject, type ExportObject } from './export-object.js';
import { collectionAttrs } from './field-catalogue.js';
import { parseFetch, renderObject, type FetchSpec } from './fetch-render.js';
import { objectScope } from './object-scope.js';
import { evaluateFormula, isTruthy, UnsupportedTdlError, type TdlValue } from './tdl-formula.js';

const SUPPORTED_ELEMENTS = new Set(['TYPE', 'FETCH', 'NATIVEMETHOD', 'FILTER', 'FILTERS', 'COMPUTE', 'CHILDOF', 'BELONGSTO', 'SORT', 'ISMODIFY']);
const BUILT_IN_FORMULAE: Record<string, string> = {
  isnonoptionalcancelledvchs: 'NOT $IsOptional AND NOT $IsCancelled',
};
const GROUP_CONSTANTS: Record<string, string> = {
  groupsundrydebtors: 'Sundry Debtors',
  groupsundrycreditors: 'Sundry Creditors',
  groupbank: 'Bank Accounts',
  groupcash: 'Cash-in-Hand',
  groupsales: 'Sales Accounts',
  grouppurchase: 'Purchase Accounts',
  groupdutiestaxes: 'Duties & Taxes',
};
/** TallyPrime's built-in collections that requests name without defining (lamemustafa/bridge request.rs). */
const BUILT_IN_COLLECTIONS: Record<string, { type: MasterType; fetch: string }> = {
  'list of ledgers': { type: 'LEDGER', fetch: 'LanguageName' },
  'list of groups': { type: 'GROUP', fetch: 'LanguageName' },
};

/** `$$VchTypeSales` → `Sales`, `$$VchTypeCreditNote` → `Credit Note`; `$$VchTypeAllVouchers` → every type. */
function voucherTypeConstant(constant: string): string | 'all' | undefined {
  const key = constant.toLowerCase().replace(/^vchtype/, '');
  if (key === constant.toLowerCase()) return undefined;
  if (key === 'allvouchers') return 'all';
  if (key === 'revjournal') return 'Reversing Journal';
  return BUILT_IN_VOUCHER_TYPES.map(([name]) => name).find((name) => name.replace(/\s+/g, '').toLowerCase() === key);
}

export function objectTypeOf(typeText: string): MasterType | 'COMPANY' | 'VOUCHER' | undefined {
  const key = typeText.replace(/\s+/g, '').toUpperCase();
  if (key === 'COMPANY' || key === 'VOUCHER') return key;
  return isMasterType(key) ? key : undefined;
}

export function formulaTexts(tdl: XNode | undefined): Map<string, string> {
  const formulae = new Map<string, string>();
  for (const system of children(tdl, 'SYSTEM')) {
    if (nameKey(attr(system, 'TYPE') ?? '') !== 'formulae') continue;
    const name = attr(system, 'NAME');
    if (name) formulae.set(nameKey(name), system.text);
  }
  return formulae;
}

/** Objects of a type in TallyPrime's collection order: masters by name, vouchers by date then entry. */
export function objectsOf(ctx: ExportContext, store: BooksStore, books: CompanyBooks, type: MasterType | 'COMPANY' | 'VOUCHER'): ExportObject[] {
  if (type === 'COMPANY') return store.open().map(companyObject);
  if (type === 'VOUCHER') {
    return [...books.vouchers.values()]
      .filter((v) => v.date >= ctx.from && v.date <= ctx.to)
      .sort((a, b) => (a.date === b.date ? a.masterId - b.masterId : a.date < b.date ? -1 : 1))
      .map(voucherObject);
  }
  return books
    .mastersOf(type)
    .sort((a, b) => (a.name.toLowerCase() < b.name.toLowerCase() ? -1 : a.name.toLowerCase() > b.name.toLowerCase() ? 1 : 0))
    .map((m) => masterObject(ctx, books, m));
}

function childOfFilter(books: CompanyBooks, definition: XNode, type: string): ((obj: ExportObject) => boolean) | undefined {
  const raw = textOf(definition, 'CHILDOF');
  if (raw === undefined || raw.trim() === '') return undefined;
  let wanted = raw.trim().replace(/^"(.*)"$/, '$1');
  if (wanted.startsWith('$$')) {
    const vchType = voucherTypeConstant(wanted.slice(2));
    const constant = GROUP_CONSTANTS[wanted.slice(2).toLowerCase()] ?? vchType;
    if (!constant) throw new UnsupportedTdlError(`CHILDOF '${raw}' is not supported by the emulator`);
    if (constant === 'all') return undefined;
    wanted = constant;
  }
  if (type === 'VOUCHER') return voucherOfType(books, wanted);
  const deep = nameKey(textOf(definition, 'BELONGSTO') ?? '') === 'yes';
  const parentType: MasterType = type === 'LEDGER' ? 'GROUP' : (type as MasterType);
  return (obj) => {
    let parent = stripSystemMark(obj.computed.PARENT?.() ?? '');
    for (let depth = 0; depth < 50 && parent !== ''; depth += 1) {
      if (nameKey(parent) === nameKey(wanted)) return true;
      if (!deep) return false;
      const master = books.findMaster(parentType, parent);
      parent = master ? parentName(master.tree) : '';
    }
    return false;
  };
}

/** Vouchers whose type is, or derives from, the named voucher type. */
function voucherOfType(books: CompanyBooks, typeName: string): (obj: ExportObject) => boolean {
  const find = (name: string) => books.findMaster('VOUCHERTYPE', name);
  return (obj) => {
    const own = find(obj.computed.VOUCHERTYPENAME?.() ?? '');
    return voucherTypeChain(find, own).some((vt) => nameKey(vt.name) === nameKey(typeName));
  };
}

function computeType(value: TdlValue): string {
  if (typeof value === 'boolean') return 'Logical';
  if (typeof value === 'number') return 'Number';
  if (typeof value === 'object') return 'Date';
  return 'String';
}

function renderComputed(value: TdlValue): string {
  if (typeof value === 'boolean') return value ? 'Yes' : 'No';
  if (typeof value === 'object') return value.date;
  return String(value);
}

export function handleCollectionExport(store: BooksStore, envelope: XNode): string {
  const id = (textOf(envelope.children.find((c) => c.tag.toUpperCase() === 'HEADER'), 'ID') ?? '').trim();
  const desc = path(envelope, 'BODY', 'DESC');
  const tdl = path(desc, 'TDL', 'TDLMESSAGE');
  const defined = children(tdl, 'COLLECTION').find((c) => nameKey(attr(c, 'NAME') ?? '') === nameKey(id));
  const builtIn = BUILT_IN_COLLECTIONS[nameKey(id)];
  if (!defined && !builtIn) throw silences.collectionNotDescribed(id);
  const definition = defined ?? node('COLLECTION', '', { NAME: id });
  const typeText = textOf(definition, 'TYPE');
  const type = builtIn && (typeText === undefined || typeText.trim() === '') ? builtIn.type : objectTypeOf(typeText ?? '');
  if (!type) {
    // A real TallyPrime type the emulator does not keep (CostCentre, Budget…) is answered, not a dialog.
    const known = CMPINFO_TAGS.includes((typeText ?? '').replace(/\s+/g, '').toUpperCase());
    if (known) return failureEnvelope(messages.tdlError(`collection TYPE '${(typeText ?? '').trim()}' is not supported by the emulator`));
    throw silences.incorrectObjectType();
  }
  try {
    const unsupported = definition.children.find((c) => !SUPPORTED_ELEMENTS.has(c.tag.toUpperCase()));
    if (unsupported) throw new UnsupportedTdlError(`'${unsupported.tag}' in a collection is not supported by the emulator`);
    const staticVariables = path(desc, 'STATICVARIABLES');
    const companyName = textOf(staticVariables, 'SVCURRENTCOMPANY');
    // An SVCURRENTCOMPANY sent empty is not an omitted one: zero rows, STATUS 1 (bridge TALLY_PROTOCOL_REFERENCE §9.11).
    const resolution = companyName !== undefined && companyName.trim() === '' ? undefined : store.resolve(companyName);
    // The Company collection is not scoped to SVCURRENTCOMPANY (lamemustafa/bridge TALLY_PROTOCOL_REFERENCE §12a.7).
    const books = resolution?.kind === 'found' ? resolution.books : type === 'COMPANY' ? store.active() : undefined;
    if (!books) return successEnvelope([node('COLLECTION', '', collectionAttrs(type))]);
    const ctx = new ExportContext(books, staticVariables, companyName);
    // The built-in ledger list's CLOSINGBALANCE is as of SVTODATE (lamemustafa/bridge request.rs, measured live).
    if (builtIn && parseTallyDate(textOf(staticVariables, 'SVTODATE'))) ctx.closingAsOf = ctx.to;
    const rows = selectRows(ctx, store, books, type, definition, formulaTexts(tdl));
    const spec = fetchSpec(definition, ctx, builtIn?.fetch);
    return successEnvelope([node('COLLECTION', '', collectionAttrs(type), rows.map((obj) => renderObject(obj, spec, true)))]);
  } catch (error) {
    if (error instanceof UnsupportedTdlError) return failureEnvelope(messages.tdlError(error.message));
    throw error;
  }
}

function selectRows(
  ctx: ExportContext,
  store: BooksStore,
  books: CompanyBooks,
  type: MasterType | 'COMPANY' | 'VOUCHER',
  definition: XNode,
  formulae: Map<string, string>,
): ExportObject[] {
  const filterNames = [...children(definition, 'FILTER'), ...children(definition, 'FILTERS')]
    .flatMap((f) => f.text.split(','))
    .map((n) => n.trim())
    .filter((n) => n !== '');
  const sources = filterNames.map((name) => {
    const source = formulae.get(nameKey(name)) ?? BUILT_IN_FORMULAE[nameKey(name).replace(/\s/g, '')];
    if (source === undefined) throw silences.formulaNotDescribed(name);
    if (/\$\$InDateRange\b/i.test(source)) throw silences.inDateRange();
    return source;
  });
  const childOf = childOfFilter(books, definition, type);
  return objectsOf(ctx, store, books, type).filter((obj) => {
    if (childOf && !childOf(obj)) return false;
    const scope = objectScope(ctx, obj);
    return sources.every((source) => isTruthy(evaluateFormula(source, scope)));
  });
}

function fetchSpec(definition: XNode, ctx: ExportContext, builtInFetch?: string): FetchSpec {
  const lists = [...children(definition, 'FETCH'), ...children(definition, 'NATIVEMETHOD')].map((f) => f.text);
  const spec = parseFetch(builtInFetch ? [...lists, builtInFetch] : lists);
  for (const compute of children(definition, 'COMPUTE')) {
    if (/\$\$InDateRange\b/i.test(compute.text)) throw silences.inDateRange();
    const at = compute.text.indexOf(':');
    if (at < 0) throw new UnsupportedTdlError(`COMPUTE '${compute.text}' has no formula`);
    const tag = compute.text.slice(0, at).trim().toUpperCase();
    const formula = compute.text.slice(at + 1).trim();
    spec.computes.push({
      tag,
      value: (obj) => {
        const value = evaluateFormula(formula, objectScope(ctx, obj));
        return { text: renderComputed(value), type: computeType(value) };
      },
    });
  }
  return spec;
}
