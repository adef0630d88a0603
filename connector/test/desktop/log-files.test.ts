// The connector's log files in its data folder roll over: past 1 MB the file becomes connector.log.1 and
// a new one starts, five old ones at most, so months of running never fill the disk.
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { logsDir, openLogFiles } from '../../src/core/support/log-files.js';
import { tempDataDir } from '../helpers/test-emulator.js';

describe('log files', () => {
  it('roll over at 1 MB and keep five old files', async () => {
    const dataDir = tempDataDir();
    const files = openLogFiles(dataDir, () => new Date('2026-11-29T10:00:00.000Z'));
    const line = 'x'.repeat(1000);
    // About 8 MB of records: enough for seven roll-overs, of which five are kept.
    for (let i = 0; i < 8_000; i += 1) files.sink({ level: 'info', message: `${i} ${line}` });
    await files.close();
    const names = fs.readdirSync(logsDir(dataDir)).sort();
    expect(names).toEqual(['connector.log', 'connector.log.1', 'connector.log.2', 'connector.log.3', 'connector.log.4', 'connector.log.5']);
    for (const name of names) expect(fs.statSync(path.join(logsDir(dataDir), name)).size).toBeLessThanOrEqual(1024 * 1024 + 2048);
    const last = fs.readFileSync(path.join(logsDir(dataDir), 'connector.log'), 'utf8').trim().split('\n').at(-1) ?? '';
    expect(JSON.parse(last)).toMatchObject({ time: '2026-11-29T10:00:00.000Z', level: 'info', message: `7999 ${line}` });
  });
});
