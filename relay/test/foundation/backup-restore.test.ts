// Backups that restore (issue 22, item 6): `npm run admin -- backup DIR` takes a consistent online copy
// of a running SQLite relay (SQLite's backup API), DIR is itself a DATA_DIR, and a relay started on it
// finds every write accepted before the copy, in the state it had, with the same operator token.
// PostgreSQL is backed up with pg_dump (README); the command refuses it in words.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { FastifyInstance } from 'fastify';
import { afterEach, describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/config/load-config.js';
import { backupDataDirectory } from '../../src/db/backup-data-directory.js';
import { call, runCli, startRelay } from '@ledgerwire/test-kit';

const repositoryRoot = fileURLToPath(new URL('../../../', import.meta.url));
const temporary: string[] = [];
const apps: FastifyInstance[] = [];

function tempDir(label: string): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), `lw-${label}-`));
  temporary.push(dir);
  return dir;
}

async function relayOn(dataDir: string) {
  const { app } = await startRelay({ config: loadConfig({ DATA_DIR: dataDir, LOG_LEVEL: 'silent', RELAY_WORKERS: '0' }) });
  apps.push(app);
  return app;
}

afterEach(async () => {
  for (const app of apps.splice(0)) await app.close();
  for (const dir of temporary.splice(0)) fs.rmSync(dir, { recursive: true, force: true });
});

async function provisionMessaging(app: FastifyInstance, token: string) {
  const unlimited = { burst_per_minute: 100_000, sustained_per_minute: 100_000, daily_quota: 100_000 };
  const tenant = (await call(app, 'POST', '/admin/v1/tenants', 201, { token, payload: { name: 'Backup Co', org_id: 7, limits: unlimited } })).body.tenant;
  const apiKey = (await call(app, 'POST', `/admin/v1/tenants/${tenant.id}/api-keys`, 201, { token })).body.api_key as string;
  await call(app, 'POST', `/admin/v1/tenants/${tenant.id}/templates`, 201, {
    token,
    payload: { event_key: 'invoice_ready', channel: 'email', subject: 'Invoice {{n}}', html: '<p>{{n}}</p>', is_active: true },
  });
  return { tenantId: tenant.id as string, apiKey };
}

describe('backup and restore (SQLite)', () => {
  it('copies a relay mid-traffic into a new DATA_DIR that serves every write accepted before the copy', async () => {
    const source = tempDir('source');
    const app = await relayOn(source);
    const token = app.operators.token.generated!;
    expect(token).toMatch(/^lwop_/);
    const { apiKey } = await provisionMessaging(app, token);
    await call(app, 'POST', '/admin/v1/applications', 201, { token, payload: { name: 'Backup App' } });

    const send = (n: number) =>
      call(app, 'POST', '/api/messages/send', 200, {
        token: apiKey,
        payload: { channel: 'email', to: 'ada@example.com', subject: 'Invoice {{n}}', event_key: 'invoice_ready', transaction_id: `inv-${n}`, data: { n: String(n) } },
      }).then((answer) => answer.body.message_id as string);

    // Writes flow before, during and after the copy.
    const before = await Promise.all(Array.from({ length: 40 }, (_, i) => send(i)));
    await app.messaging.dispatchLoop.runOnce(); // some are sent, the rest still queued
    let n = 40;
    let flowing = true;
    const during: Promise<string>[] = [];
    // Four writers keep sending, one request each at a time, until the copy is done.
    const writer = async () => {
      while (flowing) {
        const next = send(n++);
        during.push(next);
        await next;
      }
    };
    const traffic = Promise.all([writer(), writer(), writer(), writer()]);
    const backupDir = tempDir('backup');
    const report = await backupDataDirectory(loadConfig({ DATA_DIR: source }), backupDir);
    flowing = false;
    await traffic;
    expect(during.length).toBeGreaterThan(0);
    expect(report.files).toContain('operator-token.sha256');

    const states = new Map<string, string>();
    for (const id of before) states.set(id, (await call(app, 'GET', `/api/messages/${id}`, 200, { token: apiKey })).body.status);

    const restored = await relayOn(backupDir);
    expect(restored.operators.token.generated).toBeUndefined(); // the same installation: no new token
    await call(restored, 'GET', '/admin/v1/whoami', 200, { token });
    for (const id of before) {
      const message = await call(restored, 'GET', `/api/messages/${id}`, 200, { token: apiKey });
      expect(message.body.status).toBe(states.get(id));
    }
    // Writes that raced with the copy are either wholly there or absent, never half.
    for (const id of await Promise.all(during)) {
      const answer = await restored.inject({ method: 'GET', url: `/api/messages/${id}`, headers: { authorization: `Bearer ${apiKey}` } });
      expect([200, 404]).toContain(answer.statusCode);
      if (answer.statusCode === 200) expect(answer.json().timeline.length).toBeGreaterThan(0);
    }
    const apps2 = await call(restored, 'GET', '/admin/v1/applications', 200, { token });
    expect(JSON.stringify(apps2.body)).toContain('Backup App');
  });

  it('refuses a backup into a directory that is not empty, and into the relay\'s own DATA_DIR', async () => {
    const source = tempDir('source');
    await relayOn(source);
    const config = loadConfig({ DATA_DIR: source });
    await expect(backupDataDirectory(config, source)).rejects.toThrow(/own DATA_DIR/);
    const busy = tempDir('busy');
    fs.writeFileSync(path.join(busy, 'something'), 'x');
    await expect(backupDataDirectory(config, busy)).rejects.toThrow(/not empty/);
  });

  it('runs as `npm run admin -- backup DIR`, DIR taken from where the command was typed', async () => {
    const source = tempDir('cli-source');
    const cwd = tempDir('cli-cwd');
    const result = await runCli(path.join(repositoryRoot, 'relay/src/cli/admin-launcher.mjs'), {
      args: ['backup', 'nightly'],
      cwd,
      env: { DATA_DIR: source, INIT_CWD: cwd, LOG_LEVEL: 'silent' },
      timeoutMs: 120_000,
      expectCode: 0,
    });
    const report = JSON.parse(result.stdout) as { target: string; database: string };
    expect(report.target).toBe(path.join(cwd, 'nightly'));
    expect(fs.existsSync(path.join(cwd, 'nightly', report.database))).toBe(true);
    expect(fs.existsSync(path.join(cwd, 'nightly', 'backup.json'))).toBe(true);
  });

  it('says to use pg_dump on PostgreSQL', async () => {
    const config = loadConfig({ DATA_DIR: tempDir('pg'), DATABASE_URL: 'postgres://postgres@127.0.0.1:5432/test' });
    await expect(backupDataDirectory(config, tempDir('pg-backup'))).rejects.toThrow(/pg_dump/);
  });
});
