// Named operator accounts in the console: a viewer signs in with a personal token, sees who they are
// and no action their role may not take; the company page and the Audit log page say which support
// person paired and disconnected the company; an admin creates and revokes an account on the
// Operators page, and the revoked token is refused at once.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser } from 'playwright-core';
import { browserAvailable, keepScreenshot, launchChromium, openPage } from '../support/browser-session.js';
import { call, TEST_OPERATOR_TOKEN } from '@ledgerwire/test-kit';
import { startConsoleRelay, type ConsoleRelay } from '../support/console-relay.js';
import { ProtocolConnector } from '../support/protocol-connector.js';
import { ConsoleShell } from '../pages/console-shell.js';
import { ConsoleSignIn } from '../pages/console-sign-in.js';
import { COMPANY_ACTION_PANELS, ConsoleOperators } from '../pages/console-operators.js';

const COMPANY = 'Mehta Textiles FY26';
const BOOKS_COMPANY = { guid: 'guid-mehta-books', name: 'Mehta Textiles (Books)' };

type Created = { operator: { id: string }; token: string };

describe.skipIf(!browserAvailable())('console: operator accounts, roles and the audit log', () => {
  let relay: ConsoleRelay;
  let browser: Browser;
  let connector: ProtocolConnector | undefined;
  let companyId = 0;
  let admin: Created;
  let support: Created;
  let viewer: Created;

  const as = <T>(token: string, method: string, url: string, status: number, body?: unknown) => call<T>(relay, method, url, status, { token, payload: body }).then(({ body }) => body);

  beforeAll(async () => {
    relay = await startConsoleRelay();
    browser = await launchChromium();
    admin = await as<Created>(TEST_OPERATOR_TOKEN, 'POST', '/admin/v1/operators', 201, { name: 'Ada Admin', role: 'admin' });
    support = await as<Created>(admin.token, 'POST', '/admin/v1/operators', 201, { name: 'Sam Support', role: 'support' });
    viewer = await as<Created>(admin.token, 'POST', '/admin/v1/operators', 201, { name: 'Vic Viewer', role: 'viewer' });
    const applicationId = (await as<{ application: { id: string } }>(admin.token, 'POST', '/admin/v1/applications', 201, { name: 'Mehta Billing' })).application.id;
    const credential = (await as<{ credential: string }>(admin.token, 'POST', `/admin/v1/applications/${applicationId}/keys`, 201, { environment: 'test', capabilities: [] })).credential;
    const customer = (await as<{ customer: { id: string; token: string } }>(credential, 'POST', '/api/v1/customers', 200, { name: 'Mehta Textiles' })).customer;
    companyId = (await as<{ company_id: number }>(credential, 'POST', '/api/v1/companies', 200, { name: COMPANY, customer_id: customer.id })).company_id;
    connector = await ProtocolConnector.start({
      baseUrl: relay.baseUrl,
      customerToken: customer.token,
      machineName: 'MEHTA-PC',
      books: { running: true, product: 'TallyPrime 5.1', open_companies: [BOOKS_COMPANY] },
      decide: () => ({ status: 'completed', books_voucher_guid: 'g', books_master_id: '1', books_alter_id: '1' }),
    });
    // Sam pairs and disconnects through the operator API; a viewer's attempt is refused.
    const pair = { connector_id: connector.connectorId, books_company_guid: BOOKS_COMPANY.guid };
    await as(viewer.token, 'POST', `/admin/v1/companies/${companyId}/pair`, 403, pair);
    await as(support.token, 'POST', `/admin/v1/companies/${companyId}/pair`, 200, pair);
    await as(support.token, 'POST', `/admin/v1/companies/${companyId}/disconnect`, 200);
  }, 60_000);
  afterAll(async () => {
    await connector?.close();
    await browser?.close();
    await relay?.close();
  });

  it('a viewer signs in with a personal token, sees their name and role, and no action their role may not take', async (test) => {
    const { page, problems } = await openPage(browser, test);
    const signIn = new ConsoleSignIn(page, relay.consoleUrl);
    const shell = new ConsoleShell(page, relay.consoleUrl);
    const operators = new ConsoleOperators(shell);
    await signIn.open();
    await signIn.signIn(viewer.token);
    await signIn.waitUntilSignedIn();

    expect(await operators.signedInAs()).toBe('Vic Viewer · viewer');
    const sections = await operators.sections();
    expect(sections).toContain('Audit log');
    expect(sections).not.toContain('Operators');

    await operators.openCompany(companyId, COMPANY);
    expect(await operators.visibleCompanyActionPanels()).toEqual([]);
    expect(await operators.companyHistoryRows()).toEqual([
      ['Disconnected', 'Sam Support (support)'],
      ['Paired', 'Sam Support (support)'],
      ['Paired', 'Vic Viewer (viewer)'],
    ]);
    await keepScreenshot(page, 'company-as-viewer-1280');
    expect(problems.failedResponses).toEqual([]);
    expect(problems.consoleErrors).toEqual([]);
    expect(problems.pageErrors).toEqual([]);
  });

  it('the Audit log page lists who did what and filters by operator', async (test) => {
    const { page, problems } = await openPage(browser, test);
    const shell = new ConsoleShell(page, relay.consoleUrl);
    const operators = new ConsoleOperators(shell);
    await shell.signInWithLink(viewer.token);
    await operators.openSection('Audit log');
    const all = await operators.auditRows();
    expect(all.slice(0, 3)).toEqual([
      ['Sam Support (support)', 'company.disconnect', `company ${companyId}`, 'succeeded 200'],
      ['Sam Support (support)', 'company.pair', `company ${companyId}`, 'succeeded 200'],
      ['Vic Viewer (viewer)', 'company.pair', `company ${companyId}`, 'refused 403'],
    ]);
    expect(all.map((row) => row[1])).toContain('operator.create');

    await operators.filterAudit({ 'Operator id': support.operator.id });
    expect(await operators.auditRows()).toEqual([
      ['Sam Support (support)', 'company.disconnect', `company ${companyId}`, 'succeeded 200'],
      ['Sam Support (support)', 'company.pair', `company ${companyId}`, 'succeeded 200'],
    ]);
    await keepScreenshot(page, 'audit-log-1280');
    expect(problems.failedResponses).toEqual([]);
    expect(problems.pageErrors).toEqual([]);
  });

  it('an admin creates an operator (token shown once) and revokes it; the revoked token is refused at once', async (test) => {
    const { page, problems } = await openPage(browser, test);
    const shell = new ConsoleShell(page, relay.consoleUrl);
    const operators = new ConsoleOperators(shell);
    await shell.signInWithLink(admin.token);
    expect(await operators.signedInAs()).toBe('Ada Admin · admin');
    await operators.openSection('Operators');
    const token = await operators.createOperator('Tara Temp', 'support');
    expect(token).toMatch(/^lwop_/);
    await as(token, 'GET', '/admin/v1/whoami', 200);
    await operators.revokeOperator('Tara Temp');
    await as(token, 'GET', '/admin/v1/whoami', 401);

    await operators.openCompany(companyId, COMPANY);
    expect(await operators.visibleCompanyActionPanels()).toEqual([...COMPANY_ACTION_PANELS]);
    expect(problems.failedResponses).toEqual([]);
    expect(problems.pageErrors).toEqual([]);
  });
});
