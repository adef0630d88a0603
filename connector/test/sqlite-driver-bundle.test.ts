// The local store bundled as the lead's packaging bundles the connector (esbuild, better-sqlite3 left
// external), then run: under the pinned Node runtime, from a folder with no node_modules anywhere above
// it, the bundle runs on node:sqlite without ever looking for better-sqlite3 and without Node's SQLite
// ExperimentalWarning on stderr; asked for better-sqlite3 there, it says in words why it cannot. Under
// Node 20 beside this repository's node_modules, the same bundle loads better-sqlite3 lazily, through
// the CommonJS bundle's own require (import.meta is empty there) and through an ESM bundle's import.meta.url.
import { execFile } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { build } from 'esbuild';
import { describe, expect, it } from 'vitest';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const entry = path.join(root, 'connector/test/bundle/local-store-entry.ts');
const EXPECTED = { booksUrl: 'http://192.168.1.20:9000', backupFiles: ['backup.json', 'connector.db'] };

async function bundle(dir: string, format: 'cjs' | 'esm'): Promise<string> {
  const outfile = path.join(dir, format === 'cjs' ? 'connector.cjs' : 'connector.mjs');
  const result = await build({
    entryPoints: [entry],
    outfile,
    bundle: true,
    platform: 'node',
    format,
    target: 'node20',
    external: ['better-sqlite3'],
    // The CommonJS bundle's empty import.meta is expected: the driver falls back to require there.
    logOverride: { 'empty-import-meta': 'silent' },
    logLevel: 'silent',
  });
  expect(result.errors).toEqual([]);
  return outfile;
}

async function run(node: string, script: string, driver: string): Promise<{ code: number; stdout: string; stderr: string }> {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'lw-bundle-data-'));
  const env = { ...process.env, LEDGERWIRE_SQLITE_DRIVER: driver };
  try {
    const { stdout, stderr } = await promisify(execFile)(node, [script, dataDir], { cwd: path.dirname(script), env });
    return { code: 0, stdout, stderr };
  } catch (error) {
    const failed = error as { code: number; stdout: string; stderr: string };
    return { code: failed.code, stdout: failed.stdout, stderr: failed.stderr };
  }
}

async function pinnedNode(): Promise<string> {
  const { stdout } = await promisify(execFile)(process.execPath, [path.join(root, 'build/node-runtime.mjs'), 'linux-x64'], { cwd: root });
  return stdout.trim();
}

describe('the local store bundled with better-sqlite3 left out', () => {
  it('runs on node:sqlite under the pinned runtime where better-sqlite3 cannot be found, and says why when asked for it', { timeout: 120_000 }, async () => {
    const alone = fs.mkdtempSync(path.join(os.tmpdir(), 'lw-bundle-'));
    const script = await bundle(alone, 'cjs');
    const node = await pinnedNode();

    const auto = await run(node, script, 'auto');
    expect(auto).toEqual({ code: 0, stdout: `${JSON.stringify({ driver: 'node', ...EXPECTED })}\n`, stderr: '' });

    const refused = await run(node, script, 'better-sqlite3');
    expect(refused).toMatchObject({ code: 1, stdout: '' });
    expect(refused.stderr).toContain("The better-sqlite3 SQLite driver could not be loaded (Cannot find module 'better-sqlite3'");
    expect(refused.stderr).toContain('leave LEDGERWIRE_SQLITE_DRIVER unset (auto) or set it to node');
  });

  it.each(['cjs', 'esm'] as const)('loads better-sqlite3 lazily from a %s bundle beside node_modules', { timeout: 120_000 }, async (format) => {
    const cache = path.join(root, 'node_modules/.cache');
    fs.mkdirSync(cache, { recursive: true });
    const beside = fs.mkdtempSync(path.join(cache, 'lw-bundle-'));
    try {
      const script = await bundle(beside, format);
      const result = await run(process.execPath, script, 'better-sqlite3');
      expect(result).toEqual({ code: 0, stdout: `${JSON.stringify({ driver: 'better-sqlite3', ...EXPECTED })}\n`, stderr: '' });
    } finally {
      fs.rmSync(beside, { recursive: true, force: true });
    }
  });
});
