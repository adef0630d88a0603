import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Writable } from 'node:stream';
import { afterEach, describe, expect, it } from 'vitest';
import { OPERATOR_TOKEN_FILE, ensureOperatorToken } from '../../src/operator/services/operator-token.js';
import { call, describeOnDatabases, startRelay, TEST_OPERATOR_TOKEN, type TestRelay } from '@ledgerwire/test-kit';

describeOnDatabases('operator API auth', (kind) => {
  let relay: TestRelay | undefined;
  afterEach(async () => {
    await relay?.close();
    relay = undefined;
  });

  it('GET /admin/v1/whoami: 401 without or with a wrong token, 200 with the right one', async () => {
    let logged = '';
    const logStream = new Writable({
      write(chunk: Buffer, _encoding, done) {
        logged += chunk.toString();
        done();
      },
    });
    relay = await startRelay({ database: kind, env: { LOG_LEVEL: 'info' }, logStream });
    const missing = await call(relay.app, 'GET', '/admin/v1/whoami', 401);
    expect(missing.body.error.code).toBe('operator_token_missing');
    const wrong = await call(relay.app, 'GET', '/admin/v1/whoami', 401, { token: 'lwop_wrong-token-000000000000000' });
    expect(wrong.body.error.code).toBe('operator_token_invalid');
    const malformed = await call(relay.app, 'GET', '/admin/v1/whoami', 401, { headers: { authorization: `Bearer ${TEST_OPERATOR_TOKEN} ` } });
    expect(malformed.body.error.code).toBe('operator_token_invalid');
    await call(relay.app, 'GET', '/admin/v1/whoami', 401, { headers: { authorization: `Basic ${TEST_OPERATOR_TOKEN}` } });

    const { body } = await call(relay.app, 'GET', '/admin/v1/whoami', 200, { token: TEST_OPERATOR_TOKEN });
    expect(body).toMatchObject({
      success: true,
      operator: { kind: 'bootstrap', id: 'bootstrap', role: 'admin', token_source: 'env' },
      relay: { database: kind, version: expect.any(String), installation_id: expect.stringMatching(/^inst_/) },
    });
    expect(logged).toContain('"url":"/admin/v1/whoami","status":401');
    expect(logged).not.toContain(TEST_OPERATOR_TOKEN);
  });

  it('keeps one installation id per database across restarts', async () => {
    relay = await startRelay({ database: kind });
    const first = await call(relay.app, 'GET', '/admin/v1/whoami', 200, { token: TEST_OPERATOR_TOKEN });
    const again = (await startRelay({ config: relay.config })).app;
    try {
      const second = await call(again, 'GET', '/admin/v1/whoami', 200, { token: TEST_OPERATOR_TOKEN });
      expect(second.body.relay.installation_id).toBe(first.body.relay.installation_id);
    } finally {
      await again.close();
    }
  });
});

describe('generated operator token', () => {
  const dirs: string[] = [];
  afterEach(() => {
    for (const dir of dirs.splice(0)) fs.rmSync(dir, { recursive: true, force: true });
  });
  const tempDir = () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'lw-token-'));
    dirs.push(dir);
    return path.join(dir, 'data');
  };

  it('is generated once, stored only as a SHA-256 digest readable by the owner, and checked in constant time', () => {
    const dataDir = tempDir();
    const first = ensureOperatorToken({ dataDir, envToken: undefined });
    expect(first.source).toBe('data-dir');
    expect(first.generated).toMatch(/^lwop_[A-Za-z0-9_-]{43}$/);
    const token = first.generated ?? '';
    const file = path.join(dataDir, OPERATOR_TOKEN_FILE);
    const stat = fs.statSync(file);
    expect(stat.mode & 0o777).toBe(0o600);
    const stored = fs.readFileSync(file, 'utf8');
    expect(stored).not.toContain(token);
    expect(stored.trim()).toMatch(/^[0-9a-f]{64}$/);

    const second = ensureOperatorToken({ dataDir, envToken: undefined });
    expect(second.generated).toBeUndefined();
    expect(second.matches(token)).toBe(true);
    expect(second.matches(`${token}x`)).toBe(false);
    expect(second.matches('')).toBe(false);
  });

  it('prefers RELAY_ADMIN_TOKEN and writes nothing then', () => {
    const dataDir = tempDir();
    const fromEnv = ensureOperatorToken({ dataDir, envToken: TEST_OPERATOR_TOKEN });
    expect(fromEnv.source).toBe('env');
    expect(fromEnv.matches(TEST_OPERATOR_TOKEN)).toBe(true);
    expect(fs.existsSync(path.join(dataDir, OPERATOR_TOKEN_FILE))).toBe(false);
  });
});
