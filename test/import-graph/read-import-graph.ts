// Reads the import graph of a source tree (relay/src, connector/src) as the compiler sees it: every
// relative import and re-export, type-only ones included, and dynamic import('…'), resolved to files.
// Used by import-graph.test.ts to find circles and imports that point up the floors of import-floors.json.
import fs from 'node:fs';
import path from 'node:path';

export type ImportGraph = ReadonlyMap<string, readonly string[]>;

const SOURCE = /\.(ts|tsx)$/;
// `import … from '…'`, `import type …`, `export … from '…'`, `import '…'`, `import('…')`; comments are stripped first.
const SPECIFIER = /(?:\bimport\s+(?:type\s+)?[^'"`;]*?\bfrom\s*|\bexport\s+(?:type\s+)?[^'"`;]*?\bfrom\s*|\bimport\s*\(\s*|\bimport\s+)['"]([^'"]+)['"]/g;

function sourceFiles(dir: string): string[] {
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) return sourceFiles(full);
    return SOURCE.test(entry.name) && !entry.name.endsWith('.d.ts') ? [full] : [];
  });
}

function withoutComments(text: string): string {
  return text.replace(/\/\*[\s\S]*?\*\//g, '').replace(/(^|[^:'"`])\/\/.*$/gm, '$1');
}

/** The file a relative specifier names (`./x.js` is ./x.ts or ./x.tsx, as NodeNext writes it). */
function resolve(from: string, specifier: string): string | undefined {
  const target = path.resolve(path.dirname(from), specifier);
  const stem = target.replace(/\.(m?js|jsx)$/, '');
  const candidates = [target, `${stem}.ts`, `${stem}.tsx`, path.join(target, 'index.ts')];
  return candidates.find((file) => SOURCE.test(file) && fs.existsSync(file));
}

/** File (relative to `root`) → the files it imports, within `root`. */
export function readImportGraph(root: string): ImportGraph {
  const graph = new Map<string, string[]>();
  for (const file of sourceFiles(root)) {
    const text = withoutComments(fs.readFileSync(file, 'utf8'));
    const targets = new Set<string>();
    for (const match of text.matchAll(SPECIFIER)) {
      const specifier = match[1] ?? '';
      if (!specifier.startsWith('.')) continue;
      const resolved = resolve(file, specifier);
      if (resolved !== undefined && resolved.startsWith(root + path.sep)) targets.add(path.relative(root, resolved));
    }
    graph.set(path.relative(root, file), [...targets].sort());
  }
  return graph;
}

/** Each circle of files (a strongly connected component of more than one file, or a file importing itself). */
export function importCircles(graph: ImportGraph): string[][] {
  let counter = 0;
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const circles: string[][] = [];
  const visit = (file: string) => {
    index.set(file, counter);
    low.set(file, counter);
    counter += 1;
    stack.push(file);
    onStack.add(file);
    for (const next of graph.get(file) ?? []) {
      if (!index.has(next)) {
        visit(next);
        low.set(file, Math.min(low.get(file) ?? 0, low.get(next) ?? 0));
      } else if (onStack.has(next)) {
        low.set(file, Math.min(low.get(file) ?? 0, index.get(next) ?? 0));
      }
    }
    if (low.get(file) === index.get(file)) {
      const component: string[] = [];
      let member: string | undefined;
      do {
        member = stack.pop();
        if (member === undefined) break;
        onStack.delete(member);
        component.push(member);
      } while (member !== file);
      if (component.length > 1 || (graph.get(file) ?? []).includes(file)) circles.push(component.sort());
    }
  };
  for (const file of graph.keys()) if (!index.has(file)) visit(file);
  return circles;
}

/** The floors of one tree, lowest first: each a list of top-level folders (or files) that may import only their own floor and those below. */
export type Floors = readonly (readonly string[])[];

/** The floor a file is on: its first path segment (its folder, or the file itself at the top). */
export function floorOf(floors: Floors, file: string): number | undefined {
  const top = file.split(/[\\/]/)[0] ?? file;
  const at = floors.findIndex((floor) => floor.includes(top));
  return at < 0 ? undefined : at;
}

/** Imports that point up (to a higher floor), and files on no floor at all. */
export function upwardImports(graph: ImportGraph, floors: Floors): { upward: string[]; unplaced: string[] } {
  const upward: string[] = [];
  const unplaced = new Set<string>();
  for (const [file, targets] of graph) {
    const from = floorOf(floors, file);
    if (from === undefined) {
      unplaced.add(file.split(/[\\/]/)[0] ?? file);
      continue;
    }
    for (const target of targets) {
      const to = floorOf(floors, target);
      if (to !== undefined && to > from) upward.push(`${file} → ${target}`);
    }
  }
  return { upward: upward.sort(), unplaced: [...unplaced].sort() };
}
