// build/node-runtime.mjs, the pinned-runtime fetcher: what it fetches must match the pin's sha512 or it
// is refused with a message saying so and nothing is cached; a good fetch is cached and reused without
// npm; a cache entry that does not match the pin is fetched again. The fetcher runs here from a copy
// in a temporary repository whose pin names a small package of this lock (semver, whose tarball holds
// an executable bin/semver.js) in place of a Node build, so the test costs one small npm pack, not
// 50 MB; the real pin is fetched and run by connector/test/sqlite-pinned-runtime.test.ts.
import { execFile } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const lock = JSON.parse(fs.readFileSync(path.join(root, 'package-lock.json'), 'utf8')) as { packages: Record<string, { version: string; integrity: string }> };
const standIn = lock.packages['node_modules/semver']!;

function repositoryWithPin(integrity: string): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'lw-node-runtime-'));
  fs.mkdirSync(path.join(dir, 'build'));
  fs.copyFileSync(path.join(root, 'build/node-runtime.mjs'), path.join(dir, 'build/node-runtime.mjs'));
  const pin = { version: standIn.version, targets: { 'linux-x64': { package: 'semver', executable: 'bin/semver.js', integrity } } };
  fs.writeFileSync(path.join(dir, 'build/node-runtime.json'), JSON.stringify(pin));
  return dir;
}

async function fetchRuntime(repository: string, env: NodeJS.ProcessEnv = process.env, target = 'linux-x64'): Promise<{ code: number; stdout: string; stderr: string }> {
  try {
    const { stdout, stderr } = await promisify(execFile)(process.execPath, [path.join(repository, 'build/node-runtime.mjs'), target], { cwd: repository, env });
    return { code: 0, stdout, stderr };
  } catch (error) {
    const failed = error as { code: number; stdout: string; stderr: string };
    return { code: failed.code, stdout: failed.stdout, stderr: failed.stderr };
  }
}

describe('the pinned-runtime fetcher', () => {
  it('fetches from the registry once, checked against the pin, and then serves its cache without npm', { timeout: 60_000 }, async () => {
    const repository = repositoryWithPin(standIn.integrity);
    const entry = path.join(repository, `node_modules/.cache/ledgerwire-node-runtime/semver-${standIn.version}`);
    const first = await fetchRuntime(repository);
    expect(first).toMatchObject({ code: 0, stdout: `${path.join(entry, 'bin/semver.js')}\n` });
    expect(first.stderr).toContain(`Fetching semver@${standIn.version} from the npm registry`);
    expect(fs.readdirSync(entry).sort()).toEqual(['.integrity', 'bin']);
    expect(fs.statSync(path.join(entry, 'bin/semver.js')).mode & 0o111).not.toBe(0);

    // No npm on the PATH: only the cache can answer.
    const cached = await fetchRuntime(repository, { ...process.env, PATH: '' });
    expect(cached).toEqual({ code: 0, stdout: first.stdout, stderr: '' });

    // A cache entry from another pin is not trusted: it is fetched again.
    fs.writeFileSync(path.join(entry, '.integrity'), 'sha512-other\n');
    const again = await fetchRuntime(repository);
    expect(again).toMatchObject({ code: 0, stdout: first.stdout });
    expect(again.stderr).toContain('Fetching');
    expect(fs.readdirSync(path.dirname(entry))).toEqual([path.basename(entry)]);
  });

  it('refuses a tarball whose sha512 is not the pinned one, and caches nothing', { timeout: 60_000 }, async () => {
    const pinned = `sha512-${Buffer.alloc(64, 7).toString('base64')}`;
    const repository = repositoryWithPin(pinned);
    const refused = await fetchRuntime(repository);
    expect(refused.code).toBe(1);
    expect(refused.stdout).toBe('');
    expect(refused.stderr).toContain(
      `semver@${standIn.version} from the npm registry has integrity ${standIn.integrity}, but build/node-runtime.json pins ${pinned}: refusing to use it.`,
    );
    expect(fs.readdirSync(path.join(repository, 'node_modules/.cache/ledgerwire-node-runtime'))).toEqual([]);
  });

  it('names the targets it knows when asked for another', async () => {
    const refused = await fetchRuntime(root, process.env, 'darwin-arm64');
    expect(refused).toMatchObject({ code: 1, stdout: '' });
    expect(refused.stderr).toContain('There is no pinned Node runtime for "darwin-arm64": use one of win-x64, linux-x64.');
  });
});

