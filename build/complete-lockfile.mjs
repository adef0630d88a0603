// npm leaves optional, platform-specific packages out of package-lock.json when the registry it
// resolved against does not serve them (this project's build machines reach a partial mirror);
// `npm ci` then refuses the lock as out of sync. This adds a platform-guarded entry for each
// missing optional dependency: npm skips them on other platforms and never fetches them here.
// Usage: node build/complete-lockfile.mjs   (after any `npm install` that changes the lock)
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const lockPath = path.join(root, 'package-lock.json');
const lock = JSON.parse(fs.readFileSync(lockPath, 'utf8'));
const packages = lock.packages;

const osNames = ['android', 'darwin', 'freebsd', 'linux', 'win32', 'openharmony', 'openbsd', 'netbsd', 'sunos', 'aix'];
const cpuNames = ['arm64', 'arm', 'x64', 'ia32', 'loong64', 'ppc64', 'riscv64', 's390x', 'mips64el', 'wasm32'];

function platformOf(name) {
  const base = name.split('/').pop() ?? name;
  const parts = base.split('-');
  const os = osNames.find((o) => parts.includes(o) || (o === 'win32' && parts.includes('win32')));
  let cpu = cpuNames.find((c) => parts.includes(c));
  if (!cpu && parts.includes('eabi')) cpu = 'arm';
  if (parts.includes('gnueabihf') || parts.includes('musleabihf')) cpu = 'arm';
  const libc = parts.some((p) => p.startsWith('musl')) ? 'musl' : parts.some((p) => p.startsWith('gnu')) ? 'glibc' : undefined;
  return { os, cpu, libc };
}

let added = 0;
for (const [location, entry] of Object.entries(packages)) {
  for (const [dependency, range] of Object.entries(entry.optionalDependencies ?? {})) {
    const nested = `${location}/node_modules/${dependency}`;
    const hoisted = `node_modules/${dependency}`;
    if (packages[nested] || packages[hoisted]) continue;
    const { os, cpu, libc } = platformOf(dependency);
    if (!os || !cpu) continue; // not a platform binding: leave it to npm
    packages[hoisted] = {
      version: range.replace(/^[\^~]/, ''),
      cpu: [cpu],
      ...(entry.dev ? { dev: true } : {}),
      ...(libc ? { libc: [libc] } : {}),
      optional: true,
      os: [os],
    };
    added++;
  }
}
lock.packages = Object.fromEntries(Object.entries(packages).sort(([a], [b]) => (a === '' ? -1 : b === '' ? 1 : a.localeCompare(b))));
fs.writeFileSync(lockPath, `${JSON.stringify(lock, null, 2)}\n`);
process.stdout.write(`complete-lockfile: added ${added} platform-guarded optional entr${added === 1 ? 'y' : 'ies'}\n`);
