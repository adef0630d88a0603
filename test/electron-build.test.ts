// The Electron binary cannot be downloaded on these machines, so the shell is proven by what can
// run here: its electron-builder configuration validates against electron-builder's own schema,
// and the shell bundles (main + preload + the core) with electron left external.
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import { createRequire } from 'node:module';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const require = createRequire(import.meta.url);
const { validateConfiguration } = require('app-builder-lib/out/util/config/config.js') as {
  validateConfiguration(config: unknown, logger: unknown): Promise<void>;
};
const { DebugLogger } = require('builder-util') as { DebugLogger: new (enabled: boolean) => unknown };

const config = JSON.parse(fs.readFileSync(path.join(root, 'build/electron-builder.json'), 'utf8')) as Record<string, unknown>;

describe('connector installer configuration', () => {
  it('validates against electron-builder’s schema, with a Windows NSIS and a Linux AppImage target', async () => {
    await expect(validateConfiguration(config, new DebugLogger(false))).resolves.toBeUndefined();
    expect(JSON.stringify(config['win'])).toContain('"nsis"');
    expect(JSON.stringify(config['linux'])).toContain('"AppImage"');
  });

  it('the validation bites: an unknown option is refused', async () => {
    await expect(validateConfiguration({ ...config, nsis: { oneClik: false } }, new DebugLogger(false))).rejects.toThrow(/Invalid configuration object[\s\S]*nsis/);
  });
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
