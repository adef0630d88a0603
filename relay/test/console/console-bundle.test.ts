// The relay serves the console as `npm run build` wrote it into relay/dist/console, and a missing or
// incomplete build stops the start with what to run instead of a console that 404s.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { builtConsoleDir, readConsoleBundle } from '../../src/console/console-bundle.js';

const relayDir = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');

describe('the built console', () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'lw-console-'));
  afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

  it('is found in relay/dist/console from the sources and from the compiled bundle alike', () => {
    expect(builtConsoleDir(path.join(relayDir, 'src/console/console-bundle.ts'))).toBe(path.join(relayDir, 'dist/console'));
    expect(builtConsoleDir(path.join(relayDir, 'dist/server.mjs'))).toBe(path.join(relayDir, 'dist/console'));
  });

  it('serves the script and stylesheet the build wrote, named in index.html', () => {
    fs.writeFileSync(path.join(dir, 'main-ABC123.js'), 'console.log(1)');
    fs.writeFileSync(path.join(dir, 'main-DEF456.css'), 'body{}');
    const bundle = readConsoleBundle(dir);
    expect([...bundle.assets.keys()].sort()).toEqual(['main-ABC123.js', 'main-DEF456.css']);
    expect(bundle.indexHtml).toContain('src="/console/assets/main-ABC123.js"');
    expect(bundle.indexHtml).toContain('href="/console/assets/main-DEF456.css"');
  });

  it('refuses to start without a build, saying what to run', () => {
    expect(() => readConsoleBundle(path.join(dir, 'missing'))).toThrow(/not built .*Run "npm run build"/);
    const empty = fs.mkdtempSync(path.join(dir, 'empty-'));
    expect(() => readConsoleBundle(empty)).toThrow(/no script or no stylesheet/);
  });
});
