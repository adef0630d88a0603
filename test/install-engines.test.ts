// `npm install` on the supported Node prints no engine warnings (issue 33): every package a production
// install brings (`npm ci --omit=dev`) accepts the Node the root package.json names; the development
// toolchain that needs a newer Node (Electron and its packaging tools) is only that, and the README
// says so. Read from package-lock.json, which is what npm checks.
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
  const lock = read('package-lock.json') as { packages: Record<string, LockedPackage> };
  const supported = semver.minVersion(pkg['engines'].node as string)?.version ?? '';
  const nodeRange = (entry: LockedPackage) => (Array.isArray(entry.engines) ? undefined : entry.engines?.node);
  const refusing = (version: string) =>
    Object.entries(lock.packages)
      .filter(([, entry]) => nodeRange(entry) !== undefined && !semver.satisfies(version, nodeRange(entry) ?? '*'))
      .map(([name, entry]) => ({ name: name.replace(/^.*node_modules\//, ''), dev: entry.dev === true, range: nodeRange(entry) }));

  it('the root names Node 20.19 as the oldest supported', () => {
    expect(supported).toBe('20.19.0');
  });

  it('a production install on the supported Node meets every package\'s engines', () => {
    expect(refusing(supported).filter((p) => !p.dev)).toEqual([]);
  });

  it('only the Electron toolchain needs a newer Node, and the README says which', () => {
    const dev = refusing(supported);
    for (const p of dev) expect(p.name, `${p.name} ${p.range}`).toMatch(/^(@electron(-internal)?\/|electron$|node-abi$)/);
    const newest = dev.map((p) => semver.minVersion(p.range ?? '*')?.version ?? '0.0.0').sort(semver.rcompare)[0];
    if (newest === undefined) return;
    const readme = fs.readFileSync(path.join(root, 'README.md'), 'utf8');
    const [major, minor] = newest.split('.');
    expect(readme).toContain(`Node ${major}.${minor}+`);
  });
});
