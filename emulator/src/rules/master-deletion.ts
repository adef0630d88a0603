// When TallyPrime refuses to delete a master (emulator/evidence/imports.md, "Master delete and cancel"):
// a reserved master; a master a voucher has ever named (the lock stays after the voucher is deleted);
// a master other masters point at now (a group with ledgers or sub-groups, a stock group with items, a
// unit an item counts in, a currency a ledger keeps). Every refusal reads `Cannot be deleted!`.
import type { CompanyBooks } from '../state/company-books.js';
import { parentName } from '../state/master-facts.js';
import type { MasterRecord, MasterType } from '../state/records.js';
import { nameKey, stripSystemMark } from '../tally-format.js';
import { textOf } from '../xml/xml-tree.js';

/** Fields of other masters that point at a master of the given type. */
const POINTERS: Record<MasterType, [MasterType, string][]> = {
  GROUP: [['GROUP', 'PARENT'], ['LEDGER', 'PARENT']],
  LEDGER: [],
  CURRENCY: [['LEDGER', 'CURRENCYNAME']],
  UNIT: [['UNIT', 'BASEUNITS'], ['UNIT', 'ADDITIONALUNITS'], ['STOCKGROUP', 'BASEUNITS'], ['STOCKITEM', 'BASEUNITS'], ['STOCKITEM', 'ADDITIONALUNITS']],
  GODOWN: [['GODOWN', 'PARENT']],
  STOCKGROUP: [['STOCKGROUP', 'PARENT'], ['STOCKITEM', 'PARENT']],
  STOCKCATEGORY: [['STOCKCATEGORY', 'PARENT'], ['STOCKITEM', 'CATEGORY']],
  STOCKITEM: [],
  VOUCHERTYPE: [['VOUCHERTYPE', 'PARENT']],
  COSTCATEGORY: [['COSTCENTRE', 'CATEGORY']],
  COSTCENTRE: [['COSTCENTRE', 'PARENT']],
};

function pointsAt(other: MasterRecord, field: string, target: MasterRecord): boolean {
  const value = field === 'PARENT' ? parentName(other.tree) : stripSystemMark(textOf(other.tree, field) ?? '').trim();
  if (value === '') return false;
  return [target.name, ...target.aliases].some((name) => nameKey(name) === nameKey(value));
}

/** True when TallyPrime would refuse to delete this master. */
export function deletionRefused(books: CompanyBooks, master: MasterRecord): boolean {
  if (master.reservedName || master.usedByVoucher) return true;
  if (master.type === 'LEDGER' && books.ledgerHasVouchers(master.name)) return true;
  if (master.type === 'VOUCHERTYPE' && [...books.vouchers.values()].some((v) => nameKey(v.typeName) === nameKey(master.name))) return true;
  const pointers = POINTERS[master.type];
  return [...books.masters.values()].some(
    (other) => other !== master && pointers.some(([type, field]) => other.type === type && pointsAt(other, field, master)),
  );
}
