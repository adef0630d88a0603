// The connector as desktop software, from its command line as the Windows installer, the Start menu and
// logon use it: configure before enrolment, enrol with the code from the environment, start in the
// background once per user (a second start finds the first and opens its page), gather diagnostics
// without secrets, and stop on request, losing nothing. Real processes, a real relay and the emulator.
import fs from 'node:fs';
import path from 'node:path';
import Database from 'better-sqlite3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eventually } from '@ledgerwire/test-kit';
import { runConnectorCli } from '../helpers/connector-cli.js';
import { startTestEmulator, tempDataDir, type TestEmulator } from '../helpers/test-emulator.js';
import { startCustomerRelay, type CustomerRelay } from '../helpers/customer-relay.js';

let relay: CustomerRelay;
let books: TestEmulator;

beforeAll(async () => {
  [relay, books] = await Promise.all([startCustomerRelay(), startTestEmulator()]);
});
afterAll(async () => {
  await relay?.close();
  await books?.close();
});

const connector = runConnectorCli;

const liveStatus = (dataDir: string) => {
  try {
    return JSON.parse(fs.readFileSync(path.join(dataDir, 'status.json'), 'utf8')) as { pid: number; uiUrl: string; status: any };
  } catch {
    return undefined;
  }
};

/** A stand-in browser: records the address it is asked to open. */
function recordingBrowser(dir: string): { program: string; opened: () => string[] } {
  const log = path.join(dir, 'opened.txt');
  const program = path.join(dir, 'record-page.sh');
  fs.writeFileSync(program, `#!/bin/sh\necho "$1" >> '${log}'\n`, { mode: 0o755 });
  return { program, opened: () => (fs.existsSync(log) ? fs.readFileSync(log, 'utf8').split('\n').filter(Boolean) : []) };
}

describe('the connector as desktop software', { timeout: 240_000 }, () => {
  it('is configured, enrolled from the environment, started once per user, and stopped on request', async () => {
    const dataDir = tempDataDir();
    const browser = recordingBrowser(tempDataDir('lw-browser-'));
    const env = { LEDGERWIRE_BROWSER: browser.program, LEDGERWIRE_LOG_LEVEL: 'info' };

    const configured = await connector(['configure', '--relay', `${relay.baseUrl}/`, '--books', books.xmlUrl.replace('http://', ''), '--data', dataDir]);
    expect(configured.code).toBe(0);
    expect(JSON.parse(configured.stdout)).toMatchObject({ success: true, relay_url: relay.baseUrl, books_url: books.xmlUrl });

    // The code comes from the environment, as the installer hands it over: no command line shows it.
    const enrolled = await connector(['enroll', '--name', 'counter-pc', '--data', dataDir], { LEDGERWIRE_ENROL_CODE: relay.customerToken });
    expect(enrolled.code).toBe(0);
    expect(JSON.parse(enrolled.stdout)).toMatchObject({ success: true, relay_url: relay.baseUrl, connector_id: expect.stringMatching(/^con_/) });

    // The Start-menu entry with nothing running: starts it in the background, then opens its page.
    const opened = await connector(['open', '--data', dataDir], env);
    expect(opened.code).toBe(0);
    const first = liveStatus(dataDir);
    expect(first).toBeDefined();
    expect(JSON.parse(opened.stdout)).toMatchObject({ running: true, pid: first!.pid, ui_url: first!.uiUrl });
    await eventually('the page to be opened', () => browser.opened().length === 1);
    expect(browser.opened()).toEqual([first!.uiUrl]);

    // A second start (logon, or a double click) finds the first: it opens that one's page, and exits.
    const again = await connector(['run', '--background', '--open', '--data', dataDir], env);
    expect(again.code).toBe(0);
    expect(JSON.parse(again.stdout)).toMatchObject({ already: true, pid: first!.pid, ui_url: first!.uiUrl });
    await eventually('the page to be opened again', () => browser.opened().length === 2);
    expect(browser.opened()).toEqual([first!.uiUrl, first!.uiUrl]);
    await eventually('the background connector to connect', () => liveStatus(dataDir)?.status.relay.state === 'online');

    const diagnostics = await connector(['diagnostics', '--data', dataDir]);
    expect(diagnostics.code).toBe(0);
    expect(diagnostics.stdout).toMatch(/^Ledgerwire Connector diagnostics, /);
    expect(diagnostics.stdout).toContain(`Relay:          ${relay.baseUrl} — online`);
    expect(diagnostics.stdout).toContain('Books answer:   HTTP 200: <RESPONSE>TallyPrime Server is Running</RESPONSE>');
    const db = new Database(path.join(dataDir, 'connector.db'), { readonly: true });
    const credential = (db.prepare("SELECT value FROM settings WHERE key = 'credential'").get() as { value: string }).value;
    db.close();
    expect(credential.length).toBeGreaterThan(10);
    expect(diagnostics.stdout).not.toContain(credential);
    expect(diagnostics.stdout).not.toContain(relay.customerToken);

    const stopped = await connector(['stop', '--data', dataDir]);
    expect(stopped.code).toBe(0);
    expect(JSON.parse(stopped.stdout)).toMatchObject({ success: true, was_running: true, pid: first!.pid, forced: false });
    expect(liveStatus(dataDir)).toBeUndefined();
    const log = fs.readFileSync(path.join(dataDir, 'logs', 'connector.log'), 'utf8');
    expect(log).toMatch(/"message":"connector started/);
    expect(log).not.toContain(credential);

    const nothing = await connector(['stop', '--data', dataDir]);
    expect(JSON.parse(nothing.stdout)).toMatchObject({ success: true, was_running: false, pid: null });
  });

  it('says what went wrong in one plain sentence for the installer', async () => {
    const result = await connector(['enroll', '--relay', relay.baseUrl, '--code', 'lwct_not-a-real-token', '--plain', '--data', tempDataDir()]);
    expect(result.code).toBe(1);
    expect(result.stdout).toMatch(/^The relay did not accept this customer token \(.+\); check it was pasted whole, or ask for a fresh one\n$/);
  });
});
