// A renamed master keeps its vouchers: TallyPrime stores links, so a voucher that named the ledger,
// stock item or godown under its old name reads back under the new one, and the ledger keeps its
// postings and bills (bridge WRITE_RESPONSES §9.4: after a rename by Alter the ledger's vouchers were
// still attached; §12a.9: the GUID survived a rename). The emulator stores names as text, so it
// rewrites them.
import type { CompanyBooks } from '../state/company-books.js';
import type { MasterType, VoucherRecord } from '../state/records.js';
import { voucherLedgerNames } from '../state/voucher-facts.js';
import { nameKey } from '../tally-format.js';
import type { XNode } from '../xml/xml-tree.js';

/** The voucher fields that name a master of each type. */
const NAMING_TAGS: Partial<Record<MasterType, string[]>> = {
  LEDGER: ['LEDGERNAME', 'PARTYLEDGERNAME', 'PARTYNAME'],
  STOCKITEM: ['STOCKITEMNAME'],
  GODOWN: ['GODOWNNAME', 'DESTINATIONGODOWNNAME'],
};

function rewrite(tree: XNode, tags: string[], oldKey: string, newName: string): boolean {
  let changed = false;
  const walk = (n: XNode) => {
    if (n.children.length === 0 && tags.includes(n.tag.toUpperCase()) && nameKey(n.text) === oldKey) {
      n.text = newName;
      changed = true;
    }
    n.children.forEach(walk);
  };
  walk(tree);
  return changed;
}

export function carryRenameIntoVouchers(books: CompanyBooks, type: MasterType, oldName: string, newName: string): void {
  const tags = NAMING_TAGS[type];
  if (!tags || nameKey(oldName) === nameKey(newName)) return;
  const oldKey = nameKey(oldName);
  for (const voucher of [...books.vouchers.values()]) {
    const before = voucherLedgerNames(voucher.tree);
    const probe = structuredClone(voucher.tree);
    if (!rewrite(probe, tags, oldKey, newName)) continue;
    books.unindexVoucher(voucher, before);
    const renamed: VoucherRecord = {
      ...voucher,
      tree: probe,
      bills: voucher.bills.map((b) => (type === 'LEDGER' && nameKey(b.ledgerName) === oldKey ? { ...b, ledgerName: newName } : b)),
    };
    books.indexVoucher(renamed, voucherLedgerNames(renamed.tree));
    books.persistVoucher(renamed);
  }
}
