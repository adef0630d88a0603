// Before a sample's objects are imported, the masters they name must exist (TallyPrime refuses
// otherwise): this creates the missing ones in the demo company, bill-wise where the sample uses bills.
import { stripSystemMark } from '../src/tally-format.js';
import { escapeXml, type XNode } from '../src/xml/xml-tree.js';
import { counters, importData, postUtf16 } from './helpers.js';

const text = (n: XNode, tag: string) => n.children.find((c) => c.tag === tag)?.text ? stripSystemMark(n.children.find((c) => c.tag === tag)!.text).trim() : '';
const kids = (n: XNode, tag: string) => n.children.filter((c) => c.tag === tag);
const none = (v: string) => v === '' || ['primary', 'not applicable'].includes(v.toLowerCase());

function master(tag: string, name: string, body: string): string {
  return `<${tag} NAME="${escapeXml(name)}" ACTION="Create"><NAME>${escapeXml(name)}</NAME>${body}</${tag}>`;
}

export async function prepareReferences(xmlUrl: string, objects: XNode[]): Promise<void> {
  const groups = new Set<string>();
  const stockGroups = new Set<string>();
  const categories = new Set<string>();
  const units = new Set<string>();
  const godowns = new Set<string>();
  const items = new Map<string, string>();
  const voucherTypes = new Set<string>();
  const ledgers = new Map<string, Set<string>>();
  const opened = new Set<string>();
  const addLedger = (name: string) => {
    if (name !== '' && !ledgers.has(name)) ledgers.set(name, new Set());
  };
  for (const o of objects) {
    if (o.tag === 'LEDGER' || o.tag === 'GROUP') if (!none(text(o, 'PARENT'))) groups.add(text(o, 'PARENT'));
    if (o.tag === 'STOCKITEM') {
      if (!none(text(o, 'PARENT'))) stockGroups.add(text(o, 'PARENT'));
      if (!none(text(o, 'CATEGORY'))) categories.add(text(o, 'CATEGORY'));
      if (text(o, 'BASEUNITS')) units.add(text(o, 'BASEUNITS'));
    }
    if (o.tag !== 'VOUCHER') continue;
    voucherTypes.add(text(o, 'VOUCHERTYPENAME') || o.attrs.VCHTYPE || '');
    addLedger(text(o, 'PARTYLEDGERNAME'));
    const entries = [...kids(o, 'ALLLEDGERENTRIES.LIST'), ...kids(o, 'LEDGERENTRIES.LIST')];
    for (const inv of [...kids(o, 'ALLINVENTORYENTRIES.LIST'), ...kids(o, 'INVENTORYENTRIES.LIST')]) {
      const unit = /^\s*[\d.-]+\s*(.*)$/.exec(text(inv, 'ACTUALQTY'))?.[1]?.trim() ?? '';
      if (text(inv, 'STOCKITEMNAME')) items.set(text(inv, 'STOCKITEMNAME'), unit);
      if (unit) units.add(unit);
      for (const b of kids(inv, 'BATCHALLOCATIONS.LIST')) if (text(b, 'GODOWNNAME')) godowns.add(text(b, 'GODOWNNAME'));
      entries.push(...kids(inv, 'ACCOUNTINGALLOCATIONS.LIST'));
    }
    for (const e of entries) {
      const ledger = text(e, 'LEDGERNAME');
      addLedger(ledger);
      for (const b of kids(e, 'BILLALLOCATIONS.LIST')) {
        const name = text(b, 'NAME');
        const type = text(b, 'BILLTYPE');
        if (type === '' && name === '') continue;
        const refs = ledgers.get(ledger)!;
        refs.add('');
        if (type === 'New Ref' || type === 'Advance') opened.add(`${ledger}|${name}`);
        else if (type === 'Agst Ref' && !opened.has(`${ledger}|${name}`)) refs.add(name);
      }
    }
  }
  const masters: string[] = [];
  for (const g of groups) masters.push(master('GROUP', g, '<PARENT>Sundry Debtors</PARENT>'));
  for (const g of stockGroups) masters.push(master('STOCKGROUP', g, ''));
  for (const c of categories) masters.push(master('STOCKCATEGORY', c, ''));
  for (const u of units) masters.push(master('UNIT', u, '<ISSIMPLEUNIT>Yes</ISSIMPLEUNIT>'));
  for (const g of godowns) masters.push(master('GODOWN', g, ''));
  for (const [item, unit] of items) masters.push(master('STOCKITEM', item, unit ? `<BASEUNITS>${escapeXml(unit)}</BASEUNITS>` : ''));
  for (const v of voucherTypes) if (v) masters.push(master('VOUCHERTYPE', v, '<PARENT>Sales</PARENT>'));
  for (const [ledger, refs] of ledgers) {
    const billWise = refs.size > 0 ? '<ISBILLWISEON>Yes</ISBILLWISEON>' : '';
    const bills = [...refs]
      .filter((r) => r !== '')
      .map((r) => `<BILLALLOCATIONS.LIST><NAME>${escapeXml(r)}</NAME><BILLDATE>20250401</BILLDATE><OPENINGBALANCE>-99999999.00</OPENINGBALANCE></BILLALLOCATIONS.LIST>`)
      .join('');
    masters.push(master('LEDGER', ledger, `<PARENT>Sundry Debtors</PARENT>${billWise}${bills}`));
  }
  const existingTypes = new Set(['sales', 'purchase', 'payment', 'receipt', 'journal', 'contra', 'credit note', 'debit note']);
  const filtered = masters.filter((m) => !(m.startsWith('<VOUCHERTYPE') && existingTypes.has(/NAME="([^"]*)"/.exec(m)![1]!.toLowerCase())));
  const answer = counters(await postUtf16(xmlUrl, importData(filtered.join(''))));
  if ((answer.errors as number) > 0) throw new Error(`could not prepare references: ${(answer.lineErrors as string[]).join('; ')}`);
}
