// The relay serves the console as `npm run build` wrote it into relay/dist/console, and a missing or
// incomplete build stops the start with what to run instead of a console that 404s.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { builtConsoleDir, readConsoleBundle } from '../../src/console/services/console-bundle.js';

const relayDir = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');

describe('the built console', () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'lw-console-'));
  afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

  it('is found in relay/dist/console from the sources and from the compiled bundle alike', () => {
    expect(builtConsoleDir(path.join(relayDir, 'src/console/services/console-bundle.ts'))).toBe(path.join(relayDir, 'dist/console'));
    expect(builtConsoleDir(path.join(relayDir, 'dist/server.mjs'))).toBe(path.join(relayDir, 'dist/console'));
  });

  it('serves the scripts and stylesheets the build wrote, the console’s named in index.html and the connect page’s in its page', () => {
    fs.writeFileSync(path.join(dir, 'main-ABC123.js'), 'console.log(1)');
    fs.writeFileSync(path.join(dir, 'main-DEF456.css'), 'body{}');
    fs.writeFileSync(path.join(dir, 'connect-main-GHI789.js'), 'console.log(2)');
    fs.writeFileSync(path.join(dir, 'connect-main-JKL012.css'), 'main{}');
    const bundle = readConsoleBundle(dir);
    expect([...bundle.assets.keys()].sort()).toEqual(['connect-main-GHI789.js', 'connect-main-JKL012.css', 'main-ABC123.js', 'main-DEF456.css']);
    expect(bundle.indexHtml).toContain('src="/console/assets/main-ABC123.js"');
    expect(bundle.indexHtml).toContain('href="/console/assets/main-DEF456.css"');
    expect(bundle.connectHtml).toContain('src="/console/assets/connect-main-GHI789.js"');
    expect(bundle.connectHtml).toContain('href="/console/assets/connect-main-JKL012.css"');
  });

  it('is built by npm run build with the connect page beside the console', () => {
    const built = readConsoleBundle();
    expect(built.connectHtml).toMatch(/src="\/console\/assets\/connect-main-[A-Z0-9]+\.js"/);
    expect(built.indexHtml).toMatch(/src="\/console\/assets\/main-[A-Z0-9]+\.js"/);
  });

  it('refuses to start without a build, saying what to run', () => {
    expect(() => readConsoleBundle(path.join(dir, 'missing'))).toThrow(/not built .*Run "npm run build"/);
    const empty = fs.mkdtempSync(path.join(dir, 'empty-'));
    expect(() => readConsoleBundle(empty)).toThrow(/no script or no stylesheet/);
    // A build from before the connect page existed is incomplete too.
    const consoleOnly = fs.mkdtempSync(path.join(dir, 'console-only-'));
    fs.writeFileSync(path.join(consoleOnly, 'main-ABC123.js'), 'console.log(1)');
    fs.writeFileSync(path.join(consoleOnly, 'main-DEF456.css'), 'body{}');
    expect(() => readConsoleBundle(consoleOnly)).toThrow(/no script or no stylesheet for connect-main/);
  });
});
