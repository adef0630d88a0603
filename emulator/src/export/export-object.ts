// An object as an export sees it: its stored fields (in the order they came) plus the fields
// TallyPrime computes (identity, closing balances, group structure, company high-water marks). A
// computed field that is also stored keeps its place and attributes but takes the computed value.
import type { CompanyBooks } from '../state/company-books.js';
import { numberingSeries, parentName, voucherTypeChain } from '../state/master-facts.js';
import { readBackChildren } from '../state/voucher-facts.js';
import type { MasterRecord, VoucherRecord } from '../state/records.js';
import {
  formatAmount,
  formatNumber,
  formatQuantity,
  formatRate,
  nameKey,
  parseAmount,
  parseQuantity,
  PRIMARY,
  yesNo,
} from '../tally-format.js';
import { attr, textOf, type XNode } from '../xml/xml-tree.js';
import type { ExportContext } from './export-context.js';

export interface ExportObject {
  tag: string;
  attrs: Record<string, string>;
  stored: XNode[];
  /** Computed values; undefined means TallyPrime leaves the field out. */
  computed: Record<string, () => string | undefined>;
}

const text = (value: string) => () => value;

export function voucherObject(record: VoucherRecord): ExportObject {
  const tree = record.tree;
  const view = attr(tree, 'OBJVIEW') ?? textOf(tree, 'PERSISTEDVIEW') ?? 'Accounting Voucher View';
  return {
    tag: 'VOUCHER',
    attrs: tree.attrs,
    // An invoice's party, tax and item ledgers all read back through ALLLEDGERENTRIES (H1, imports.md).
    stored: readBackChildren(tree),
    computed: {
      DATE: text(record.date),
      GUID: text(record.guid),
      MASTERID: text(formatNumber(record.masterId)),
      ALTERID: text(formatNumber(record.alterId)),
      VOUCHERKEY: text(String(record.voucherKey)),
      VOUCHERTYPENAME: text(record.typeName),
      VOUCHERNUMBER: text(record.number),
      VOUCHERNUMBERSERIES: text(record.series),
      ISCANCELLED: text(yesNo(record.isCancelled)),
      ISOPTIONAL: text(yesNo(record.isOptional)),
      ISDELETED: text('No'),
      PERSISTEDVIEW: text(view),
      ISINVOICE: text(yesNo(nameKey(view) === nameKey('Invoice Voucher View'))),
      // Left out when the voucher has none, as TallyPrime does (a captured voucher lacks EFFECTIVEDATE).
      EFFECTIVEDATE: () => textOf(tree, 'EFFECTIVEDATE'),
      PARTYLEDGERNAME: () => textOf(tree, 'PARTYLEDGERNAME'),
      NARRATION: () => textOf(tree, 'NARRATION'),
    },
  };
}

function masterBase(master: MasterRecord): Record<string, () => string | undefined> {
  return {
    NAME: text(master.name),
    GUID: text(master.guid),
    MASTERID: text(formatNumber(master.masterId)),
    ALTERID: text(formatNumber(master.alterId)),
    // Only built-in objects carry a RESERVEDNAME element (captured groups without one lack it).
    RESERVEDNAME: () => master.reservedName || undefined,
    ALIAS: text(master.aliases[0] ?? ''),
    PARENT: text(textOf(master.tree, 'PARENT') ?? PRIMARY),
    ISRESERVED: text(yesNo(master.reservedName !== '')),
    CANDELETE: text(yesNo(master.reservedName === '')),
  };
}

/** The chain from a group up to its primary-level ancestor (self first). */
function groupChain(books: CompanyBooks, group: MasterRecord | undefined): MasterRecord[] {
  const chain: MasterRecord[] = [];
  let current = group;
  while (current && !chain.includes(current)) {
    chain.push(current);
    const parent = parentName(current.tree);
    current = nameKey(parent) === 'primary' || parent === '' ? undefined : books.findMaster('GROUP', parent);
  }
  return chain;
}

function inherited(chain: MasterRecord[], tag: string): string {
  for (const group of chain) {
    const value = textOf(group.tree, tag);
    if (value !== undefined && value.trim() !== '') return value.trim();
  }
  return 'No';
}

function groupFields(chain: MasterRecord[]): Record<string, () => string> {
  const top = chain[chain.length - 1];
  const reserved = chain.find((g) => g.reservedName !== '');
  return {
    ISREVENUE: () => inherited(chain, 'ISREVENUE'),
    ISDEEMEDPOSITIVE: () => inherited(chain, 'ISDEEMEDPOSITIVE'),
    AFFECTSGROSSPROFIT: () => inherited(chain, 'AFFECTSGROSSPROFIT'),
    ISSUBLEDGER: () => inherited(chain, 'ISSUBLEDGER'),
    PARENTSTRUCTURE: () => chain.map((g) => `\u0003${g.name}\u0003`).join(''),
    PRIMARYGRPPARENT: () => (chain.length <= 1 ? PRIMARY : top?.name ?? PRIMARY),
    RESERVENAME: () => reserved?.reservedName ?? '',
  };
}

export function masterObject(ctx: ExportContext, books: CompanyBooks, master: MasterRecord): ExportObject {
  const computed = masterBase(master);
  const tree = master.tree;
  if (master.type === 'GROUP') {
    Object.assign(computed, groupFields(groupChain(books, master)), { ISBILLWISEON: () => 'No' });
  } else if (master.type === 'LEDGER') {
    const chain = groupChain(books, books.findMaster('GROUP', parentName(tree)));
    const opening = parseAmount(textOf(tree, 'OPENINGBALANCE')) ?? 0;
    const { ISREVENUE, ISDEEMEDPOSITIVE, AFFECTSGROSSPROFIT } = groupFields(chain);
    Object.assign(computed, { ISREVENUE, ISDEEMEDPOSITIVE, AFFECTSGROSSPROFIT }, {
      OPENINGBALANCE: text(formatAmount(opening)),
      CLOSINGBALANCE: () => {
        const closing = ctx.ledgerClosing(master.name, opening);
        return closing.moved ? formatAmount(closing.amount) : '';
      },
      ISBILLWISEON: text(textOf(tree, 'ISBILLWISEON')?.trim() || 'No'),
    });
  } else if (master.type === 'STOCKITEM') {
    Object.assign(computed, stockItemFields(ctx, master));
  } else if (master.type === 'UNIT') {
    Object.assign(computed, {
      SYMBOL: text(master.name),
      FORMALNAME: text(textOf(tree, 'ORIGINALNAME') ?? master.name),
      ISSIMPLEUNIT: text(textOf(tree, 'ISSIMPLEUNIT')?.trim() || 'Yes'),
    });
  } else if (master.type === 'VOUCHERTYPE') {
    const series = numberingSeries(tree);
    const byDefault = series.find((s) => s.isDefault) ?? series[0];
    Object.assign(computed, {
      NUMBERINGMETHOD: text(textOf(tree, 'NUMBERINGMETHOD') ?? byDefault?.method ?? 'None'),
      PREVENTDUPLICATES: text(yesNo(byDefault?.preventDuplicates ?? false)),
      // A type of the customer's behaves like the built-in type it derives from unless it says otherwise.
      AFFECTSSTOCK: () => inherited(voucherTypeChain((name) => books.findMaster('VOUCHERTYPE', name), master), 'AFFECTSSTOCK') || 'No',
    });
  }
  return { tag: master.type, attrs: { NAME: master.name, RESERVEDNAME: master.reservedName }, stored: tree.children, computed };
}

function stockItemFields(ctx: ExportContext, master: MasterRecord): Record<string, () => string> {
  const opening = parseQuantity(textOf(master.tree, 'OPENINGBALANCE'));
  const unit = textOf(master.tree, 'BASEUNITS')?.trim() || opening?.unit || '';
  const openingValue = Math.abs(parseAmount(textOf(master.tree, 'OPENINGVALUE')) ?? 0);
  const position = () => {
    const moves = ctx.stockClosing(master.name);
    const inQty = (opening?.quantity ?? 0) + (moves?.inQty ?? 0);
    const inValue = openingValue + (moves?.inValue ?? 0);
    const quantity = inQty - (moves?.outQty ?? 0);
    const rate = inQty > 0 ? inValue / 100 / inQty : 0;
    return { quantity, rate, value: Math.round(quantity * rate * 100) };
  };
  return {
    CLOSINGBALANCE: () => formatQuantity(position().quantity, unit),
    CLOSINGRATE: () => formatRate(position().rate, unit),
    CLOSINGVALUE: () => formatAmount(-position().value),
    BASEUNITS: text(unit),
  };
}

export function companyObject(books: CompanyBooks): ExportObject {
  const record = books.record;
  return {
    tag: 'COMPANY',
    attrs: { NAME: record.name, RESERVEDNAME: '' },
    stored: [],
    computed: {
      NAME: text(record.name),
      GUID: text(record.guid),
      BOOKSFROM: text(record.booksFrom),
      STARTINGFROM: text(record.periodFrom),
      ENDINGAT: text(record.periodTo),
      LASTVOUCHERDATE: () => books.lastVoucherDate(),
      ALTMSTID: text(formatNumber(record.altMstId)),
      ALTVCHID: text(formatNumber(record.altVchId)),
      STATENAME: text(record.stateName),
    },
  };
}
