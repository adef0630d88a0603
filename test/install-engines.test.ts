// `npm install` on the supported Node prints no engine warnings (issue 33): every package the plain
// install brings, development tools included, accepts the Node the root package.json names. The one
// toolchain that needs a newer Node (Electron and its packaging tools) is kept out of it, in
// connector/electron-shell with its own lock (npm run shell:install), and the README says which Node
// that needs. Read from the package-lock.json files, which are what npm checks.
import fs from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

// npm's own range logic (fastify depends on semver, so it is always installed); typed here by hand.
const semver = createRequire(import.meta.url)('semver') as {
  satisfies(version: string, range: string): boolean;
  minVersion(range: string): { version: string } | null;
  rcompare(a: string, b: string): number;
};

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const read = (file: string) => JSON.parse(fs.readFileSync(path.join(root, file), 'utf8')) as Record<string, any>;

type LockedPackage = { version?: string; dev?: boolean; engines?: { node?: string } | string[] };

describe('engines', () => {
  const pkg = read('package.json');
  type Lock = { packages: Record<string, LockedPackage> };
  const lock = read('package-lock.json') as Lock;
  const shellLock = read('connector/electron-shell/package-lock.json') as Lock;
  const supported = semver.minVersion(pkg['engines'].node as string)?.version ?? '';
  const nodeRange = (entry: LockedPackage) => (Array.isArray(entry.engines) ? undefined : entry.engines?.node);
  const refusing = (version: string, packages: Lock['packages'] = lock.packages) =>
    Object.entries(packages)
      .filter(([, entry]) => nodeRange(entry) !== undefined && !semver.satisfies(version, nodeRange(entry) ?? '*'))
      .map(([name, entry]) => ({ name: name.replace(/^.*node_modules\//, ''), dev: entry.dev === true, range: nodeRange(entry) }));

  it('the root names Node 20.19 as the oldest supported', () => {
    expect(supported).toBe('20.19.0');
  });

  it('a plain install on the supported Node meets every package\'s engines, development tools included', () => {
    expect(refusing(supported)).toEqual([]);
  });

  it('the root workspaces declare no Electron package', () => {
    for (const file of ['package.json', ...(pkg['workspaces'] as string[]).map((w) => `${w}/package.json`)]) {
      const declared = read(file);
      const names = Object.keys({ ...declared['dependencies'], ...declared['devDependencies'], ...declared['optionalDependencies'] });
      expect(names.filter((name) => /^(electron|electron-builder|@electron\/)/.test(name)), file).toEqual([]);
    }
  });

  it('the shell package holds the Electron toolchain, and the README names the Node it needs', () => {
    // The shell package's own entry (location "") states the newest Node its toolchain needs.
    const newer = refusing(supported, shellLock.packages).filter((p) => p.name !== '');
    expect(newer.map((p) => p.name)).toContain('electron');
    for (const p of newer) expect(p.name, `${p.name} ${p.range}`).toMatch(/^(@electron(-internal)?\/|electron$|node-abi$)/);
    const newest = newer.map((p) => semver.minVersion(p.range ?? '*')?.version ?? '0.0.0').sort(semver.rcompare)[0];
    expect(newest).toBeDefined();
    const [major, minor] = (newest ?? '').split('.');
    for (const doc of ['README.md', 'connector/README.md']) {
      const text = fs.readFileSync(path.join(root, doc), 'utf8');
      expect(text, doc).toContain(`Node ${major}.${minor}+`);
      expect(text, doc).toContain('npm run shell:install');
    }
  });
});
