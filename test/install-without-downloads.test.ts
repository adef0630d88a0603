// `npm install` / `npm ci` work on a fresh machine with no environment variable set and only the npm
// registry reachable. Electron before version 42 downloaded its binary from GitHub in an install
// script (and failed with a stack trace unless ELECTRON_SKIP_BINARY_DOWNLOAD was set); the lock pins
// one without that script. The installer build gets its Electron from electron-builder instead.
// Electron and electron-builder live in connector/electron-shell (own package.json and lock, installed
// by `npm run shell:install`), so both locks are read. Every install script left in either must
// succeed offline, so each is named here with the reason it does.
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
type LockEntry = { version?: string; hasInstallScript?: boolean; dev?: boolean };
type Lock = { packages: Record<string, LockEntry> };
const readJson = <T>(file: string) => JSON.parse(fs.readFileSync(path.join(root, file), 'utf8')) as T;
const rootLock = readJson<Lock>('package-lock.json');
const shellLock = readJson<Lock>('connector/electron-shell/package-lock.json');

const OFFLINE_INSTALL_SCRIPTS: Record<string, string> = {
  'node_modules/better-sqlite3': 'prebuild-install, else node-gyp builds it from the sources in the package',
  'node_modules/esbuild': 'checks the platform binary npm installed from the registry (@esbuild/<platform>)',
  'node_modules/electron-winstaller': 'picks the 7-Zip binary shipped in the package',
};

describe('npm install without downloads', () => {
  it('the electron package has no install script, and is a major version without one (42+)', () => {
    const electron = shellLock.packages['node_modules/electron'];
    expect(electron).toBeDefined();
    expect(electron?.hasInstallScript ?? false).toBe(false);
    expect(Number(electron?.version?.split('.')[0])).toBeGreaterThanOrEqual(42);
    const declared = JSON.parse(fs.readFileSync(path.join(root, 'connector/electron-shell/package.json'), 'utf8')) as { devDependencies?: Record<string, string> };
    expect(Number(/\d+/.exec(declared.devDependencies?.['electron'] ?? '')?.[0])).toBeGreaterThanOrEqual(42);
  });

  it('the root install has no Electron: it lives only in the shell package', () => {
    expect(Object.keys(rootLock.packages).filter((location) => /node_modules\/(electron|electron-builder|@electron\/.*)$/.test(location))).toEqual([]);
  });

  it('every install script in either lock is one known to succeed offline', () => {
    const withScripts = [...Object.entries(rootLock.packages), ...Object.entries(shellLock.packages)]
      .filter(([, entry]) => entry.hasInstallScript)
      .map(([location]) => location);
    expect(withScripts.filter((location) => !(location in OFFLINE_INSTALL_SCRIPTS))).toEqual([]);
  });
});
