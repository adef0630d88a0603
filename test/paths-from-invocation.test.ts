// Paths mean what they say: a relative DATA_DIR or --data is taken from the folder the command was
// typed in, although npm runs each workspace's script inside that workspace (relay/, connector/,
// emulator/). Each program is started as a person starts it, with `npm run …` from the checkout.
import { execFile, spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { afterAll, describe, expect, it } from 'vitest';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const run = promisify(execFile);
const base = fs.mkdtempSync(path.join(os.tmpdir(), 'lw-paths-'));

/** A fresh folder, named relative to the checkout as a person would type it (../../tmp/…). */
function relativeFolder(name: string): { absolute: string; typed: string } {
  const absolute = path.join(base, name);
  return { absolute, typed: path.relative(root, absolute) };
}

/** Starts `npm run <script> -- args` from the checkout and resolves with the first stdout match. */
function startUntil(script: string, args: string[], env: Record<string, string>, pattern: RegExp): Promise<RegExpExecArray> {
  const child = spawn('npm', ['run', '--silent', script, '--', ...args], { cwd: root, env: { ...process.env, ...env }, stdio: ['ignore', 'pipe', 'pipe'], detached: true });
  let output = '';
  return new Promise((resolve, reject) => {
    const stop = () => {
      if (child.exitCode === null) process.kill(-(child.pid ?? 0), 'SIGTERM');
    };
    child.stdout.on('data', (chunk: Buffer) => {
      output += chunk.toString();
      const match = pattern.exec(output);
      if (match) {
        child.once('exit', () => resolve(match));
        stop();
      }
    });
    child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.once('exit', (code) => {
      if (!pattern.test(output)) reject(new Error(`npm run ${script} exited (${code}) before printing ${pattern}:\n${output}`));
    });
  });
}

describe('relative paths are taken from where the command was run', { timeout: 120_000 }, () => {
  afterAll(() => fs.rmSync(base, { recursive: true, force: true }));
  const { RELAY_ADMIN_TOKEN: _token, DATABASE_URL: _url, ...inherited } = process.env;
  const relayEnv = { ...inherited, LOG_LEVEL: 'warn' } as Record<string, string>;

  it('npm start: DATA_DIR=<relative> holds the relay’s SQLite database there, not under relay/', async () => {
    const data = relativeFolder('relay-data');
    await startUntil('start', [], { ...relayEnv, PORT: '0', HOST: '127.0.0.1', DATA_DIR: data.typed }, /Ledgerwire relay listening on /);
    expect(fs.existsSync(path.join(data.absolute, 'relay.sqlite'))).toBe(true);
    expect(fs.existsSync(path.join(root, 'relay', data.typed))).toBe(false);
  });

  it('npm run admin: DATA_DIR=<relative> is the same folder npm start uses', async () => {
    const data = relativeFolder('admin-data');
    const { stdout } = await run('npm', ['run', '--silent', 'admin', '--', 'whoami'], { cwd: root, env: { ...relayEnv, DATA_DIR: data.typed } });
    expect(JSON.parse(stdout)).toMatchObject({ data_dir: data.absolute, database: 'sqlite' });
    expect(fs.existsSync(path.join(data.absolute, 'relay.sqlite'))).toBe(true);
  });

  it('npm run connector -- … --data <relative>: the connector’s state is there, not under connector/', async () => {
    const data = relativeFolder('connector-data');
    // Nothing listens on port 1: status reports the books as not running, and keeps its state in --data.
    const { stdout } = await run('npm', ['run', '--silent', 'connector', '--', 'status', '--data', data.typed, '--books', 'http://127.0.0.1:1'], { cwd: root });
    expect(JSON.parse(stdout)).toMatchObject({ running: false });
    expect(fs.readdirSync(data.absolute).some((file) => file.startsWith('connector'))).toBe(true);
    expect(fs.existsSync(path.join(root, 'connector', data.typed))).toBe(false);
  });

  it('npm run emulator -- --data <relative>: the books are kept there, not under emulator/', async () => {
    const data = relativeFolder('books-data');
    const [, dataDir] = await startUntil('emulator', ['--port', '0', '--control-port', '0', '--data', data.typed], {}, /data in (\S+)/);
    expect(dataDir).toBe(data.absolute);
    expect(fs.existsSync(data.absolute)).toBe(true);
  });
});
