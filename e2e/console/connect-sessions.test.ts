// Support sees a customer's connect links in the console: from the application's customers to the
// customer's links, each with its status, company, expiry and creation, newest first; support cancels
// an open one there, after which its setup code enrols nothing, while the customer's other link still
// works; the cancel is in the audit log.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser } from 'playwright-core';
import { browserAvailable, keepScreenshot, launchChromium, openPage } from '../support/browser-session.js';
import { call, TEST_OPERATOR_TOKEN } from '@ledgerwire/test-kit';
import { startConsoleRelay, type ConsoleRelay } from '../support/console-relay.js';
import { ConsoleShell } from '../pages/console-shell.js';
import { ConsoleBridgeSupport } from '../pages/console-bridge-support.js';
import { ConsoleConnectSessions } from '../pages/console-connect-sessions.js';

const APPLICATION = 'Sharma Billing';
const CUSTOMER = 'Sharma Traders';

type Created = { connect_session: { id: string; setup_code: string; company_name: string; expires_at: string } };
type Session = { connect_session: { status: string } };

describe.skipIf(!browserAvailable())('console: connect links', () => {
  let relay: ConsoleRelay;
  let browser: Browser;
  let applicationId = '';
  let credential = '';
  let customerId = '';

  const operator = <T>(method: string, url: string, status: number, body?: unknown) => call<T>(relay, method, url, status, { token: TEST_OPERATOR_TOKEN, payload: body }).then(({ body }) => body);
  const integrator = <T>(method: string, url: string, status: number, body?: unknown) => call<T>(relay, method, url, status, { token: credential, payload: body }).then(({ body }) => body);
  const enrol = (code: string, machine: string) =>
    fetch(`${relay.baseUrl}/api/v1/connectors/enroll`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ token: code, machine_name: machine, version: '1.4.2' }),
    });

  beforeAll(async () => {
    relay = await startConsoleRelay();
    browser = await launchChromium();
    applicationId = (await operator<{ application: { id: string } }>('POST', '/admin/v1/applications', 201, { name: APPLICATION })).application.id;
    credential = (await operator<{ credential: string }>('POST', `/admin/v1/applications/${applicationId}/keys`, 201, { environment: 'test', capabilities: [] })).credential;
    customerId = (await integrator<{ customer: { id: string } }>('POST', '/api/v1/customers', 200, { name: CUSTOMER })).customer.id;
  }, 60_000);
  afterAll(async () => {
    await browser?.close();
    await relay?.close();
  });

  it('lists a customer’s links with status, company, expiry and creation, and cancels an open one', async (test) => {
    const retail = (await integrator<Created>('POST', '/api/v1/connect-sessions', 200, { customer_id: customerId, company_name: 'Sharma Retail' })).connect_session;
    const wholesale = (await integrator<Created>('POST', '/api/v1/connect-sessions', 200, { customer_id: customerId, company_name: 'Sharma Wholesale', expires_in_seconds: 3600 }))
      .connect_session;

    const { page, problems } = await openPage(browser, test);
    const shell = new ConsoleShell(page, relay.consoleUrl);
    await shell.signInWithLink(TEST_OPERATOR_TOKEN);
    await new ConsoleBridgeSupport(shell).openApplication(applicationId, APPLICATION);
    const links = new ConsoleConnectSessions(shell);
    await links.openFromApplication(CUSTOMER);

    const rows = await links.rows();
    expect(rows.map((row) => [row.sessionId, row.status, row.company])).toEqual([
      [wholesale.id, 'pending', 'Sharma Wholesale'],
      [retail.id, 'pending', 'Sharma Retail'],
    ]);
    for (const row of rows) {
      expect(row.expires).not.toBe('—');
      expect(row.created).not.toBe('—');
    }
    // The table says the same instants the API does (the browser shows them in its own locale).
    expect(await links.row(wholesale.id).locator('time').first().getAttribute('datetime')).toBe(wholesale.expires_at);
    // The page never shows a setup code.
    expect(await page.content()).not.toContain(wholesale.setup_code);

    const asked = await links.cancel(wholesale.id, 'Sharma Wholesale');
    expect(asked).toContain('stop working at once');
    expect(await links.offersCancel(wholesale.id)).toBe(false);
    expect((await integrator<Session>('GET', `/api/v1/connect-sessions/${wholesale.id}`, 200)).connect_session.status).toBe('cancelled');
    const refused = await enrol(wholesale.setup_code, 'WHOLESALE-PC');
    expect(refused.status).toBe(401);
    expect(((await refused.json()) as { error: { code: string } }).error.code).toBe('setup_code_invalid');
    const audit = await operator<{ entries: { action: string; object_id: string | null }[] }>('GET', `/admin/v1/audit-log?object_type=connect_session&object_id=${wholesale.id}`, 200);
    expect(audit.entries.map((entry) => entry.action)).toEqual(['connect_session.cancel']);

    // The other link still works: its code enrols, and the console shows where it got to.
    expect((await enrol(retail.setup_code, 'RETAIL-PC')).status).toBe(200);
    await shell.visit('#/companies');
    await shell.visit(`#/customers/${customerId}/connect-sessions`);
    await links.waitForStatus(retail.id, 'connector_enrolled');
    expect(await links.offersCancel(retail.id)).toBe(true);

    expect(problems.pageErrors).toEqual([]);
    expect(problems.consoleErrors).toEqual([]);
    await keepScreenshot(page, 'console-connect-links');
  });

  it('answers 404 for an unknown customer or link, and cancelling a cancelled link again changes nothing', async () => {
    await operator('GET', '/admin/v1/customers/cus_nobody/connect-sessions', 404);
    await operator('POST', '/admin/v1/connect-sessions/cs_nothing/cancel', 404);
    const link = (await integrator<Created>('POST', '/api/v1/connect-sessions', 200, { customer_id: customerId, company_name: 'Sharma Exports' })).connect_session;
    expect((await operator<Session>('POST', `/admin/v1/connect-sessions/${link.id}/cancel`, 200)).connect_session.status).toBe('cancelled');
    expect((await operator<Session>('POST', `/admin/v1/connect-sessions/${link.id}/cancel`, 200)).connect_session.status).toBe('cancelled');
  });
});
