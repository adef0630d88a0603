// The connector as a shop owner's Windows PC gets it, proved under Wine: the installer `npm run
// package:windows` builds is run silently in a fresh prefix whose user name has a space and non-ASCII
// letters, against a relay and the emulator on this machine. It installs per user, enrols and starts;
// a company is paired through the local page's API and an invoice written through /api/v1 is booked and
// read back in pulled vouchers; after a sign-out the connector starts as the Run key says, once per user;
// a kill during an import books nothing twice; a newer build installed over it keeps the pairing and the
// queue; the uninstaller removes the program and the logon entry and keeps the data.
import fs from 'node:fs';
import http from 'node:http';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { eventually } from '@ledgerwire/test-kit';
import { transactionSettled } from '../helpers/connected-connector.js';
import { startTestEmulator, tempDataDir, type TestEmulator } from '../helpers/test-emulator.js';
import { startCustomerRelay, type CustomerRelay } from '../helpers/customer-relay.js';
import { documentsByEndpoint } from '../helpers/voucher-documents.js';
import { readShellLink } from './shell-link.js';
import { commandLineWords, createWineSession, type WineSession } from './wine-session.js';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../..');
const wineAvailable = inject('wineAvailable');
if (!wineAvailable) console.warn('SKIPPING the Windows installer suite: no Wine or makensis (set REQUIRE_WINE=1 to make this fail)');

const UNINSTALL_KEY = 'HKCU\\Software\\Microsoft\\Windows\\CurrentVersion\\Uninstall\\LedgerwireConnector';
const RUN_KEY = 'HKCU\\Software\\Microsoft\\Windows\\CurrentVersion\\Run';
const USER = 'Renu Kumārī';
/** Quicker loops for the test; Windows passes the environment on to the programs the installer starts. */
const CONNECTOR_ENV = {
  LEDGERWIRE_PRESENCE_INTERVAL_MS: '300',
  LEDGERWIRE_SYNC_INTERVAL_MS: '1000',
  LEDGERWIRE_RECONNECT_BASE_MS: '100',
  LEDGERWIRE_RECONNECT_CAP_MS: '1000',
  LEDGERWIRE_BROWSER: 'C:\\record-page.cmd',
};

type Built = Readonly<{ outFile: string; version: string; size: number }>;

/** Builds an installer as `npm run package:windows` does (its code, in-process, into `outDir`). */
async function buildInstaller(outDir: string, options: { version?: string; compression?: 'lzma' | 'zlib' } = {}): Promise<Built> {
  const { packageWindows } = (await import(path.join(root, 'build/windows/package-windows.mjs'))) as {
    packageWindows(options: { outDir: string; version?: string; compression?: string }): Promise<Built>;
  };
  return packageWindows({ outDir, ...options });
}

function nextPatch(version: string): string {
  const [major, minor, patch] = version.split('-')[0]!.split('.').map(Number);
  return `${major}.${minor}.${(patch ?? 0) + 1}`;
}

describe.skipIf(!wineAvailable)('the Windows installer under Wine', { timeout: 600_000 }, () => {
  let relay: CustomerRelay;
  let books: TestEmulator;
  let wine: WineSession;
  let installer: Built;
  let newer: Built;
  let company: { guid: string; name: string };
  const companyId = () => relay.companyIds[0] as number;
  const programDir = () => path.join(wine.profileDir, 'AppData', 'Local', 'Programs', 'Ledgerwire Connector');
  const dataDir = () => path.join(wine.profileDir, 'AppData', 'Local', 'Ledgerwire');
  const startMenuEntry = () => path.join(wine.profileDir, 'AppData', 'Roaming', 'Microsoft', 'Windows', 'Start Menu', 'Programs', 'Ledgerwire Connector.lnk');
  const liveStatus = (): { pid: number; uiUrl: string; status: any } | undefined => {
    try {
      return JSON.parse(fs.readFileSync(path.join(dataDir(), 'status.json'), 'utf8'));
    } catch {
      return undefined;
    }
  };
  /** The status file of a connector online with the relay (a killed one leaves its last file behind: `check` tells them apart). */
  const onlineStatus = (what: string, check: (live: { pid: number; uiUrl: string; status: any }) => boolean = () => true) =>
    eventually(what, () => {
      const live = liveStatus();
      return live && live.status.relay.state === 'online' && check(live) ? live : undefined;
    }, { timeoutMs: 120_000 });
  /** The command line the Run key holds, as Windows runs it at sign-in. */
  const startAsLogonWould = async () => {
    const words = commandLineWords((await wine.registryValues(RUN_KEY))?.['Ledgerwire Connector'] ?? '');
    expect(words.length).toBeGreaterThan(2);
    return wine.start(words, CONNECTOR_ENV);
  };
  const pageApi = (uiUrl: string, method: 'GET' | 'POST', route: string, body?: unknown): Promise<{ status: number; json: any }> => {
    const page = new URL(uiUrl);
    return new Promise((resolve, reject) => {
      const request = http.request(new URL(route, page.origin), {
        method,
        headers: { 'x-ui-token': page.searchParams.get('token') ?? '', ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
      }, (response) => {
        let text = '';
        response.on('data', (chunk: Buffer) => (text += chunk.toString('utf8')));
        response.on('end', () => resolve({ status: response.statusCode ?? 0, json: JSON.parse(text || '{}') }));
      });
      request.on('error', reject);
      request.end(body === undefined ? undefined : JSON.stringify(body));
    });
  };

  beforeAll(async () => {
    const outDir = tempDataDir('lw-windows-package-');
    // The relay and the books first: building the installer keeps both cores busy for a minute.
    [relay, books] = await Promise.all([startCustomerRelay({ env: { CONNECTOR_CLAIM_INTERVAL_MS: '200' } }), startTestEmulator()]);
    [wine, installer] = await Promise.all([createWineSession({ user: USER }), buildInstaller(outDir)]);
    company = (await books.companies())[0] as { guid: string; name: string };
    // What the Start-menu entry opens the page with, recorded instead of a browser.
    // %* rather than %1: cmd would cut the address at its "=".
    fs.writeFileSync(wine.linuxPath('C:\\record-page.cmd'), '@echo %* >> "C:\\pages-opened.txt"\r\n');
  }, 900_000);
  afterAll(async () => {
    await wine?.close();
    await relay?.close();
    await books?.close();
  });

  it('installs silently for this user only: program, Start-menu entry, logon entry, Apps & features, enrolled and running', async () => {
    expect(path.basename(installer.outFile)).toBe(`ledgerwire-connector-setup-${installer.version}.exe`);
    const installed = await wine.run([installer.outFile, '/S', `/RELAY=${relay.baseUrl}`, `/CODE=${relay.customerToken}`, `/BOOKS=${books.xmlUrl}`], { env: CONNECTOR_ENV });
    expect(installed.code).toBe(0);
    expect(fs.existsSync(path.join(programDir(), 'ledgerwire-connector.exe'))).toBe(true);
    expect(fs.existsSync(path.join(programDir(), 'app', 'connector.cjs'))).toBe(true);
    expect(fs.readdirSync(path.join(programDir(), 'app', 'ui')).some((name) => name.endsWith('.js'))).toBe(true);
    expect(fs.existsSync(path.join(programDir(), 'uninstall.exe'))).toBe(true);
    expect(fs.existsSync(startMenuEntry())).toBe(true);
    const run = (await wine.registryValues(RUN_KEY))?.['Ledgerwire Connector'];
    expect(run).toMatch(/^"C:\\users\\Renu Kumārī\\AppData\\Local\\Programs\\Ledgerwire Connector\\ledgerwire-connector\.exe" .*"[^"]+\\app\\connector\.cjs" run --background$/);
    expect(await wine.registryValues(UNINSTALL_KEY)).toMatchObject({
      DisplayName: 'Ledgerwire Connector',
      DisplayVersion: installer.version,
      Publisher: 'Ledgerwire',
      UninstallString: `"C:\\users\\${USER}\\AppData\\Local\\Programs\\Ledgerwire Connector\\uninstall.exe"`,
      QuietUninstallString: `"C:\\users\\${USER}\\AppData\\Local\\Programs\\Ledgerwire Connector\\uninstall.exe" /S`,
      NoModify: '1',
      NoRepair: '1',
      InstallLocation: `C:\\users\\${USER}\\AppData\\Local\\Programs\\Ledgerwire Connector`,
    });
    const live = await onlineStatus('the installed connector to connect to the relay');
    expect(live.status).toMatchObject({ version: installer.version, relay: { url: relay.baseUrl, connectorId: expect.stringMatching(/^con_/) }, books: { url: books.xmlUrl, running: true } });
    expect(fs.existsSync(path.join(dataDir(), 'connector.db'))).toBe(true);
    expect(fs.readFileSync(path.join(dataDir(), 'logs', 'connector.log'), 'utf8')).toMatch(/connector started/);
  });

  it('pairs a company through the local page and books an invoice written through /api/v1, read back in pulled vouchers', async () => {
    const { uiUrl } = await onlineStatus('the connector');
    const companies = await pageApi(uiUrl, 'GET', '/api/companies');
    expect(companies.json.books.map((c: { name: string }) => c.name)).toContain(company.name);
    const paired = await pageApi(uiUrl, 'POST', '/api/pair', { company_id: companyId(), books_company: company.name });
    expect(paired.status).toBe(200);

    const invoice = documentsByEndpoint('WIN1').invoices as { voucher_number: string };
    const acceptance = await relay.api('POST', `/api/v1/invoices?company_id=${companyId()}`, invoice);
    const transaction = await transactionSettled(relay, acceptance.transaction_id, companyId());
    expect(transaction.status).toBe('completed');
    const booked = (await books.vouchers(company.guid)).filter((v) => v.guid === transaction.books_voucher_guid);
    expect(booked).toHaveLength(1);
    const pulled = await eventually('the invoice to come back in pulled vouchers', async () => {
      const page = await relay.api('GET', `/api/v1/pulled-vouchers?company_id=${companyId()}&limit=500`);
      return page.invoices.find((v: { voucher_number: string }) => v.voucher_number === booked[0]!.voucherNumber);
    }, { timeoutMs: 120_000 });
    expect(pulled).toMatchObject({ voucher_type: 'Sales' });
  });

  it('starts as the logon entry says after a sign-out, one connector per user: a second start opens the first one\'s page', async () => {
    const before = liveStatus();
    await wine.endAll();
    startAsLogonWould();
    // Each start has a page address of its own (a fresh token): the file is the new connector's.
    const first = await onlineStatus('the connector to start as at sign-in', (live) => live.uiUrl !== before?.uiUrl);
    const openedFile = wine.linuxPath('C:\\pages-opened.txt');
    const pagesOpened = () => (fs.existsSync(openedFile) ? fs.readFileSync(openedFile, 'utf8').split(/\r?\n/).map((line) => line.trim()).filter(Boolean) : []);
    fs.rmSync(openedFile, { force: true });
    // The Start-menu entry, as a click runs it: its page opens, twice for two clicks, and it is the running one's.
    const link = readShellLink(startMenuEntry());
    const programWindowsDir = `C:\\users\\${USER}\\AppData\\Local\\Programs\\Ledgerwire Connector`;
    expect(link).toMatchObject({ workingDir: programWindowsDir, icon: `${programWindowsDir}\\ledgerwire.ico` });
    expect(link.target).toMatch(/\\ledgerwire-connector\.exe$/);
    expect(link.arguments).toBe(`--disable-warning=ExperimentalWarning "${programWindowsDir}\\app\\connector.cjs" open`);
    const click = [`${link.workingDir}\\ledgerwire-connector.exe`, ...commandLineWords(link.arguments)];
    for (const clicks of [1, 2]) {
      expect((await wine.run(click, { env: CONNECTOR_ENV })).code).toBe(0);
      await eventually(`the Start-menu entry to open the page (${clicks})`, () => pagesOpened().length === clicks, { timeoutMs: 120_000 });
    }
    expect(pagesOpened()).toEqual([first.uiUrl, first.uiUrl]);
    // A second start at logon finds the first and leaves it be.
    const words = commandLineWords((await wine.registryValues(RUN_KEY))?.['Ledgerwire Connector'] ?? '');
    const again = await wine.run(words, { env: CONNECTOR_ENV });
    expect(again.code).toBe(0);
    expect(JSON.parse(again.stdout)).toMatchObject({ already: true, pid: first.pid, ui_url: first.uiUrl });
    expect(liveStatus()?.pid).toBe(first.pid);
  });

  it('books an invoice once when the Windows process is killed during its import', async () => {
    const before = liveStatus();
    expect(before).toBeDefined();
    const count = (await books.vouchers(company.guid)).length;
    // The books apply the import, cut the answer, then hang: the connector cannot look again before it dies.
    await books.control('POST', '/faults', { kind: 'hang-after-import' });
    const acceptance = await relay.api('POST', `/api/v1/invoices?company_id=${companyId()}`, documentsByEndpoint('WIN2').invoices);
    await eventually('the books to import the invoice', async () => (await books.vouchers(company.guid)).length === count + 1, { timeoutMs: 120_000 });
    const killed = await wine.run(['taskkill', '/F', '/PID', String(before!.pid)]);
    expect(killed.code).toBe(0);
    await eventually('the killed connector to be gone', async () => !(await wine.processIds()).has(before!.pid), { timeoutMs: 60_000 });
    expect((await relay.api('GET', `/api/v1/transactions/${acceptance.transaction_id}?company_id=${companyId()}`)).transaction.status).not.toBe('completed');
    await books.control('POST', '/faults/clear');
    startAsLogonWould();
    await onlineStatus('the connector to start again', (live) => live.uiUrl !== before!.uiUrl);
    const transaction = await transactionSettled(relay, acceptance.transaction_id, companyId());
    expect(transaction.status).toBe('completed');
    const after = await books.vouchers(company.guid);
    expect(after.length).toBe(count + 1);
    expect(after.filter((v) => v.guid === transaction.books_voucher_guid)).toHaveLength(1);
  });

  it('installs a newer build over the running one, keeping the enrolment, the pairing and the queue, and starts it again', async () => {
    const before = await onlineStatus('the connector before the upgrade');
    newer = await buildInstaller(tempDataDir('lw-windows-newer-'), { version: nextPatch(installer.version), compression: 'zlib' });
    const count = (await books.vouchers(company.guid)).length;
    // TallyPrime stops answering (as behind a dialog): the invoice is handed to the connector and stays in its queue.
    await books.control('POST', '/faults', { kind: 'stall-next' });
    const acceptance = await relay.api('POST', `/api/v1/invoices?company_id=${companyId()}`, documentsByEndpoint('WIN3').invoices);
    const held = (live: { status: any }) => live.status.queue.waiting + live.status.queue.importing >= 1;
    await onlineStatus('the invoice to be in the connector', held);

    const upgraded = await wine.run([newer.outFile, '/S'], { env: CONNECTOR_ENV });
    expect(upgraded.code).toBe(0);
    expect((await wine.registryValues(UNINSTALL_KEY))?.['DisplayVersion']).toBe(newer.version);
    const after = await onlineStatus('the newer connector to connect', (live) => live.status.version === newer.version);
    expect(after.uiUrl).not.toBe(before.uiUrl);
    expect(after.status.relay.connectorId).toBe(before.status.relay.connectorId);
    expect(after.status.pairings).toMatchObject([{ companyId: companyId(), booksCompanyGuid: company.guid, confirmed: true }]);
    expect(held(after)).toBe(true);

    await books.control('POST', '/faults/clear');
    const transaction = await transactionSettled(relay, acceptance.transaction_id, companyId());
    expect(transaction.status).toBe('completed');
    const vouchers = await books.vouchers(company.guid);
    expect(vouchers.length).toBe(count + 1);
    expect(vouchers.filter((v) => v.guid === transaction.books_voucher_guid)).toHaveLength(1);
  });

  it('uninstalls silently: the program and the logon entry go, the data stays unless told otherwise', async () => {
    const enrolledAs = liveStatus()?.status.relay.connectorId as string;
    expect(enrolledAs).toMatch(/^con_/);
    const uninstaller = wine.linuxPath(`C:\\users\\${USER}\\AppData\\Local\\Programs\\Ledgerwire Connector\\uninstall.exe`);
    const result = await wine.run([uninstaller, '/S']);
    expect(result.code).toBe(0);
    // The uninstaller runs from a copy in the temporary folder; it is done when every program has ended.
    await wine.waitIdle();
    expect(fs.existsSync(programDir())).toBe(false);
    expect(fs.existsSync(startMenuEntry())).toBe(false);
    expect((await wine.registryValues(RUN_KEY))?.['Ledgerwire Connector']).toBeUndefined();
    expect(await wine.registryValues(UNINSTALL_KEY)).toBeUndefined();
    expect(fs.existsSync(path.join(dataDir(), 'connector.db'))).toBe(true);
    expect(liveStatus()).toBeUndefined();

    // Installed again it finds its data: the same enrolment, online at once. Told to, the uninstaller deletes the data too.
    expect((await wine.run([newer.outFile, '/S'], { env: CONNECTOR_ENV })).code).toBe(0);
    const back = await onlineStatus('the reinstalled connector, with its old enrolment');
    expect(back.status.relay.connectorId).toBe(enrolledAs);
    expect((await wine.run([uninstaller, '/S', '/REMOVEDATA'])).code).toBe(0);
    await wine.waitIdle();
    expect(fs.existsSync(programDir())).toBe(false);
    expect(fs.existsSync(dataDir())).toBe(false);
  });

  it('installs and starts all the same when the relay refuses the code, and tells the IT tool so with exit code 3', async () => {
    const refused = await wine.run([newer.outFile, '/S', `/RELAY=${relay.baseUrl}`, '/CODE=lwct_not-a-token-anyone-was-given'], { env: CONNECTOR_ENV });
    expect(refused.code).toBe(3);
    expect(fs.existsSync(path.join(programDir(), 'ledgerwire-connector.exe'))).toBe(true);
    expect((await wine.registryValues(RUN_KEY))?.['Ledgerwire Connector']).toBeDefined();
    // Running, waiting on its page for a code, with the relay it was given already filled in.
    const waiting = await eventually('the installed connector to wait for a code', () => {
      const live = liveStatus();
      return live?.status.relay.state === 'not_enrolled' ? live : undefined;
    }, { timeoutMs: 120_000 });
    expect(waiting.status.relay.url).toBe(relay.baseUrl);
    const page = await pageApi(waiting.uiUrl, 'GET', '/api/status');
    expect(page.status).toBe(200);
    expect(page.json.relay).toMatchObject({ state: 'not_enrolled', url: relay.baseUrl });

    expect((await wine.run([wine.linuxPath(`C:\\users\\${USER}\\AppData\\Local\\Programs\\Ledgerwire Connector\\uninstall.exe`), '/S', '/REMOVEDATA'])).code).toBe(0);
    await wine.waitIdle();
    expect(fs.existsSync(programDir())).toBe(false);
  });
});
