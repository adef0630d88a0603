// The Electron package has no esbuild: build/bundle-connector.mjs writes the local page next to main.js
// (ui/), and the connector started with that folder serves it. Proven here with the real build script
// and a real connector: the page it serves is the pre-built one, and it runs in Chromium.
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { eventually } from '@ledgerwire/test-kit';
import { launchChromium } from '../helpers/chromium.js';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { startConnectorService, type ConnectorHandle } from '../../src/index.js';
import { FAST } from '../helpers/connected-connector.js';
import { startTestEmulator, tempDataDir, type TestEmulator } from '../helpers/test-emulator.js';
import { ConnectorHomePage } from './pages/connector-home-page.js';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../..');

describe('the local page pre-built for the Electron package', { timeout: 120_000 }, () => {
  const outDir = fs.mkdtempSync(path.join(os.tmpdir(), 'lw-shell-'));
  const pageDir = path.join(outDir, 'ui');
  let books: TestEmulator;
  let connector: ConnectorHandle;

  beforeAll(async () => {
    execFileSync(process.execPath, [path.join(root, 'build/bundle-connector.mjs'), outDir], { cwd: root, stdio: 'pipe' });
    books = await startTestEmulator();
    connector = await startConnectorService({ dataDir: tempDataDir(), booksUrl: books.xmlUrl, config: FAST, uiPageDir: pageDir });
  });
  afterAll(async () => {
    await connector?.stop();
    await books?.close();
    fs.rmSync(outDir, { recursive: true, force: true });
  });

  it('writes a hashed script and stylesheet next to main.js, and the connector serves exactly those', async () => {
    const files = fs.readdirSync(pageDir);
    expect(files.map((file) => path.extname(file)).sort()).toEqual(['.css', '.js']);
    expect(files.every((file) => /^main-[A-Z0-9]+\.(js|css)$/.test(file))).toBe(true);
    const html = await (await fetch(new URL('/', connector.uiUrl))).text();
    for (const file of files) {
      expect(html).toContain(`/assets/${file}`);
      const served = await fetch(new URL(`/assets/${file}`, connector.uiUrl));
      expect(served.status).toBe(200);
      expect(Buffer.from(await served.arrayBuffer()).equals(fs.readFileSync(path.join(pageDir, file)))).toBe(true);
    }
  });

  it.skipIf(!inject('browserAvailable'))('runs in Chromium as the page bundled at start does', async () => {
    const browser = await launchChromium();
    try {
      const page = new ConnectorHomePage(await browser.newPage());
      await page.open(connector.uiUrl);
      await eventually('page.relayState().textContent() toMatch /^Not set up yet/', async () => {
      expect(await page.relayState().textContent()).toMatch(/^Not set up yet/);
      return true;
    }, { timeoutMs: 30_000 });
      await eventually('page.booksState().textContent() toMatch /^TallyPrime is running/', async () => {
      expect(await page.booksState().textContent()).toMatch(/^TallyPrime is running/);
      return true;
    }, { timeoutMs: 30_000 });
      expect(page.problems).toEqual([]);
    } finally {
      await browser.close();
    }
  });

  it('refuses to start on a folder without the page, rather than serve a blank one', async () => {
    const empty = fs.mkdtempSync(path.join(os.tmpdir(), 'lw-no-page-'));
    try {
      await expect(startConnectorService({ dataDir: tempDataDir(), booksUrl: books.xmlUrl, config: FAST, uiPageDir: empty })).rejects.toThrow(/no script or no stylesheet/);
    } finally {
      fs.rmSync(empty, { recursive: true, force: true });
    }
  });
});
