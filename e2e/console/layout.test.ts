// The console is usable at 1280×800 and in a narrow window (400 px): no page scrolls sideways, the
// section navigation stays reachable, and tables turn into cards. Screenshots are kept under
// e2e/test-results/ for a person to look at.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { browserAvailable, keepScreenshot, launchChromium, openPage } from '../support/browser-session.js';
import { call, TEST_OPERATOR_TOKEN } from '@ledgerwire/test-kit';
import { startConsoleRelay, type ConsoleRelay } from '../support/console-relay.js';
import { ConsoleShell } from '../pages/console-shell.js';

const operator = { token: TEST_OPERATOR_TOKEN };

async function horizontalOverflow(page: Page): Promise<number> {
  // An expression string: the e2e code is typed for Node, without the DOM library.
  return page.evaluate<number>('document.documentElement.scrollWidth - window.innerWidth');
}

describe.skipIf(!browserAvailable())('console layout', () => {
  let relay: ConsoleRelay;
  let browser: Browser;
  let tenantId: string;
  let companyId: number;
  let templateId: string;
  let applicationId: string;

  beforeAll(async () => {
    relay = await startConsoleRelay();
    browser = await launchChromium();
    // Data with long names and ids, so the layout is tested with what wraps badly.
    const { tenant } = (await call<{ tenant: { id: string } }>(relay, 'POST', '/admin/v1/tenants', 201, {
      ...operator,
      payload: { name: 'Sundaram Logistics and Warehousing Private Limited', org_id: 9001 },
    })).body;
    tenantId = tenant.id;
    await call(relay, 'POST', `/admin/v1/tenants/${tenantId}/api-keys`, 201, operator);
    const { template } = (await call<{ template: { id: string } }>(relay, 'POST', `/admin/v1/tenants/${tenantId}/templates`, 201, {
      ...operator,
      payload: { event_key: 'invoice_overdue_reminder_second_notice', channel: 'email', subject: 'Invoice {{invoice.number}} is overdue', html: '<p>Dear {{name}}, invoice {{invoice.number}} for {{invoice.amount}} is overdue.</p>' },
    })).body;
    templateId = template.id;
    const { application } = (await call<{ application: { id: string } }>(relay, 'POST', '/admin/v1/applications', 201, { ...operator, payload: { name: 'Sundaram ERP' } })).body;
    applicationId = application.id;
    const key = (await call<{ credential: string }>(relay, 'POST', `/admin/v1/applications/${application.id}/keys`, 201, {
      ...operator,
      payload: { environment: 'test', capabilities: ['pull.master'] },
    })).body;
    const created = (await call<{ company_id: number }>(relay, 'POST', '/api/v1/companies', 200, {
      token: key.credential,
      payload: { name: 'Sundaram Logistics and Warehousing Private Limited (Chennai branch)' },
    })).body;
    companyId = created.company_id;
    // A webhook endpoint whose URL has no natural break: it must wrap, not widen the page.
    await call(relay, 'POST', '/api/v1/webhooks', 200, {
      token: key.credential,
      payload: { url: `http://127.0.0.1:9/hooks/sundaram-logistics/${'x'.repeat(120)}?token=${'y'.repeat(60)}`, events: ['company.linked'] },
    });
  });
  afterAll(async () => {
    await browser?.close();
    await relay?.close();
  });

  for (const viewport of [
    { width: 1280, height: 800 },
    { width: 400, height: 800 },
  ]) {
    it(`fits a ${viewport.width}px wide window`, async (test) => {
      const { page, problems } = await openPage(browser, test, viewport);
      const shell = new ConsoleShell(page, relay.consoleUrl);
      await shell.signInWithLink(TEST_OPERATOR_TOKEN);

      const pages: readonly (readonly [string, string, string])[] = [
        ['tenants', '#/tenants', 'Tenants'],
        ['tenant', `#/tenants/${tenantId}`, 'Sundaram Logistics and Warehousing Private Limited'],
        ['template', `#/tenants/${tenantId}/templates/${templateId}`, 'Template invoice_overdue_reminder_second_notice'],
        ['application', `#/applications/${applicationId}`, 'Sundaram ERP'],
        ['companies', '#/companies', 'Companies'],
        ['company', `#/companies/${companyId}`, 'Sundaram Logistics and Warehousing Private Limited (Chennai branch)'],
        ['transactions', '#/transactions', 'Transactions'],
        ['webhooks', `#/applications/${applicationId}/webhooks`, 'Webhooks'],
      ];
      for (const [name, hash, heading] of pages) {
        await shell.visit(hash);
        await shell.heading(heading).waitFor();
        await page.locator('.loading').first().waitFor({ state: 'detached' });
        // The editor's live preview arrives a moment after the page: the screenshot should show it.
        if (name === 'template') await page.frameLocator('iframe[title="HTML preview"]').getByText('Dear Asha').waitFor();
        await keepScreenshot(page, `${name}-${viewport.width}`);
        expect(await horizontalOverflow(page), `${name} scrolls sideways at ${viewport.width}px`).toBeLessThanOrEqual(0);
      }
      // The navigation is on screen without opening anything at either width.
      await page.getByRole('navigation', { name: 'Console sections' }).getByRole('link', { name: 'Transactions' }).waitFor({ state: 'visible' });
      expect(problems.pageErrors).toEqual([]);
      expect(problems.failedResponses).toEqual([]);
    });
  }
});
