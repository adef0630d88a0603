// A connect link followed as a shop owner would, on a phone-sized window in Chromium: the integrator
// creates a session, the page offers the installer and shows the code, a real connector (the CLI)
// enrols with the code against the books emulator, the page follows it online and lists TallyPrime's
// companies, the owner chooses one, the page returns to the integrator, and the completion webhook
// verifies with the standardwebhooks library. Expired, cancelled and unknown links say what to do.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { Browser } from 'playwright-core';
import { Webhook } from 'standardwebhooks';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runProgram, startProgram, stopAll, waitForStdout, type ManagedProcess } from '../demo/demo-processes.js';
import { ConnectPage } from '../pages/connect-page.js';
import { browserAvailable, launchChromium, openPage } from '../support/browser-session.js';
import { call, eventually, startWebhookCatcher, TEST_OPERATOR_TOKEN, type WebhookCatcher } from '@ledgerwire/test-kit';
import { startConsoleRelay, type ConsoleRelay } from '../support/console-relay.js';

const PHONE = { width: 390, height: 844 };
const POLL = { timeout: 30_000 };
const DEMO_BOOKS_COMPANY = 'Ledgerwire Demo Traders';

describe.skipIf(!browserAvailable())('connect link: from the link to a connected company', () => {
  let relay: ConsoleRelay;
  let browser: Browser;
  let receiver: WebhookCatcher;
  let credential: string;
  let customerId: string;
  let webhookSecret: string;
  const processes: ManagedProcess[] = [];
  const workDir = fs.mkdtempSync(path.join(os.tmpdir(), 'lw-e2e-connect-'));
  const installer = path.join(workDir, 'Ledgerwire Connector Setup.exe');
  fs.writeFileSync(installer, Buffer.alloc(3 * 1_048_576, 7));

  // The relay listens on a port it picked, so its PUBLIC_URL (which links start with) was not known beforehand.
  const pageUrl = (url: string) => {
    const link = new URL(url);
    return `${relay.baseUrl}${link.pathname}${link.hash}`;
  };
  const api = <T = any>(method: string, url: string, status: number, body?: unknown) =>
    call<T>(relay, method, url, status, { token: credential, payload: body }).then(({ body }) => body);

  beforeAll(async () => {
    relay = await startConsoleRelay({ CONNECTOR_INSTALLER_FILE: installer, RELAY_WORKERS: '1' });
    browser = await launchChromium();
    receiver = await startWebhookCatcher({ statuses: [200] });
    const admin = { token: TEST_OPERATOR_TOKEN };
    const { application } = (await call<any>(relay, 'POST', '/admin/v1/applications', 201, { ...admin, payload: { name: 'Sharma Billing' } })).body;
    const key = (await call<any>(relay, 'POST', `/admin/v1/applications/${application.id}/keys`, 201, { ...admin, payload: { environment: 'test', capabilities: [] } })).body;
    credential = key.credential;
    customerId = (await api('POST', '/api/v1/customers', 200, { name: 'Sharma Traders' })).customer.id;
    webhookSecret = (await api('POST', '/api/v1/webhooks', 200, { url: receiver.url(), events: ['connect_session.completed'] })).webhook.secret;
  });
  afterAll(async () => {
    await stopAll(processes);
    await browser?.close();
    await relay?.close();
    await receiver?.close();
    fs.rmSync(workDir, { recursive: true, force: true });
  });

  it('takes a shop owner from the link to a connected company, then back to the integrator', { timeout: 180_000 }, async (test) => {
    const emulator = startProgram('emulator', 'emulator', ['--port', '0', '--control-port', '0', '--data', path.join(workDir, 'books'), '--seed', 'demo']);
    processes.push(emulator);
    const [, booksUrl = ''] = await waitForStdout(emulator, /XML on (http:\S+), control API/, 60_000);

    const returnUrl = `${relay.baseUrl}/api/health?back=from-connect`;
    const { connect_session: session } = await api('POST', '/api/v1/connect-sessions', 200, { customer_id: customerId, company_name: 'Sharma Retail', return_url: returnUrl });
    const { page } = await openPage(browser, test, PHONE);
    const connect = new ConnectPage(page);
    await connect.open(pageUrl(session.url));

    await expect(connect.heading.textContent()).resolves.toBe('Connect TallyPrime for Sharma Traders');
    await expect(connect.setupCode.textContent()).resolves.toBe(session.setup_code);
    await expect(connect.downloadLink.textContent()).resolves.toContain('(3.0 MB)');
    await expect(page.getByText(/its SHA-256 is [0-9a-f]{64}/).count()).resolves.toBe(1);
    const download = await Promise.all([page.waitForEvent('download'), connect.downloadLink.click()]).then(([started]) => started);
    expect(download.suggestedFilename()).toBe('Ledgerwire Connector Setup.exe');
    expect(await connect.overflowsSideways()).toBe(false);

    // The owner types the code into the connector (its CLI here), as read from the phone.
    const connectorData = path.join(workDir, 'connector');
    const typed = session.setup_code.toLowerCase().replace('-', ' ');
    await runProgram('connector', ['enroll', '--data', connectorData, '--relay', relay.baseUrl, '--code', typed, '--books', booksUrl, '--name', 'shop-counter']);
    await connect.whatToDo.filter({ hasText: 'The connector on shop-counter is not connected right now' }).waitFor(POLL);

    processes.push(startProgram('connector', 'connector', ['run', '--data', connectorData], { LEDGERWIRE_PRESENCE_INTERVAL_MS: '500' }));
    await connect.booksCompany(DEMO_BOOKS_COMPANY).waitFor(POLL);
    expect((await api('GET', `/api/v1/connect-sessions/${session.id}`, 200)).connect_session.status).toBe('books_found');
    expect(await connect.overflowsSideways()).toBe(false);

    await connect.choose(DEMO_BOOKS_COMPANY, 'Sharma Retail');
    await connect.connected.waitFor(POLL);
    await expect(connect.step(4).textContent()).resolves.toContain(`${DEMO_BOOKS_COMPANY} in TallyPrime is now Sharma Retail`);
    await page.waitForURL(returnUrl, POLL);

    const done = (await api('GET', `/api/v1/connect-sessions/${session.id}`, 200)).connect_session;
    expect(done).toMatchObject({ status: 'completed', connector_id: expect.stringMatching(/^con_/) });
    const health = await api('GET', `/api/v1/companies/${done.company_id}/health`, 200);
    expect(health).toMatchObject({ paired: true, connector: { online: true }, books: { running: true, company_open: true } });

    const hook = await eventually('the completion webhook', async () => receiver.received.find((received) => received.type === 'connect_session.completed'), { timeoutMs: 30_000 });
    const verified = new Webhook(webhookSecret).verify(hook.body, hook.headers as Record<string, string>) as any;
    expect(verified.data).toMatchObject({ connect_session_id: session.id, company_id: done.company_id, company_name: 'Sharma Retail', machine_name: 'shop-counter', books_company_name: DEMO_BOOKS_COMPANY });
  });

  it('says an expired link, a cancelled link and an unknown link are over, and what to ask for', async (test) => {
    const { page } = await openPage(browser, test, PHONE);
    const connect = new ConnectPage(page);
    const cancelled = (await api('POST', '/api/v1/connect-sessions', 200, { customer_id: customerId, company_name: 'Sharma Wholesale' })).connect_session;
    await api('POST', `/api/v1/connect-sessions/${cancelled.id}/cancel`, 200);
    await connect.open(pageUrl(cancelled.url));
    await expect(connect.heading.textContent()).resolves.toBe('This link was cancelled');
    await expect(connect.warning.textContent()).resolves.toContain('ask them for a new link');
    await expect(connect.setupCode.count()).resolves.toBe(0);

    const expired = (await api('POST', '/api/v1/connect-sessions', 200, { customer_id: customerId, company_name: 'Sharma Online', expires_in_seconds: 300 })).connect_session;
    await relay.app.database.db.updateTable('connect_sessions').set({ expires_at: new Date(Date.now() - 1000).toISOString() }).where('id', '=', expired.id).execute();
    await connect.open(pageUrl(expired.url));
    await expect(connect.heading.textContent()).resolves.toBe('This link has expired');
    await expect(connect.warning.textContent()).resolves.toContain('Ask your software provider to send you a new connect link');

    await connect.open(`${relay.baseUrl}/connect/lwcp_this-link-was-cut-short`);
    await expect(connect.heading.textContent()).resolves.toBe('This link does not work');
    await expect(connect.warning.textContent()).resolves.toContain('copied whole');
    expect(await connect.overflowsSideways()).toBe(false);
  });
});
