// The bridge's admin CLI commands call the same services as the operator API: an application and a
// key made from the shell authenticate over HTTP; settings and pairing show up in the API.
import { afterAll, beforeAll, expect, it } from 'vitest';
import { adminCommands } from '../../src/cli/admin-commands.js';
import type { AdminCommandContext } from '../../src/foundation/admin-command.js';
import { call, describeOnDatabases, eventually, type TestRelay } from '@ledgerwire/test-kit';
import { api, insertConnector, startBridgeRelay } from './bridge-test-kit.js';

describeOnDatabases('bridge admin CLI', (kind) => {
  let relay: TestRelay;
  const run = (name: string, args: string[] = [], options: Record<string, string> = {}): Promise<any> => {
    const command = adminCommands[name];
    if (!command) throw new Error(`no command ${name}`);
    const context: AdminCommandContext = { config: relay.config, database: relay.app.database, args, options };
    return command.run(context);
  };

  beforeAll(async () => {
    relay = await startBridgeRelay(kind);
  });
  afterAll(() => relay.close());

  it('creates an application and a key, configures and pairs a company, shows a transaction, revokes the key', async () => {
    const application = await run('bridge-create-application', ['Shell Made']);
    expect(application).toMatchObject({ id: expect.stringMatching(/^app_/), name: 'Shell Made' });
    expect((await run('bridge-list-applications')).map((a: any) => a.id)).toContain(application.id);
    const key = await run('bridge-create-key', [application.id], { environment: 'live', capabilities: 'pull.master,report.gst' });
    expect(key).toMatchObject({ environment: 'live', capabilities: ['pull.master', 'report.gst'], credential: `${key.key_id}:${key.secret}` });
    await api(relay, key.credential, 'GET', '/api/v1/ping', 200);
    await expect(run('bridge-create-key', [application.id], { environment: 'prod' })).rejects.toThrow();

    const { body: customer } = await api(relay, key.credential, 'POST', '/api/v1/customers', 200, { payload: { name: 'Shell Customer' } });
    const { body: company } = await api(relay, key.credential, 'POST', '/api/v1/companies', 200, { payload: { name: 'Shell Books', customer_id: customer.customer.id } });
    const settings = await run('bridge-company-settings', [String(company.company_id)], { 'pull-masters': 'yes', gst: 'yes' });
    expect(settings).toMatchObject({ pull_masters: true, reports: { stock: false, gst: true } });
    await expect(run('bridge-company-settings', [String(company.company_id)], { gst: 'maybe' })).rejects.toThrow(/yes or no/);

    const connectorId = await insertConnector(relay, { applicationId: application.id, customerId: customer.customer.id });
    const paired = await run('bridge-pair-company', [String(company.company_id)], { connector: connectorId, 'books-guid': 'cli-guid', 'books-name': 'Shell (Books)' });
    expect(paired).toMatchObject({ paired: true, connector_id: connectorId, books_company_guid: 'cli-guid', books_company_name: 'Shell (Books)' });

    const { body: accepted } = await api(relay, key.credential, 'POST', `/api/v1/masters/godown?company_id=${company.company_id}`, 200, { payload: { name: 'Back Room' } });
    const shown = await run('bridge-show-transaction', [accepted.transaction_id]);
    expect(shown).toMatchObject({ job_id: accepted.transaction_id, job_type: 'master', status: 'queued' });
    expect(shown.xml).toContain('Back Room');
    expect(shown.xml).toContain('Shell (Books)');

    await run('bridge-revoke-key', [key.key_id]);
    // The CLI is another process: the relay's 2 s cache of verified keys lets the revocation reach it
    // within that time (a revocation through the relay's own API takes effect at once).
    // A bounded wait, not a stopwatch: the key is refused within the cache's lifetime and a margin.
    await eventually('the revocation to reach the relay', () => call(relay.app, 'GET', '/api/v1/ping', 401, { token: key.credential }), { timeoutMs: 3_000, intervalMs: 100 });
  });
});
