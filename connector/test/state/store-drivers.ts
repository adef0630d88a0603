// What the local store's suite (this folder) runs on, and the processes it starts. It runs on every
// SQLite driver this process can load: better-sqlite3 on Node 20; both on Node 22.16+ (better-sqlite3
// built for it); only the named one when LEDGERWIRE_SQLITE_DRIVER says so, as the run under the pinned
// Node runtime does (sqlite-pinned-runtime.test.ts), where Node 20's better-sqlite3 cannot load.
// Nothing here imports the emulator or the relay: both load better-sqlite3.
import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { loadConnectorConfig } from '../../src/core/config/load-config.js';
import { nodeSqliteProblem } from '../../src/core/state/node-sqlite-driver.js';
import type { SqliteDriverName } from '../../src/core/state/sqlite-connection.js';

const here = path.dirname(fileURLToPath(import.meta.url));
const root = path.resolve(here, '../../..');

export function driversUnderTest(): SqliteDriverName[] {
  const chosen = loadConnectorConfig({}, process.env).sqliteDriver;
  if (chosen !== 'auto') return [chosen];
  return nodeSqliteProblem() === undefined ? ['better-sqlite3', 'node'] : ['better-sqlite3'];
}

export function tempDir(prefix = 'lw-store-'): string {
  return fs.mkdtempSync(path.join(os.tmpdir(), prefix));
}

/** Jobs per transaction of a write-jobs process: a copy taken at one instant holds whole batches. */
export const WRITE_BATCH = 5;

export type StoreProcessRole = 'hold-run-lock' | 'write-jobs';

export type StoreProcess = Readonly<{
  child: ChildProcessWithoutNullStreams;
  /** Resolves when the process has printed this line; rejects if it exits or fails first. */
  line(text: string, timeoutMs?: number): Promise<void>;
  /** Resolves when the process has ended. */
  exited: Promise<void>;
}>;

/** store-process.ts in a process of its own, on this Node (the pinned one under the pinned run). */
export function startStoreProcess(role: StoreProcessRole, dataDir: string, driver: SqliteDriverName): StoreProcess {
  const child = spawn(process.execPath, ['--import', 'tsx', path.join(here, 'store-process.ts'), role, dataDir, driver], { cwd: root });
  let stdout = '';
  let stderr = '';
  const waiting = new Set<() => void>();
  child.stdout.on('data', (chunk: Buffer) => {
    stdout += chunk.toString();
    for (const check of waiting) check();
  });
  child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const line = (text: string, timeoutMs = 20_000) =>
    new Promise<void>((resolve, reject) => {
      const timer = setTimeout(() => finish(new Error(`${role} printed no "${text}" within ${timeoutMs} ms; stderr: ${stderr}`)), timeoutMs);
      const check = () => {
        if (stdout.split('\n').includes(text)) finish();
      };
      const onExit = (code: number | null, signal: string | null) =>
        finish(new Error(`${role} ended (${signal ?? `exit ${code}`}) before printing "${text}"; stderr: ${stderr}`));
      const finish = (error?: Error) => {
        clearTimeout(timer);
        waiting.delete(check);
        child.off('exit', onExit);
        if (error) reject(error);
        else resolve();
      };
      waiting.add(check);
      child.once('exit', onExit);
      check();
      if (child.exitCode !== null || child.signalCode !== null) onExit(child.exitCode, child.signalCode);
    });
  return { child, line, exited };
}
