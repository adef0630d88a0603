// What an alteration of an existing voucher keeps (a Create resent with the same client REMOTEID, or a
// partial Alter addressed by TAGNAME): every field sent replaces that field, every field omitted is kept
// (bridge WRITE_RESPONSES §9.3: an omitted ISOPTIONAL stayed; tally_agent LESSONS §9: an Alter carrying
// only REFERENCE changed only it). Entries are one set: any ledger list sent replaces every ledger
// entry, any inventory list every inventory entry (a removed entry is gone, bridge §9.3), so an
// alteration can never leave the old lines beside the new ones.
import { INVENTORY_LISTS, LEDGER_LISTS } from '../state/voucher-facts.js';
import { attr, child, cloneNode, node, type XNode } from '../xml/xml-tree.js';
import { mergeChildren } from './tree-edit.js';

const FAMILIES = [LEDGER_LISTS, INVENTORY_LISTS];

function sendsFamily(incoming: XNode, family: string[]): boolean {
  return incoming.children.some((c) => family.includes(c.tag.toUpperCase()));
}

/** Whether an alteration carries entries (it then restores a cancelled voucher, as a resend did). */
export function sendsEntries(incoming: XNode): boolean {
  return FAMILIES.some((family) => sendsFamily(incoming, family));
}

/** A body that is a whole voucher on its own: a DATE and entries (what a "full-body" Alter resends). */
export function isFullVoucher(incoming: XNode): boolean {
  return child(incoming, 'DATE') !== undefined && sendsEntries(incoming);
}

/** The request without its entry lists. */
export function withoutEntries(incoming: XNode): XNode {
  const familyTags = FAMILIES.flat();
  return { ...incoming, children: incoming.children.filter((c) => !familyTags.includes(c.tag.toUpperCase())) };
}

/** The stored voucher with the request's fields laid over it (tags already upper-cased). */
export function mergeVoucher(stored: XNode, incoming: XNode): XNode {
  const merged = cloneNode(stored);
  merged.attrs = { ...merged.attrs, ...incoming.attrs };
  // A voucher type sent only as VCHTYPE replaces the stored one (a Payment resent as a Receipt became one).
  const vchType = attr(incoming, 'VCHTYPE');
  if (vchType !== undefined && vchType.trim() !== '' && !child(incoming, 'VOUCHERTYPENAME')) {
    mergeChildren(merged, node('VOUCHER', '', {}, [node('VOUCHERTYPENAME', vchType)]), []);
  }
  const familyTags = FAMILIES.flat();
  mergeChildren(merged, incoming, familyTags);
  for (const family of FAMILIES) {
    if (!sendsFamily(incoming, family)) continue;
    const firstAt = merged.children.findIndex((c) => family.includes(c.tag.toUpperCase()));
    merged.children = merged.children.filter((c) => !family.includes(c.tag.toUpperCase()));
    const sent = incoming.children.filter((c) => family.includes(c.tag.toUpperCase())).map(cloneNode);
    merged.children.splice(firstAt >= 0 ? Math.min(firstAt, merged.children.length) : merged.children.length, 0, ...sent);
  }
  return merged;
}
