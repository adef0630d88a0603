// The local store's suite alone, for the run under the pinned Node runtime (sqlite-pinned-runtime.test.ts):
// none of the root config's global setup, which loads the relay and with it Node 20's better-sqlite3.
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vitest/config';

export default defineConfig({
  root: path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../..'),
  test: {
    include: ['connector/test/state/**/*.test.ts'],
    testTimeout: 30_000,
    pool: 'forks',
    // One file at a time: the run sits inside another test file on a machine shared with the rest.
    maxWorkers: 1,
  },
});
