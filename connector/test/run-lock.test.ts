// One running connector per data directory: a second start on the same directory is refused at once,
// in words, before it touches the database; the lock goes with the process that held it.
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { ConnectorAlreadyRunningError, startConnectorService } from '../src/index.js';
import { acquireRunLock } from '../src/core/service/run-lock.js';
import { writeStatusFile } from '../src/core/service/status-file.js';
import { tempDataDir } from './helpers/test-emulator.js';

const NOWHERE = 'http://127.0.0.1:9';

describe('run lock', () => {
  it('refuses a second holder until the first releases it', () => {
    const dataDir = tempDataDir();
    const first = acquireRunLock(dataDir);
    expect(() => acquireRunLock(dataDir)).toThrow(ConnectorAlreadyRunningError);
    first.release();
    acquireRunLock(dataDir).release();
    expect(fs.statSync(path.join(dataDir, 'connector.lock')).mode & 0o777).toBe(0o600);
  });

  it('names the running process from its status file', () => {
    const dataDir = tempDataDir();
    const held = acquireRunLock(dataDir);
    try {
      writeStatusFile(dataDir, { pid: process.pid, uiUrl: null, writtenAt: new Date().toISOString(), status: {} as never });
      expect(() => acquireRunLock(dataDir)).toThrow(`Another connector is already running with the data directory ${dataDir} (process ${process.pid}). Stop it first`);
    } finally {
      held.release();
    }
  });

  it('keeps a second connector service off a directory one runs on, and lets one start after it stopped', async () => {
    const dataDir = tempDataDir();
    const config = { logLevel: 'silent' as const, presenceIntervalMs: 3_600_000, syncIntervalMs: 3_600_000 };
    const running = await startConnectorService({ dataDir, booksUrl: NOWHERE, config });
    try {
      const jobsBefore = running.service.jobs.counts();
      await expect(startConnectorService({ dataDir, booksUrl: NOWHERE, config })).rejects.toBeInstanceOf(ConnectorAlreadyRunningError);
      // The refused start left the running one as it was: its status file and its state.
      expect(fs.existsSync(path.join(dataDir, 'status.json'))).toBe(true);
      expect(running.service.jobs.counts()).toEqual(jobsBefore);
    } finally {
      await running.stop();
    }
    const next = await startConnectorService({ dataDir, booksUrl: NOWHERE, config });
    // The log says the first one stopped, and when (a person reading it sees the gap explained).
    expect(next.service.recentLog(50).map((entry) => entry.message)).toContainEqual(expect.stringMatching(/^stopping: an import under way gets a moment/));
    await next.stop();
  });
});
