// The Electron binary cannot be downloaded on these machines, so the shell is proven by what can
// run here: its electron-builder configuration validates against electron-builder's own schema, the
// shell type-checks against electron's own types, and it bundles (main + preload + the core) with
// electron left external. Electron and electron-builder need Node 22.12+, so they live outside the
// root install in connector/electron-shell (its own package.json and lock); this file installs that
// package on demand (`npm ci`, ELECTRON_SKIP_BINARY_DOWNLOAD=1, about 15 s once) and reuses the install
// while the lock is unchanged.
import { execFileSync } from 'node:child_process';
import crypto from 'node:crypto';
import fs from 'node:fs';
import { createRequire } from 'node:module';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const shellDir = path.join(root, 'connector/electron-shell');

/** Installs connector/electron-shell unless an install of the same lock is already there. */
function ensureShellInstalled(): void {
  const lockHash = crypto.createHash('sha256').update(fs.readFileSync(path.join(shellDir, 'package-lock.json'))).digest('hex');
  const stamp = path.join(shellDir, 'node_modules/.ledgerwire-lock-sha256');
  if (fs.existsSync(stamp) && fs.readFileSync(stamp, 'utf8') === lockHash) return;
  const npm = process.platform === 'win32' ? 'npm.cmd' : 'npm';
  execFileSync(npm, ['ci', '--no-audit', '--no-fund', '--loglevel=error'], {
    cwd: shellDir,
    stdio: 'pipe',
    env: { ...process.env, ELECTRON_SKIP_BINARY_DOWNLOAD: '1' },
  });
  fs.writeFileSync(stamp, lockHash);
}

type Validate = (config: unknown, logger: unknown) => Promise<void>;
let validateConfiguration: Validate;
let newLogger: () => unknown;

beforeAll(() => {
  ensureShellInstalled();
  const shellRequire = createRequire(path.join(shellDir, 'package.json'));
  const appBuilder = path.dirname(shellRequire.resolve('electron-builder/package.json'));
  const fromBuilder = createRequire(path.join(appBuilder, 'package.json'));
  validateConfiguration = (fromBuilder('app-builder-lib/out/util/config/config.js') as { validateConfiguration: Validate }).validateConfiguration;
  const { DebugLogger } = fromBuilder('builder-util') as { DebugLogger: new (enabled: boolean) => unknown };
  newLogger = () => new DebugLogger(false);
}, 300_000);

const config = JSON.parse(fs.readFileSync(path.join(root, 'build/electron-builder.json'), 'utf8')) as Record<string, unknown>;

describe('connector installer configuration', () => {
  it('validates against electron-builder’s schema, with a Windows NSIS and a Linux AppImage target', async () => {
    await expect(validateConfiguration(config, newLogger())).resolves.toBeUndefined();
    expect(JSON.stringify(config['win'])).toContain('"nsis"');
    expect(JSON.stringify(config['linux'])).toContain('"AppImage"');
  });

  it('the validation bites: an unknown option is refused', async () => {
    await expect(validateConfiguration({ ...config, nsis: { oneClik: false } }, newLogger())).rejects.toThrow(/Invalid configuration object[\s\S]*nsis/);
  });
});

describe('connector shell types', () => {
  it('main, preload and the IPC handlers type-check against electron\'s own types', () => {
    const tsc = path.join(root, 'node_modules/typescript/bin/tsc');
    expect(() => execFileSync(process.execPath, [tsc, '-p', path.join(shellDir, 'tsconfig.json'), '--noEmit'], { cwd: root, stdio: 'pipe' })).not.toThrow();
  }, 120_000);
});

describe('connector shell bundle', () => {
  const outDir = fs.mkdtempSync(path.join(os.tmpdir(), 'lw-shell-'));
  afterAll(() => fs.rmSync(outDir, { recursive: true, force: true }));

  it('bundles main and preload with the core inside and electron external', () => {
    execFileSync(process.execPath, [path.join(root, 'build/bundle-connector.mjs'), outDir], { cwd: root, stdio: 'pipe' });
    const main = fs.readFileSync(path.join(outDir, 'main.js'), 'utf8');
    expect(main).toContain('require("electron")');
    expect(main).toContain('requestSingleInstanceLock');
    expect(main).toContain('startConnectorService');
    expect(fs.existsSync(path.join(outDir, 'preload.js'))).toBe(true);
    const manifest = JSON.parse(fs.readFileSync(path.join(outDir, 'package.json'), 'utf8'));
    expect(manifest.main).toBe('main.js');
    expect(Object.keys(manifest.dependencies)).toContain('better-sqlite3');
  });
});
