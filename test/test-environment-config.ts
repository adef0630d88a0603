// The test run's own configuration, read from the environment in this one place.
import fs from 'node:fs';

export const testEnvironment = Object.freeze({
  postgresUrl: process.env['TEST_DATABASE_URL'] ?? 'postgres://postgres@127.0.0.1:5432/test',
  requirePostgres: process.env['REQUIRE_POSTGRES'] === '1',
  requireBrowser: process.env['REQUIRE_BROWSER'] === '1',
  chromiumPath: process.env['CHROMIUM_PATH'] ?? '/usr/bin/chromium',
});

export function chromiumPresent(): boolean {
  return fs.existsSync(testEnvironment.chromiumPath);
}
