// One Vitest run for every workspace. Suites that need PostgreSQL or Chromium learn from the global
// setup whether those are present (and fail the run under REQUIRE_POSTGRES / REQUIRE_BROWSER).
import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts', '*/test/**/*.test.ts', 'e2e/**/*.test.ts'],
    exclude: ['**/node_modules/**', 'test/fixtures/**'],
    globalSetup: ['test/global-setup.ts'],
    testTimeout: 30_000,
    hookTimeout: 60_000,
    pool: 'forks',
    // Two test files at a time, also on a two-core machine (Vitest's default there is one): most files
    // spend their time waiting on PostgreSQL, sockets and child processes, so the run takes about 13
    // minutes instead of 20 on CI's machine, and every test must hold up beside another file's load.
    maxWorkers: 2,
    reporters: ['default'],
  },
});
