// The hosted connect page's calls (/connect/{token}/…) in-process: the page HTML under a strict
// policy, its state at each step with only names in it, each waiting reason, the choice of company
// (which completes the session), the installer download with its size and SHA-256, and unknown links.
import { createHash } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { call, describeOnDatabases, type TestRelay } from '@ledgerwire/test-kit';
import { api, insertConnector, provisionTenant, startBridgeRelay, type Tenant } from '../bridge-test-kit.js';

describeOnDatabases('connect page calls', (kind) => {
  let relay: TestRelay;
  let tenant: Tenant;
  const installerDir = fs.mkdtempSync(path.join(os.tmpdir(), 'lw-installer-'));
  const installer = path.join(installerDir, 'Ledgerwire Connector Setup 0.9.0.exe');
  const installerBytes = Buffer.from('MZ-not-really-an-installer-'.repeat(1000));
  fs.writeFileSync(installer, installerBytes);

  beforeAll(async () => {
    relay = await startBridgeRelay(kind, { CONNECTOR_INSTALLER_FILE: installer });
    tenant = await provisionTenant(relay);
  });
  afterAll(async () => {
    await relay.close();
    fs.rmSync(installerDir, { recursive: true, force: true });
  });

  const newSession = async (extra: Record<string, unknown> = {}) => {
    const { body } = await api(relay, tenant.credential, 'POST', '/api/v1/connect-sessions', 200, {
      payload: { customer_id: tenant.customerId, company_id: tenant.companyId, return_url: 'https://erp.example.com/back', ...extra },
    });
    const session = body.connect_session;
    return { ...session, path: new URL(session.url).pathname };
  };
  const state = async (pagePath: string, status = 200) => (await call(relay.app, 'GET', `${pagePath}/state`, status)).body;
  const connectorOf = async (connectorId: string, values: { online?: number; connected?: number; books_running?: number; open_companies?: string }) =>
    relay.app.database.db.updateTable('connectors').set(values).where('id', '=', connectorId).execute();

  it('serves the page, then walks its state from pending to completed', async () => {
    const session = await newSession();
    const page = await call(relay.app, 'GET', session.path, 200);
    expect(page.headers['content-security-policy']).toContain("script-src 'self'");
    expect(page.headers['cache-control']).toBe('no-store');
    expect(page.text).toContain('/console/assets/connect-main-');

    const pending = await state(session.path);
    expect(pending).toEqual({
      success: true,
      status: 'pending',
      customer_name: 'Sharma Traders',
      company_name: 'Sharma Traders FY25',
      expires_at: session.expires_at,
      return_url: null,
      installer: { available: true, file_name: 'Ledgerwire Connector Setup 0.9.0.exe', size_bytes: installerBytes.length, sha256: createHash('sha256').update(installerBytes).digest('hex') },
      connector: null,
      books_companies: [],
      waiting: null,
      paired_books_company_name: null,
    });
    await call(relay.app, 'POST', `${session.path}/choose`, 409, { payload: { books_company_guid: 'guid-x' } });

    const { body: enrolled } = await call(relay.app, 'POST', '/api/v1/connectors/enroll', 200, { payload: { token: session.setup_code, machine_name: 'COUNTER-PC', version: '0.9.0' } });
    expect((await state(session.path)).waiting).toBe('connector_offline');
    await connectorOf(enrolled.connector_id, { online: 1, connected: 1, books_running: 0 });
    expect(await state(session.path)).toMatchObject({ status: 'connector_enrolled', waiting: 'books_closed', connector: { online: true, machine_name: 'COUNTER-PC', books_running: false } });
    await connectorOf(enrolled.connector_id, { books_running: 1, open_companies: '[]' });
    expect((await state(session.path)).waiting).toBe('no_company_open');
    const books = [{ guid: 'guid-sharma-fy25', name: 'Sharma Traders 2024-25' }, { guid: 'guid-other', name: 'Sharma Personal' }];
    await connectorOf(enrolled.connector_id, { open_companies: JSON.stringify(books) });
    expect(await state(session.path)).toMatchObject({ status: 'books_found', waiting: null, books_companies: books });
    const { body: progress } = await api(relay, tenant.credential, 'GET', `/api/v1/connect-sessions/${session.id}`, 200);
    expect(progress.connect_session.status).toBe('books_found');

    await call(relay.app, 'POST', `${session.path}/choose`, 409, { payload: { books_company_guid: 'guid-not-open' } });
    await call(relay.app, 'POST', `${session.path}/choose`, 400, { payload: {} });
    const { body: chosen } = await call(relay.app, 'POST', `${session.path}/choose`, 200, { payload: { books_company_guid: 'guid-sharma-fy25' } });
    expect(chosen).toMatchObject({ status: 'completed', return_url: 'https://erp.example.com/back', paired_books_company_name: 'Sharma Traders 2024-25' });
    const { body: company } = await api(relay, tenant.credential, 'GET', `/api/v1/companies/${tenant.companyId}/health`, 200);
    expect(company).toMatchObject({ paired: true, connector: { id: enrolled.connector_id } });
    // Nothing of the integrator's beyond the two names reaches the page.
    expect(JSON.stringify(chosen)).not.toMatch(/cus_|cs_|con_|app_/);
  });

  it('says when the computer was enrolled since for another customer', async () => {
    const session = await newSession();
    const { body: enrolled } = await call(relay.app, 'POST', '/api/v1/connectors/enroll', 200, { payload: { token: session.setup_code, machine_name: 'SHARED-PC', version: '0.9.0' } });
    const { body: other } = await api(relay, tenant.credential, 'POST', '/api/v1/customers', 200, { payload: { name: 'Neighbour Stores' } });
    await insertConnector(relay, { applicationId: tenant.applicationId, customerId: other.customer.id }, { machine: 'SHARED-PC', online: true });
    await connectorOf(enrolled.connector_id, { online: 0, connected: 0 });
    expect((await state(session.path)).waiting).toBe('enrolled_for_another_customer');
  });

  it('downloads the installer only under a known link; unknown links are 404 with words to act on', async () => {
    const session = await newSession();
    const download = await relay.app.inject({ method: 'GET', url: `${session.path}/installer` });
    expect(download.statusCode).toBe(200);
    expect(download.rawPayload.equals(installerBytes)).toBe(true);
    expect(download.headers['content-disposition']).toBe('attachment; filename="Ledgerwire Connector Setup 0.9.0.exe"');
    await call(relay.app, 'GET', '/connect/lwcp_unknown/installer', 404);
    const unknown = await state('/connect/lwcp_unknown', 404);
    expect(unknown.error.code).toBe('connect_link_invalid');
    await state('/connect/not-a-token', 404);
  });

  it('reports cancelled and expired sessions as such', async () => {
    const cancelled = await newSession();
    await api(relay, tenant.credential, 'POST', `/api/v1/connect-sessions/${cancelled.id}/cancel`, 200);
    expect(await state(cancelled.path)).toMatchObject({ status: 'cancelled', return_url: null, books_companies: [] });
    const expired = await newSession();
    await relay.app.database.db.updateTable('connect_sessions').set({ expires_at: new Date(Date.now() - 1).toISOString() }).where('id', '=', expired.id).execute();
    expect((await state(expired.path)).status).toBe('expired');
    await call(relay.app, 'POST', `${expired.path}/choose`, 409, { payload: { books_company_guid: 'guid-x' } });
  });
});
