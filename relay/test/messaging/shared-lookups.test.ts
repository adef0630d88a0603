// The send path's cached lookups (API key → tenant, event_key → template) when many requests miss
// the cache at once, as they do under load every time the TTL runs out: one query serves them all,
// and a change made here while that query is under way is not undone by its answer refilling the cache.
import { afterEach, beforeEach, expect, it } from 'vitest';
import { loadConfig } from '../../src/config/load-config.js';
import { openDatabase, type RelayDatabase } from '../../src/db/database.js';
import { migrateToLatest } from '../../src/db/migrate.js';
import { TemplateRenderer } from '../../src/messaging/services/templates/template-renderer.js';
import { TemplateRepository } from '../../src/messaging/store/templates/template-repository.js';
import { TemplateService } from '../../src/messaging/services/templates/template-service.js';
import { TenantRepository } from '../../src/messaging/store/tenants/tenant-repository.js';
import { TenantService } from '../../src/messaging/services/tenants/tenant-service.js';
import { createTestDatabase, describeOnDatabases, type TestDatabase } from '@ledgerwire/test-kit';

/** A gate the test opens: lookups that reach it wait until then (no timers). */
function gate() {
  let open!: () => void;
  const opened = new Promise<void>((resolve) => (open = resolve));
  return { opened, open };
}

describeOnDatabases('shared send-path lookups', (kind) => {
  let testDatabase: TestDatabase;
  let database: RelayDatabase;

  beforeEach(async () => {
    testDatabase = await createTestDatabase(kind);
    database = openDatabase(testDatabase.database);
    await migrateToLatest(database.db, database.capabilities);
  });
  afterEach(async () => {
    await database.destroy();
    await testDatabase.drop();
  });

  it('API keys: concurrent misses make one query; a revocation during it holds for every later request', async () => {
    const repository = new TenantRepository(database.db);
    const tenants = new TenantService(repository, loadConfig({ DATA_DIR: testDatabase.dataDir }).messaging, Date.now);
    const tenant = await tenants.create({ name: 'Shared', org_id: 7 });
    const { api_key: apiKey, prefix } = await tenants.createApiKey(tenant.id);

    let queries = 0;
    let hold = gate();
    const find = repository.findLiveKeyWithTenant.bind(repository);
    repository.findLiveKeyWithTenant = async (lookupPrefix) => {
      queries += 1;
      const found = await find(lookupPrefix);
      await hold.opened;
      return found;
    };

    const waiting = Array.from({ length: 6 }, () => tenants.authenticate(apiKey));
    hold.open();
    expect((await Promise.all(waiting)).map((t) => t.id)).toEqual(Array(6).fill(tenant.id));
    expect(queries).toBe(1);
    await tenants.authenticate(apiKey);
    expect(queries).toBe(1); // cached

    // A lookup that read the key while it was live answers after the revocation: it must not refill the cache.
    await tenants.update(tenant.id, { name: 'Shared (renamed)' }); // empties the cache
    hold = gate();
    const before = tenants.authenticate(apiKey);
    await tenants.revokeApiKey(tenant.id, prefix);
    hold.open();
    await before;
    await expect(tenants.authenticate(apiKey)).rejects.toMatchObject({ code: 'api_key_invalid' });
    expect(queries).toBe(3);
  });

  it('templates: concurrent misses make one lookup; a change during it holds for every later send', async () => {
    const tenants = new TenantService(new TenantRepository(database.db), loadConfig({ DATA_DIR: testDatabase.dataDir }).messaging, Date.now);
    const tenantId = (await tenants.create({ name: 'Templates', org_id: 8 })).id;
    const repository = new TemplateRepository(database.db);
    const templates = new TemplateService(repository, new TemplateRenderer(), Date.now);
    const created = await templates.create(tenantId, {
      event_key: 'invoice_ready',
      channel: 'email',
      subject: 'Invoice {{number}}',
      html: '<p>{{number}}</p>',
      is_active: true,
    });

    let lookups = 0;
    let hold = gate();
    const findActive = repository.findActive.bind(repository);
    repository.findActive = async (tenantId, eventKey, channel) => {
      lookups += 1;
      const found = await findActive(tenantId, eventKey, channel);
      await hold.opened;
      return found;
    };

    const waiting = Array.from({ length: 6 }, () => templates.resolveForSend(tenantId, 'invoice_ready', 'email'));
    hold.open();
    expect((await Promise.all(waiting)).map((resolved) => resolved.row.id)).toEqual(Array(6).fill(created.id));
    expect(lookups).toBe(1);

    // Deactivated while a lookup that found it active is under way: later sends see the change.
    await templates.update(tenantId, created.id, { html: '<p>{{number}}!</p>' }); // empties the cache
    hold = gate();
    const before = templates.resolveForSend(tenantId, 'invoice_ready', 'email');
    await templates.update(tenantId, created.id, { is_active: false });
    hold.open();
    await before;
    hold = gate();
    hold.open();
    await expect(templates.resolveForSend(tenantId, 'invoice_ready', 'email')).rejects.toMatchObject({ code: 'invalid_template' });
  });
});
