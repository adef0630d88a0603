// The relay as a user starts it (`npm start`: the compiled relay, which the test run's global setup
// builds when stale): a real process, a real port, real signals.
import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, describe, expect, it } from 'vitest';

const relayDir = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');

function startRelay(env: Record<string, string>): ChildProcessWithoutNullStreams {
  const { RELAY_ADMIN_TOKEN: _ignored, DATABASE_URL: _alsoIgnored, ...inherited } = process.env;
  return spawn(process.execPath, ['dist/server.mjs'], { cwd: relayDir, env: { ...inherited, LOG_LEVEL: 'warn', ...env } });
}

function collect(child: ChildProcessWithoutNullStreams) {
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
  child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
  const output = () => ({ stdout, stderr });
  const waitForLine = (pattern: RegExp) =>
    new Promise<RegExpMatchArray>((resolve, reject) => {
      const check = () => {
        const match = pattern.exec(stdout);
        if (match) resolve(match);
      };
      child.stdout.on('data', check);
      child.on('exit', (code) => reject(new Error(`relay exited (${code}) before printing ${pattern}: ${stdout}${stderr}`)));
      check();
    });
  return { exited, output, waitForLine };
}

describe('relay process', { timeout: 90_000 }, () => {
  const dirs: string[] = [];
  const children: ChildProcessWithoutNullStreams[] = [];
  afterEach(() => {
    for (const child of children.splice(0)) if (child.exitCode === null) child.kill('SIGKILL');
    for (const dir of dirs.splice(0)) fs.rmSync(dir, { recursive: true, force: true });
  });
  const dataDir = () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'lw-server-'));
    dirs.push(dir);
    return dir;
  };

  it('prints the links at PUBLIC_URL when it names another address (a load balancer)', async () => {
    const child = startRelay({ PORT: '0', HOST: '127.0.0.1', DATA_DIR: dataDir(), PUBLIC_URL: 'http://balancer.example:8088' });
    children.push(child);
    const relay = collect(child);
    await relay.waitForLine(/Console: /);
    expect(relay.output().stdout).toContain('API docs: http://balancer.example:8088/docs');
    expect(relay.output().stdout).toContain('Console:  http://balancer.example:8088/console');
    child.kill('SIGTERM');
    expect(await relay.exited).toBe(0);
  });

  it('starts on SQLite under DATA_DIR, prints the generated token once, answers, and exits cleanly on SIGTERM', async () => {
    const dir = dataDir();
    const child = startRelay({ PORT: '0', HOST: '127.0.0.1', DATA_DIR: dir });
    children.push(child);
    const relay = collect(child);
    const [, url] = await relay.waitForLine(/listening on (http:\/\/127\.0\.0\.1:\d+)/);
    const [, token] = await relay.waitForLine(/Operator token \(shown once; keep it\): (lwop_\S+)/);
    expect(fs.existsSync(path.join(dir, 'relay.sqlite'))).toBe(true);

    const health = await fetch(`${url}/api/health`);
    expect(health.status).toBe(200);
    expect(await health.json()).toEqual({ status: 'ok', service: 'messaging' });
    const whoami = await fetch(`${url}/admin/v1/whoami`, { headers: { authorization: `Bearer ${token}` } });
    expect(whoami.status).toBe(200);

    child.kill('SIGTERM');
    expect(await relay.exited).toBe(0);
    expect(relay.output().stderr).not.toContain(String(token));

    // A second start on the same DATA_DIR prints no token: only its digest was kept.
    const again = startRelay({ PORT: '0', HOST: '127.0.0.1', DATA_DIR: dir });
    children.push(again);
    const second = collect(again);
    await second.waitForLine(/listening on/);
    await second.waitForLine(/Console: /);
    again.kill('SIGINT');
    expect(await second.exited).toBe(0);
    expect(second.output().stdout).not.toContain('Operator token');
  });

  it.each([
    [{ PORT: 'abc' }, 'Invalid configuration: PORT must be an integer from 0 to 65535 (got "abc")'],
    [{ DATABASE_URL: 'postgres//broken' }, 'Invalid configuration: DATABASE_URL must be a PostgreSQL URL such as postgres://user@host:5432/database'],
  ])('fails fast with one line for %o', async (env, line) => {
    const child = startRelay({ DATA_DIR: dataDir(), ...env });
    children.push(child);
    const relay = collect(child);
    expect(await relay.exited).toBe(1);
    expect(relay.output().stderr.trim()).toBe(line);
    expect(relay.output().stdout).toBe('');
  });
});
