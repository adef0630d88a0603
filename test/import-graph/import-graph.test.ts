// The import graph of relay/src and connector/src, read from the files (type-only imports included,
// which the lint's no-cycle skips): no circle anywhere, every top-level folder on a floor of
// import-floors.json, and no import from a floor to a higher one. A fixture tree proves the reader
// finds what it must.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { importCircles, readImportGraph, upwardImports, type Floors } from './read-import-graph.js';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const floorsFile = JSON.parse(fs.readFileSync(path.join(root, 'import-floors.json'), 'utf8')) as { trees: Record<string, Floors> };

describe.each(Object.entries(floorsFile.trees))('the import graph of %s', (tree, floors) => {
  const graph = readImportGraph(path.join(root, tree));

  it('is read whole', () => {
    expect(graph.size).toBeGreaterThan(50);
  });

  it('has no circle', () => {
    expect(importCircles(graph)).toEqual([]);
  });

  it('places every top-level folder and file on a floor, and imports only down', () => {
    expect(upwardImports(graph, floors)).toEqual({ upward: [], unplaced: [] });
  });
});

describe('the reader finds what it must', () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'lw-import-graph-'));
  afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));
  const write = (file: string, text: string) => {
    fs.mkdirSync(path.dirname(path.join(dir, file)), { recursive: true });
    fs.writeFileSync(path.join(dir, file), text);
  };
  write('low/row.ts', "import type { Service } from '../high/service.js';\nexport type Row = { service: Service };\n");
  write('high/service.ts', "import type { Row } from '../low/row.js';\nexport type Service = { rows: Row[] };\n");
  write('high/loader.ts', "// import { nothing } from '../low/commented-out.js';\nexport const load = () => import('../low/lazy.js');\n");
  write('low/lazy.ts', 'export const lazy = 1;\n');
  write('stray/file.ts', "export { lazy } from '../low/lazy.js';\n");
  const graph = readImportGraph(dir);

  it('a circle through type-only imports', () => {
    expect(importCircles(graph)).toEqual([['high/service.ts', 'low/row.ts']]);
  });

  it('an upward import (also type-only), a dynamic import, a re-export, and a folder on no floor; comments are not imports', () => {
    expect(graph.get('high/loader.ts')).toEqual(['low/lazy.ts']);
    expect(upwardImports(graph, [['low'], ['high']])).toEqual({ upward: ['low/row.ts → high/service.ts'], unplaced: ['stray'] });
  });
});
