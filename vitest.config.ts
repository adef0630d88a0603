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
    reporters: ['default'],
  },
});
