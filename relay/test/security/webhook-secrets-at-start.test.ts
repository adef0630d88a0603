// Webhook signing secrets at rest, as a running relay sees them: a relay starting on a database with
// secrets stored in clear (written before encryption existed) seals them before it serves anything, and
// a backup of DATA_DIR carries the key file, so a relay restored from it still opens them.
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { FastifyInstance } from 'fastify';
import { afterEach, describe, expect, it } from 'vitest';
import { loadConfig, type RelayConfig } from '../../src/config/load-config.js';
import { backupDataDirectory } from '../../src/db/backup-data-directory.js';
import { openDatabase } from '../../src/db/database.js';
import { migrateToLatest } from '../../src/db/migrate.js';
import { ENCRYPTION_KEY_FILE, secretBoxFor } from '../../src/security/encryption-key.js';
import { WebhookEndpointRepository } from '../../src/webhooks/store/webhook-endpoint-repository.js';
import { createTestDatabase, describeOnDatabases, startRelay, type TestDatabase } from '@ledgerwire/test-kit';

const apps: FastifyInstance[] = [];
const databases: TestDatabase[] = [];
const dirs: string[] = [];
afterEach(async () => {
  for (const app of apps.splice(0)) await app.close();
  for (const database of databases.splice(0)) await database.drop();
  for (const dir of dirs.splice(0)) fs.rmSync(dir, { recursive: true, force: true });
});

function tempDir(label: string): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), `lw-${label}-`));
  dirs.push(dir);
  return dir;
}

const whsec = () => `whsec_${randomBytes(32).toString('base64')}`;

/** A database migrated and holding one endpoint row written in clear, as before encryption. */
async function databaseWithClearRow(config: RelayConfig, secret: string, retired: string): Promise<void> {
  const database = openDatabase(config.database);
  try {
    await migrateToLatest(database.db, database.capabilities);
    const now = new Date().toISOString();
    await database.db
      .insertInto('webhook_endpoints')
      .values({
        id: 'wh_legacy',
        owner_kind: 'tenant',
        owner_id: 'ten_1',
        url: 'https://receiver.example/hooks',
        events: '["message.sent"]',
        description: null,
        enabled: 1,
        disabled_reason: null,
        secret,
        retired_secrets: JSON.stringify([{ secret: retired, expires_at: new Date(Date.now() + 3_600_000).toISOString() }]),
        failing_since: null,
        created_at: now,
        updated_at: now,
        deleted_at: null,
      })
      .execute();
  } finally {
    await database.destroy();
  }
}

async function relayOn(config: RelayConfig): Promise<FastifyInstance> {
  const { app } = await startRelay({ config });
  apps.push(app);
  return app;
}

async function storedAndOpened(app: FastifyInstance, config: RelayConfig) {
  const row = await app.database.db.selectFrom('webhook_endpoints').selectAll().where('id', '=', 'wh_legacy').executeTakeFirstOrThrow();
  const opened = new WebhookEndpointRepository(app.database.db, secretBoxFor(config)).openSecrets(row);
  return { stored: JSON.stringify([row.secret, row.retired_secrets]), secret: opened.secret, retired: opened.retired.map((r) => r.secret) };
}

describeOnDatabases('webhook secrets when a relay starts', (kind) => {
  it('seals secrets stored in clear before it serves, and they open to the same keys', async () => {
    const testDatabase = await createTestDatabase(kind);
    databases.push(testDatabase);
    const config: RelayConfig = Object.freeze({
      ...loadConfig({ DATA_DIR: testDatabase.dataDir, LOG_LEVEL: 'silent', RELAY_WORKERS: '0', RELAY_ENCRYPTION_KEY: randomBytes(32).toString('base64') }),
      database: testDatabase.database,
    });
    const [secret, retired] = [whsec(), whsec()];
    await databaseWithClearRow(config, secret, retired);
    const app = await relayOn(config);
    const after = await storedAndOpened(app, config);
    expect(after.stored).not.toContain('whsec_');
    expect(after.stored).toMatch(/enc:v1:/);
    expect({ secret: after.secret, retired: after.retired }).toEqual({ secret, retired: [retired] });
    // The key came from the environment: no key file was written.
    expect(fs.existsSync(path.join(testDatabase.dataDir, ENCRYPTION_KEY_FILE))).toBe(false);
  });
});

describe('webhook secrets in a backup (SQLite)', () => {
  it('carries the key file, so a relay restored from the backup opens the secrets', async () => {
    const source = tempDir('key-source');
    const target = path.join(tempDir('key-backup'), 'copy');
    const sourceConfig = loadConfig({ DATA_DIR: source, LOG_LEVEL: 'silent', RELAY_WORKERS: '0' });
    const [secret, retired] = [whsec(), whsec()];
    await databaseWithClearRow(sourceConfig, secret, retired);
    const first = await relayOn(sourceConfig);
    expect(fs.statSync(path.join(source, ENCRYPTION_KEY_FILE)).mode & 0o777).toBe(0o600);
    expect((await storedAndOpened(first, sourceConfig)).stored).not.toContain('whsec_');

    const report = await backupDataDirectory(sourceConfig, target);
    expect(report.files).toContain(ENCRYPTION_KEY_FILE);
    const restoredConfig = loadConfig({ DATA_DIR: target, LOG_LEVEL: 'silent', RELAY_WORKERS: '0' });
    const restored = await relayOn(restoredConfig);
    const opened = await storedAndOpened(restored, restoredConfig);
    expect({ secret: opened.secret, retired: opened.retired }).toEqual({ secret, retired: [retired] });
  });
});
