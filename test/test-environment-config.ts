// The test run's own configuration, read from the environment in this one place.
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';

export const testEnvironment = Object.freeze({
  postgresUrl: process.env['TEST_DATABASE_URL'] ?? 'postgres://postgres@127.0.0.1:5432/test',
  requirePostgres: process.env['REQUIRE_POSTGRES'] === '1',
  requireBrowser: process.env['REQUIRE_BROWSER'] === '1',
  requireWine: process.env['REQUIRE_WINE'] === '1',
  chromiumPath: process.env['CHROMIUM_PATH'] ?? '/usr/bin/chromium',
});

export function chromiumPresent(): boolean {
  return fs.existsSync(testEnvironment.chromiumPath);
}

/**
 * What the Windows suite needs and is missing here: Wine (Debian's `wine`, 64-bit) and NSIS's makensis
 * (Debian's `nsis`). Empty when both are present.
 */
export function windowsToolsMissing(): string[] {
  const missing: string[] = [];
  if (spawnSync('wine', ['--version'], { stdio: 'ignore', timeout: 30_000 }).status !== 0) missing.push('wine');
  if (spawnSync('makensis', ['-VERSION'], { stdio: 'ignore', timeout: 30_000 }).status !== 0) missing.push('makensis (nsis)');
  return missing;
}
