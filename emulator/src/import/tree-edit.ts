// Small edits on stored element trees: set a field in place (keeping its position and attributes, so
// re-exports keep the shape they came in) or insert it where TallyPrime would put it.
import { node, type XNode } from '../xml/xml-tree.js';

/** Sets the first `tag` child's text; if absent, inserts it after the last of `after` present (else at `fallback`). */
export function setField(tree: XNode, tag: string, text: string, after: string[] = [], fallback: 'start' | 'end' = 'end'): XNode {
  const existing = tree.children.find((c) => c.tag.toUpperCase() === tag);
  if (existing) {
    existing.tag = tag;
    existing.text = text;
    return existing;
  }
  const created = node(tag, text);
  insertAfter(tree, created, after, fallback);
  return created;
}

export function insertAfter(tree: XNode, created: XNode, after: string[], fallback: 'start' | 'end'): void {
  let index = -1;
  tree.children.forEach((c, i) => {
    if (after.includes(c.tag.toUpperCase())) index = i;
  });
  if (index >= 0) tree.children.splice(index + 1, 0, created);
  else if (fallback === 'start') tree.children.unshift(created);
  else tree.children.push(created);
}

export function removeFields(tree: XNode, tags: string[]): void {
  tree.children = tree.children.filter((c) => !tags.includes(c.tag.toUpperCase()));
}

/** Where TallyPrime puts a new field: after the last present field that precedes it in `order`. */
function insertionIndex(target: XNode, tag: string, order: string[]): number {
  const rank = order.indexOf(tag);
  let at = -1;
  if (rank >= 0) {
    target.children.forEach((c, i) => {
      const r = order.indexOf(c.tag.toUpperCase());
      if (r >= 0 && r < rank) at = i;
    });
    if (at >= 0) return at + 1;
  }
  const languageAt = target.children.findIndex((c) => c.tag.toUpperCase() === 'LANGUAGENAME.LIST');
  return languageAt >= 0 ? languageAt : target.children.length;
}

/** Orders children by `order` (fields it does not name keep their place relative to each other, last). */
export function sortChildren(tree: XNode, order: string[]): void {
  const rank = (n: XNode) => {
    const r = order.indexOf(n.tag.toUpperCase());
    return r >= 0 ? r : order.length - 1.5;
  };
  tree.children = tree.children.map((n, i) => ({ n, i })).sort((a, b) => rank(a.n) - rank(b.n) || a.i - b.i).map((x) => x.n);
}

/** Partial alter: each tag sent replaces every child of that tag; tags not sent are kept. */
export function mergeChildren(target: XNode, incoming: XNode, skip: string[], order: string[] = []): void {
  const sentTags = new Set(incoming.children.map((c) => c.tag.toUpperCase()).filter((t) => !skip.includes(t)));
  for (const tag of sentTags) {
    const replacement = incoming.children.filter((c) => c.tag.toUpperCase() === tag);
    const firstIndex = target.children.findIndex((c) => c.tag.toUpperCase() === tag);
    target.children = target.children.filter((c) => c.tag.toUpperCase() !== tag);
    if (firstIndex >= 0) target.children.splice(Math.min(firstIndex, target.children.length), 0, ...replacement);
    else target.children.splice(insertionIndex(target, tag, order), 0, ...replacement);
  }
}

/** Upper-cases every tag (TallyPrime's tags are case-insensitive on import, upper-case on export). */
export function upperCaseTags(tree: XNode): XNode {
  return {
    tag: tree.tag.toUpperCase(),
    attrs: Object.fromEntries(Object.entries(tree.attrs).map(([k, v]) => [k.toUpperCase(), v])),
    text: tree.text,
    children: tree.children.map(upperCaseTags),
  };
}

export function languageNameList(names: string[]): XNode {
  return node('LANGUAGENAME.LIST', '', {}, [
    node('NAME.LIST', '', { TYPE: 'String' }, names.map((n) => node('NAME', n))),
    node('LANGUAGEID', ' 1033'),
  ]);
}
