// Messaging in the console, as support and an integrator would use it: create a tenant, issue an
// API key (shown once) and revoke another, edit a template with the live preview, then find a message
// sent through the API by recipient and status and read its timeline. The edited template is what
// lands in the next .eml of the outbox.
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser } from 'playwright-core';
import { browserAvailable, keepScreenshot, launchChromium, openPage } from '../support/browser-session.js';
import { call, eventually, TEST_OPERATOR_TOKEN } from '@ledgerwire/test-kit';
import { startConsoleRelay, type ConsoleRelay } from '../support/console-relay.js';
import { ConsoleShell } from '../pages/console-shell.js';
import { ConsoleTenants } from '../pages/console-tenants.js';
import { ConsoleTemplates } from '../pages/console-templates.js';
import { ConsoleMessages } from '../pages/console-messages.js';

/** Browser state follows the relay within a few seconds, even on a busy machine. */
const POLL = { timeout: 10_000, interval: 100 };

async function send(relay: ConsoleRelay, apiKey: string, body: Record<string, unknown>, status: number) {
  return (await call<{ message_id: string }>(relay, 'POST', '/api/messages/send', status, { token: apiKey, payload: body })).body;
}

async function sentEml(relay: ConsoleRelay, apiKey: string, messageId: string): Promise<string> {
  await eventually(`message ${messageId} sent`, async () => {
    const { body } = await call<{ status: string }>(relay, 'GET', `/api/messages/${messageId}`, 200, { token: apiKey });
    return body.status === 'sent' ? true : undefined;
  });
  return fs.readFileSync(path.join(relay.dataDir, 'outbox', `${messageId}.eml`), 'utf8');
}

describe.skipIf(!browserAvailable())('console: messaging', () => {
  let relay: ConsoleRelay;
  let browser: Browser;

  beforeAll(async () => {
    relay = await startConsoleRelay();
    browser = await launchChromium();
  });
  afterAll(async () => {
    await browser?.close();
    await relay?.close();
  });

  it('creates a tenant, shows a new key once, revokes a key, edits a template live and finds a sent message', async (test) => {
    const { page, problems } = await openPage(browser, test);
    const shell = new ConsoleShell(page, relay.consoleUrl);
    const tenants = new ConsoleTenants(shell);
    const templates = new ConsoleTemplates(shell);
    const messages = new ConsoleMessages(shell);
    await shell.signInWithLink(TEST_OPERATOR_TOKEN);

    await tenants.open();
    await page.getByText('No tenants yet.').waitFor({ state: 'visible' });
    const tenantId = await tenants.create('Acme Notifications', 4101);
    expect(tenantId).toMatch(/^ten_/);

    // A new key is shown once; after dismissing it, only its prefix is listed.
    const apiKey = await tenants.issueKey();
    await tenants.dismissNewKey();
    await expect(tenants.newKeyNotice().count()).resolves.toBe(0);
    expect(await page.content()).not.toContain(apiKey);
    const keptPrefix = await tenants.prefixOf(apiKey);

    const doomedKey = await tenants.issueKey();
    await tenants.dismissNewKey();
    const doomedPrefix = await tenants.prefixOf(doomedKey);
    await tenants.revokeKey(doomedPrefix);
    expect(await send(relay, doomedKey, { channel: 'email' }, 401)).toEqual({ error: 'Invalid API Key' });
    await tenants.keyRow(keptPrefix).getByText('active', { exact: true }).waitFor({ state: 'visible' });

    // A template, edited with the live preview rendered from sample data.
    await templates.add('order_shipped', 'Order {{order}} shipped');
    await templates.setSampleData('{"name": "Asha", "order": "A-17"}');
    await templates.setHtml('<p>Hello {{name}}, order <b>{{order}}</b> is on its way.</p>');
    await eventually('templates.previewSubject().innerText() toBe \'Order A-17 shipped\'', async () => {
      expect(await templates.previewSubject().innerText()).toBe('Order A-17 shipped');
      return true;
    }, { timeoutMs: POLL.timeout, intervalMs: POLL.interval });
    await eventually('templates.previewBody().innerText() toBe \'Hello Asha, order A-17 is on its way.\'', async () => {
      expect(await templates.previewBody().innerText()).toBe('Hello Asha, order A-17 is on its way.');
      return true;
    }, { timeoutMs: POLL.timeout, intervalMs: POLL.interval });
    await templates.setHtml('<p>Hello {{#if name}}{{name}}</p>');
    await eventually('templates.previewError().innerText() toContain \'does not compile\'', async () => {
      expect(await templates.previewError().innerText()).toContain('does not compile');
      return true;
    }, { timeoutMs: POLL.timeout, intervalMs: POLL.interval });
    await templates.setHtml('<p>Hello {{name}}, order <b>{{order}}</b> is on its way.</p>');
    await eventually('templates.previewBody().innerText() toBe \'Hello Asha, order A-17 is on its way.\'', async () => {
      expect(await templates.previewBody().innerText()).toBe('Hello Asha, order A-17 is on its way.');
      return true;
    }, { timeoutMs: POLL.timeout, intervalMs: POLL.interval });
    await templates.save();
    await keepScreenshot(page, 'template-editor-1280');

    // An integrator sends through the API; the .eml is rendered from the template saved in the console.
    const sendBody = { channel: 'email', to: 'asha@example.com', subject: 'Order {{order}} shipped', event_key: 'order_shipped', data: { name: 'Asha', order: 'A-17' } };
    const firstId = (await send(relay, apiKey, { ...sendBody, transaction_id: 'order-17' }, 200)).message_id;
    expect(await sentEml(relay, apiKey, firstId)).toContain('is on its way');

    await templates.setHtml('<p>Good news {{name}}: order {{order}} left the warehouse.</p>');
    await templates.save();
    const secondId = (await send(relay, apiKey, { ...sendBody, to: 'ravi@example.com', transaction_id: 'order-18', data: { name: 'Ravi', order: 'A-18' } }, 200)).message_id;
    expect(await sentEml(relay, apiKey, secondId)).toContain('left the warehouse');

    // Support finds the message by recipient and by status, and reads its timeline.
    await shell.visit(`#/tenants/${tenantId}`);
    await messages.openFromTenantPage();
    await messages.search({ recipient: 'ASHA@' });
    await eventually('messages.results().getByRole(\'row\').count() toBe 2', async () => {
      expect(await messages.results().getByRole('row').count()).toBe(2);
      return true;
    }, { timeoutMs: POLL.timeout, intervalMs: POLL.interval });
    await messages.results().getByRole('link', { name: 'asha@example.com' }).waitFor({ state: 'visible' });
    await messages.search({ status: 'failed' });
    await eventually('messages.emptyResults().innerText() toContain \'No message matches this search\'', async () => {
      expect(await messages.emptyResults().innerText()).toContain('No message matches this search');
      return true;
    }, { timeoutMs: POLL.timeout, intervalMs: POLL.interval });
    await messages.search({ status: 'sent', recipient: 'asha' });
    await messages.openMessage('asha@example.com');
    const timeline = await messages.timeline().innerText();
    expect(timeline).toContain('Accepted and queued for delivery');
    expect(timeline).toContain('via outbox');
    expect(await messages.summary().innerText()).toContain('order-17');
    await keepScreenshot(page, 'message-timeline-1280');

    // A status webhook for the tenant: its signing secret is shown once, and it has no history yet.
    await shell.visit(`#/tenants/${tenantId}/webhooks`);
    await shell.heading('Webhooks').waitFor();
    await page.getByLabel('Endpoint URL').fill('http://127.0.0.1:9/message-status');
    await page.getByRole('button', { name: 'Add endpoint' }).click();
    expect(await page.getByLabel('Signing secret value').innerText()).toMatch(/^whsec_/);
    await page.getByRole('button', { name: 'I have stored it' }).click();
    await eventually('page.getByText(\'Nothing has been delivered to this endpoint yet.\').count() toBe 1', async () => {
      expect(await page.getByText('Nothing has been delivered to this endpoint yet.').count()).toBe(1);
      return true;
    }, { timeoutMs: POLL.timeout, intervalMs: POLL.interval });

    expect(problems.pageErrors).toEqual([]);
    expect(problems.failedResponses.filter((r) => !r.includes('/template-previews'))).toEqual([]);
  });
});
